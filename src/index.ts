/**
 * finality: an embeddable, in-process EVM chain with a BFT block producer.
 *
 * @example
 * ```ts
 * import { createNode } from 'finality-evm'
 * const node = await createNode()
 * await node.request({ method: 'eth_blockNumber' }) // '0x0'
 * await node.close()
 * ```
 */
export { createNode, type FinalityNode } from './node.js'
export type { Quantity } from './node-helpers.js'
export type { NodeOptions, GenesisAccount, AccountOption } from './options.js'
export type { ForkOptions } from './fork/options.js'
export { ForkRemoteError } from './domain-errors.js'
export { InvalidOptionError } from './option-rules.js'
export { ArtifactError, type ArtifactInput } from './metadata/artifacts.js'
export { loadArtifacts, type LoadedArtifacts, type ArtifactSource, type ArtifactSources } from './metadata/registry.js'
export type { MiningMode, MineOptions } from './producer/producer.js'
export type { ValidatorStatus as Validator } from './consensus/validator.js'
export type { Hex } from './hex.js'
export type { LogEntry, OnLog, Failure as LogFailure, TransactionEntry, BlockEntry, BlockRangeEntry, RequestEntry, ConsensusEntry, ConsoleEntry } from './log/entries.js'
export type {
  BlockTag,
  BlockSelector,
  RpcBlock,
  RpcHeader,
  RpcLog,
  RpcLogFilter,
  RpcMethodTypes,
  RpcRequest,
  RpcRequestArgs,
  RpcResult,
  RpcTransaction,
  RpcTransactionReceipt,
  RpcTransactionRequest,
  RpcTraceResult,
  RpcStructLogTrace,
  RpcCallFrame,
  RpcParityTrace,
  RpcTraceResults,
  RpcValidator,
  TypedMethod,
  TypedRequest,
} from './rpc-types.js'
export type { HttpOptions, HttpHandler, TransportOptions } from './adapters/http.js'
export type { ExplorerHandler, ExplorerOptions } from './explorer/serve.js'
export type { WsOptions, WsEndpoint } from './adapters/ws.js'
export type { ListenOptions, Listening } from './adapters/listen.js'
export type { Limits } from './limits.js'
export { cryptoBackends, type CryptoBackends } from './crypto/backends.js'
export { engineStatus, type EngineStatus, type EnginePatch } from './execution/engine/index.js'
export { DEFAULT_LIMITS } from './limits.js'
export type { Clock } from './clock.js'
export type { HardforkName } from './chain/common.js'
export type { CommitCertificateJson, CertificateWithSetJson, SignerJson } from './consensus/certificate.js'
export type { Fault } from './consensus/tendermint/faults.js'
export type { RpcResponse } from './rpc/dispatcher.js'
export type {
  TracerObject,
  TracerStepLog,
  TracerStateDb,
  TracerCallFrame,
  TracerFrameResult,
  TracerContext,
} from './execution/tracers/object-tracer.js'
export { STATE_DUMP_VERSION, type StateDump } from './controls/state-dump.js'
export { loadFixture, FixtureAnonymousFunctionError } from './controls/fixtures.js'
export { Eip1193Provider, ProviderRpcError, type RequestArguments, type ProviderEvents } from './adapters/eip1193.js'
export {
  RpcError,
  ParseError,
  InvalidRequestError,
  MethodNotFoundError,
  InvalidParamsError,
  InternalError,
  ServerError,
  LimitExceededError,
  ExecutionRevertedError,
  NodeClosedError,
} from './errors.js'
