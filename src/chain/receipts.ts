/**
 * What the node keeps for each executed transaction, beside the consensus receipt: the sender,
 * the gas it used alone and the contract it created, so that reads never recover a signature.
 */
import { RLP } from '@ethereumjs/rlp'
import { toBigInt } from '../hex.js'

/** One log as executed: address, topics, data. */
export type RawLog = [address: Uint8Array, topics: Uint8Array[], data: Uint8Array]

/** A stored receipt. */
export interface StoredReceipt {
  status: 0 | 1
  cumulativeGasUsed: bigint
  gasUsed: bigint
  logs: RawLog[]
  bloom: Uint8Array
  from: Uint8Array
  contractAddress?: Uint8Array
  blobGasUsed?: bigint
  /** Pre-Byzantium receipts: the state root after the transaction (instead of a status). */
  root?: Uint8Array
}

/** RLP for the database: one list per block. */
export function encodeReceipts(receipts: StoredReceipt[]): Uint8Array {
  return RLP.encode(
    receipts.map((r) => [
      r.status,
      r.cumulativeGasUsed,
      r.gasUsed,
      r.logs,
      r.bloom,
      r.from,
      r.contractAddress ?? new Uint8Array(0),
      r.blobGasUsed ?? 0n,
      r.root ?? new Uint8Array(0),
    ]),
  )
}

/** Inverse of {@link encodeReceipts}. */
export function decodeReceipts(bytes: Uint8Array): StoredReceipt[] {
  const list = RLP.decode(bytes) as unknown as Array<
    [Uint8Array, Uint8Array, Uint8Array, RawLog[], Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array | undefined]
  >
  return list.map(([status, cumulative, gasUsed, logs, bloom, from, created, blobGas, root]) => {
    const r: StoredReceipt = {
      status: toBigInt(status) === 1n ? 1 : 0,
      cumulativeGasUsed: toBigInt(cumulative),
      gasUsed: toBigInt(gasUsed),
      logs,
      bloom,
      from,
    }
    if (created.length > 0) r.contractAddress = created
    const blob = toBigInt(blobGas)
    if (blob > 0n) r.blobGasUsed = blob
    if (root !== undefined && root.length > 0) r.root = root
    return r
  })
}
