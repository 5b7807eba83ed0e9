/** Params and results of the debug_* and trace_* methods: the tracer-dependent shapes as unions. */
import type { Hex } from '../hex.js'
import type { TracerObject } from '../execution/tracers/object-tracer.js'
import type { ParityTrace } from '../execution/tracers/parity-tracer.js'
import type { StructLogEntry } from '../execution/tracers/struct-log-forms.js'
import type { BlockSelector, BlockTag, RpcBlock, RpcBlockOverrides, RpcStateOverrides, RpcTransactionRequest } from './objects.js'

/** debug_trace*'s config: a named tracer (or a JavaScript tracer's code, or in process an object), its options and the struct logger's. */
export type RpcTraceConfig = {
  tracer?: 'callTracer' | 'prestateTracer' | '4byteTracer' | 'noopTracer' | 'opcodeTracer' | (string & {}) | TracerObject
  tracerConfig?: Record<string, unknown>
  /** A Go duration (`5s`, `300ms`). */
  timeout?: string
  enableMemory?: boolean
  disableStack?: boolean
  disableStorage?: boolean
  enableReturnData?: boolean
  limit?: number
  reexec?: number
}

/** debug_traceCall's config: a trace config with call overrides. */
export interface RpcTraceCallConfig extends RpcTraceConfig {
  stateOverrides?: RpcStateOverrides
  blockOverrides?: RpcBlockOverrides
  txIndex?: Hex
}

/** The struct logger's answer (no tracer named). */
export type RpcStructLogTrace = {
  gas: number
  failed: boolean
  returnValue: Hex | string
  structLogs: StructLogEntry[]
}

/** callTracer's frame. */
export type RpcCallFrame = {
  type: 'CALL' | 'STATICCALL' | 'DELEGATECALL' | 'CALLCODE' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT'
  from: Hex
  to?: Hex
  gas: Hex
  gasUsed: Hex
  input: Hex
  output?: Hex
  value?: Hex
  error?: string
  revertReason?: string
  calls?: RpcCallFrame[]
  logs?: Array<{ address: Hex; topics: Hex[]; data: Hex; position: Hex; index: Hex }>
}

/** prestateTracer's account (the default mode; `diffMode` answers `{ pre, post }` of these). */
export type RpcPrestateAccount = {
  balance?: Hex
  nonce?: number
  code?: Hex
  codeHash?: Hex
  storage?: Record<Hex, Hex>
}

/**
 * What debug_traceTransaction / debug_traceCall answer, by tracer: the struct logger's log,
 * callTracer's frame, prestateTracer's accounts (or `{ pre, post }` in diff mode), 4byteTracer's
 * selector counts, noopTracer's `{}`, a JavaScript or object tracer's own result (`unknown`).
 */
export type RpcTraceResult =
  | RpcStructLogTrace
  | RpcCallFrame
  | Record<Hex, RpcPrestateAccount>
  | { pre: Record<Hex, RpcPrestateAccount>; post: Record<Hex, RpcPrestateAccount> }
  | Record<string, number>
  | RpcJson

/** Any JSON value: what a JavaScript or object tracer returns. */
export type RpcJson = string | number | boolean | null | RpcJson[] | { [key: string]: RpcJson }

/** One transaction's entry of a block trace. */
export type RpcBlockTraceEntry = {
  txHash: Hex
  result?: RpcTraceResult
  error?: string
}

/** One OpenEthereum-style flat trace (trace_transaction, trace_block, trace_filter). */
export type RpcParityTrace = ParityTrace & {
  blockHash?: Hex
  blockNumber?: number
  transactionHash?: Hex
  transactionPosition?: number
}

/** A change of an account field in a state diff, in OpenEthereum's notation. */
export type RpcDelta = '=' | { '+': Hex } | { '-': Hex } | { '*': { from: Hex; to: Hex } }

/** A VM trace (`vmTrace`) of one frame. */
export type RpcVmTrace = {
  code: Hex
  ops: Array<{ cost: number; ex: { used: number; push: Hex[]; mem: { off: number; data: Hex } | null; store: { key: Hex; val: Hex } | null } | null; pc: number; sub: RpcVmTrace | null; op?: string }>
}

/** trace_replay* / trace_call's answer for one transaction; what was not asked for is null. */
export type RpcTraceResults = {
  output: Hex
  stateDiff: Record<Hex, { balance: RpcDelta; code: RpcDelta; nonce: RpcDelta; storage: Record<Hex, RpcDelta> }> | null
  trace: RpcParityTrace[]
  vmTrace: RpcVmTrace | null
  transactionHash?: Hex
}

/** trace_filter's filter. */
export type RpcTraceFilter = {
  fromBlock?: BlockTag
  toBlock?: BlockTag
  fromAddress?: Hex[]
  toAddress?: Hex[]
  mode?: 'union' | 'intersection'
  after?: number
  count?: number
}

/** geth's state dump: the root (hex without 0x) and accounts by address (balance in decimal). */
export type RpcDump = {
  root: string
  accounts: Record<string, { balance: string; nonce: number; root: Hex; codeHash: Hex; code?: Hex; storage?: Record<Hex, Hex>; address?: Hex; key?: Hex }>
}

type TraceTypes = Array<'trace' | 'vmTrace' | 'stateDiff'>

/** A method that answers an error on this node, always (Go runtime controls without a V8 analogue). */
type Refused<P extends unknown[]> = { params: P; result: never }

