/**
 * The signing and verification effects of the state machine's host: the machine answers
 * unsigned proposals and votes, the host signs them with the validator's key before they go on
 * the network, and checks each signature before a machine hears the message. The machine stays
 * deterministic and free of crypto; ed25519 signatures are deterministic too, so the same inputs
 * still make the same signed messages and certificates.
 */
import { verifySignature } from '../keys.js'
import type { Validator } from '../validator.js'
import { messageBytes, type Message, type ProposalMessage, type UnsignedProposal, type UnsignedVote, type Value, type VoteMessage, type VoteType } from './messages.js'

/** Signs what a machine (or a faulty validator's host) made. */
export function sign<V extends Value>(signer: Validator, chainId: bigint, m: UnsignedProposal<V>): ProposalMessage<V>
export function sign(signer: Validator, chainId: bigint, m: UnsignedVote): VoteMessage
export function sign<V extends Value>(signer: Validator, chainId: bigint, m: UnsignedProposal<V> | UnsignedVote): Message<V> {
  return { ...m, signature: signer.sign(messageBytes(chainId, m)) }
}

export function signProposal<V extends Value>(signer: Validator, chainId: bigint, height: bigint, round: number, validRound: number, value: V): ProposalMessage<V> {
  return sign(signer, chainId, { type: 'proposal', height, round, validRound, value, proposer: signer.address })
}

export function signVote(signer: Validator, chainId: bigint, type: VoteType, height: bigint, round: number, blockHash: Uint8Array | null): VoteMessage {
  return sign(signer, chainId, { type, height, round, blockHash, validator: signer.address })
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
