/**
 * The distribution precompile's withdraw address, validator rewards pool deposit and slash
 * event query (Cosmos's `MsgSetWithdrawAddress`, `MsgDepositValidatorRewardsPool`,
 * `ValidatorSlashes`), with Cosmos's checks and reasons.
 */
import { encode, type AbiValue } from './abi.js'
import { Bech32Error, fromBech32, toBech32 } from './bech32.js'
import { DEC, DISTRIBUTION_POOL, DistributionState } from './distribution-state.js'
import { GOV_POOL } from './gov-state.js'
import type { CosmosSettings } from './options.js'
import { addressTopic, PrecompileRevert, type PrecompileMethod } from './precompile.js'
import { requester, validatorNamed, valoperBytes } from './staking-rules.js'
import { BONDED_POOL, NOT_BONDED_POOL } from './staking-state.js'

const PAGE_REQUEST = '(bytes,uint64,uint64,bool,bool)'

/** The module accounts Cosmos's bank refuses as a recipient of external funds. */
const BLOCKED = [BONDED_POOL, NOT_BONDED_POOL, DISTRIBUTION_POOL, GOV_POOL].map((a) => a.bytes)

/** The distribution methods beyond rewards and commission. */
export function distributionExtraMethods(settings: CosmosSettings): PrecompileMethod[] {
  /** A withdraw address as Cosmos EVM takes it: hex (converted) or a bech32 account address. */
  const accountBytes = (text: string): Uint8Array => {
    if (/^(0x)?[0-9a-fA-F]{40}$/.test(text)) return Buffer.from(text.replace(/^0x/, ''), 'hex')
    try {
      const { prefix, bytes } = fromBech32(text)
      if (prefix !== settings.bech32Prefix) throw new PrecompileRevert(`invalid withdraw address: invalid Bech32 prefix; expected ${settings.bech32Prefix}, got ${prefix}`)
      return bytes
    } catch (error) {
      if (error instanceof Bech32Error) throw new PrecompileRevert(`invalid withdraw address: decoding bech32 failed: ${error.message}`)
      throw error
    }
  }
  return [
    {
      signature: 'setWithdrawAddress(address,string)',
      outputs: ['bool'],
      write: true,
      gas: 30_000n,
      async run([delegator, withdrawer], call) {
        const who = delegator as Uint8Array
        requester(call, who)
        const to = accountBytes(withdrawer as string)
        const text = toBech32(settings.bech32Prefix, to)
        if (BLOCKED.some((b) => Buffer.compare(b, to) === 0)) throw new PrecompileRevert(`${text} is not allowed to receive external funds: unauthorized`)
        await new DistributionState(call.state).setWithdrawAddress(who, to)
        return { values: [true], events: [{ signature: 'SetWithdrawerAddress(address,string)', topics: [addressTopic(who)], data: encode(['string'], [text]) }] }
      },
    },
    {
      signature: 'depositValidatorRewardsPool(address,string,(string,uint256)[])',
      outputs: ['bool'],
      write: true,
      gas: 40_000n,
      async run([depositor, validatorText, amount], call) {
        const who = depositor as Uint8Array
        requester(call, who)
        const d = new DistributionState(call.state)
        const v = await validatorNamed(d.staking, settings, validatorText as string)
        const events = []
        for (const [denom, value] of amount as Array<[string, bigint]>) {
          if (denom !== settings.denom) throw new PrecompileRevert(`invalid denom ${denom}: the one coin here is ${settings.denom}`)
          if (value <= 0n) throw new PrecompileRevert(`invalid amount: ${value}${denom}: amount must be positive`)
          if (!(await d.staking.transfer(who, DISTRIBUTION_POOL.bytes, value))) {
            throw new PrecompileRevert(`spendable balance ${await d.staking.balance(who)}${settings.denom} is smaller than ${value}${settings.denom}: insufficient funds`)
          }
          await d.allocateToValidator(v.address, value * DEC)
          events.push({ signature: 'DepositValidatorRewardsPool(address,address,string,uint256)', topics: [addressTopic(who), addressTopic(v.address)], data: encode(['string', 'uint256'], [denom, value]) })
        }
        return { values: [true], events }
      },
    },
    {
      signature: `validatorSlashes(string,uint64,uint64,${PAGE_REQUEST})`,
      outputs: ['(uint64,(uint256,uint8))[]', '(bytes,uint64)'],
      write: false,
      gas: 6_000n,
      async run([validatorText, starting, ending, page], call) {
        const validator = valoperBytes(settings, validatorText as string)
        const [from, to] = [starting as bigint, ending as bigint]
        if (to < from) throw new PrecompileRevert(`starting height greater than ending height (${from} > ${to})`)
        const all = (await new DistributionState(call.state).slashes(validator)).filter((s) => s.height >= from && s.height <= to)
        const [, offset, limit, countTotal] = page as [Uint8Array, bigint, bigint, boolean, boolean]
        const start = Number(offset > BigInt(all.length) ? BigInt(all.length) : offset)
        const size = limit === 0n ? 100 : Number(limit > 1000n ? 1000n : limit)
        const rows: AbiValue[] = all.slice(start, start + size).map((s) => [s.period, [s.fraction, 18n]])
        return { values: [rows, [new Uint8Array(0), countTotal ? BigInt(all.length) : 0n]] }
      },
    },
  ]
}
