/**
 * Cosmos EVM's staking precompile (0x…0800, `StakingI`): delegations and undelegations against
 * the chain's validators, whose voting power follows their bonded tokens (one unit of power per
 * 10^18 tokens, Cosmos EVM's power reduction). What Cosmos does at a time (an undelegation's
 * completion) happens here at a block height: `completionTime` answers that height.
 */
import { checksumAddress as checksum } from '../crypto/checksum.js'
import { data } from '../hex.js'
import type { AbiValue } from './abi.js'
import { encode } from './abi.js'
import { toBech32 } from './bech32.js'
import type { CosmosSettings } from './options.js'
import { addressTopic, PrecompileRevert, refused, tablePrecompile, type PrecompileMethod } from './precompile.js'
import { DistributionState } from './distribution-state.js'
import { redelegationMethods } from './staking-redelegation.js'
import { bondedPower, positive, requester, sharesFor, unbondShares, validatorNamed } from './staking-rules.js'
import { BONDED_POOL, NOT_BONDED_POOL, StakingState, type ValidatorRecord } from './staking-state.js'

/** Bond statuses as Cosmos numbers them (`BondStatus`). */
const UNBONDED = 1n
const BONDED = 3n

const VALIDATOR = '(string,string,bool,uint8,uint256,uint256,(string,string,string,string,string),int64,int64,uint256,uint256)'
const UNBONDING_OUTPUT = '(string,string,(int64,int64,uint256,uint256,uint64,int64)[])'
const PAGE_REQUEST = '(bytes,uint64,uint64,bool,bool)'

/** What the staking precompile needs of the node beyond the state. */
export interface StakingContext {
  readonly settings: CosmosSettings
  /** A validator's ed25519 consensus key, by address. */
  readonly consensusKey: (address: Uint8Array) => Uint8Array | undefined
}

/** A validator as `StakingI.Validator`. */
function validatorValue(v: ValidatorRecord, key: Uint8Array | undefined): AbiValue[] {
  return [
    checksum(data(v.address)),
    key === undefined ? '' : Buffer.from(key).toString('base64'),
    v.jailed,
    v.jailed ? UNBONDED : BONDED,
    v.tokens,
    v.shares,
    [data(v.address), '', '', '', ''],
    0n,
    0n,
    0n,
    0n,
  ]
}

