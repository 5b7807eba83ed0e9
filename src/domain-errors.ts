/**
 * The errors the services below the RPC layer throw (chain/, consensus/, execution/, state/,
 * txpool/, controls/, filters/, accounts/, profiling/, fork/). Each is named by what happened and
 * carries what the caller needs to know: its message in geth's or Hardhat's wording (part of the
 * behaviour), a kind where one class covers several cases, and its structured fields (revert
 * bytes, a transaction hash, a fork remote's own answer). None carries a JSON-RPC code: which
 * wire error each becomes (code, message, data) is decided once, by the table of
 * `rpc/error-map.ts`, where the dispatcher and every other boundary turn them into wire errors.
 */

/**
 * `make()`'s error made without V8 capturing its JavaScript frames: for an error whose own stack
 * nobody reads (a domain error the dispatcher maps to a new wire error, a wire error whose stack
 * `withSolidityStack` replaces), so a failure that a test expects pays for one capture, not two.
 */
export function withoutStack<E extends Error>(make: () => E): E {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return make()
  } finally {
    Error.stackTraceLimit = limit
  }
}

/** Base of every domain error: what lower layers throw instead of a JSON-RPC error. */
export abstract class DomainError extends Error {}

/** The node refuses the request in the state it is in (a setting, an operation, a trace). */
export class Refused extends DomainError {
  constructor(message: string) {
    super(message)
    this.name = 'Refused'
  }
}

/** A transaction refused at submission, pool admission or block building, in geth's words. */
export class TxRejected extends Refused {
  constructor(message: string) {
    super(message)
    this.name = 'TxRejected'
  }
}

/** What the request names does not exist (a block, a transaction, a filter, a subscription). */
export class NotFound extends Refused {
  constructor(message: string) {
    super(message)
    this.name = 'NotFound'
  }
}

/** A parameter found wrong below the codecs (its meaning depends on state or other parameters). */
export class InvalidInput extends DomainError {
  constructor(message: string) {
    super(message)
    this.name = 'InvalidInput'
  }
  /** `invalid argument <index>: <reason>`. */
  static argument(index: number, reason: string): InvalidInput {
    return new InvalidInput(`invalid argument ${index}: ${reason}`)
  }
}

/** A resource limit of the node was reached (live filters, subscriptions). */
export class LimitReached extends DomainError {
  constructor(message: string) {
    super(message)
    this.name = 'LimitReached'
  }
}

/**
 * The kinds of refusal of `eth_simulateV1` (geth's): its specification answers each with a code
 * of its own (rpc/error-map.ts's table).
 */
export type SimulationRefusal =
  | 'nonceTooLow'
  | 'nonceTooHigh'
  | 'baseFeeTooLow'
  | 'intrinsicGas'
  | 'insufficientFunds'
  | 'blockGasLimitReached'
  | 'blockNumberInvalid'
  | 'blockTimestampInvalid'
  | 'clientLimitExceeded'
  | 'invalidParams'
  | 'internal'

/** `eth_simulateV1` refused a block or call, of one `kind`. */
export class SimulationRefused extends DomainError {
  readonly kind: SimulationRefusal
  constructor(kind: SimulationRefusal, message: string) {
    super(message)
    this.name = 'SimulationRefused'
    this.kind = kind
  }
}

/**
 * How an execution Hardhat answers as failed ended: `outOfGas` (which Hardhat answers apart
 * from every other failure), or any other revert or halt.
 */
export type FailureKind = 'outOfGas' | 'failed'

/**
 * One entry of a failure's Solidity stack trace, as data: what the line Hardhat writes
 * (`Vault.withdraw (contracts/Vault.sol:33)`) says, field by field.
 */
export interface SolidityFrame {
  /** `error` for the innermost entry (where the failure happened), `call` for each entry outside it. */
  readonly kind: 'error' | 'call'
  /** The contract whose code ran; null in a free function; `<UnrecognizedContract>` for code of no known contract. */
  readonly contract: string | null
  /** As Hardhat names it: `constructor`, `<fallback>`, `<receive>`, `<unrecognized-selector>`, `<unknown>`. */
  readonly function: string
  /** The source name (`contracts/Vault.sol`); for code of no known contract its address, or `unknown` for a creation. */
  readonly file: string
  /** 1-based; null for code of no known contract. */
  readonly line: number | null
}

