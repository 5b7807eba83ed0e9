/** Params and results of the eth, web3, net and rpc methods (geth's shapes). */
import type { Hex } from '../hex.js'
import type {
  BlockSelector,
  BlockTag,
  RpcBlock,
  RpcBlockOverrides,
  RpcHeader,
  RpcLog,
  RpcLogFilter,
  RpcStateOverrides,
  RpcTransaction,
  RpcTransactionReceipt,
  RpcTransactionRequest,
} from './objects.js'

/**
 * The optional trailing params of eth_call, eth_estimateGas and eth_createAccessList (`null`
 * state overrides are none, as geth reads them, so block overrides can follow).
 */
type CallParams = [transaction: RpcTransactionRequest, block?: BlockSelector, stateOverrides?: RpcStateOverrides | null, blockOverrides?: RpcBlockOverrides]

/** eth_feeHistory's answer. */
export type RpcFeeHistory = {
  oldestBlock: Hex
  baseFeePerGas: Hex[]
  gasUsedRatio: number[]
  baseFeePerBlobGas?: Hex[]
  blobGasUsedRatio?: number[]
  /** Present when reward percentiles were asked for. */
  reward?: Hex[][]
}

/** eth_getProof's answer (EIP-1186). */
export type RpcProof = {
  address: Hex
  accountProof: Hex[]
  balance: Hex
  codeHash: Hex
  nonce: Hex
  storageHash: Hex
  storageProof: Array<{ key: Hex; value: Hex; proof: Hex[] }>
}

/** One block of eth_simulateV1's answer: a block with each call's outcome. */
export type RpcSimulatedBlock = RpcBlock & {
  calls: Array<{
    status: Hex
    returnData: Hex
    gasUsed: Hex
    logs: RpcLog[]
    error?: { code: number; message: string; data?: Hex }
  }>
}

/** eth_simulateV1's request (execution-apis). */
export type RpcSimulateRequest = {
  blockStateCalls: Array<{ blockOverrides?: RpcBlockOverrides; stateOverrides?: RpcStateOverrides; calls?: RpcTransactionRequest[] }>
  validation?: boolean
  traceTransfers?: boolean
  returnFullTransactions?: boolean
}

/** EIP-712 typed data, as eth_signTypedData_v4 takes it (an object or its JSON text). */
export type RpcTypedData =
  | string
  | { types: Record<string, Array<{ name: string; type: string }>>; primaryType: string; domain: Record<string, unknown>; message: Record<string, unknown> }

/** eth_fillTransaction / eth_signTransaction's `{ raw, tx }` (geth's SignTransactionResult). */
export type RpcSignedTransaction = {
  raw: Hex
  tx: Omit<RpcTransaction, 'blockHash' | 'blockNumber' | 'transactionIndex' | 'from'> & { from?: Hex }
}

/** One fork's entry of eth_config (EIP-7910). */
export type RpcForkConfig = {
  activationTime: number
  blobSchedule?: { target: number; max: number; baseFeeUpdateFraction: number }
  chainId: Hex
  forkId: Hex
  precompiles: Record<string, Hex>
  systemContracts: Record<string, Hex>
}

