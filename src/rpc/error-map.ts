/**
 * The one table from domain errors (what the services below the RPC layer throw, no JSON-RPC
 * code among them) to JSON-RPC errors: their code, message and data on the wire, and the class
 * (and so the `name`) a caller of `node.request`, the node's helpers or the provider receives.
 * The dispatcher maps every error a method throws through it before anything else sees it (the
 * request log, `node.request`, the provider, the transports), and the node's helpers do the same.
 *
 * | domain error          | JSON-RPC error                   | code                                   | data                           |
 * | --------------------- | -------------------------------- | -------------------------------------- | ------------------------------ |
 * | `Refused`             | `ServerError`                    | -32000                                 | —                              |
 * | `TxRejected`          | `ServerError`                    | -32000                                 | —                              |
 * | `NotFound`            | `ServerError`                    | -32000                                 | —                              |
 * | `InvalidInput`        | `InvalidParamsError`             | -32602                                 | —                              |
 * | `LimitReached`        | `LimitExceededError`             | -32005                                 | —                              |
 * | `SimulationRefused`   | `RpcError`                       | eth_simulateV1's for the kind ({@link SIMULATION_CODES}) | —            |
 * | `TransactionFailed`   | `RpcError`                       | Hardhat's: -32000 out of gas, else -32603 | `{ message, txHash, data }`; its Solidity frames, if any, as `solidityTrace` beside it |
 * | `ForkRemoteError`     | `RpcError` (with `remote`, `method`, `answered`) | the remote's own when it answered; -32000 failed, 4900 closed, -32600/-32602 a bad request | the remote's |
 * | `ExecutionReverted`   | `ExecutionRevertedError`         | 3                                      | the revert bytes               |
 * | `NodeClosed`          | `NodeClosedError`                | 4900                                   | —                              |
 *
 * Anything else thrown passes unchanged: a JSON-RPC error of rpc/ or adapters/ as it is, an
 * unexpected failure as -32603 without its stack (`toErrorObject`).
 */
import {
  DomainError,
  ExecutionReverted,
  ForkRemoteError,
  InvalidInput,
  LimitReached,
  NodeClosed,
  Refused,
  SimulationRefused,
  TransactionFailed,
  withoutStack,
  type FailureKind,
  type ForkRemoteFailure,
  type SimulationRefusal,
  type SolidityFrame,
} from '../domain-errors.js'
import {
  ExecutionRevertedError,
  InvalidParamsError,
  LimitExceededError,
  NodeClosedError,
  RpcError,
  ServerError,
  toErrorObject,
  type RpcErrorObject,
} from '../errors.js'

/** geth's codes of eth_simulateV1's refusals. */
export const SIMULATION_CODES: Readonly<Record<SimulationRefusal, number>> = {
  nonceTooLow: -38010,
  nonceTooHigh: -38011,
  baseFeeTooLow: -38012,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimitReached: -38015,
  blockNumberInvalid: -38020,
  blockTimestampInvalid: -38021,
  clientLimitExceeded: -38026,
  invalidParams: -32602,
  internal: -32603,
}

/** geth's codes of a failed call inside an eth_simulateV1 result: a revert 3, an EVM error -32015. */
export const SIMULATED_CALL_CODES: Readonly<Record<'reverted' | 'vm', number>> = { reverted: 3, vm: -32015 }

/** Hardhat's codes of a failed execution (`hardhat node`'s, measured). */
const TRANSACTION_FAILED_CODES: Readonly<Record<FailureKind, number>> = { outOfGas: -32000, failed: -32603 }

/** The codes of a fork remote's failures that are no answer of its own. */
const FORK_REMOTE_CODES: Readonly<Record<Exclude<ForkRemoteFailure, 'answered'>, number>> = {
  failed: -32000,
  closed: 4900,
  badRequest: -32600,
  badParams: -32602,
}

/**
 * A fork remote's error as a JSON-RPC error: the remote's own code when it answered, the table's
 * otherwise; `remote`, `method` and `answered` stay readable on it, as on the remote client's error.
 */