/** A frame as Hardhat writes it in an error's stack: `Vault.withdraw (contracts/Vault.sol:33)`. */
function frameText(f: SolidityFrame): string {
  return `${f.contract === null ? '' : `${f.contract}.`}${f.function} (${f.line === null ? f.file : `${f.file}:${f.line}`})`
}

/**
 * An execution failed, answered as Hardhat does: a mined transaction (its automine answer, with
 * `txHash`) or, in Hardhat mode, a call or estimate; its message and `{ message, txHash, data }`.
 */
export class TransactionFailed extends DomainError {
  readonly kind: FailureKind
  /** Hardhat's `{ message, txHash, data }`: the wire error's `data`. */
  readonly data: { message: string; txHash?: string | null; data: string }
  /** The Solidity stack trace of the failure, innermost first; empty without contract metadata. */
  readonly solidityTrace: readonly SolidityFrame[]
  /**
   * The same frames as Hardhat writes them in an error's stack (`Vault.withdraw
   * (contracts/Vault.sol:33)`), innermost first.
   */
  readonly solidityStack: readonly string[]
  constructor(kind: FailureKind, message: string, data: { message: string; txHash?: string | null; data: string }, solidityTrace: readonly SolidityFrame[] = []) {
    super(message)
    this.name = 'TransactionFailed'
    this.kind = kind
    this.data = data
    this.solidityTrace = solidityTrace
    this.solidityStack = solidityTrace.map(frameText)
  }
}

/**
 * How a fork's remote failed a request: it `answered` with a JSON-RPC error of its own; the
 * request `failed` (unreachable, timed out, refusing past the retries); the client was `closed`;
 * or the request given to the client was no request (`badRequest`) or had no params array
 * (`badParams`).
 */
export type ForkRemoteFailure = 'answered' | 'failed' | 'closed' | 'badRequest' | 'badParams'

/**
 * A fork's remote did not give what was asked. When the remote answered a JSON-RPC error
 * (`answered`), its code (`remoteCode`), message and data are kept unchanged, so `execution
 * reverted` stays recognisable, and a rate-limit answer that outlasts the retries keeps its code
 * too; otherwise the message names the remote and the cause.
 */
export class ForkRemoteError extends DomainError {
  readonly kind: ForkRemoteFailure
  /** The remote's URL without credentials, query or key-like path segments; `provider` for an EIP-1193 provider. */
  readonly remote: string
  /** The JSON-RPC method that failed. */
  readonly method: string
  /** The code of the remote's own JSON-RPC error answer (present for an answer, absent otherwise). */
  readonly remoteCode: number | undefined
  /** The data of the remote's answer. */
  readonly data: unknown
  constructor(init: { remote: string; method: string; kind: ForkRemoteFailure; message: string; remoteCode?: number; data?: unknown }) {
    super(init.message)
    this.name = 'ForkRemoteError'
    this.kind = init.kind
    this.remote = init.remote
    this.method = init.method
    this.remoteCode = init.remoteCode
    this.data = init.data
  }
  /** True when this is the remote's own JSON-RPC error answer, false for a failure of the request. */
  get answered(): boolean {
    return this.kind === 'answered'
  }
}

/** Execution reverted: geth's `execution reverted[: reason]`, with the full revert bytes as hex. */
export class ExecutionReverted extends DomainError {
  /** The decoded reason (an `Error(string)` or a panic's), absent when the bytes have none. */
  readonly reason: string | undefined
  /** The revert bytes, hex. */
  readonly revertData: string
  /** The Solidity stack trace of the revert, innermost first; empty without contract metadata. */
  readonly solidityTrace: readonly SolidityFrame[]
  /** The same frames as Hardhat writes them in an error's stack, innermost first. */
  readonly solidityStack: readonly string[]
  constructor(reason: string | undefined, revertData: string, solidityTrace: readonly SolidityFrame[] = []) {
    super(reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`)
    this.name = 'ExecutionReverted'
    this.reason = reason
    this.revertData = revertData
    this.solidityTrace = solidityTrace
    this.solidityStack = solidityTrace.map(frameText)
  }
}

/** The node was closed: every call after `node.close()` began is refused with it. */
export class NodeClosed extends DomainError {
  constructor() {
    super('the node is closed')
    this.name = 'NodeClosed'
  }
}

/** True for an error the node words itself (a domain error): it passes through as it is. */
export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError
}
