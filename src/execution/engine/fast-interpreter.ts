/**
 * A main loop for @ethereumjs/evm's interpreter that does not await what is not asynchronous.
 *
 * The library's `Interpreter#run` awaits `runStep` for every opcode, and `runStep` is an async
 * function that also awaits every dynamic-gas handler; so each PUSH, DUP or ADD pays for two
 * promises and two turns of the microtask queue. Over the few hundred opcodes of a token
 * transfer that was the largest single cost of its EVM run. This loop does what `run` and
 * `runStep` do, in the same order and through the same objects (the opcode table's entries, the
 * interpreter's `useGas`, the same error handling), but awaits a gas handler or an opcode
 * handler only when it returns a promise.
 *
 * It takes over only for legacy (non-EOF) code that starts at the first byte, on forks without
 * Verkle code-chunk charging (EIPs 6800, 7864) or block-level access lists (EIP 7928, whose
 * call out-of-gas is finished inside `runStep`), with the library's profiler off. A step that
 * needs more than the plain path (a `step` listener or DEBUG, an access witness) goes through
 * the library's own `runStep`, so tracers see exactly what they saw before. Anything else runs
 * the library's `run` unchanged. An opcode observer (`opcode-observer.ts`) is called before
 * each opcode on either way (it is handed the stack and the code, never the gas).
 *
 * The gas left is a number in the loop while it is exact as one: `useGas` made a new bigint for
 * every opcode. An opcode whose handlers read no gas (`gas-plan.ts`) is charged on the number,
 * with `useGas`'s out-of-gas (the gas left zero, then the trap); before any other opcode, a
 * traced step, an error and the frame's end the run state's `gasLeft` is written back, so every
 * reader (the library's handlers, the gas watch, tracers, the frame's result) sees what it saw
 * with the library's loop, and it is read again after. A frame given 2^53 gas or more (an
 * `eth_call` with gas 2^64-1) is charged in bigints throughout.
 */
import { EVMError } from '@ethereumjs/evm'
import { libraryHalts } from './fast-opcodes.js'
import { gasPlanOf } from './gas-plan.js'
import { opcodeObserverOf, type ObservedStack } from './opcode-observer.js'

interface OpcodeInfo {
  feeBigInt: bigint
  dynamicGas: boolean
  isAsync: boolean
  isInvalid: boolean
}

interface OpcodeEntry {
  opcodeInfo: OpcodeInfo
  opHandler: (runState: RunState, common: unknown) => unknown
  gasHandler: (runState: RunState, gas: bigint, common: unknown) => bigint | Promise<bigint>
}

interface RunState {
  code: Uint8Array
  programCounter: number
  opCode: number
  gasLeft: bigint
  validJumps: unknown
  cachedPushes: unknown
  shouldDoJumpAnalysis: boolean
  eip8037BurnLeftoverAfterCreateHaltOntoAlive?: boolean
  env: { accessWitness?: { revert(): void } }
  gasRefund: bigint
  stateGasSpilled?: bigint
  stack: { popN(n: number): bigint[] } & ObservedStack
  memory: { read(offset: number, size: number): Uint8Array }
  memoryWordCount: bigint
  returnBytes: Uint8Array
  stateManager: unknown
}

type HaltedState = Pick<
  RunState,
  'programCounter' | 'opCode' | 'gasLeft' | 'gasRefund' | 'stateGasSpilled' | 'stack' | 'memory' | 'memoryWordCount' | 'returnBytes' | 'env' | 'stateManager'
>

interface Interpreter {
  _runState: RunState
  _result: { returnValue?: Uint8Array }
  _env: { chargeCodeAccesses?: boolean }
  _evm: { _opcodeMap: Array<OpcodeEntry | undefined>; events: { listenerCount(event: string): number }; DEBUG: boolean }
  common: { isActivatedEIP(eip: number): boolean }
  profilerOpts?: { enabled?: boolean }
  runStep(entry?: OpcodeEntry): Promise<void>
  useGas(amount: bigint, context?: unknown): void
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis
}

/** A code's jump-destination analysis, as `Interpreter#_getValidJumpDestinations` gives it. */
interface JumpAnalysis {
  jumps: unknown
  pushes: unknown
  opcodesCached: Array<OpcodeEntry>
}

export type InterpreterRun = (this: Interpreter, code: Uint8Array, opts?: { pc?: number }) => Promise<unknown>

