/**
 * The errors the services below the RPC layer throw (chain/, consensus/, execution/, state/,
 * txpool/, controls/, filters/, accounts/, profiling/). Each is named by what happened; its
 * message is geth's wording, which is part of the behaviour. Which JSON-RPC error a domain error
 * becomes (code and data) is decided here, in one place, by the base each class takes from
 * `errors.ts`; the dispatcher turns them into wire errors as it does any `RpcError`. Their
 * `name` stays the base's (`ServerError`, `InvalidParamsError`…), as callers of
 * `node.request` saw before these classes existed.
 *
 * | domain error         | JSON-RPC code | data                 |
 * | -------------------- | ------------- | -------------------- |
 * | `Refused`            | -32000        | —                    |
 * | `TxRejected`         | -32000        | —                    |
 * | `NotFound`           | -32000        | —                    |
 * | `InvalidInput`       | -32602        | —                    |
 * | `LimitReached`       | -32005        | —                    |
 * | `SimulationRefused`  | eth_simulateV1's code for the kind (-38010…) | — |
 * | `TransactionFailed`  | -32603 or -32000 (Hardhat's) | message, txHash, data |
 * | `ForkRemoteError`    | the remote's own code for its answer; -32000 when it failed, 4900 when closed | the remote's |
 * | `ExecutionRevertedError` | 3             | the revert bytes     |
 * | `NodeClosedError`    | 4900          | —                    |
 */
import { InvalidParamsError, LimitExceededError, RpcError, ServerError } from './errors.js'

/** The node refuses the request in the state it is in (a setting, an operation, a trace). */
export class Refused extends ServerError {
  constructor(message: string, data?: unknown) {
    super(message, data)
  }
}

/** A transaction refused at submission, pool admission or block building, in geth's words. */
export class TxRejected extends Refused {
  constructor(message: string) {
    super(message)
  }
}

/** What the request names does not exist (a block, a transaction, a filter, a subscription). */
export class NotFound extends Refused {
  constructor(message: string) {
    super(message)
  }
}

/** A parameter found wrong below the codecs (its meaning depends on state or other parameters). */
export class InvalidInput extends InvalidParamsError {
  constructor(message: string) {
    super(message)
  }
  /** `invalid argument <index>: <reason>`. */
  static override argument(index: number, reason: string): InvalidInput {
    return new InvalidInput(`invalid argument ${index}: ${reason}`)
  }
}

/** A resource limit of the node was reached (live filters, subscriptions). */
export class LimitReached extends LimitExceededError {
  constructor(message: string) {
    super(message)
  }
}

/**
 * `eth_simulateV1` refused a block or call: that method's specification gives each kind of
 * refusal its own code (nonce too low -38010, base fee too low -38012, …), which `code` carries.
 */
export class SimulationRefused extends RpcError {
  constructor(code: number, message: string) {
    super(code, message)
  }
}

/**
 * An execution failed, answered as Hardhat does: a mined transaction (its automine answer, with
 * `txHash`) or, in Hardhat mode, a call or estimate; its code, message and `{ message, txHash, data }`.
 */
export class TransactionFailed extends RpcError {
  constructor(code: number, message: string, data: { message: string; txHash?: string | null; data: string }) {
    super(code, message, data)
  }
}

/**
 * A fork's remote did not give what was asked. When the remote answered a JSON-RPC error
 * (`answered`), its code, message and data pass through unchanged, so `execution reverted` stays
 * recognisable; when it could not be reached, timed out, or kept refusing past the retries, the
 * code is -32000 (4900 once the client is closed) and the message names the remote and the cause.
 */
export class ForkRemoteError extends RpcError {
  /** The remote's URL without credentials, query or key-like path segments; `provider` for an EIP-1193 provider. */
  readonly remote: string
  /** The JSON-RPC method that failed. */
  readonly method: string
  /** True when this is the remote's own JSON-RPC error answer, false for a transport failure. */
  readonly answered: boolean
  constructor(init: { remote: string; method: string; code: number; message: string; data?: unknown; answered: boolean }) {
    super(init.code, init.message, init.data)
    this.remote = init.remote
    this.method = init.method
    this.answered = init.answered
  }
}

/** True for an error the node words itself (a domain error): it passes through as it is. */
export function isDomainError(error: unknown): error is RpcError {
  return error instanceof RpcError
}

/** Execution reverted (code 3, revert bytes as data), and the node was closed (4900): kept under their public names. */
export { ExecutionRevertedError, NodeClosedError } from './errors.js'