/** The methods of the debug and trace namespaces. */
export interface TracingMethodTypes {
  debug_accountRange: { params: [block: BlockSelector, start: Hex, maxResults: number, noCode: boolean, noStorage: boolean, incompletes: boolean]; result: RpcDump & { next?: string } }
  debug_blockProfile: Refused<[file: string, seconds: number]>
  debug_cpuProfile: { params: [file: string, seconds: number]; result: null }
  debug_dumpBlock: { params: [block: BlockTag]; result: RpcDump }
  debug_freeOSMemory: { params: []; result: null }
  debug_gcStats: { params: []; result: Record<string, number | number[] | null> }
  debug_getBadBlocks: { params: []; result: Array<{ hash: Hex; block: RpcBlock<true>; rlp: Hex }> }
  debug_getBlockRlp: { params: [number: number]; result: Hex }
  debug_getHeaderRlp: { params: [number: number]; result: Hex }
  debug_getModifiedAccountsByHash: { params: [startHash: Hex, endHash?: Hex]; result: Hex[] }
  debug_getModifiedAccountsByNumber: { params: [startNumber: number, endNumber?: number]; result: Hex[] }
  debug_getRawBlock: { params: [block: BlockSelector]; result: Hex | null }
  debug_getRawHeader: { params: [block: BlockSelector]; result: Hex | null }
  debug_getRawReceipts: { params: [block: BlockSelector]; result: Hex[] | null }
  debug_getRawTransaction: { params: [hash: Hex]; result: Hex }
  debug_goTrace: { params: [file: string, seconds: number]; result: null }
  debug_intermediateRoots: { params: [hash: Hex, config?: RpcTraceConfig]; result: Hex[] }
  debug_memStats: { params: []; result: Record<string, number | boolean | number[]> }
  debug_mutexProfile: Refused<[file: string, seconds: number]>
  debug_preimage: { params: [hash: Hex]; result: Hex }
  /** Text in geth's `Block.String()` layout. */
  debug_printBlock: { params: [number: number]; result: string }
  debug_setBlockProfileRate: Refused<[rate: number]>
  debug_setGCPercent: Refused<[percent: number]>
  debug_setMutexProfileFraction: Refused<[rate: number]>
  debug_stacks: { params: [filter?: string]; result: string }
  debug_standardTraceBadBlockToFile: { params: [hash: Hex, config?: RpcTraceConfig & { txHash?: Hex }]; result: string[] }
  debug_standardTraceBlockToFile: { params: [hash: Hex, config?: RpcTraceConfig & { txHash?: Hex }]; result: string[] }
  debug_startCPUProfile: { params: [file: string]; result: null }
  debug_startGoTrace: { params: [file: string]; result: null }
  debug_stopCPUProfile: { params: []; result: null }
  debug_stopGoTrace: { params: []; result: null }
  debug_storageRangeAt: { params: [block: BlockSelector, txIndex: number, address: Hex, start: Hex, maxResults: number]; result: { storage: Record<Hex, { key: Hex | null; value: Hex }> | null; nextKey: Hex | null } }
  /** Served on WebSocket transports (`traceChain`: the subscription id); elsewhere it answers an error. */
  debug_subscribe: { params: [name?: 'traceChain', start?: BlockTag, end?: BlockTag, config?: RpcTraceConfig]; result: Hex }
  debug_traceBadBlock: { params: [hash: Hex, config?: RpcTraceConfig]; result: RpcBlockTraceEntry[] }
  debug_traceBlock: { params: [rlp: Hex, config?: RpcTraceConfig]; result: RpcBlockTraceEntry[] }
  debug_traceBlockByHash: { params: [hash: Hex, config?: RpcTraceConfig]; result: RpcBlockTraceEntry[] }
  debug_traceBlockByNumber: { params: [block: BlockTag, config?: RpcTraceConfig]; result: RpcBlockTraceEntry[] }
  debug_traceBlockFromFile: { params: [file: string, config?: RpcTraceConfig]; result: RpcBlockTraceEntry[] }
  debug_traceCall: { params: [transaction: RpcTransactionRequest, block: BlockSelector, config?: RpcTraceCallConfig]; result: RpcTraceResult }
  debug_traceTransaction: { params: [hash: Hex, config?: RpcTraceConfig]; result: RpcTraceResult }
  /** Served on WebSocket transports; elsewhere it answers an error. */
  debug_unsubscribe: { params: [id?: Hex]; result: boolean }
  debug_verbosity: { params: [level: number]; result: null }
  debug_vmodule: { params: [pattern: string]; result: null }
  debug_writeBlockProfile: Refused<[file: string]>
  debug_writeMemProfile: { params: [file: string]; result: null }
  debug_writeMutexProfile: Refused<[file: string]>
  trace_block: { params: [block: BlockTag]; result: RpcParityTrace[] }
  trace_call: { params: [transaction: RpcTransactionRequest, traceTypes: TraceTypes, block?: BlockSelector, stateOverrides?: RpcStateOverrides, blockOverrides?: RpcBlockOverrides]; result: RpcTraceResults }
  trace_callMany: { params: [calls: Array<[transaction: RpcTransactionRequest, traceTypes: TraceTypes]>, block?: BlockSelector]; result: RpcTraceResults[] }
  trace_filter: { params: [filter: RpcTraceFilter]; result: RpcParityTrace[] }
  trace_get: { params: [hash: Hex, indices: Array<Hex | number>]; result: RpcParityTrace | null }
  trace_rawTransaction: { params: [raw: Hex, traceTypes: TraceTypes, block?: BlockSelector]; result: RpcTraceResults }
  trace_replayBlockTransactions: { params: [block: BlockTag, traceTypes: TraceTypes]; result: RpcTraceResults[] }
  trace_replayTransaction: { params: [hash: Hex, traceTypes: TraceTypes]; result: RpcTraceResults }
  trace_transaction: { params: [hash: Hex]; result: RpcParityTrace[] }
}
