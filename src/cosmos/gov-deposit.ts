/**
 * The governance precompile's `deposit` and `cancelProposal`. `deposit`: more tokens on a proposal while it is voted on, as
 * x/gov's `AddDeposit` takes them (the Cosmos SDK accepts deposits in the voting period as well as
 * the deposit period; this chain has no deposit period). Its checks in x/gov's order and words:
 * valid positive coins, the proposal known and active, the gov denomination, at least
 * `min_deposit_ratio` (1%) of the minimum deposit, a spendable balance. Each depositor's record is
 * refunded at the end of the voting period, or burned with the rest on a veto (gov-state.ts).
 * `cancelProposal` as x/gov's `CancelProposal` (Cosmos SDK 0.50): only the proposer, only while
 * the proposal is voted on; `proposal_cancel_ratio` (0.5) of each deposit burned (its
 * `proposal_cancel_dest` is empty), the rest refunded; the proposal and its votes deleted.
 */
import { word } from '../hex.js'
import { toBech32 } from './bech32.js'
import { encode } from './abi.js'
import { COINS, GOV_POOL, GovState, knownProposal, MIN_DEPOSIT, VOTING } from './gov-state.js'
import type { CosmosSettings } from './options.js'
import { addressTopic, PrecompileRevert, type PrecompileMethod } from './precompile.js'
import { slot } from './staking-state.js'
import { requester } from './staking-rules.js'

/** x/gov's default `proposal_cancel_ratio` (0.5), in per cent. */
const CANCEL_RATIO_PERCENT = 50n

/** x/gov's default `min_deposit_ratio`: a deposit must be at least 1% of the minimum deposit. */
const MIN_DEPOSIT_RATIO_PERCENT = 1n

/** Coins as Cosmos prints them (`sdk.Coins.String()`): amount and denomination, comma-separated. */
const printed = (coins: ReadonlyArray<[string, bigint]>): string => coins.map(([denom, amount]) => `${amount}${denom}`).join(',')

/** `deposit(depositor, proposalId, amount)`. */
export function deposit(settings: CosmosSettings): PrecompileMethod {
  return {
    signature: `deposit(address,uint64,${COINS})`,
    outputs: ['bool'],
    write: true,
    gas: 50_000n,
    async run([depositor, proposalId, amount], call) {
      const who = depositor as Uint8Array
      const id = proposalId as bigint
      requester(call, who)
      const coins = amount as Array<[string, bigint]>
      // sdk.Coins validity: sorted, distinct denominations, every amount positive.
      const denoms = coins.map(([denom]) => denom)
      const valid = coins.length > 0 && coins.every(([, a]) => a > 0n) && denoms.every((d, i) => i === 0 || (denoms[i - 1] as string) < d)
      if (!valid) throw new PrecompileRevert(`${printed(coins)}: invalid coins`)
      const gov = new GovState(call.state)
      await knownProposal(gov, id)
      if ((await gov.get(slot('gov.status', id))) !== VOTING) throw new PrecompileRevert(`${id}: inactive proposal`)
      if (denoms.some((d) => d !== settings.denom)) {
        throw new PrecompileRevert(`deposited ${printed(coins)}, but gov accepts only the following denom(s): [${settings.denom}]: invalid deposit denom`)
      }
      const value = (coins[0] as [string, bigint])[1]
      const threshold = (MIN_DEPOSIT * MIN_DEPOSIT_RATIO_PERCENT) / 100n
      if (value < threshold) {
        throw new PrecompileRevert(`received ${printed(coins)} but need at least one of the following: ${threshold}${settings.denom}: minimum deposit is too small`)
      }
      if (!(await gov.staking.transfer(who, GOV_POOL.bytes, value))) {
        throw new PrecompileRevert(`spendable balance ${await gov.staking.balance(who)}${settings.denom} is smaller than ${value}${settings.denom}: insufficient funds`)
      }
      await gov.addDeposit(id, who, value)
      return { values: [true], events: [{ signature: 'Deposit(address,uint64,(string,uint256)[])', topics: [addressTopic(who)], data: encode(['uint64', COINS], [id, coins]) }] }
    },
  }
}

/** `cancelProposal(proposer, proposalId)`. */
export function cancelProposal(settings: CosmosSettings): PrecompileMethod {
  return {
    signature: 'cancelProposal(address,uint64)',
    outputs: ['bool'],
    write: true,
    gas: 50_000n,
    async run([proposer, proposalId], call) {
      const who = proposer as Uint8Array
      const id = proposalId as bigint
      requester(call, who)
      const gov = new GovState(call.state)
      await knownProposal(gov, id)
      const owner = word(await gov.get(slot('gov.proposer', id))).subarray(12)
      if (Buffer.compare(owner, who) !== 0) throw new PrecompileRevert(`invalid proposer ${toBech32(settings.bech32Prefix, who)}`)
      if ((await gov.get(slot('gov.status', id))) !== VOTING) throw new PrecompileRevert('proposal should be in the deposit or voting period')
      // x/gov's ChargeDeposit: each deposit's burn share truncated, the rest back to its depositor.
      let burned = 0n
      for (const depositor of await gov.depositors(id)) {
        const amount = await gov.depositOf(id, depositor)
        const burn = (amount * CANCEL_RATIO_PERCENT) / 100n
        burned += burn
        if (amount - burn > 0n) await gov.staking.transfer(GOV_POOL.bytes, depositor, amount - burn)
        await gov.put(slot('gov.deposit.of', id, depositor), 0n)
      }
      if (burned > 0n) await gov.staking.burn(GOV_POOL.bytes, burned)
      for (const voter of await gov.voters(id)) await gov.clearVote(id, voter)
      await gov.put(slot('gov.depositors.n', id), 0n)
      await gov.put(slot('gov.voters.n', id), 0n)
      await gov.put(slot('gov.status', id), 0n)
      return { values: [true], events: [{ signature: 'CancelProposal(address,uint64)', topics: [addressTopic(who)], data: encode(['uint64'], [id]) }] }
    },
  }
}
