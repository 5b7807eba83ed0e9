/**
 * The governance module's state (in the staking precompile's storage, beside the rest): text
 * proposals, their votes and deposit, the tally EndBlock makes when a voting period ends, and the
 * answers the precompile's queries share.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { Address } from '@ethereumjs/util'
import type { StateManagerInterface } from '@ethereumjs/common'
import { toBigInt, unpadded, word } from '../hex.js'
import type { AbiValue } from './abi.js'
import type { CosmosSettings } from './options.js'
import { PrecompileRevert } from './precompile.js'
import { slot, STAKING_ADDRESS, StakingState } from './staking-state.js'

/** Cosmos's `gov` module account: it holds the deposits. */
export const GOV_POOL = new Address(sha256(new TextEncoder().encode('gov')).subarray(0, 20))
/** The minimum deposit: 1 token (10^18 of the denomination). */
export const MIN_DEPOSIT = 10n ** 18n
export const VOTING = 2n
const PASSED = 3n
const REJECTED = 4n
const DEC = 10n ** 18n
const QUORUM = 334n * 10n ** 15n
const THRESHOLD = 5n * 10n ** 17n
const VETO = 334n * 10n ** 15n

export class GovState {
  readonly staking: StakingState
  constructor(private readonly state: StateManagerInterface) {
    this.staking = new StakingState(state)
  }

  async get(key: Uint8Array): Promise<bigint> {
    const v = await this.state.getStorage(STAKING_ADDRESS, key)
    return v.length === 0 ? 0n : toBigInt(v)
  }

  async put(key: Uint8Array, value: bigint): Promise<void> {
    await this.state.putStorage(STAKING_ADDRESS, key, unpadded(value))
  }

  async putText(base: Uint8Array, text: string): Promise<void> {
    const bytes = new TextEncoder().encode(text)
    await this.put(base, BigInt(bytes.length))
    for (let i = 0; i * 32 < bytes.length; i++) {
      const chunk = new Uint8Array(32)
      chunk.set(bytes.subarray(i * 32, i * 32 + 32))
      await this.state.putStorage(STAKING_ADDRESS, word(toBigInt(base) + 1n + BigInt(i)), unpadded(toBigInt(chunk)))
    }
  }

  async text(base: Uint8Array): Promise<string> {
    const length = Number(await this.get(base))
    const out = new Uint8Array(Math.ceil(length / 32) * 32)
    for (let i = 0; i * 32 < length; i++) out.set(word(await this.get(word(toBigInt(base) + 1n + BigInt(i)))), i * 32)
    return new TextDecoder().decode(out.subarray(0, length))
  }

  /** A voter's power: its delegated tokens with bonded validators. */
  async power(voter: Uint8Array): Promise<bigint> {
    let total = 0n
    for (const a of await this.staking.validatorAddresses()) {
      const v = await this.staking.validator(a)
      if (v === undefined || v.jailed || v.shares === 0n) continue
      total += ((await this.staking.delegationShares(voter, a)) * v.tokens) / v.shares
    }
    return total
  }

  async bonded(): Promise<bigint> {
    let total = 0n
    for (const a of await this.staking.validatorAddresses()) {
      const v = await this.staking.validator(a)
      if (v !== undefined && !v.jailed) total += v.tokens
    }
    return total
  }

  /** The depositors of proposal `id`, in the order they first deposited. */
  async depositors(id: bigint): Promise<Uint8Array[]> {
    const n = await this.get(slot('gov.depositors.n', id))
    const out: Uint8Array[] = []
    for (let i = 0n; i < n; i++) out.push(word(await this.get(slot('gov.depositors', id, i))).subarray(12))
    return out
  }

  /** What `who` has deposited on proposal `id`. */
  depositOf(id: bigint, who: Uint8Array): Promise<bigint> {
    return this.get(slot('gov.deposit.of', id, who))
  }

  /** Records a deposit (the tokens already sent to the gov pool): the depositor's and the proposal's total. */
  async addDeposit(id: bigint, who: Uint8Array, amount: bigint): Promise<void> {
    const had = await this.depositOf(id, who)
    if (had === 0n) {
      const n = await this.get(slot('gov.depositors.n', id))
      await this.put(slot('gov.depositors', id, n), toBigInt(who))
      await this.put(slot('gov.depositors.n', id), n + 1n)
    }
    await this.put(slot('gov.deposit.of', id, who), had + amount)
    await this.put(slot('gov.deposit', id), (await this.get(slot('gov.deposit', id))) + amount)
  }

  /** A voter's options with their weights (18-decimal integers) and the weights as the voter wrote them; none when it has not voted. */
  async voteOptions(id: bigint, voter: Uint8Array): Promise<WeightedOption[]> {
    const n = await this.get(slot('gov.vote.n', id, voter))
    const out: WeightedOption[] = []
    for (let i = 0n; i < n; i++) {
      out.push({ option: await this.get(slot('gov.vote.option', id, voter, i)), weight: await this.get(slot('gov.vote.weight', id, voter, i)), text: await this.text(slot('gov.vote.text', id, voter, i)) })
    }
    return out
  }

  /** The voters of proposal `id`, in the order they first voted. */
  async voters(id: bigint): Promise<Uint8Array[]> {
    const n = await this.get(slot('gov.voters.n', id))
    const out: Uint8Array[] = []
    for (let i = 0n; i < n; i++) out.push(word(await this.get(slot('gov.voters', id, i))).subarray(12))
    return out
  }

  /** Deletes a voter's vote (a cancelled proposal's). */
  async clearVote(id: bigint, voter: Uint8Array): Promise<void> {
    await this.put(slot('gov.vote', id, voter), 0n)
    await this.put(slot('gov.vote.n', id, voter), 0n)
  }