const EOF_FORMAT = 0xef
const JUMP = 0x56
const JUMPI = 0x57
const JUMPSUB = 0x5e
const STOP = 0x00
const RETURN = 0xf3
const REVERT = 0xfd
const EVM_ERROR = 'EVMError'
/**
 * The messages of the errors the loop itself ends a frame with, read once: in the loop each exit
 * only sets a local (`halt`) and breaks, and the error is made after the loop at one place every
 * frame reaches. An exit first taken after TurboFan compiled the loop would otherwise meet a
 * property load or a `new` without type feedback there, and V8 throws the compiled loop away
 * ("Insufficient type feedback") to compile it again: the first out-of-gas did so twice in
 * every suite's replay.
 */
const OUT_OF_GAS = EVMError.errorMessages.OUT_OF_GAS
const INVALID_OPCODE = EVMError.errorMessages.INVALID_OPCODE
const REVERTED = EVMError.errorMessages.REVERT
const STOPPED = EVMError.errorMessages.STOP
/**
 * What the loop looks at after a frame in which no handler threw: an EVMError (the class every
 * trap throws, so the same hidden class) of STOP, which is not an exception. The thrown error is
 * read by code every frame runs: a `catch` first entered after the loop's compile would meet its
 * loads and comparisons without type feedback and throw the compiled loop away (once in Safe).
 */
const NOTHING_THROWN = new EVMError(STOPPED)

/**
 * Gives a new interpreter's run state the shape it would reach later, so that every run state
 * the loop and the handlers see has one hidden class from its first opcode:
 *
 * - The fields the library's CALL and CREATE gas handlers add to the run state (they are not in
 *   the constructor's literal): a frame's first call moved its run state to another hidden
 *   class, so the loop, `useGas` and each opcode handler saw two or three of them, and their
 *   optimised code was thrown away ("wrong map") when another first appeared. `messageGasLimit`
 *   is `undefined` here, what its readers (the library's CALL handlers, the tracers, the gas
 *   watch) find where no call has set it; the two EIP-8037 pre-charges are zero, what the library
 *   sets them to without EIP-8037 and reads them as when they are absent (`?? 0n`).
 * - The stack's array, which starts empty with small-integer elements and changes its elements
 *   kind at the first push of a bigint: it starts as an array of objects instead.
 */
export function settleRunState(rs: SettledFields & { stack: unknown }): void {
  if (!('lastCallNewAccountStateGas' in rs)) rs.lastCallNewAccountStateGas = 0n
  if (!('messageGasLimit' in rs)) rs.messageGasLimit = undefined
  if (!('lastCreateNewAccountStateGas' in rs)) rs.lastCreateNewAccountStateGas = 0n
  const stack = rs.stack as { _store: bigint[] }
  if (stack._store.length === 0) stack._store = objectElements()
}

interface SettledFields {
  lastCallNewAccountStateGas?: bigint
  messageGasLimit?: bigint
  lastCreateNewAccountStateGas?: bigint
}

/** An empty array whose elements kind is already that of an array of bigints. */
function objectElements(): bigint[] {
  const store = [0n]
  store.length = 0
  return store
}

/** Wraps `Interpreter#run` with the loop described above. */
export function fastRun(original: InterpreterRun): InterpreterRun {
  return function run(this: Interpreter, code: Uint8Array, opts: { pc?: number } = {}): Promise<unknown> {
    const common = this.common
    if (
      (code[0] === EOF_FORMAT && common.isActivatedEIP(3540)) ||
      (opts.pc !== undefined && opts.pc !== 0) ||
      this._runState.programCounter !== 0 ||
      this.profilerOpts?.enabled === true ||
      common.isActivatedEIP(6800) ||
      common.isActivatedEIP(7864) ||
      common.isActivatedEIP(7928)
    ) {
      return original.call(this, code, opts)
    }
    return loop(this, code, this._getValidJumpDestinations(code))
  }
}

/**
 * `analysis` is the code's jump-destination analysis, taken (from the cache, jump-cache.ts) before
 * the loop and put into the run state where the library's `run` analyses: at the frame's first
 * jump. Taken inside the loop, the cache's paths for a code it has not seen (reached by the first
 * new contract after the loop's compile) were compiled into the loop without type feedback, and
 * the first of them threw the compiled loop away ("Insufficient type feedback for call").
 */