class ForkRemoteRpcError extends RpcError {
  readonly remote: string
  readonly method: string
  readonly answered: boolean
  constructor(e: ForkRemoteError) {
    super(e.kind === 'answered' ? (e.remoteCode as number) : FORK_REMOTE_CODES[e.kind], e.message, e.data)
    this.remote = e.remote
    this.method = e.method
    this.answered = e.answered
  }
}

/** One row: a domain error class and the JSON-RPC error it becomes (the first row whose class matches wins). */
interface Row {
  readonly type: abstract new (...args: never[]) => DomainError
  readonly wire: (error: DomainError) => RpcError
}
const row = <E extends DomainError>(type: abstract new (...args: never[]) => E, wire: (error: E) => RpcError): Row => ({
  type,
  wire: wire as (error: DomainError) => RpcError,
})

/**
 * The Solidity frames put in an error's stack above its JavaScript frames, innermost first, as
 * Hardhat's in-process errors show them (`    at Vault.withdraw (contracts/Vault.sol:33)`), and
 * kept beside it as `solidityStack` (not enumerable: no answer changes) for wrappers that make an
 * error of their own (the EIP-1193 provider, the Hardhat plugin's ProviderError).
 */
export function withSolidityStack<E extends Error>(error: E, frames: readonly string[] | undefined, caller?: CallerStack): E {
  if (frames === undefined || frames.length === 0) return error
  // The JavaScript frames are taken now (or were taken by the caller, `callerStack`) and
  // formatted only when the stack is read, as V8 does for its own: formatting them goes through
  // the process's `Error.prepareStackTrace` (ts-node's source-map handler in a TypeScript Hardhat
  // project maps every frame, ~1 ms), and a test that expects the failure never reads it.
  const javascript: CallerStack = caller ?? {}
  if (caller === undefined) Error.captureStackTrace(javascript, withSolidityStack)
  let stack: string | undefined
  // Deleted first: redefining V8's own `stack` property (Node 20) formats it.
  delete (error as { stack?: string }).stack
  Object.defineProperty(error, 'stack', {
    configurable: true,
    enumerable: false,
    get: () => (stack ??= joinedStack(error, frames, javascript.stack)),
    set: (value: string) => {
      stack = value
    },
  })
  Object.defineProperty(error, 'solidityStack', { value: frames })
  return error
}

/**
 * The methods whose failures can carry Solidity frames: the calls, estimates and sends of
 * contract code (`TransactionFailed` with a `solidityStack`). Only their callers' frames are
 * taken ahead (`callerStack`, ~35 µs under a test runner's deep stacks); every other request
 * fails, if it fails, without a Solidity frame to put above them.
 */
export const SOLIDITY_FAILING_METHODS: ReadonlySet<string> = new Set([
  'eth_call',
  'eth_estimateGas',
  'eth_sendTransaction',
  'eth_sendRawTransaction',
  'eth_resend',
  'eth_sendUnsignedTransaction',
  'personal_sendTransaction',
])

/** JavaScript frames taken by `callerStack`, formatted when `stack` is first read. */
export type CallerStack = { stack?: unknown }

/** Frames a caller's stack may need to reach a test's own line under a client's and a runner's frames. */
const CALLER_FRAMES = 64

/**
 * The JavaScript frames of the current call, above `below` (left out with its callees): taken
 * synchronously, where a client's call into the node begins, for `withSolidityStack` to put under
 * the Solidity frames of a failure that comes back later.
 */
export function callerStack(below: Function): CallerStack {
  const stack: CallerStack = {}
  const limit = Error.stackTraceLimit
  // A client's own frames (viem's request, retry and action wrappers) come before the caller's.
  if (typeof limit === 'number' && limit < CALLER_FRAMES) Error.stackTraceLimit = CALLER_FRAMES
  try {
    Error.captureStackTrace(stack, below)
  } finally {
    Error.stackTraceLimit = limit
  }
  return stack
}

