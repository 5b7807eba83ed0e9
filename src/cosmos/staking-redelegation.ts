/**
 * The staking precompile's redelegation methods: `redelegate` (Cosmos's `BeginRedelegation`: the
 * shares leave the source validator and buy the destination's at once, so both powers change in
 * the same EndBlock; an entry keeps the moved tokens slashable for the source's infractions until
 * the unbonding blocks pass), `cancelUnbondingDelegation` (an unbonding entry's tokens bonded
 * again to its validator), and the `redelegation` / `redelegations` queries. Checks run in
 * Cosmos's order and revert with its reasons.
 */
import { data } from '../hex.js'
import type { AbiValue } from './abi.js'
import { encode } from './abi.js'
import { toBech32 } from './bech32.js'
import { DistributionState } from './distribution-state.js'
import type { CosmosSettings } from './options.js'
import { addressTopic, PrecompileRevert, type PrecompileMethod } from './precompile.js'
import { MAX_ENTRIES, RedelegationState, type RedelegationEntry, type RedelegationKey } from './redelegation-state.js'
import { bondedPower, positive, requester, sharesFor, unbondShares, validatorNamed, valoperBytes } from './staking-rules.js'
import { BONDED_POOL, NOT_BONDED_POOL, StakingState, type ValidatorRecord } from './staking-state.js'

const ENTRY = '(int64,int64,uint256,uint256)'
const PAGE_REQUEST = '(bytes,uint64,uint64,bool,bool)'
const equal = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0
const ZERO = new Uint8Array(20)