/** The methods of the eth namespace (and web3, net, rpc). */
export interface EthMethodTypes {
  eth_accounts: { params: []; result: Hex[] }
  eth_baseFee: { params: []; result: Hex | null }
  eth_blobBaseFee: { params: []; result: Hex }
  eth_blockNumber: { params: []; result: Hex }
  eth_call: { params: CallParams; result: Hex }
  eth_capabilities: { params: []; result: Record<string, unknown> }
  eth_chainId: { params: []; result: Hex }
  eth_coinbase: { params: []; result: Hex }
  eth_config: { params: []; result: { current: RpcForkConfig; next: RpcForkConfig | null; last: RpcForkConfig | null } }
  eth_createAccessList: { params: CallParams; result: { accessList: Array<{ address: Hex; storageKeys: Hex[] }>; gasUsed: Hex; error?: string } }
  eth_estimateGas: { params: CallParams; result: Hex }
  eth_feeHistory: { params: [blockCount: Hex | number, newestBlock: BlockTag, rewardPercentiles?: number[]]; result: RpcFeeHistory }
  eth_fillTransaction: { params: [transaction: RpcTransactionRequest]; result: RpcSignedTransaction }
  eth_gasPrice: { params: []; result: Hex }
  eth_getAccountInfo: { params: [address: Hex, block?: BlockSelector]; result: { balance: Hex; nonce: Hex; code: Hex } }
  eth_getBalance: { params: [address: Hex, block?: BlockSelector]; result: Hex }
  eth_getBlockByHash: { params: [hash: Hex, fullTransactions?: boolean]; result: RpcBlock | null }
  eth_getBlockByNumber: { params: [block: BlockTag, fullTransactions?: boolean]; result: RpcBlock | null }
  eth_getBlockReceipts: { params: [block: BlockSelector]; result: RpcTransactionReceipt[] | null }
  eth_getBlockTransactionCountByHash: { params: [hash: Hex]; result: Hex | null }
  eth_getBlockTransactionCountByNumber: { params: [block: BlockTag]; result: Hex | null }
  eth_getCode: { params: [address: Hex, block?: BlockSelector]; result: Hex }
  /** Block and pending-transaction filters answer hashes; log filters answer logs. */
  eth_getFilterChanges: { params: [id: Hex]; result: Hex[] | RpcLog[] }
  eth_getFilterLogs: { params: [id: Hex]; result: RpcLog[] }
  eth_getHeaderByHash: { params: [hash: Hex]; result: RpcHeader | null }
  eth_getHeaderByNumber: { params: [block: BlockTag]; result: RpcHeader | null }
  eth_getLogs: { params: [filter: RpcLogFilter]; result: RpcLog[] }
  eth_getPendingTransactions: { params: []; result: RpcTransaction[] }
  eth_getProof: { params: [address: Hex, storageKeys: Hex[], block?: BlockSelector]; result: RpcProof }
  eth_getRawTransactionByBlockHashAndIndex: { params: [hash: Hex, index: Hex]; result: Hex | null }
  eth_getRawTransactionByBlockNumberAndIndex: { params: [block: BlockTag, index: Hex]; result: Hex | null }
  eth_getRawTransactionByHash: { params: [hash: Hex]; result: Hex | null }
  eth_getStorageAt: { params: [address: Hex, slot: Hex, block?: BlockSelector]; result: Hex }
  eth_getStorageValues: { params: [slots: Record<Hex, Hex[]>, block?: BlockSelector]; result: Record<Hex, Hex[]> }
  eth_getTransactionByBlockHashAndIndex: { params: [hash: Hex, index: Hex]; result: RpcTransaction | null }
  eth_getTransactionByBlockNumberAndIndex: { params: [block: BlockTag, index: Hex]; result: RpcTransaction | null }
  eth_getTransactionByHash: { params: [hash: Hex]; result: RpcTransaction | null }
  eth_getTransactionCount: { params: [address: Hex, block?: BlockSelector]; result: Hex }
  eth_getTransactionLogs: { params: [hash: Hex]; result: RpcLog[] | null }
  eth_getTransactionReceipt: { params: [hash: Hex]; result: RpcTransactionReceipt | null }
  eth_getUncleByBlockHashAndIndex: { params: [hash: Hex, index: Hex]; result: null }
  eth_getUncleByBlockNumberAndIndex: { params: [block: BlockTag, index: Hex]; result: null }
  eth_getUncleCountByBlockHash: { params: [hash: Hex]; result: Hex }
  eth_getUncleCountByBlockNumber: { params: [block: BlockTag]; result: Hex }
  eth_hashrate: { params: []; result: Hex }
  eth_maxPriorityFeePerGas: { params: []; result: Hex }
  eth_mining: { params: []; result: boolean }
  eth_newBlockFilter: { params: []; result: Hex }
  eth_newFilter: { params: [filter: RpcLogFilter]; result: Hex }
  eth_newPendingTransactionFilter: { params: []; result: Hex }
  eth_pendingTransactions: { params: []; result: RpcTransaction[] }
  eth_protocolVersion: { params: []; result: Hex }
  eth_resend: { params: [transaction: RpcTransactionRequest, gasPrice?: Hex, gasLimit?: Hex]; result: Hex }
  eth_sendRawTransaction: { params: [raw: Hex]; result: Hex }
  eth_sendTransaction: { params: [transaction: RpcTransactionRequest]; result: Hex }
  /** Anvil's: sends from any address without a signature (a test control, gated as `anvil`). */
  eth_sendUnsignedTransaction: { params: [transaction: RpcTransactionRequest]; result: Hex }
  eth_sign: { params: [address: Hex, message: Hex]; result: Hex }
  /** The raw signed transaction, as Hardhat and Anvil answer. */
  eth_signTransaction: { params: [transaction: RpcTransactionRequest]; result: Hex }
  eth_signTypedData: { params: [address: Hex, typedData: RpcTypedData]; result: Hex }
  eth_signTypedData_v3: { params: [address: Hex, typedData: RpcTypedData]; result: Hex }
  eth_signTypedData_v4: { params: [address: Hex, typedData: RpcTypedData]; result: Hex }
  eth_simulateV1: { params: [request: RpcSimulateRequest, block?: BlockSelector]; result: RpcSimulatedBlock[] }
  /** Served on WebSocket transports (the subscription id); elsewhere it answers an error. */
  eth_subscribe: { params: [name?: 'newHeads' | 'logs' | 'newPendingTransactions' | 'syncing', options?: RpcLogFilter | boolean | { includeTransactions?: boolean }]; result: Hex }
  eth_syncing: { params: []; result: false }
  eth_uninstallFilter: { params: [id: Hex]; result: boolean }
  /** Served on WebSocket transports; elsewhere it answers an error. */
  eth_unsubscribe: { params: [id?: Hex]; result: boolean }
  net_listening: { params: []; result: boolean }
  net_peerCount: { params: []; result: Hex }
  net_version: { params: []; result: string }
  rpc_discover: { params: []; result: { openrpc: string; info: Record<string, unknown>; methods: Array<Record<string, unknown>> } }
  rpc_modules: { params: []; result: Record<string, string> }
  web3_clientVersion: { params: []; result: string }
  web3_sha3: { params: [data: Hex]; result: Hex }
}