/** The error's first line, the Solidity frames, then the JavaScript frames of `formatted`. */
function joinedStack(error: Error, frames: readonly string[], formatted: unknown): string {
  const lines = typeof formatted === 'string' ? formatted.split('\n') : []
  const first = lines.findIndex((l) => l.startsWith('    at '))
  const javascript = first === -1 ? [] : lines.slice(first)
  return [String(error), ...frames.map((f) => `    at ${f}`), ...javascript].join('\n')
}

/** The frames `withSolidityStack` kept on an error, if any. */
export function solidityStackOf(error: unknown): readonly string[] | undefined {
  return (error as { solidityStack?: readonly string[] } | undefined)?.solidityStack
}

/**
 * A wire error, with its own JavaScript frames only when it has no Solidity frames: with them,
 * `withSolidityStack` replaces its stack by frames it takes itself.
 */
function ownStack<E extends Error>(frames: readonly string[] | undefined, make: () => E): E {
  return frames === undefined || frames.length === 0 ? make() : withoutStack(make)
}

const TABLE: readonly Row[] = [
  row(Refused, (e) => new ServerError(e.message)),
  row(InvalidInput, (e) => new InvalidParamsError(e.message)),
  row(LimitReached, (e) => new LimitExceededError(e.message)),
  row(SimulationRefused, (e) => new RpcError(SIMULATION_CODES[e.kind], e.message)),
  row(TransactionFailed, (e) => withSolidityTrace(withSolidityStack(ownStack(e.solidityStack, () => new RpcError(TRANSACTION_FAILED_CODES[e.kind], e.message, e.data)), e.solidityStack), e.solidityTrace)),
  row(ForkRemoteError, (e) => new ForkRemoteRpcError(e)),
  row(ExecutionReverted, (e) => withSolidityTrace(withSolidityStack(ownStack(e.solidityStack, () => new ExecutionRevertedError(e.reason, e.revertData)), e.solidityStack), e.solidityTrace)),
  row(NodeClosed, () => new NodeClosedError()),
]

/**
 * Keeps a failure's Solidity frames as data on its JSON-RPC error, as `solidityTrace` (not
 * enumerable: no in-process answer changes), for `toWireError` to send beside `data`.
 */
export function withSolidityTrace<E extends Error>(error: E, frames: readonly SolidityFrame[] | undefined): E {
  if (frames !== undefined && frames.length > 0) Object.defineProperty(error, 'solidityTrace', { value: frames })
  return error
}

/** The frames `withSolidityTrace` kept on an error, if any. */
export function solidityTraceOf(error: unknown): readonly SolidityFrame[] | undefined {
  return (error as { solidityTrace?: readonly SolidityFrame[] } | undefined)?.solidityTrace
}

/** The JSON-RPC error a domain error becomes; anything else is returned as it is. */
export function toRpcError(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error
  for (const { type, wire } of TABLE) if (error instanceof type) return wire(error)
  return error
}

/**
 * Anything thrown as a wire error object: a domain error by the table, the rest by `toErrorObject`.
 * A failure's Solidity frames go in a member of their own, `solidityTrace`, after `data`: clients
 * (viem, ethers, alloy, Hardhat's HTTP provider) read the revert from `data`, ethers and alloy by
 * searching it for the first hex string, so nothing is added inside it; they ignore other members.
 */
export function toWireError(error: unknown): RpcErrorObject {
  const mapped = toRpcError(error)
  const object = toErrorObject(mapped)
  const trace = solidityTraceOf(mapped)
  if (trace !== undefined) object.solidityTrace = trace
  return object
}

/** A failed call inside an eth_simulateV1 result as geth answers it: `{ code, message, data? }`. */
export function simulatedCallError(error: { kind: 'reverted' | 'vm'; message: string; data?: string }): RpcErrorObject {
  const code = SIMULATED_CALL_CODES[error.kind]
  return error.data === undefined ? { code, message: error.message } : { code, message: error.message, data: error.data }
}
