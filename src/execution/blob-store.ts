/**
 * The blobs of the blob transactions this node accepted, kept for Anvil's readers
 * (anvil_getBlobsByTransactionHash, anvil_getBlobByHash). Blocks carry blob transactions without
 * their sidecars; the sidecar of one sent with eth_sendRawTransaction is checked and its blobs
 * kept here, by transaction hash and by versioned hash. As on Anvil, only a mined transaction's
 * blobs are answered (the caller asks the chain); an evm_revert or reset that drops the
 * transaction drops its answer with it.
 */
import { keyOf } from '../hex.js'

/** Blobs by transaction hash and by versioned hash (unprefixed lower-case hex keys). */
export class BlobStore {
  private readonly byTx = new Map<string, Uint8Array[]>()
  private readonly byHash = new Map<string, { tx: string; blob: Uint8Array }>()

  /** Keeps the blobs of `tx`, the i-th blob under the i-th versioned hash (the sidecar check pairs them). */
  keep(tx: Uint8Array, versionedHashes: readonly Uint8Array[], blobs: readonly Uint8Array[]): void {
    const key = keyOf(tx)
    this.byTx.set(key, blobs.slice())
    versionedHashes.forEach((hash, i) => this.byHash.set(keyOf(hash), { tx: key, blob: blobs[i] as Uint8Array }))
  }

  /** Forgets the blobs of a transaction the pool refused. */
  drop(tx: Uint8Array): void {
    const key = keyOf(tx)
    this.byTx.delete(key)
    for (const [hash, entry] of this.byHash) if (entry.tx === key) this.byHash.delete(hash)
  }

  /** The blobs of transaction `tx`, if kept. */
  ofTransaction(tx: Uint8Array): Uint8Array[] | undefined {
    return this.byTx.get(keyOf(tx))
  }

  /** The blob with versioned hash `hash` and the transaction that brought it, if kept. */
  byVersionedHash(hash: Uint8Array): { tx: string; blob: Uint8Array } | undefined {
    return this.byHash.get(keyOf(hash))
  }
}
