/**
 * Duplicate-vote evidence the validators reported, kept by height (served by finality_getEvidence).
 * Evidence not yet in a block is pending: the next block commits it (CometBFT's evidence pool),
 * and FinalizeBlock of that block hands it to the application as misbehavior.
 */
import type { DuplicateVoteEvidence } from './tendermint/vote-set.js'

/** ABCI's Misbehavior of type DUPLICATE_VOTE: who, and the height of the infraction. */
export interface Misbehavior {
  readonly validator: DuplicateVoteEvidence['validator']
  readonly height: bigint
}

const keyOf = (e: DuplicateVoteEvidence): string => `${e.height}/${e.round}/${e.type}/${e.validator}`

export class EvidenceStore {
  private readonly byHeight = new Map<bigint, DuplicateVoteEvidence[]>()
  private readonly seen = new Set<string>()
  /** Evidence by key → the height of the block that committed it. */
  private readonly committedAt = new Map<string, bigint>()
  private uncommitted = 0

  /** The evidence no block has committed yet, one misbehavior per validator and height. */
  pending(): Misbehavior[] {
    if (this.uncommitted === 0) return []
    const out = new Map<string, Misbehavior>()
    for (const list of this.byHeight.values()) {
      for (const e of list) if (!this.committedAt.has(keyOf(e))) out.set(`${e.validator}/${e.height}`, { validator: e.validator, height: e.height })
    }
    return [...out.values()]
  }

  /** The misbehavior block `height` committed (what its BeginBlock was handed), one per validator and height. */
  committedBy(height: bigint): Misbehavior[] {
    const out = new Map<string, Misbehavior>()
    for (const list of this.byHeight.values()) {
      for (const e of list) if (this.committedAt.get(keyOf(e)) === height) out.set(`${e.validator}/${e.height}`, { validator: e.validator, height: e.height })
    }
    return [...out.values()]
  }

  /** Block `height` committed the pending evidence of `misbehavior`'s validators and heights. */
  commit(height: bigint, misbehavior: readonly Misbehavior[]): void {
    for (const m of misbehavior) {
      for (const e of this.byHeight.get(m.height) ?? []) {
        const key = keyOf(e)
        if (e.validator === m.validator && !this.committedAt.has(key)) {
          this.committedAt.set(key, height)
          this.uncommitted--
        }
      }
    }
  }

  add(e: DuplicateVoteEvidence): boolean {
    const key = `${e.height}/${e.round}/${e.type}/${e.validator}`
    if (this.seen.has(key)) return false
    this.seen.add(key)
    this.uncommitted++
    let list = this.byHeight.get(e.height)
    if (list === undefined) this.byHeight.set(e.height, (list = []))
    list.push(e)
    return true
  }

  /** Forgets the evidence of heights above `head` (the chain went back). */
  dropAbove(head: bigint): void {
    for (const h of [...this.byHeight.keys()]) {
      if (h <= head) continue
      for (const e of this.byHeight.get(h) ?? []) {
        const key = keyOf(e)
        this.seen.delete(key)
        if (this.committedAt.has(key)) this.committedAt.delete(key)
        else this.uncommitted--
      }
      this.byHeight.delete(h)
    }
    // Evidence a dropped block committed is pending again.
    for (const [key, at] of [...this.committedAt]) {
      if (at > head) {
        this.committedAt.delete(key)
        this.uncommitted++
      }
    }
  }

  /** The evidence of heights `from` … `to`, by height then round. */
  range(from: bigint, to: bigint): DuplicateVoteEvidence[] {
    const out: DuplicateVoteEvidence[] = []
    for (const [h, list] of [...this.byHeight].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      if (h >= from && h <= to) out.push(...list)
    }
    return out
  }
}