/** The redelegation methods of the staking precompile. */
export function redelegationMethods(settings: CosmosSettings): PrecompileMethod[] {
  const account = (a: Uint8Array) => toBech32(settings.bech32Prefix, a)
  const valoper = (a: Uint8Array) => toBech32(`${settings.bech32Prefix}valoper`, a)
  const entryValue = (e: RedelegationEntry): AbiValue[] => [e.creationHeight, e.completionHeight, e.initialBalance, e.sharesDst]
  return [
    {
      signature: 'redelegate(address,string,string,uint256)',
      outputs: ['int64'],
      write: true,
      gas: 80_000n,
      async run([delegator, srcText, dstText, amount], call) {
        const staking = new StakingState(call.state)
        const redelegations = new RedelegationState(call.state)
        const d = delegator as Uint8Array
        const value = amount as bigint
        requester(call, d)
        positive(value)
        const src = await validatorNamed(staking, settings, srcText as string)
        const shares = unbondShares(src, await staking.delegationShares(d, src.address), value)
        const dstAddress = valoperBytes(settings, dstText as string)
        if (equal(src.address, dstAddress)) throw new PrecompileRevert('cannot redelegate to the same validator')
        const dst = await staking.validator(dstAddress)
        if (dst === undefined) throw new PrecompileRevert('redelegation destination validator not found')
        if (await redelegations.receiving(d, src.address)) {
          throw new PrecompileRevert('redelegation to this validator already in progress; first redelegation to this validator must complete before next redelegation')
        }
        const key: RedelegationKey = { delegator: d, src: src.address, dst: dst.address }
        const entries = await redelegations.entries(key)
        if (entries.length >= MAX_ENTRIES) throw new PrecompileRevert('too many redelegation entries for (delegator, src-validator, dst-validator) tuple')
        const tokens = (shares * src.tokens) / src.shares
        if (tokens === 0n) throw new PrecompileRevert('too few tokens to redelegate (truncates to zero tokens)')
        const changed = [
          { address: src.address, tokens: src.tokens - tokens },
          { address: dst.address, tokens: dst.tokens + tokens },
        ]
        if ((await bondedPower(staking, settings, changed)) === 0n) {
          throw new PrecompileRevert('the redelegation would leave no bonded voting power: the validator set cannot be empty')
        }
        // Cosmos's hooks pay both delegations' rewards before their shares change.
        const distribution = new DistributionState(call.state)
        await distribution.withdraw(d, src.address)
        await distribution.withdraw(d, dst.address)
        await staking.putValidator({ ...src, tokens: src.tokens - tokens, shares: src.shares - shares })
        await staking.putDelegationShares(d, src.address, (await staking.delegationShares(d, src.address)) - shares)
        const sharesDst = sharesFor(dst, tokens)
        await staking.putValidator({ ...dst, tokens: dst.tokens + tokens, shares: dst.shares + sharesDst })
        await staking.putDelegationShares(d, dst.address, (await staking.delegationShares(d, dst.address)) + sharesDst)
        // From an unbonded (here: jailed) validator nothing is at stake: it completes now, no entry.
        let completion = call.blockNumber
        if (!src.jailed) {
          completion = call.blockNumber + settings.unbondingBlocks
          await redelegations.putEntries(key, [...entries, { creationHeight: call.blockNumber, completionHeight: completion, initialBalance: tokens, sharesDst }])
        }
        return {
          values: [completion],
          events: [{
            signature: 'Redelegate(address,address,address,uint256,uint256)',
            topics: [addressTopic(d), addressTopic(src.address), addressTopic(dst.address)],
            data: encode(['uint256', 'uint256'], [value, completion]),
          }],
        }
      },
    },
    {
      signature: 'cancelUnbondingDelegation(address,string,uint256,uint256)',
      outputs: ['bool'],
      write: true,
      gas: 60_000n,
      async run([delegator, validatorText, amount, creationHeight], call) {
        const staking = new StakingState(call.state)
        const d = delegator as Uint8Array
        const value = amount as bigint
        const height = creationHeight as bigint
        requester(call, d)
        positive(value)
        if (height <= 0n || height >= 2n ** 63n) throw new PrecompileRevert('invalid height')
        const v: ValidatorRecord = await validatorNamed(staking, settings, validatorText as string)
        if (v.jailed) throw new PrecompileRevert('validator for this address is currently jailed')
        const entries = await staking.unbonding(d, v.address)
        if (entries.length === 0) {
          throw new PrecompileRevert(`unbonding delegation with delegator ${account(d)} not found for validator ${validatorText as string}`)
        }
        const index = entries.findIndex((e) => e.creationHeight === height)
        if (index < 0) throw new PrecompileRevert(`unbonding delegation entry is not found at block height ${height}`)
        const entry = entries[index]!
        if (entry.balance < value) throw new PrecompileRevert('amount is greater than the unbonding delegation entry balance')
        await new DistributionState(call.state).withdraw(d, v.address)
        const shares = sharesFor(v, value)
        await staking.putValidator({ ...v, tokens: v.tokens + value, shares: v.shares + shares })
        await staking.putDelegationShares(d, v.address, (await staking.delegationShares(d, v.address)) + shares)
        await staking.transfer(NOT_BONDED_POOL.bytes, BONDED_POOL.bytes, value)
        const left = entry.balance - value
        const updated = left === 0n
          ? entries.filter((_, i) => i !== index)
          : entries.map((e, i) => (i === index ? { ...e, balance: left, initialBalance: e.initialBalance - value } : e))
        await staking.putUnbonding(d, v.address, updated)
        return {
          values: [true],
          events: [{
            signature: 'CancelUnbondingDelegation(address,address,uint256,uint256)',
            topics: [addressTopic(d), addressTopic(v.address)],
            data: encode(['uint256', 'uint256'], [value, height]),
          }],
        }
      },
    },
    {
      signature: 'redelegation(address,string,string)',
      outputs: [`(string,string,string,${ENTRY}[])`],
      write: false,
      gas: 4_000n,
      async run([delegator, srcText, dstText], call) {
        const d = delegator as Uint8Array
        if (equal(d, ZERO)) throw new PrecompileRevert(`invalid delegator address: ${data(d)}`)
        const key = { delegator: d, src: valoperBytes(settings, srcText as string), dst: valoperBytes(settings, dstText as string) }
        const entries = await new RedelegationState(call.state).entries(key)
        // None found: Cosmos EVM answers the empty redelegation.
        if (entries.length === 0) return { values: [['', '', '', []]] }
        return { values: [[account(d), valoper(key.src), valoper(key.dst), entries.map(entryValue)]] }
      },
    },
    {
      signature: `redelegations(address,string,string,${PAGE_REQUEST})`,
      outputs: [`((string,string,string,${ENTRY}[]),(${ENTRY},uint256)[])[]`, '(bytes,uint64)'],
      write: false,
      gas: 8_000n,
      async run([delegator, srcText, dstText, page], call) {
        const d = delegator as Uint8Array
        const srcGiven = (srcText as string) !== ''
        if (equal(d, ZERO) && !srcGiven) throw new PrecompileRevert('invalid query. Need to specify at least a source validator address or delegator address')
        const src = srcGiven ? valoperBytes(settings, srcText as string) : undefined
        const dst = (dstText as string) !== '' ? valoperBytes(settings, dstText as string) : undefined
        const state = new RedelegationState(call.state)
        const staking = new StakingState(call.state)
        const matching = (await state.keys()).filter(
          (k) => (equal(d, ZERO) || equal(k.delegator, d)) && (src === undefined || equal(k.src, src)) && (dst === undefined || equal(k.dst, dst)),
        )
        const [, offset, limit, countTotal] = page as [Uint8Array, bigint, bigint, boolean, boolean]
        const from = Number(offset > BigInt(matching.length) ? BigInt(matching.length) : offset)
        const size = limit === 0n ? 100 : Number(limit > 1000n ? 1000n : limit)
        const rows: AbiValue[] = []
        for (const k of matching.slice(from, from + size)) {
          const entries = await state.entries(k)
          const target = await staking.validator(k.dst)
          // An entry's balance: its destination shares at the destination's rate now.
          const balance = (e: RedelegationEntry) => (target === undefined || target.shares === 0n ? 0n : (e.sharesDst * target.tokens) / target.shares)
          rows.push([[account(k.delegator), valoper(k.src), valoper(k.dst), entries.map(entryValue)], entries.map((e) => [entryValue(e), balance(e)])])
        }
        return { values: [rows, [new Uint8Array(0), countTotal ? BigInt(matching.length) : 0n]] }
      },
    },
  ]
}
