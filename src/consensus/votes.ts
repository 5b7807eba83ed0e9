/**
 * Consensus messages and the bytes validators sign. Every message names its chain, height,
 * round and block, so a signature cannot be replayed in another context.
 */
import type { Hex } from '../hex.js'
import { headerLength, stringLength, uintLength, writeHeader, writeString, writeUint } from '../rlp.js'

/** The three signed steps of a height. */
export const Step = { Proposal: 1, Prevote: 2, Precommit: 3 } as const
export type Step = (typeof Step)[keyof typeof Step]

const DOMAIN = new TextEncoder().encode('finality/consensus/v1')

/** The canonical bytes a validator signs for one step. */
export function signBytes(step: Step, chainId: bigint, height: bigint, round: number, blockHash: Uint8Array): Uint8Array {
  // DOMAIN ‖ RLP([step, chainId, height, round, blockHash]) with integers as minimal big-endian
  // bytes, written into one buffer (three of these per height).
  const stepValue = BigInt(step)
  const roundValue = BigInt(round)
  const payload = uintLength(stepValue) + uintLength(chainId) + uintLength(height) + uintLength(roundValue) + stringLength(blockHash)
  const out = new Uint8Array(DOMAIN.length + headerLength(payload) + payload)
  out.set(DOMAIN)
  let pos = writeHeader(out, DOMAIN.length, 0xc0, payload)
  pos = writeUint(out, pos, stepValue)
  pos = writeUint(out, pos, chainId)
  pos = writeUint(out, pos, height)
  pos = writeUint(out, pos, roundValue)
  writeString(out, pos, blockHash)
  return out
}

/** A signed prevote or precommit (or the proposer's signature on a proposal). */
export interface Vote {
  step: Step
  height: bigint
  round: number
  blockHash: Uint8Array
  validator: Hex
  signature: Uint8Array
}

/** Proof that a block was committed: the precommits of more than 2/3 of the voting power. */
export interface CommitCertificate {
  height: bigint
  round: number
  blockHash: Uint8Array
  /** The proposer of the committed round. */
  proposer: Hex
  precommits: Array<{ validator: Hex; signature: Uint8Array }>
}
