/** Duplicate-vote evidence the validators reported, kept by height (served by finality_getEvidence). */
import type { DuplicateVoteEvidence } from './tendermint/vote-set.js'

export class EvidenceStore {
  private readonly byHeight = new Map<bigint, DuplicateVoteEvidence[]>()
  private readonly seen = new Set<string>()

  add(e: DuplicateVoteEvidence): boolean {
    const key = `${e.height}/${e.round}/${e.type}/${e.validator}`
    if (this.seen.has(key)) return false
    this.seen.add(key)
    let list = this.byHeight.get(e.height)
    if (list === undefined) this.byHeight.set(e.height, (list = []))
    list.push(e)
    return true
  }

  /** Forgets the evidence of heights above `head` (the chain went back). */
  dropAbove(head: bigint): void {
    for (const h of [...this.byHeight.keys()]) {
      if (h <= head) continue
      for (const e of this.byHeight.get(h) ?? []) this.seen.delete(`${e.height}/${e.round}/${e.type}/${e.validator}`)
      this.byHeight.delete(h)
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
