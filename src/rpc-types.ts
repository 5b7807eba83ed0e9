/**
 * Wire types of the common JSON-RPC methods, for typed results of `node.request` and
 * `node.provider.request`: every quantity is `0x` hex, as on the wire. Methods not listed here
 * are still callable and resolve to `unknown`.
 */
import type { Hex } from './hex.js'

/** A block tag or number, as eth_getBalance and friends take it. */
export type BlockTag = Hex | 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized'

/** The transaction object of eth_sendTransaction / eth_call / eth_estimateGas. */
export interface RpcTransactionRequest {
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

/** Params and result of each typed method. */
export interface RpcMethodTypes {
  eth_chainId: { params: []; result: Hex }
  eth_blockNumber: { params: []; result: Hex }
  eth_accounts: { params: []; result: Hex[] }
  eth_gasPrice: { params: []; result: Hex }
  eth_getBalance: { params: [address: Hex, block?: BlockTag]; result: Hex }
  eth_getTransactionCount: { params: [address: Hex, block?: BlockTag]; result: Hex }
  eth_getCode: { params: [address: Hex, block?: BlockTag]; result: Hex }
  eth_getStorageAt: { params: [address: Hex, slot: Hex, block?: BlockTag]; result: Hex }
  eth_call: { params: [transaction: RpcTransactionRequest, block?: BlockTag, ...rest: unknown[]]; result: Hex }
  eth_estimateGas: { params: [transaction: RpcTransactionRequest, block?: BlockTag, ...rest: unknown[]]; result: Hex }
  eth_sendTransaction: { params: [transaction: RpcTransactionRequest]; result: Hex }
  eth_sendRawTransaction: { params: [raw: Hex]; result: Hex }
  eth_getTransactionReceipt: { params: [hash: Hex]; result: RpcTransactionReceipt | null }
  net_version: { params: []; result: string }
  web3_clientVersion: { params: []; result: string }
  evm_snapshot: { params: []; result: Hex }
  evm_revert: { params: [id: Hex]; result: boolean }
}

/** The name of a typed method. */
export type TypedMethod = keyof RpcMethodTypes

/** A request of a typed method; `params` may be left out where the method takes none. */
export type TypedRequest<M extends TypedMethod> = RpcMethodTypes[M]['params'] extends []
  ? { readonly method: M; readonly params?: RpcMethodTypes[M]['params'] }
  : { readonly method: M; readonly params: RpcMethodTypes[M]['params'] }
