/**
 * What the node keeps for each executed transaction, beside the consensus receipt: the sender,
 * the gas it used alone and the contract it created, so that reads never recover a signature.
 */
import { RLP } from '@ethereumjs/rlp'
import { mapped } from '../arrays.js'
import { concat, toBigInt, unpadded } from '../hex.js'
import { encodeList, encodeString, encodeStrings } from '../rlp.js'

/**
 * The bloom of no logs, shared by every header and kept receipt that has it (never written: a
 * bloom is made anew when logs are added). A 256-byte array of its own per block is kept for as
 * long as the chain is, outside V8's heap, with an ArrayBuffer object on it.
 */
export const ZERO_BLOOM = new Uint8Array(256)

/** Whether every byte is zero. */
export function isZeroBytes(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false
  return true
}

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

const STATUS_OK = Uint8Array.of(1)
const STATUS_FAILED = new Uint8Array(0)

/**
 * The consensus encoding of a receipt (the receipt trie's values, debug_getRawReceipts):
 * RLP([status or post-state root, cumulative gas, bloom, logs]), behind the transaction type for
 * typed transactions (EIP-2718). Written straight into buffers, as @ethereumjs/vm's
 * `encodeReceipt` encodes it (a cumulative gas of zero as one zero byte, as it does).
 */
export function encodeConsensusReceipt(
  receipt: { status?: 0 | 1; stateRoot?: Uint8Array; cumulativeBlockGasUsed: bigint; bitvector: Uint8Array; logs: RawLog[] },
  type: number,
): Uint8Array {
  const outcome = receipt.stateRoot ?? (receipt.status === 0 ? STATUS_FAILED : STATUS_OK)
  const gas = receipt.cumulativeBlockGasUsed === 0n ? Uint8Array.of(0) : unpadded(receipt.cumulativeBlockGasUsed)
  const logs = encodeList(mapped(receipt.logs, ([address, topics, data]) => encodeList([encodeString(address), encodeStrings(topics), encodeString(data)])))
  const body = encodeList([encodeString(outcome), encodeString(gas), encodeString(receipt.bitvector), logs])
  return type === 0 ? body : concat(Uint8Array.of(type), body)
}
