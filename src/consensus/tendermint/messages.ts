/**
 * The messages validators exchange within a height. The state machine makes them unsigned
 * ({@link UnsignedProposal}, {@link UnsignedVote}); its host signs them over {@link messageBytes}
 * (`signing.ts`) before they go on the network, and checks the signature of each one it receives
 * before the machine sees it. The signed bytes are `signBytes` of `votes.ts`: the same as the
 * commit certificate's precommits, with an empty block hash for a nil vote. A proposal's valid
 * round is not under its signature: a receiver acts on a valid round only with the prevotes of
 * that round in hand (the polka), which are signed, so a forged valid round gains nothing.
 */
import { data, type Hex } from '../../hex.js'
import { signBytes, Step } from '../votes.js'

/** What validators decide on: a value named by its hash (the application's proposal). */
export interface Value {
  readonly hash: Uint8Array
}

/** The hex key of a block hash, or `nil` (the empty key) for a vote for nothing. */
export type ValueId = string

export const NIL: ValueId = ''

export function valueId(hash: Uint8Array | null): ValueId {
  return hash === null ? NIL : data(hash)
}

/** A proposal as the state machine makes it: not signed. */
export interface UnsignedProposal<V extends Value> {
  readonly type: 'proposal'
  readonly height: bigint
  readonly round: number
  /** The round of the polka behind a re-proposed value, −1 for a new value. */
  readonly validRound: number
  readonly value: V
  readonly proposer: Hex
}

/** A message with its sender's signature, opaque to the state machine (the host checked it). */
export type Signed<M> = M & { readonly signature: Uint8Array }

/** A signed proposal, as the network carries it. */
export type ProposalMessage<V extends Value> = Signed<UnsignedProposal<V>>

export type VoteType = 'prevote' | 'precommit'

/** A prevote or precommit as the state machine makes it: not signed. */
export interface UnsignedVote {
  readonly type: VoteType
  readonly height: bigint
  readonly round: number
  /** null: a nil vote. */
  readonly blockHash: Uint8Array | null
  readonly validator: Hex
}

/** A signed vote, as the network carries it and a commit certificate keeps it. */
export type VoteMessage = Signed<UnsignedVote>

export type Unsigned<V extends Value> = UnsignedProposal<V> | UnsignedVote

export type Message<V extends Value> = ProposalMessage<V> | VoteMessage

const EMPTY = new Uint8Array(0)

function stepOf(type: Unsigned<Value>['type']): Step {
  return type === 'proposal' ? Step.Proposal : type === 'prevote' ? Step.Prevote : Step.Precommit
}

/** The bytes a message's signature covers. */
export function messageBytes(chainId: bigint, m: Unsigned<Value>): Uint8Array {
  const hash = m.type === 'proposal' ? m.value.hash : (m.blockHash ?? EMPTY)
  return signBytes(stepOf(m.type), chainId, m.height, m.round, hash)
}