async function loop(interpreter: Interpreter, code: Uint8Array, analysis: JumpAnalysis): Promise<unknown> {
  const rs = interpreter._runState
  const common = interpreter.common
  const evm = interpreter._evm
  const table = evm._opcodeMap
  const observe = opcodeObserverOf(evm)
  const plan = gasPlanOf(table as never)
  const numbered = plan.entries as ReadonlyArray<OpcodeEntry | undefined>
  const fees = plan.fees
  rs.code = code
  // The frame's gas left as a number, or -1 where it is not exact as one (the bigint path).
  // While `ahead`, `rs.gasLeft` is behind it: written back before anything else reads it.
  let left = numberOf(rs.gasLeft)
  let ahead = false
  // Whether steps go through the library's `runStep`: read again after anything that may have
  // run other code (a handler that awaited, an opcode that is not charged as a number).
  let stepping = stepsInLibrary(evm, rs)
  let err: unknown
  // What a handler threw (a trap ends its frame by throwing), or NOTHING_THROWN.
  let thrown: unknown = NOTHING_THROWN
  // The message of the EVMError the loop ends the frame with (made after the loop), if any.
  let halt: EVMError['error'] | undefined
  let cachedOpcodes: Array<OpcodeEntry> | undefined
  while (rs.programCounter < rs.code.length) {
    const programCounter = rs.programCounter
    let opCode: number
    let entry: OpcodeEntry | undefined
    if (cachedOpcodes === undefined) {
      opCode = rs.code[programCounter] as number
      // The jump-destination analysis runs when the code first reaches a jump, as in `run`.
      if (opCode === JUMP || opCode === JUMPI || opCode === JUMPSUB) {
        rs.validJumps = analysis.jumps
        rs.cachedPushes = analysis.pushes
        rs.shouldDoJumpAnalysis = false
        cachedOpcodes = analysis.opcodesCached
      }
    } else {
      entry = cachedOpcodes[programCounter] as OpcodeEntry
      opCode = (entry.opcodeInfo as unknown as { code: number }).code
    }
    rs.opCode = opCode
    try {
      if (observe !== undefined) observe(programCounter, opCode, rs.stack, rs.code)
      if (stepping) {
        if (ahead) {
          rs.gasLeft = BigInt(left)
          ahead = false
        }
        await interpreter.runStep(entry)
        left = numberOf(rs.gasLeft)
        stepping = stepsInLibrary(evm, rs)
        continue
      }
      const op = entry ?? (table[opCode] as OpcodeEntry)
      const info = op.opcodeInfo
      // Nothing this opcode runs reads the gas left (gas-plan.ts): charged as a number.
      const asNumber = left >= 0 && numbered[opCode] === op
      if (!asNumber && ahead) {
        // Its handlers read the gas left: written back before the gas handler runs.
        rs.gasLeft = BigInt(left)
        ahead = false
      }
      // One call site for every opcode's gas handler: the handlers that read the gas left (CALL,
      // CREATE, SSTORE, GAS) took a call site of their own, which saw one of them before the
      // loop's compile and threw the compiled loop away at the next ("wrong call target").
      let gas = info.feeBigInt
      if (info.dynamicGas) {
        const charged = op.gasHandler(rs, gas, common)
        if (typeof charged === 'bigint') gas = charged
        else {
          gas = await charged
          if (asNumber) stepping = stepsInLibrary(evm, rs)
        }
      }
      if (asNumber) {
        const fee = info.dynamicGas ? Number(gas) : (fees[opCode] as number)
        if (fee > left) {
          // `useGas`: the gas left goes to zero (written back after the loop), then the out-of-gas trap.
          left = 0
          ahead = true
          halt = OUT_OF_GAS
          break
        }
        left -= fee
        ahead = true
      } else {
        if (info.isInvalid) {
          halt = INVALID_OPCODE
          break
        }
        if (gas > rs.gasLeft) {
          // `useGas`'s out-of-gas, without its trap: the gas left zero (after the loop), the error.
          left = 0
          ahead = true
          halt = OUT_OF_GAS
          break
        }
        interpreter.useGas(gas, info)
      }
      rs.programCounter++
      if ((opCode === RETURN || opCode === STOP || opCode === REVERT) && isLibraryHalt(opCode, op.opHandler)) {
        // What the library's handler does, without the throw that ends its frame.
        if (opCode !== STOP) {
          const [offset, length] = rs.stack.popN(2) as [bigint, bigint]
          // Made for every RETURN and REVERT, so the `new` has type feedback before the first empty one.
          const empty = new Uint8Array(0)
          interpreter._result.returnValue = length !== 0n ? rs.memory.read(Number(offset), Number(length)) : empty
        }
        // (No access witness to revert: a step with one went through `runStep` above.)
        if (opCode === REVERT) halt = REVERTED
        break
      }
      // A handler the library declares async may finish without a promise (fast-storage.ts).
      const done = op.opHandler(rs, common)
      if (done !== undefined && typeof (done as Promise<unknown>).then === 'function') {
        await done
        stepping = stepsInLibrary(evm, rs)
      }
      // A handler that may have read or changed the gas left: the number follows it.
      if (!ahead) {
        left = numberOf(rs.gasLeft)
        stepping = stepsInLibrary(evm, rs)
      }
    } catch (e) {
      // Looked at after the loop, where every frame passes (see NOTHING_THROWN).
      thrown = e
      break
    }
  }
  if (ahead) rs.gasLeft = BigInt(left)
  // What a handler threw, looked at by reads every frame makes (on NOTHING_THROWN when nothing
  // was), so the first trap after the loop's compile finds them with type feedback.
  const witness = rs.env.accessWitness
  if (thrown !== NOTHING_THROWN && witness !== undefined) witness.revert()
  // Non-VM errors are thrown on; STOP is not an exception.
  if (typeof thrown !== 'object' || thrown === null) throw thrown
  const caught = thrown as { errorType?: unknown; error?: unknown }
  if (caught.errorType !== EVM_ERROR) throw thrown
  if (caught.error !== STOPPED) err = thrown
  // Made at every frame's end, used only when the loop halted: a `new` reached only by halting
  // frames has no type feedback until the first of them; in Seaport's traced replay it
  // deoptimised the loop twenty times (with two compiles: the same code kept and left again).
  const halting = new EVMError(halt ?? REVERTED)
  if (halt !== undefined) err = halting
  if (err === undefined && rs.eip8037BurnLeftoverAfterCreateHaltOntoAlive === true && rs.gasLeft > 0n) {
    rs.gasLeft = 0n
    err = new EVMError(EVMError.errorMessages.OUT_OF_GAS)
  }
  return { runState: halted(rs), exceptionError: err }
}