  /** Records (or replaces) a voter's vote on proposal `id`. */
  async putVote(id: bigint, voter: Uint8Array, options: readonly WeightedOption[]): Promise<void> {
    if ((await this.get(slot('gov.vote', id, voter))) === 0n) {
      const n = await this.get(slot('gov.voters.n', id))
      await this.put(slot('gov.voters', id, n), toBigInt(voter))
      await this.put(slot('gov.voters.n', id), n + 1n)
    }
    // `gov.vote` marks a voter (its first option); the options follow it.
    await this.put(slot('gov.vote', id, voter), (options[0] as WeightedOption).option)
    await this.put(slot('gov.vote.n', id, voter), BigInt(options.length))
    for (const [i, o] of options.entries()) {
      await this.put(slot('gov.vote.option', id, voter, BigInt(i)), o.option)
      await this.put(slot('gov.vote.weight', id, voter, BigInt(i)), o.weight)
      await this.putText(slot('gov.vote.text', id, voter, BigInt(i)), o.text)
    }
  }

  /**
   * The tally of proposal `id`: yes, abstain, no, veto (tokens). Each voter's power is split by
   * its weights, summed as decimals and truncated at the end, as x/gov's tally does.
   */
  async tally(id: bigint): Promise<bigint[]> {
    const sums = [0n, 0n, 0n, 0n]
    const n = await this.get(slot('gov.voters.n', id))
    for (let i = 0n; i < n; i++) {
      const voter = word(await this.get(slot('gov.voters', id, i))).subarray(12)
      const power = await this.power(voter)
      for (const { option, weight } of await this.voteOptions(id, voter)) {
        if (option >= 1n && option <= 4n) sums[Number(option) - 1] = (sums[Number(option) - 1] as bigint) + power * weight
      }
    }
    return sums.map((s) => s / DEC)
  }
}

/** One option of a vote: the option, its weight as an 18-decimal integer, and as written. */
export interface WeightedOption {
  readonly option: bigint
  readonly weight: bigint
  readonly text: string
}

/** A whole vote for one option (Cosmos's `NewNonSplitVoteOption`: weight 1, printed as a `LegacyDec`). */
export const whole = (option: bigint): WeightedOption[] => [{ option, weight: DEC, text: '1.000000000000000000' }]

/** EndBlock: proposals whose voting period ends at `height` are tallied, and their deposits settled. */
export async function endVoting(state: StateManagerInterface, height: bigint): Promise<void> {
  const gov = new GovState(state)
  const n = await gov.get(slot('gov.n'))
  for (let id = 1n; id <= n; id++) {
    if ((await gov.get(slot('gov.status', id))) !== VOTING || (await gov.get(slot('gov.end', id))) > height) continue
    const [yes, abstain, no, veto] = (await gov.tally(id)) as [bigint, bigint, bigint, bigint]
    const voted = yes + abstain + no + veto
    const bonded = await gov.bonded()
    let status = REJECTED
    let burn = false
    if (bonded > 0n && voted * DEC >= bonded * QUORUM) {
      if (veto * DEC >= voted * VETO) burn = true
      else if (yes + no + veto > 0n && yes * DEC > (yes + no + veto) * THRESHOLD) status = PASSED
    }
    for (const [i, v] of [yes, abstain, no, veto].entries()) await gov.put(slot('gov.tally', id, BigInt(i)), v)
    await gov.put(slot('gov.status', id), status)
    // Every depositor's deposit comes back, or all are burned on a veto.
    if (burn) await gov.staking.burn(GOV_POOL.bytes, await gov.get(slot('gov.deposit', id)))
    else for (const who of await gov.depositors(id)) await gov.staking.transfer(GOV_POOL.bytes, who, await gov.depositOf(id, who))
  }
}

export const COINS = '(string,uint256)[]'
const TALLY = '(string,string,string,string)'
/** The ABI tuple of a `Proposal`. */
export const PROPOSAL = `(uint64,string[],uint32,${TALLY},uint64,uint64,${COINS},uint64,uint64,string,string,string,address)`
/** The ABI tuple of a `TallyResult`. */
export const TALLY_RESULT = TALLY

/** Reverts unless proposal `id` exists, with Cosmos's reason. */
export async function knownProposal(gov: GovState, id: bigint): Promise<void> {
  // A cancelled proposal is deleted, as x/gov deletes it: its status reads 0.
  if (id === 0n || id > (await gov.get(slot('gov.n'))) || (await gov.get(slot('gov.status', id))) === 0n) throw new PrecompileRevert(`proposal ${id} doesn't exist`)
}

/** A proposal's tally: counted now while it is voted on, the final one after. */
export async function tallyOf(gov: GovState, id: bigint): Promise<AbiValue[]> {
  const status = await gov.get(slot('gov.status', id))
  const sums = status === VOTING ? await gov.tally(id) : await Promise.all([0n, 1n, 2n, 3n].map((i) => gov.get(slot('gov.tally', id, i))))
  return sums.map((s) => s.toString())
}

/** A proposal as the `Proposal` tuple (times are heights). */
export async function proposalValue(gov: GovState, settings: CosmosSettings, id: bigint): Promise<AbiValue[]> {
  const start = await gov.get(slot('gov.start', id))
  return [
    id,
    [],
    await gov.get(slot('gov.status', id)),
    await tallyOf(gov, id),
    start,
    start,
    [[settings.denom, await gov.get(slot('gov.deposit', id))]],
    start,
    await gov.get(slot('gov.end', id)),
    await gov.text(slot('gov.metadata', id)),
    await gov.text(slot('gov.title', id)),
    await gov.text(slot('gov.summary', id)),
    word(await gov.get(slot('gov.proposer', id))).subarray(12),
  ]
}
