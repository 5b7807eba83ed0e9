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
import { EVMError, type EVMResult, type Message } from '@ethereumjs/evm'
import { createZeroAddress, type Account } from '@ethereumjs/util'
import { NOT_AT_HAND } from '../../state/journaled-state.js'
import { settleRunState } from './fast-interpreter.js'
import { frameResult, inOneShape, type ExecuteFrame } from './frame-result.js'
import { accountNow, creditRecipient, debitSender, loadCodeNow, orEmptyAccount, syncSide, type FrameStateEvm } from './frame-state.js'

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
 * library's own method) for the rest and for the cases listed above; an accepted EVM's results
 * in the one shape of frame-result.ts either way.
 */
export function fastCall(library: ExecuteCall, fast: (evm: EvmInternals) => boolean): ExecuteCall {
  const libraryInOneShape = inOneShape(library as ExecuteFrame<EvmInternals>) as ExecuteCall
  return function (this: EvmInternals, message: Message): Promise<EVMResult> {
    if (!fast(this)) return library.call(this, message)
    if (this.DEBUG || this._optsCached.profiler?.enabled === true || FRAME_EIPS.some((eip) => this.common.isActivatedEIP(eip))) {
      return libraryInOneShape.call(this, message)
    }
    return fastExecuteCall(this, message)
  }
}

/** The fast path of a CALL frame (exported for its test). */
export async function fastExecuteCall(evm: EvmInternals, message: Message): Promise<EVMResult> {
  const gasLimit = message.gasLimit
  // The node's state answers without promises (frame-state.ts); any other takes the library's steps.
  const side = syncSide(evm as unknown as FrameStateEvm)
  let account = side === undefined ? NOT_AT_HAND : accountNow(side.state, message.caller)
  if (account === NOT_AT_HAND) account = orEmptyAccount(await evm.stateManager.getAccount(message.caller))
  let error: unknown
  if (!message.delegatecall) {
    if (side !== undefined) error = debitSender(side, account, message)
    else {
      try {
        await evm._reduceSenderBalance(account, message)
      } catch (e) {
        error = e
      }
    }
  }
  let toAccount = side === undefined ? NOT_AT_HAND : accountNow(side.state, message.to as Message['caller'])
  if (toAccount === NOT_AT_HAND) toAccount = orEmptyAccount(await evm.stateManager.getAccount(message.to as Message['caller']))
  if (!message.delegatecall) {
    if (side !== undefined) {
      const failed = creditRecipient(side, toAccount, message)
      if (failed !== undefined) error = failed
    } else {
      try {
        await evm._addToBalance(toAccount, message)
      } catch (e) {
        error = e
      }
    }
  }
  if (side === undefined || !loadCodeNow(evm as unknown as FrameStateEvm, side.state, message)) await evm._loadCode(message)
  const code = message.code as Uint8Array | ((...args: unknown[]) => unknown) | undefined
  if (!code || (typeof code !== 'function' && code.length === 0) || error !== undefined) {
    return {
      execResult: frameResult({ gasRefund: message.gasRefund, executionGasUsed: 0n, exceptionError: error as ExecResult['exceptionError'], returnValue: new Uint8Array(0), logs: undefined }),
    }
  }
  // Chosen, then called through `Function.prototype.call`: a suite's first precompile frame often
  // comes after V8 compiled this function on contracts' frames, and a branch it never took would
  // be compiled as a deopt; a call through `call` is compiled as an ordinary call whichever runs.
  const result = await (message.isCompiled ? precompileFrame : interpreterFrame).call(undefined, evm, message, code, gasLimit)
  if (message.depth === 0) evm.postMessageCleanup()
  return { execResult: result }
}

/**
 * A precompile's frame: its result, in the one shape. (Not an async function: the two frames'
 * functions share a hidden class, so reading `call` off the one chosen stays monomorphic.)
 */
function precompileFrame(evm: EvmInternals, message: Message, code: unknown, gasLimit: bigint): Promise<ExecResult> {
  return precompileResult(evm, message, code, gasLimit)
}

async function precompileResult(evm: EvmInternals, message: Message, code: unknown, gasLimit: bigint): Promise<ExecResult> {
  // The library's precompiles answer with a result or a promise of one.
  const result = await evm.runPrecompile(code, message.data, gasLimit)
  result.gasRefund = message.gasRefund
  return frameResult(result)
}

/** A contract's frame: the engine's runInterpreter (below) answers in the one shape; the library's does not. */
function interpreterFrame(evm: EvmInternals, message: Message, _code: unknown, gasLimit: bigint): Promise<ExecResult> {
  return evm.runInterpreter(Object.assign({ codeAddress: message.codeAddress }, message, { gasLimit }), { initialLogs: undefined })
}

