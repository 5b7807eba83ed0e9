/**
 * @ethereumjs/evm's `_executeCall` (a CALL frame: value transfer, code loading, the interpreter)
 * without its one costly line. It hands the interpreter a copy of the message built as
 * `{ ...{ codeAddress }, ...message, gasLimit }`, and V8 (Node 20) takes a slow path for the
 * second spread of an object literal: ~0.9 µs per property, ~17 µs for a message's 18, more
 * than the rest of a token transfer's frame set-up together (measured in isolation; the same
 * copy through `Object.assign` takes ~1 µs).
 *
 * `fastExecuteCall` takes the steps of the library's method in the same order, through the same
 * EVM methods (`_reduceSenderBalance`, `_addToBalance`, `_loadCode`, `runInterpreter`,
 * `runPrecompile`, `postMessageCleanup`), for the forks this node runs. Forks whose EIPs add
 * steps to a call frame (Verkle access witnesses 6800/7864, EIP-2780 top-frame charges,
 * EIP-7928 access lists, EIP-7708 transfer logs), the debug log and the profiler go through the
 * library's own method.
 */
import type { EVMResult, Message } from '@ethereumjs/evm'
import { Account } from '@ethereumjs/util'

/** EIPs that add work to a call frame in the library's method. */
const FRAME_EIPS = [2780, 6800, 7708, 7864, 7928]

export interface EvmInternals {
  DEBUG: boolean
  common: { isActivatedEIP(eip: number): boolean }
  stateManager: { getAccount(address: Message['caller']): Promise<Account | undefined> }
  _optsCached: { profiler?: { enabled?: boolean } }
  _reduceSenderBalance(account: Account, message: Message): Promise<void>
  _addToBalance(account: Account, message: Message): Promise<void>
  _loadCode(message: Message): Promise<void>
  runInterpreter(message: Message, opts: { initialLogs?: unknown }): Promise<ExecResult>
  runPrecompile(code: unknown, data: Uint8Array, gasLimit: bigint): Promise<ExecResult>
  postMessageCleanup(): void
}

type ExecResult = EVMResult['execResult'] & { gasRefund?: bigint }
/** `EVM#_executeCall`. */
export type ExecuteCall = (this: EvmInternals, message: Message) => Promise<EVMResult>

/**
 * `_executeCall` through the fast path for the EVMs `fast` accepts, through `library` (the
 * library's own method) for the rest and for the cases listed above.
 */
export function fastCall(library: ExecuteCall, fast: (evm: EvmInternals) => boolean): ExecuteCall {
  return function (this: EvmInternals, message: Message): Promise<EVMResult> {
    if (!fast(this) || this.DEBUG || this._optsCached.profiler?.enabled === true || FRAME_EIPS.some((eip) => this.common.isActivatedEIP(eip))) {
      return library.call(this, message)
    }
    return fastExecuteCall(this, message)
  }
}

async function fastExecuteCall(evm: EvmInternals, message: Message): Promise<EVMResult> {
  const gasLimit = message.gasLimit
  const account = (await evm.stateManager.getAccount(message.caller)) ?? new Account()
  let error: unknown
  if (!message.delegatecall) {
    try {
      await evm._reduceSenderBalance(account, message)
    } catch (e) {
      error = e
    }
  }
  const toAccount = (await evm.stateManager.getAccount(message.to as Message['caller'])) ?? new Account()
  if (!message.delegatecall) {
    try {
      await evm._addToBalance(toAccount, message)
    } catch (e) {
      error = e
    }
  }
  await evm._loadCode(message)
  const code = message.code as Uint8Array | ((...args: unknown[]) => unknown) | undefined
  if (!code || (typeof code !== 'function' && code.length === 0) || error !== undefined) {
    return {
      execResult: {
        gasRefund: message.gasRefund,
        executionGasUsed: 0n,
        exceptionError: error,
        returnValue: new Uint8Array(0),
        logs: undefined,
      } as unknown as ExecResult,
    }
  }
  let result: ExecResult
  if (message.isCompiled) {
    result = await evm.runPrecompile(code, message.data, gasLimit)
    result.gasRefund = message.gasRefund
  } else {
    result = await evm.runInterpreter(Object.assign({ codeAddress: message.codeAddress }, message, { gasLimit }), { initialLogs: undefined })
  }
  if (message.depth === 0) evm.postMessageCleanup()
  return { execResult: result }
}
