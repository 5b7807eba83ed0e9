/**
 * The wire objects JSON-RPC methods take and answer (blocks, transactions, receipts, logs): every
 * quantity is `0x` hex, as on the wire. Shapes of src/rpc/format.ts.
 */
import type { Hex } from '../hex.js'

/** A block tag or number, as eth_getBalance and friends take it. */
export type BlockTag = Hex | 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized'

/** The transaction object of eth_sendTransaction / eth_call / eth_estimateGas. */
export type RpcTransactionRequest = {
  from?: Hex
  to?: Hex | null
  gas?: Hex
  gasPrice?: Hex
  maxFeePerGas?: Hex
  maxPriorityFeePerGas?: Hex
  value?: Hex
  data?: Hex
  input?: Hex
  nonce?: Hex
  type?: Hex
  chainId?: Hex
  accessList?: ReadonlyArray<{ address: Hex; storageKeys: readonly Hex[] }>
  /** EIP-4844: the blob fee cap and the blobs' versioned hashes (a call or simulation of a blob transaction). */
  maxFeePerBlobGas?: Hex
  blobVersionedHashes?: readonly Hex[]
  /** EIP-7702: the authorizations of a set-code transaction. */
  authorizationList?: readonly RpcAuthorization[]
}

/** A log as receipts and eth_getLogs carry it. */
export type RpcLog = {
  address: Hex
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  blockHash: Hex
  transactionHash: Hex
  transactionIndex: Hex
  logIndex: Hex
  /** The block's timestamp (geth 1.16+). */
  blockTimestamp: Hex
  removed: boolean
}

/**
 * A transaction receipt (eth_getTransactionReceipt). A type, not an interface, so code that
 * casts results to `Record<string, unknown>` keeps compiling.
 */
export type RpcTransactionReceipt = {
  blockHash: Hex
  blockNumber: Hex
  contractAddress: Hex | null
  cumulativeGasUsed: Hex
  effectiveGasPrice: Hex
  from: Hex
  gasUsed: Hex
  logs: RpcLog[]
  logsBloom: Hex
  /** `0x1` success, `0x0` failure (absent before Byzantium, where `root` is set). */
  status?: Hex
  root?: Hex
  to: Hex | null
  transactionHash: Hex
  transactionIndex: Hex
  type: Hex
  blobGasUsed?: Hex
  blobGasPrice?: Hex
}

/** A block by number (`0x…` or a tag) or, as EIP-1898 allows, by hash or number object (a tag too, as geth reads it). */
export type BlockSelector = BlockTag | { blockHash: Hex; requireCanonical?: boolean } | { blockNumber: BlockTag }

/** A quantity given as a JSON number or hex (the test controls accept both). */
export type NumberOrHex = number | Hex

/** eth_call's state overrides: per address, what to replace for the call. */
export type RpcStateOverrides = Record<Hex, {
  balance?: Hex
  nonce?: Hex
  code?: Hex
  state?: Record<Hex, Hex>
  stateDiff?: Record<Hex, Hex>
  movePrecompileToAddress?: Hex
}>

/** eth_call's block overrides (geth's names). */
export type RpcBlockOverrides = {
  number?: Hex
  difficulty?: Hex
  time?: Hex
  gasLimit?: Hex
  feeRecipient?: Hex
  prevRandao?: Hex
  baseFeePerGas?: Hex
  blobBaseFee?: Hex
  beaconRoot?: Hex
  withdrawals?: RpcWithdrawal[]
  /** Other names of `feeRecipient`, `prevRandao` and `baseFeePerGas`, which the node reads too. */
  coinbase?: Hex
  random?: Hex
  baseFee?: Hex
}

/** The filter object of eth_getLogs and eth_newFilter. */
export type RpcLogFilter = {
  fromBlock?: BlockTag
  toBlock?: BlockTag
  blockHash?: Hex
  address?: Hex | readonly Hex[]
  topics?: ReadonlyArray<Hex | readonly Hex[] | null>
}

/** An EIP-7702 authorization as transactions carry it. */
export type RpcAuthorization = {
  chainId: Hex
  address: Hex
  nonce: Hex
  yParity: Hex
  r: Hex
  s: Hex
}

/** A transaction (eth_getTransactionByHash, full blocks); the block fields are null while pending. */
export type RpcTransaction = {
  blockHash: Hex | null
  blockNumber: Hex | null
  blockTimestamp?: Hex
  from: Hex
  gas: Hex
  gasPrice: Hex
  hash: Hex
  input: Hex
  nonce: Hex
  to: Hex | null
  transactionIndex: Hex | null
  value: Hex
  type: Hex
  maxFeePerGas?: Hex
  maxPriorityFeePerGas?: Hex
  accessList?: Array<{ address: Hex; storageKeys: Hex[] }>
  chainId?: Hex
  maxFeePerBlobGas?: Hex
  blobVersionedHashes?: Hex[]
  authorizationList?: RpcAuthorization[]
  v: Hex
  r: Hex
  s: Hex
  yParity?: Hex
}

/** A block header (eth_getHeaderByNumber; the fields every block has). */
export type RpcHeader = {
  baseFeePerGas?: Hex
  difficulty: Hex
  extraData: Hex
  gasLimit: Hex
  gasUsed: Hex
  hash: Hex
  logsBloom: Hex
  miner: Hex
  mixHash: Hex
  nonce: Hex
  number: Hex
  parentHash: Hex
  receiptsRoot: Hex
  sha3Uncles: Hex
  stateRoot: Hex
  timestamp: Hex
  transactionsRoot: Hex
  withdrawalsRoot?: Hex
  blobGasUsed?: Hex
  excessBlobGas?: Hex
  parentBeaconBlockRoot?: Hex
  requestsHash?: Hex
}

/** A withdrawal of a block (Shanghai on). */
export type RpcWithdrawal = {
  index: Hex
  validatorIndex: Hex
  address: Hex
  amount: Hex
}

/**
 * A block: `transactions` holds hashes, or with `Full` the transaction objects (the boolean
 * second param of eth_getBlockByNumber / eth_getBlockByHash).
 */
export type RpcBlock<Full extends boolean = boolean> = RpcHeader & {
  size: Hex
  transactions: Full extends true ? RpcTransaction[] : Full extends false ? Hex[] : Hex[] | RpcTransaction[]
  uncles: Hex[]
  withdrawals?: RpcWithdrawal[]
}