/** What {@link fastRunInterpreter} reads of an EVM beyond {@link EvmInternals}. */
export interface FrameInternals extends EvmInternals {
  _block: unknown
  _tx: { gasPrice: bigint; origin?: unknown } | undefined
  blockchain: unknown
  journal: unknown
  performanceLogger: unknown
}

/** The interpreter's result fields and its run's outcome, as `runInterpreter` reads them. */
interface InterpreterInstance {
  _result: Record<string, unknown> & { returnValue?: Uint8Array }
  _env: object
  _runState: { stack: unknown }
  run(code: unknown, opts: unknown): Promise<{ runState: { gasLeft: bigint; gasRefund: bigint; stateGasSpilled?: bigint }; exceptionError?: { error: string } }>
}

/** The library's (unexported) Interpreter class, reached through the engine's probe. */
export type InterpreterClass = new (...args: unknown[]) => InterpreterInstance

/** `EVM#runInterpreter`. */
export type RunInterpreter = (this: FrameInternals, message: Message, opts?: { initialLogs?: unknown }) => Promise<ExecResult>

/**
 * @ethereumjs/evm's `runInterpreter` (a frame's interpreter set up, run and its result put
 * together) with the result built by `Object.assign` instead of its object literal, for the EVMs
 * `fast` accepts; others, and a frame without the EVM's block or transaction (`_block`, `_tx`:
 * set by each run, so a fresh EVM cannot show them to the start-up check), go through `library`.
 *
 * The library builds the result as `{ ...result, runState: { ...runState, ...result, ...env },
 * exceptionError, gas, … }`: in V8 (Node 20) the run state's second and third spreads and each
 * property the outer literal adds after its spread take the slow runtime path, ~4 µs a frame
 * (measured in isolation; 0.4 µs the same objects through `Object.assign`), a tenth of an
 * `eth_call` of an ERC20's balanceOf. The objects come out the same: the same keys in the same
 * order with the same values.
 */
export function fastRunInterpreter(library: RunInterpreter, Interpreter: InterpreterClass, fast: (evm: FrameInternals) => boolean): RunInterpreter {
  return async function (this: FrameInternals, message: Message, opts: { initialLogs?: unknown } = {}): Promise<ExecResult> {
    const tx = this._tx
    if (!fast(this)) return library.call(this, message, opts)
    if (this._block === undefined || tx === undefined) return frameResult(await library.call(this, message, opts))
    const side = syncSide(this as unknown as FrameStateEvm)
    let contract = side === undefined ? NOT_AT_HAND : accountNow(side.state, message.to ?? createZeroAddress())
    if (contract === NOT_AT_HAND) contract = orEmptyAccount(await this.stateManager.getAccount(message.to ?? createZeroAddress()))
    const m = message as Message & { chargeCodeAccesses?: unknown; createdAddresses?: Set<string> }
    const env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? 0n,
      code: message.code,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: tx.gasPrice,
      origin: tx.origin ?? message.caller ?? createZeroAddress(),
      block: this._block,
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: m.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: m.createdAddresses,
      initialLogs: opts.initialLogs,
    }
    const profiler = this._optsCached.profiler
    const interpreter = new Interpreter(this, this.stateManager, this.blockchain, env, message.gasLimit, this.journal, this.performanceLogger, profiler)
    settleRunState(interpreter._runState)
    if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct
    if (m.createdAddresses) interpreter._result.createdAddresses = m.createdAddresses
    const interpreterRes = await interpreter.run(message.code, opts)
    let result = interpreter._result
    let gasUsed = message.gasLimit - interpreterRes.runState.gasLeft
    const error = interpreterRes.exceptionError
    if (error) {
      if (error.error !== EVMError.errorMessages.REVERT && error.error !== EVMError.errorMessages.INVALID_EOF_FORMAT) gasUsed = message.gasLimit
      // The result is cleared on error.
      result = Object.assign({}, result)
      result.logs = []
      result.selfdestruct = new Map()
      result.createdAddresses = new Set()
    }
    ;(message.accessWitness as { commit(): void } | undefined)?.commit()
    // The interpreter's result holds `logs`, `returnValue`, `selfdestruct` and `createdAddresses`.
    return frameResult({
      logs: result.logs as ExecResult['logs'],
      returnValue: result.returnValue ?? new Uint8Array(0),
      selfdestruct: result.selfdestruct as ExecResult['selfdestruct'],
      createdAddresses: result.createdAddresses as ExecResult['createdAddresses'],
      runState: Object.assign({}, interpreterRes.runState, result, interpreter._env) as unknown as ExecResult['runState'],
      exceptionError: error as ExecResult['exceptionError'],
      gas: interpreterRes.runState?.gasLeft,
      executionGasUsed: gasUsed,
      gasRefund: interpreterRes.runState.gasRefund,
      stateGasSpilled: interpreterRes.runState.stateGasSpilled,
    })
  }
}