/** The staking precompile's methods. */
export function stakingPrecompile(ctx: StakingContext) {
  const { settings } = ctx
  const methods: PrecompileMethod[] = [
    {
      signature: 'delegate(address,string,uint256)',
      outputs: ['bool'],
      write: true,
      gas: 60_000n,
      async run([delegator, validatorText, amount], call) {
        const staking = new StakingState(call.state)
        const d = delegator as Uint8Array
        const value = amount as bigint
        requester(call, d)
        positive(value)
        const v = await validatorNamed(staking, settings, validatorText as string)
        const shares = sharesFor(v, value)
        if (!(await staking.transfer(d, BONDED_POOL.bytes, value))) {
          throw new PrecompileRevert(`spendable balance ${await staking.balance(d)}${settings.denom} is smaller than ${value}${settings.denom}: insufficient funds`)
        }
        // Cosmos's hooks: a delegation's rewards are paid out before its shares change.
        await new DistributionState(call.state).withdraw(d, v.address)
        await staking.putValidator({ ...v, tokens: v.tokens + value, shares: v.shares + shares })
        await staking.putDelegationShares(d, v.address, (await staking.delegationShares(d, v.address)) + shares)
        return {
          values: [true],
          events: [{ signature: 'Delegate(address,address,uint256,uint256)', topics: [addressTopic(d), addressTopic(v.address)], data: encode(['uint256', 'uint256'], [value, shares]) }],
        }
      },
    },
    {
      signature: 'undelegate(address,string,uint256)',
      outputs: ['int64'],
      write: true,
      gas: 60_000n,
      async run([delegator, validatorText, amount], call) {
        const staking = new StakingState(call.state)
        const d = delegator as Uint8Array
        const value = amount as bigint
        requester(call, d)
        positive(value)
        const v = await validatorNamed(staking, settings, validatorText as string)
        const held = await staking.delegationShares(d, v.address)
        const shares = unbondShares(v, held, value)
        const tokens = (shares * v.tokens) / v.shares
        if ((await bondedPower(staking, settings, [{ address: v.address, tokens: v.tokens - tokens }])) === 0n) {
          throw new PrecompileRevert('the undelegation would leave no bonded voting power: the validator set cannot be empty')
        }
        const completion = call.blockNumber + settings.unbondingBlocks
        await new DistributionState(call.state).withdraw(d, v.address)
        await staking.putValidator({ ...v, tokens: v.tokens - tokens, shares: v.shares - shares })
        await staking.putDelegationShares(d, v.address, held - shares)
        await staking.transfer(BONDED_POOL.bytes, NOT_BONDED_POOL.bytes, tokens)
        const entries = await staking.unbonding(d, v.address)
        await staking.putUnbonding(d, v.address, [...entries, { creationHeight: call.blockNumber, completionHeight: completion, initialBalance: tokens, balance: tokens }])
        return {
          values: [completion],
          events: [{ signature: 'Unbond(address,address,uint256,uint256)', topics: [addressTopic(d), addressTopic(v.address)], data: encode(['uint256', 'uint256'], [tokens, completion]) }],
        }
      },
    },
    {
      signature: 'delegation(address,string)',
      outputs: ['uint256', '(string,uint256)'],
      write: false,
      gas: 4_000n,
      async run([delegator, validatorText], call) {
        const staking = new StakingState(call.state)
        const v = await validatorNamed(staking, settings, validatorText as string)
        const shares = await staking.delegationShares(delegator as Uint8Array, v.address)
        return { values: [shares, [settings.denom, v.shares === 0n ? 0n : (shares * v.tokens) / v.shares]] }
      },
    },
    {
      signature: 'unbondingDelegation(address,string)',
      outputs: [UNBONDING_OUTPUT],
      write: false,
      gas: 4_000n,
      async run([delegator, validatorText], call) {
        const staking = new StakingState(call.state)
        const v = await validatorNamed(staking, settings, validatorText as string)
        const entries = await staking.unbonding(delegator as Uint8Array, v.address)
        if (entries.length === 0) return { values: [['', '', []]] }
        return {
          values: [[
            toBech32(settings.bech32Prefix, delegator as Uint8Array),
            toBech32(`${settings.bech32Prefix}valoper`, v.address),
            entries.map((e) => [e.creationHeight, e.completionHeight, e.initialBalance, e.balance, 0n, 0n]),
          ]],
        }
      },
    },
    {
      signature: 'validator(address)',
      outputs: [VALIDATOR],
      write: false,
      gas: 4_000n,
      async run([address], call) {
        const v = await new StakingState(call.state).validator(address as Uint8Array)
        // An unknown validator answers the empty validator, as Cosmos EVM's query does.
        if (v === undefined) return { values: [['', '', false, 0n, 0n, 0n, ['', '', '', '', ''], 0n, 0n, 0n, 0n]] }
        return { values: [validatorValue(v, ctx.consensusKey(v.address))] }
      },
    },
    {
      signature: `validators(string,${PAGE_REQUEST})`,
      outputs: [`${VALIDATOR}[]`, '(bytes,uint64)'],
      write: false,
      gas: 8_000n,
      async run([status, page], call) {
        const wanted = status as string
        const known = ['', 'BOND_STATUS_BONDED', 'BOND_STATUS_UNBONDED', 'BOND_STATUS_UNBONDING', 'BOND_STATUS_UNSPECIFIED']
        if (!known.includes(wanted)) throw new PrecompileRevert(`invalid validator status ${wanted}`)
        const staking = new StakingState(call.state)
        const all: ValidatorRecord[] = []
        for (const a of await staking.validatorAddresses()) all.push((await staking.validator(a)) as ValidatorRecord)
        const matching = all.filter((v) => wanted === '' || (wanted === 'BOND_STATUS_BONDED' ? !v.jailed : wanted === 'BOND_STATUS_UNBONDED' && v.jailed))
        const [, offset, limit, countTotal] = page as [Uint8Array, bigint, bigint, boolean, boolean]
        const from = Number(offset > BigInt(matching.length) ? BigInt(matching.length) : offset)
        const size = limit === 0n ? 100 : Number(limit > 1000n ? 1000n : limit)
        const pageItems = matching.slice(from, from + size)
        return { values: [pageItems.map((v) => validatorValue(v, ctx.consensusKey(v.address))), [new Uint8Array(0), countTotal ? BigInt(matching.length) : 0n]] }
      },
    },
    refused(
      'createValidator((string,string,string,string,string),(uint256,uint256,uint256),uint256,address,string,uint256)',
      ['bool'],
      'createValidator: a validator here must be one of the node\'s in-process validators, whose keys the node holds; add one with finality_changeValidators',
    ),
    refused('editValidator((string,string,string,string,string),address,int256,int256)', ['bool'], 'editValidator: validators here have no description or commission to edit'),
    ...redelegationMethods(settings),
  ]
  return tablePrecompile('0000000000000000000000000000000000000800', methods)
}
