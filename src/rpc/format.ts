/**
 * Result encoders: blocks, headers, transactions, receipts and logs in geth's JSON shapes.
 */
import type { Block, BlockHeader } from '@ethereumjs/block'
import { Capability, TransactionType, accessListBytesToJSON, type AccessListBytes, type TypedTransaction } from '@ethereumjs/tx'
import { data, quantity, toBigInt, type Hex } from '../hex.js'
import type { StoredReceipt } from '../chain/receipts.js'
import type { EventFormat } from '../filters/subscriptions.js'
import type { LogHit } from '../filters/log-index.js'

type Json = Record<string, unknown>

/** Header fields, as geth's `RPCMarshalHeader`. */
export function formatHeader(header: BlockHeader, hash: Uint8Array = header.hash()): Json {
  const out: Json = {
    baseFeePerGas: header.baseFeePerGas === undefined ? undefined : quantity(header.baseFeePerGas),
    difficulty: quantity(header.difficulty),
    extraData: data(header.extraData),
    gasLimit: quantity(header.gasLimit),
    gasUsed: quantity(header.gasUsed),
    hash: data(hash),
    logsBloom: data(header.logsBloom),
    miner: header.coinbase.toString(),
    mixHash: data(header.mixHash),
    nonce: data(header.nonce),
    number: quantity(header.number),
    parentHash: data(header.parentHash),
    receiptsRoot: data(header.receiptTrie),
    sha3Uncles: data(header.uncleHash),
    size: undefined,
    stateRoot: data(header.stateRoot),
    timestamp: quantity(header.timestamp),
    transactionsRoot: data(header.transactionsTrie),
  }
  if (header.withdrawalsRoot !== undefined) out.withdrawalsRoot = data(header.withdrawalsRoot)
  if (header.blobGasUsed !== undefined) out.blobGasUsed = quantity(header.blobGasUsed)
  if (header.excessBlobGas !== undefined) out.excessBlobGas = quantity(header.excessBlobGas)
  if (header.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = data(header.parentBeaconBlockRoot)
  if (header.requestsHash !== undefined) out.requestsHash = data(header.requestsHash)
  if (out.baseFeePerGas === undefined) delete out.baseFeePerGas
  delete out.size
  return out
}

/** Where a transaction sits, for the fields that only exist once it is included. */
export interface Inclusion {
  block: Block
  index: number
  from: Uint8Array
}

/** The gas price a transaction pays in a block with `baseFee`. */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if (!tx.supports(Capability.EIP1559FeeMarket)) return (tx as unknown as { gasPrice: bigint }).gasPrice
  const t = tx as unknown as { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  if (baseFee === undefined) return t.maxFeePerGas
  const tip = t.maxFeePerGas - baseFee < t.maxPriorityFeePerGas ? t.maxFeePerGas - baseFee : t.maxPriorityFeePerGas
  return baseFee + tip
}

/** A transaction, as geth's `RPCTransaction`. */
export function formatTransaction(tx: TypedTransaction, from: Uint8Array, at?: Omit<Inclusion, 'from'>): Json {
  const base = at?.block.header.baseFeePerGas
  const out: Json = {
    blockHash: at === undefined ? null : data(at.block.hash()),
    blockNumber: at === undefined ? null : quantity(at.block.header.number),
    ...(at === undefined ? {} : { blockTimestamp: quantity(at.block.header.timestamp) }),
    from: data(from),
    gas: quantity(tx.gasLimit),
    gasPrice: quantity(at === undefined && tx.supports(Capability.EIP1559FeeMarket)
      ? (tx as unknown as { maxFeePerGas: bigint }).maxFeePerGas
      : effectiveGasPrice(tx, base)),
    hash: data(tx.hash()),
    input: data(tx.data),
    nonce: quantity(tx.nonce),
    to: tx.to === undefined ? null : tx.to.toString(),
    transactionIndex: at === undefined ? null : quantity(at.index),
    value: quantity(tx.value),
    type: quantity(tx.type),
  }
  if (tx.supports(Capability.EIP1559FeeMarket)) {
    const t = tx as unknown as { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
    out.maxFeePerGas = quantity(t.maxFeePerGas)
    out.maxPriorityFeePerGas = quantity(t.maxPriorityFeePerGas)
  }
  if (tx.type !== TransactionType.Legacy) {
    // The access list alone: `tx.toJSON()` would hex every field, the input data too (a
    // deployment's is tens of kilobytes), for this one.
    out.accessList = accessListBytesToJSON((tx as unknown as { accessList?: AccessListBytes }).accessList ?? [])
    out.chainId = quantity(tx.common.chainId())
  } else if (tx.supports(Capability.EIP155ReplayProtection)) {
    out.chainId = quantity(tx.common.chainId())
  }
  if (tx.type === TransactionType.BlobEIP4844) {
    const t = tx as unknown as { maxFeePerBlobGas: bigint; blobVersionedHashes: Hex[] | Uint8Array[] }
    out.maxFeePerBlobGas = quantity(t.maxFeePerBlobGas)
    out.blobVersionedHashes = (tx.toJSON() as Json).blobVersionedHashes
  }
  if (tx.type === TransactionType.EOACodeEIP7702) out.authorizationList = authorizationListJson(tx)
  out.v = quantity(tx.v ?? 0n)
  out.r = quantity(tx.r ?? 0n)
  out.s = quantity(tx.s ?? 0n)
  if (tx.type !== TransactionType.Legacy) out.yParity = quantity(tx.v ?? 0n)
  return out
}

/** A block, as geth's `RPCMarshalBlock`. */
export function formatBlock(block: Block, fullTransactions: boolean, receipts: StoredReceipt[]): Json {
  const hash = block.hash()
  const out = formatHeader(block.header, hash)
  out.size = quantity(block.serialize().length)
  out.transactions = block.transactions.map((tx, index) =>
    fullTransactions
      ? formatTransaction(tx, (receipts[index] as StoredReceipt).from, { block, index })
      : data(tx.hash()),
  )
  out.uncles = []
  if (block.withdrawals !== undefined) {
    out.withdrawals = block.withdrawals.map((w) => ({
      index: quantity(w.index),
      validatorIndex: quantity(w.validatorIndex),
      address: w.address.toString(),
      amount: quantity(w.amount),
    }))
  }
  return out
}

/** Logs of one receipt with their block-wide positions. */
export function formatLogs(block: Block, index: number, receipts: StoredReceipt[], blockHash = block.hash()): Json[] {
  const receipt = receipts[index] as StoredReceipt
  if (receipt.logs.length === 0) return []
  const tx = block.transactions[index] as TypedTransaction
  return logsOf(block, index, receipts, data(blockHash), data(tx.hash()))
}

/** {@link formatLogs} with the block's and the transaction's hashes already in hex. */
function logsOf(block: Block, index: number, receipts: StoredReceipt[], bh: Hex, txHash: Hex): Json[] {
  let logIndex = 0
  for (let i = 0; i < index; i++) logIndex += (receipts[i] as StoredReceipt).logs.length
  const receipt = receipts[index] as StoredReceipt
  const number = quantity(block.header.number)
  return receipt.logs.map(([address, topics, payload], i) => ({
    address: data(address),
    topics: topics.map(data),
    data: data(payload),
    blockNumber: number,
    transactionHash: txHash,
    transactionIndex: quantity(index),
    blockHash: bh,
    blockTimestamp: quantity(block.header.timestamp),
    logIndex: quantity(logIndex + i),
    removed: false,
  }))
}

/** A log of the log index, in the same shape as {@link formatLogs}. */
export function formatLogHit({ entry, block }: LogHit): Json {
  const [address, topics, payload] = entry.log
  return {
    address: data(address),
    topics: topics.map(data),
    data: data(payload),
    blockNumber: quantity(block.number),
    transactionHash: block.txHashes[entry.txIndex] as string,
    transactionIndex: quantity(entry.txIndex),
    blockHash: block.hash,
    blockTimestamp: quantity(block.timestamp),
    logIndex: quantity(entry.logIndex),
    removed: false,
  }
}

/** A receipt, as geth's `MarshalReceipt`. */
export function formatReceipt(block: Block, index: number, receipts: StoredReceipt[]): Json {
  const receipt = receipts[index] as StoredReceipt
  const tx = block.transactions[index] as TypedTransaction
  const blockHash = data(block.hash())
  const transactionHash = data(tx.hash())
  // Fields added in order (JSON keeps it): a spread inside the literal takes V8's slow path.
  const out: Json = {
    blockHash,
    blockNumber: quantity(block.header.number),
    contractAddress: receipt.contractAddress === undefined ? null : data(receipt.contractAddress),
    cumulativeGasUsed: quantity(receipt.cumulativeGasUsed),
    effectiveGasPrice: quantity(effectiveGasPrice(tx, block.header.baseFeePerGas)),
    from: data(receipt.from),
    gasUsed: quantity(receipt.gasUsed),
    logs: receipt.logs.length === 0 ? [] : logsOf(block, index, receipts, blockHash, transactionHash),
    logsBloom: data(receipt.bloom),
  }
  // Before Byzantium a receipt carries the state root after the transaction, not a status.
  if (receipt.root === undefined) out.status = quantity(receipt.status)
  else out.root = data(receipt.root)
  out.to = tx.to === undefined ? null : data(tx.to.bytes)
  out.transactionHash = transactionHash
  out.transactionIndex = quantity(index)
  out.type = quantity(tx.type)
  if (receipt.blobGasUsed !== undefined) {
    out.blobGasUsed = quantity(receipt.blobGasUsed)
    out.blobGasPrice = quantity(block.header.getBlobGasPrice())
  }
  return out
}

/** The shapes the subscription hub and the polling filters hand out (geth's). */
export const eventFormat: EventFormat = {
  header: (block) => formatHeader(block.header, block.hash()),
  block: (block, receipts) => formatBlock(block, true, receipts),
  transaction: (tx, sender) => formatTransaction(tx, sender),
  logs: formatLogs,
}

/** An EIP-7702 transaction's authorization list as geth's JSON writes it. */
export function authorizationListJson(tx: TypedTransaction): Record<string, Hex>[] {
  const list = (tx as unknown as { authorizationList: Uint8Array[][] }).authorizationList
  return list.map(([chainId, address, nonce, yParity, r, s]) => ({
    chainId: quantity(toBigInt(chainId!)),
    address: data(address!),
    nonce: quantity(toBigInt(nonce!)),
    yParity: quantity(toBigInt(yParity!)),
    r: quantity(toBigInt(r!)),
    s: quantity(toBigInt(s!)),
  }))
}
