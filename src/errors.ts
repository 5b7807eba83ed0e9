/**
 * Typed errors. Below the dispatcher only these are thrown; the dispatcher is the one place
 * that turns anything thrown into a JSON-RPC error object.
 */

import type { SolidityFrame } from './domain-errors.js'

/** Base class: a JSON-RPC error with its code and optional data. */
export class RpcError extends Error {
  readonly code: number
  readonly data: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.name = 'RpcError'
    this.code = code
    this.data = data
  }
}

/** -32700: the request is not valid JSON. */
export class ParseError extends RpcError {
  constructor(message = 'parse error') {
    super(-32700, message)
    this.name = 'ParseError'
  }
}

/** -32600: the envelope is not a valid JSON-RPC 2.0 request. */
export class InvalidRequestError extends RpcError {
  constructor(message = 'invalid request') {
    super(-32600, message)
    this.name = 'InvalidRequestError'
  }
}

/** -32601: unknown method, or a method of a namespace that is off. */
export class MethodNotFoundError extends RpcError {
  constructor(method: string, message?: string) {
    super(-32601, message ?? `the method ${method} does not exist/is not available`)
    this.name = 'MethodNotFoundError'
  }
}

/** -32602: a parameter failed its codec; geth's wording `invalid argument N: reason`. */
export class InvalidParamsError extends RpcError {
  constructor(message: string) {
    super(-32602, message)
    this.name = 'InvalidParamsError'
  }
  /** `invalid argument <index>: <reason>`. */
  static argument(index: number, reason: string): InvalidParamsError {
    return new InvalidParamsError(`invalid argument ${index}: ${reason}`)
  }
}

/** -32603: an unexpected failure; the message never carries a stack. */
export class InternalError extends RpcError {
  constructor(message = 'internal error') {
    super(-32603, message)
    this.name = 'InternalError'
  }
}

/** -32000: a server-side refusal about chain state (unknown block, refused transaction…). */
export class ServerError extends RpcError {
  constructor(message: string, data?: unknown) {
    super(-32000, message, data)
    this.name = 'ServerError'
  }
}

/** -32005: a resource limit was reached. */
export class LimitExceededError extends RpcError {
  constructor(message: string) {
    super(-32005, message)
    this.name = 'LimitExceededError'
  }
}

/**
 * 4900 (EIP-1193 "disconnected"): the node was closed; every call after `node.close()` rejects
 * with it, as the provider's own requests do.
 */
export class NodeClosedError extends RpcError {
  constructor() {
    super(4900, 'the node is closed')
    this.name = 'NodeClosedError'
  }
}

/** 3: execution reverted; `data` holds the full revert bytes as hex. */
export class ExecutionRevertedError extends RpcError {
  constructor(reason: string | undefined, revertData: string) {
    super(3, reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, revertData)
    this.name = 'ExecutionRevertedError'
  }
}

/**
 * The shape of a JSON-RPC error object on the wire. `solidityTrace` (the Solidity frames of a
 * failure answered in Hardhat's form by a node with contract metadata) is a member beside `data`,
 * which stays what Hardhat sends: clients read the revert from `data` and ignore other members.
 */
export interface RpcErrorObject {
  code: number
  message: string
  data?: unknown
  solidityTrace?: readonly SolidityFrame[]
}

/** Turns anything thrown into a wire error object; untyped throws become -32603 without a stack. */
export function toErrorObject(error: unknown): RpcErrorObject {
  if (error instanceof RpcError) {
    return error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { code: -32603, message: message.split('\n')[0] ?? 'internal error' }
}
