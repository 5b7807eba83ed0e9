/**
 * The messages validators exchange within a height, and their signatures. Each is signed over
 * `signBytes` of `votes.ts`: the same bytes as the commit certificate's precommits, with an
 * empty block hash for a nil vote. A proposal's valid round is not under its signature: a
 * receiver acts on a valid round only with the prevotes of that round in hand (the polka), which
 * are signed, so a forged valid round gains nothing.
 */
import { data, type Hex } from '../../hex.js'
import { verifySignature, type Validator } from '../validator.js'
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

export interface ProposalMessage<V extends Value> {
  readonly type: 'proposal'
  readonly height: bigint
  readonly round: number
  /** The round of the polka behind a re-proposed value, −1 for a new value. */
  readonly validRound: number
  readonly value: V
  readonly proposer: Hex
  readonly signature: Uint8Array
}

export type VoteType = 'prevote' | 'precommit'

export interface VoteMessage {
  readonly type: VoteType
  readonly height: bigint
  readonly round: number
  /** null: a nil vote. */
  readonly blockHash: Uint8Array | null
  readonly validator: Hex
  readonly signature: Uint8Array
}

export type Message<V extends Value> = ProposalMessage<V> | VoteMessage

const EMPTY = new Uint8Array(0)

function stepOf(type: Message<Value>['type']): Step {
  return type === 'proposal' ? Step.Proposal : type === 'prevote' ? Step.Prevote : Step.Precommit
}

/** The bytes a message's signature covers. */
export function messageBytes(chainId: bigint, m: Message<Value>): Uint8Array {
  const hash = m.type === 'proposal' ? m.value.hash : (m.blockHash ?? EMPTY)
  return signBytes(stepOf(m.type), chainId, m.height, m.round, hash)
}

export function signProposal<V extends Value>(signer: Validator, chainId: bigint, height: bigint, round: number, validRound: number, value: V): ProposalMessage<V> {
  const unsigned = { type: 'proposal' as const, height, round, validRound, value, proposer: signer.address, signature: EMPTY }
  return { ...unsigned, signature: signer.sign(messageBytes(chainId, unsigned)) }
}

export function signVote(signer: Validator, chainId: bigint, type: VoteType, height: bigint, round: number, blockHash: Uint8Array | null): VoteMessage {
  const unsigned = { type, height, round, blockHash, validator: signer.address, signature: EMPTY }
  return { ...unsigned, signature: signer.sign(messageBytes(chainId, unsigned)) }
}

/**
 * Each message object's check, once: every validator of the process receives the same object, and
 * ed25519 verification is deterministic, so the first receiver's answer is every receiver's (a
 * forged or altered message is another object, checked on its own).
 */
const checked = new WeakMap<object, { chainId: bigint; publicKey: Uint8Array; ok: boolean }>()

/** Whether `m` carries a valid signature by the key of `publicKey`. */
export function verifyMessage(chainId: bigint, m: Message<Value>, publicKey: Uint8Array): boolean {
  const known = checked.get(m)
  if (known !== undefined && known.chainId === chainId && known.publicKey === publicKey) return known.ok
  const ok = verifySignature(publicKey, messageBytes(chainId, m), m.signature)
  checked.set(m, { chainId, publicKey, ok })
  return ok
}
