/**
 * Consensus messages and the bytes validators sign. Every message names its chain, height,
 * round and block, so a signature cannot be replayed in another context.
 */
import { concat, type Hex, unpadded } from '../hex.js'
import { encodeStrings } from '../rlp.js'

/** The three signed steps of a height. */
export const Step = { Proposal: 1, Prevote: 2, Precommit: 3 } as const
export type Step = (typeof Step)[keyof typeof Step]

const DOMAIN = new TextEncoder().encode('finality/consensus/v1')

/** The canonical bytes a validator signs for one step. */
export function signBytes(step: Step, chainId: bigint, height: bigint, round: number, blockHash: Uint8Array): Uint8Array {
  // RLP([step, chainId, height, round, blockHash]) with integers as minimal big-endian bytes.
  return concat(DOMAIN, encodeStrings([unpadded(BigInt(step)), unpadded(chainId), unpadded(height), unpadded(BigInt(round)), blockHash]))
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
