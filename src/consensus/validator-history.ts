/**
 * The validator set of every height. Changes (add, remove, change power) requested while height
 * H is the last committed take effect at H + 2, as CometBFT applies the updates FinalizeBlock of
 * H + 1 returns ("the validator set of H + 2"). The proposer of each height and round comes from
 * CometBFT's priorities, advanced once per height and kept across set changes.
 */
import type { Validator } from './validator.js'
import { ProposerPriorities } from './tendermint/proposer.js'

/** One change: a new power for `validator` (0 removes it). */
export interface SetChange {
  validator: Validator
  power: bigint
}

/** The members from `from` on. */
export interface SetEpoch {
  readonly from: bigint
  readonly validators: readonly Validator[]
  /** The height the change that made this epoch was requested at (genesis: 0). */
  readonly requestedAt: bigint
}

/** CometBFT's MaxTotalVotingPower: int64's maximum / 8, so priorities cannot overflow. */
export const MAX_TOTAL_VOTING_POWER = 2n ** 60n - 1n

const byAddress = (a: Validator, b: Validator): number => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)

/** A validator with another power (same key). */
function withPower(v: Validator, power: bigint): Validator {
  return { address: v.address, publicKey: v.publicKey, power, feeRecipient: v.feeRecipient, sign: (m) => v.sign(m) }
}

export class ValidatorHistory {
  private readonly list: SetEpoch[]
  /** Priorities before height `height`'s election (the state after height − 1's). */
  private cache: { height: bigint; priorities: ProposerPriorities }

  /**
   * `first`: the first height the validators decide (1; a forked chain's fork block + 1). The
   * priorities start there, so a chain forked at block 20,000,000 does not replay 20 million
   * elections; heights before it answer the first height's proposer.
   */
  constructor(
    genesis: readonly Validator[],
    private readonly first = 1n,
  ) {
    if (genesis.length === 0) throw new Error('the validator set is empty')
    const validators = [...genesis].sort(byAddress)
    this.list = [{ from: 1n, validators, requestedAt: 0n }]
    this.cache = this.start()
  }

  private start(): { height: bigint; priorities: ProposerPriorities } {
    return { height: this.first, priorities: new ProposerPriorities((this.list[0] as SetEpoch).validators) }
  }

  /** Every epoch, oldest first. */
  get epochs(): readonly SetEpoch[] {
    return this.list
  }

  /** The members at `height` (heights before 1 answer the genesis set). */
  at(height: bigint): readonly Validator[] {
    for (let i = this.list.length - 1; i >= 0; i--) {
      const e = this.list[i] as SetEpoch
      if (e.from <= height) return e.validators
    }
    return (this.list[0] as SetEpoch).validators
  }

  /**
   * Requests `changes` while `head` is the last committed height: they apply at head + 2. Answers
   * that height. Throws (changing nothing) when the set would be empty.
   */
  request(head: bigint, changes: readonly SetChange[]): bigint {
    const from = head + 2n
    const base = this.at(from)
    const members = new Map(base.map((v) => [v.address, v]))
    for (const c of changes) {
      if (c.power === 0n) members.delete(c.validator.address)
      else members.set(c.validator.address, withPower(c.validator, c.power))
    }
    if (members.size === 0) throw new Error('the change would leave the validator set empty')
    const total = [...members.values()].reduce((sum, v) => sum + v.power, 0n)
    if (total > MAX_TOTAL_VOTING_POWER) throw new Error(`the total voting power would be ${total}, above CometBFT's maximum ${MAX_TOTAL_VOTING_POWER} (2^60 − 1)`)
    const validators = [...members.values()].sort(byAddress)
    // A later change for the same height replaces the epoch; epochs after it are rebuilt on it.
    const at = this.list.findIndex((e) => e.from >= from)
    if (at >= 0) this.list.splice(at)
    this.list.push({ from, validators, requestedAt: head })
    if (this.cache.height > from) this.cache = this.start()
    return from
  }

  /** A validator of any epoch, newest first (its key, whatever its power now). */
  known(address: string): Validator | undefined {
    const a = address.toLowerCase()
    for (let i = this.list.length - 1; i >= 0; i--) {
      const v = (this.list[i] as SetEpoch).validators.find((x) => x.address === a)
      if (v !== undefined) return v
    }
    return undefined
  }

  /** Keeps the first `changes` changes (a snapshot's count) and forgets the later ones. */
  truncate(changes: number): void {
    if (this.list.length <= changes + 1) return
    this.list.splice(changes + 1)
    this.cache = this.start()
  }

  /** The priorities before `height`'s election: its round 0 proposer is the next one elected. */
  prioritiesAt(height: bigint): ProposerPriorities {
    if (height < this.first) height = this.first
    if (height < this.cache.height) this.cache = this.start()
    let { height: h, priorities } = this.cache
    priorities = priorities.clone()
    while (h < height) {
      priorities.increment(1)
      h++
      const members = this.at(h)
      if (members !== this.at(h - 1n)) priorities = priorities.update(members)
    }
    this.cache = { height: h, priorities: priorities.clone() }
    return priorities
  }

  /** The proposer of `height`, `round`. */
  proposer(height: bigint, round: number): Validator {
    // One election per round, each with its own scaling and centring, as CometBFT moves rounds.
    const q = this.prioritiesAt(height)
    let chosen = q.increment(1)
    for (let r = 0; r < round; r++) chosen = q.increment(1)
    return this.at(height).find((v) => v.address === chosen.address) as Validator
  }
}
