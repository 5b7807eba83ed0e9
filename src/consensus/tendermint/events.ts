/**
 * What the validators of a height do, as the node reports it (`finality_consensus` subscription);
 * what the producer tells of them: a halt (no height can gather a quorum) and the resume; and
 * what the test controls changed: the faults and the partition now in force.
 */
import type { Hex } from '../../hex.js'
import type { DuplicateVoteEvidence } from './vote-set.js'
import type { VoteType } from './messages.js'
import type { Fault } from './faults.js'
import type { TimeoutStep } from './timeouts.js'

export type ConsensusEvent =
  | { type: 'newRound'; height: bigint; round: number; validator: Hex; proposer: Hex }
  | { type: 'proposal'; height: bigint; round: number; proposer: Hex; blockHash: Uint8Array; validRound: number }
  | { type: 'vote'; height: bigint; round: number; vote: VoteType; validator: Hex; blockHash: Uint8Array | null }
  | { type: 'polka'; height: bigint; round: number; validator: Hex; blockHash: Uint8Array | null }
  | { type: 'lock'; height: bigint; round: number; validator: Hex; blockHash: Uint8Array }
  | { type: 'timeout'; height: bigint; round: number; validator: Hex; step: TimeoutStep }
  | { type: 'commit'; height: bigint; round: number; blockHash: Uint8Array; proposer: Hex }
  | { type: 'evidence'; evidence: DuplicateVoteEvidence }
  | { type: 'halt'; height: bigint; reason: string }
  | { type: 'resume'; height: bigint }
  | { type: 'faults'; faults: ReadonlyArray<readonly [Hex, Fault]>; partition: readonly Hex[][] | undefined }
