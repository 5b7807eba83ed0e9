/**
 * The votes of one type (prevote or precommit) in one round of one height: the power behind each
 * value and the power of all votes. A validator's second, different vote is duplicate-vote
 * evidence (CometBFT's DuplicateVoteEvidence); it still counts for the value it names (a Byzantine
 * validator's two messages are two messages, as the algorithm counts them, and as CometBFT's vote
 * set counts a conflicting vote for a block its peers report a majority for), while the power of
 * all votes counts each validator once.
 */
import type { Hex } from '../../hex.js'
import { valueId, type ValueId, type VoteMessage } from './messages.js'

/** Two votes of one validator, same height, round and type, for different values. */
export interface DuplicateVoteEvidence {
  readonly validator: Hex
  readonly height: bigint
  readonly round: number
  readonly type: VoteMessage['type']
  readonly voteA: VoteMessage
  readonly voteB: VoteMessage
}

export type AddResult = { kind: 'added' } | { kind: 'duplicate' } | { kind: 'conflict'; evidence: DuplicateVoteEvidence }

export class VoteSet {
  /** Each validator's first vote. */
  private readonly first = new Map<Hex, VoteMessage>()
  private readonly byValue = new Map<ValueId, Map<Hex, { vote: VoteMessage; power: bigint }>>()
  private total = 0n

  /** Adds a vote of a validator of `power` (its signature already checked). */
  add(vote: VoteMessage, power: bigint): AddResult {
    const id = valueId(vote.blockHash)
    let voters = this.byValue.get(id)
    if (voters?.has(vote.validator) === true) return { kind: 'duplicate' }
    if (voters === undefined) this.byValue.set(id, (voters = new Map()))
    voters.set(vote.validator, { vote, power })
    const first = this.first.get(vote.validator)
    if (first !== undefined) {
      return {
        kind: 'conflict',
        evidence: { validator: vote.validator, height: vote.height, round: vote.round, type: vote.type, voteA: first, voteB: vote },
      }
    }
    this.first.set(vote.validator, vote)
    this.total += power
    return { kind: 'added' }
  }

  /** The power of the votes for `id` (NIL for nil votes). */
  powerFor(id: ValueId): bigint {
    let sum = 0n
    for (const { power } of this.byValue.get(id)?.values() ?? []) sum += power
    return sum
  }

  /** The power of every validator that voted, each once. */
  get power(): bigint {
    return this.total
  }

  /** The votes for `id`, in arrival order. */
  votesFor(id: ValueId): VoteMessage[] {
    return [...(this.byValue.get(id)?.values() ?? [])].map((v) => v.vote)
  }

  /** Votes per value id (NIL for nil), for the consensus state. */
  tally(): Array<{ id: ValueId; power: bigint; votes: number }> {
    return [...this.byValue].map(([id, voters]) => ({ id, power: this.powerFor(id), votes: voters.size }))
  }
}
