/**
 * One hidden class for every call frame's result.
 *
 * @ethereumjs/evm's `runCall` writes into the result of the frame it ran when the frame failed
 * (`selfdestruct`, `createdAddresses`, `gasRefund`), and its callers read it. The library builds
 * those results in several shapes: `runInterpreter`'s (with or without `createdAddresses`), a
 * call to an account without code, a precompile's, and `_executeCreate`'s early and failed exits
 * (`{ returnValue, exceptionError, executionGasUsed }`, `{ ...result, ...OOGResult() }`). Each new
 * one that reached `runCall` after TurboFan compiled it threw the compiled code away ("wrong
 * map"): six compiles of `runCall` in one OpenZeppelin replay. The engine's frames (fast-call.ts)
 * make their results in this one shape, and the library's `_executeCall` and `_executeCreate`
 * results are copied into it.
 *
 * Every field of the library's `ExecResult` is present (`undefined` where the frame has none): a
 * reader sees the values it saw, `Object.keys` sees the fields in this order.
 */
import type { EVMResult } from '@ethereumjs/evm'

type ExecResult = EVMResult['execResult']

/** `ExecResult` with every field present, so the compiler names a field a new library version adds. */
type EveryField = { [K in keyof Required<ExecResult>]: ExecResult[K] }

/** A frame's result in the one shape, from its fields. */
export function frameResult(r: ExecResult): ExecResult {
  const out: EveryField = {
    logs: r.logs,
    returnValue: r.returnValue,
    selfdestruct: r.selfdestruct,
    createdAddresses: r.createdAddresses,
    runState: r.runState,
    exceptionError: r.exceptionError,
    gas: r.gas,
    executionGasUsed: r.executionGasUsed,
    gasRefund: r.gasRefund,
    stateGasSpilled: r.stateGasSpilled,
    blobGasUsed: r.blobGasUsed,
  }
  return out
}

/** `EVM#_executeCreate` and the library's `_executeCall`. */
export type ExecuteFrame<T> = (this: T, message: never) => Promise<EVMResult>

/**
 * `execute` (the library's method) with its frame's result copied into the one shape. The outer
 * object keeps the library's fields (`createdAddress` only where it set one); the engine's run
 * of a transaction copies them into its result's one shape (tx-result.ts).
 */
export function inOneShape<T>(execute: ExecuteFrame<T>): ExecuteFrame<T> {
  return async function (this: T, message: never): Promise<EVMResult> {
    const r = await execute.call(this, message)
    r.execResult = frameResult(r.execResult)
    return r
  }
}
