/**
 * CometBFT's proposer selection: weighted round-robin with proposer priorities. Each step adds
 * every validator's voting power to its priority, picks the highest priority (ties: the smaller
 * address) as proposer and takes the total power off the proposer's priority. Before the steps,
 * priorities are scaled down when their spread exceeds twice the total power, and centred on
 * their average, as CometBFT does, so they stay bounded. A validator that joins starts at
 * −1.125 × the total power (it waits its turn instead of proposing at once). With equal power the
 * proposers take turns in address order; with unequal power each proposes in proportion to it.
 */
import type { Hex } from '../../hex.js'

/** A member's power and current priority. */
export interface Weighted {
  readonly address: Hex
  readonly power: bigint
}

/** Integer division rounding toward −∞ (Go's big.Int Div for a positive divisor). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n ? q - 1n : q
}

/** The priorities of one validator set; `step` and `clone` are all consensus needs. */
export class ProposerPriorities {
  readonly members: readonly Weighted[]
  readonly totalPower: bigint
  private readonly priority: bigint[]

  constructor(members: readonly Weighted[], priorities?: readonly bigint[]) {
    this.members = members
    this.totalPower = members.reduce((s, m) => s + m.power, 0n)
    this.priority = priorities === undefined ? members.map(() => 0n) : [...priorities]
  }

  /** The priority of each member, in member order. */
  get priorities(): readonly bigint[] {
    return this.priority
  }

  clone(): ProposerPriorities {
    return new ProposerPriorities(this.members, this.priority)
  }

  /** Advances `times` elections (one per height, one more per round); answers the last proposer. */
  increment(times: number): Weighted {
    if (times < 1) throw new Error('increment needs at least one step')
    this.rescale()
    this.center()
    let proposer = this.members[0] as Weighted
    for (let i = 0; i < times; i++) proposer = this.elect()
    return proposer
  }

  /** The member the next election would pick, without changing anything. */
  peek(): Weighted {
    return this.clone().increment(1)
  }

  /** Shrinks priorities whose spread exceeds 2 × total power (CometBFT's window). */
  private rescale(): void {
    if (this.priority.length === 0) return
    const window = 2n * this.totalPower
    let min = this.priority[0] as bigint
    let max = min
    for (const p of this.priority) {
      if (p < min) min = p
      if (p > max) max = p
    }
    const diff = max - min
    if (diff <= window) return
    const ratio = (diff + window - 1n) / window
    for (let i = 0; i < this.priority.length; i++) this.priority[i] = (this.priority[i] as bigint) / ratio
  }

  /** Moves priorities so their average is zero. */
  private center(): void {
    const n = BigInt(this.priority.length)
    if (n === 0n) return
    const avg = floorDiv(
      this.priority.reduce((s, p) => s + p, 0n),
      n,
    )
    for (let i = 0; i < this.priority.length; i++) this.priority[i] = (this.priority[i] as bigint) - avg
  }

  private elect(): Weighted {
    let best = -1
    for (let i = 0; i < this.members.length; i++) {
      const p = (this.priority[i] as bigint) + (this.members[i] as Weighted).power
      this.priority[i] = p
      if (best < 0) best = i
      else {
        const bp = this.priority[best] as bigint
        if (p > bp || (p === bp && (this.members[i] as Weighted).address < (this.members[best] as Weighted).address)) best = i
      }
    }
    this.priority[best] = (this.priority[best] as bigint) - this.totalPower
    return this.members[best] as Weighted
  }

  /**
   * The priorities after a set change: members kept keep their priority (with their new power),
   * members added start at −1.125 × the new total power, members removed are gone; then scaled
   * and centred as CometBFT does after an update.
   */
  update(next: readonly Weighted[]): ProposerPriorities {
    const old = new Map(this.members.map((m, i) => [m.address, this.priority[i] as bigint]))
    const total = next.reduce((s, m) => s + m.power, 0n)
    const joining = -(total + (total >> 3n))
    const updated = new ProposerPriorities(next, next.map((m) => old.get(m.address) ?? joining))
    updated.rescale()
    updated.center()
    return updated
  }
}