/**
 * Whether a step needs more than the plain path: a `step` listener (tracers) or DEBUG, whose
 * hook the library's `runStep` calls, or an access witness. eventemitter3's `listenerCount` makes
 * a new key string for each look-up, which is why it is not asked before every opcode.
 */
function stepsInLibrary(evm: Interpreter['_evm'], rs: RunState): boolean {
  return evm.events.listenerCount('step') > 0 || evm.DEBUG || rs.env.accessWitness !== undefined
}

/** Below this a frame's gas left is exact as a number, and so is every charge subtracted from it. */
const EXACT = BigInt(Number.MAX_SAFE_INTEGER)

/** `gas` as a number, or -1 where it is not exact as one. */
function numberOf(gas: bigint): number {
  return gas <= EXACT ? Number(gas) : -1
}

/**
 * Whether `handler` is @ethereumjs/evm's own STOP, RETURN or REVERT: they end the frame by
 * throwing (`trap`), ~1.5 µs warm and more in a process's first transactions, once per frame.
 * The loop does what they do instead. An entry a layer wrapped (time-out guard, tracers) keeps
 * its handler and its throw.
 */
function isLibraryHalt(opCode: number, handler: unknown): boolean {
  // Every comparison and load on every call (no short-circuit): one first reached only by a later
  // STOP or REVERT would have no type feedback in the loop's compiled code, which inlines this.
  const isReturn = opCode === RETURN
  const isStop = opCode === STOP
  const { return: onReturn, stop: onStop, revert: onRevert } = libraryHalts
  return handler === (isReturn ? onReturn : isStop ? onStop : onRevert)
}

/**
 * What readers take from a finished frame's run state: @ethereumjs/evm its gas figures, the
 * tracers where and how it stopped. `runInterpreter` copies the run state it is handed into the
 * frame's result with a second object spread, which V8 (Node 20) makes cost about a microsecond
 * per property (see jump-cache.ts); the full run state has ~35 of them.
 */
function halted(rs: RunState): HaltedState {
  return {
    programCounter: rs.programCounter,
    opCode: rs.opCode,
    gasLeft: rs.gasLeft,
    gasRefund: rs.gasRefund,
    stateGasSpilled: rs.stateGasSpilled,
    stack: rs.stack,
    memory: rs.memory,
    memoryWordCount: rs.memoryWordCount,
    returnBytes: rs.returnBytes,
    env: rs.env,
    stateManager: rs.stateManager,
  }
}
