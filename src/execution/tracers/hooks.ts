/**
 * Turns one EVM's events into the tracer events of `types.ts`. The EVM emits `beforeMessage` /
 * `afterMessage` per call frame and `step` per opcode, but says neither which opcode opened a
 * frame (CALL, STATICCALL, CALLCODE…), nor when a log is emitted, nor anything about calls that
 * fail before a frame opens, nor SELFDESTRUCT (a frame of its own for geth's call tracer). So the
 * tracing VM's call, create, LOG and SELFDESTRUCT opcodes are wrapped; while no tracer is
 * attached the wrappers only forward.
 *
 * Listeners are attached for one traced transaction and removed after it, also when it fails: the
 * `step` listener makes the EVM build an event object with copies of stack and memory for every
 * opcode, so it is attached only for tracers that ask for steps; a tracer that needs only where
 * execution is (`onOpcode`) gets the engine's opcode observer instead, where the engine has one.
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import type { StateManagerInterface } from '@ethereumjs/common'
import { bigIntToBytes, generateAddress, generateAddress2, type Address } from '@ethereumjs/util'
import { word } from '../../hex.js'
import { frameError, isFaultError, isStepError, preStepError } from './opcodes.js'
import type { FrameType, Tracer } from './types.js'
import { frameEnv, frameLogs, memoryBytes, type FrameInterpreter } from '../engine/frames.js'
import { layerOpcodeTable, opcodeEntry } from '../engine/layers.js'
import { observesOpcodes } from '../engine/install.js'
import { setOpcodeObserver } from '../engine/opcode-observer.js'

const EMPTY = new Uint8Array(0)
const CALL_STIPEND = 2300n
const MAX_CALL_DEPTH = 1024
const MAX_NONCE = 2n ** 64n - 1n

const CALL_OPS = new Map<number, FrameType>([
  [0xf0, 'CREATE'],
  [0xf1, 'CALL'],
  [0xf2, 'CALLCODE'],
  [0xf4, 'DELEGATECALL'],
  [0xf5, 'CREATE2'],
  [0xfa, 'STATICCALL'],
])

interface RunState {
  stack: { peek(n: number): bigint[]; length: number }
  memory: object
  messageGasLimit?: bigint
  stateManager: StateManagerInterface
  interpreter: FrameInterpreter
}

type Handler = (runState: RunState, common: unknown) => unknown
type OpEntry = { opcodeInfo: unknown; opHandler: Handler; gasHandler: unknown }

interface Frame {
  create: boolean
  message: Message | undefined
  /** What the frame's last call or create returned (geth's `interpreter.returnData`). */
  returnData: Uint8Array
}

/**
 * Where a call or create opcode's arguments sit on the stack, counted from the top: how many it
 * takes, the value's position (none for DELEGATECALL and STATICCALL) and the input's offset (its
 * length follows).
 */
const ARGS: Record<FrameType, { count: number; value?: number; input: number }> = {
  CALL: { count: 7, value: 2, input: 3 },
  CALLCODE: { count: 7, value: 2, input: 3 },
  DELEGATECALL: { count: 6, input: 2 },
  STATICCALL: { count: 6, input: 2 },
  CREATE: { count: 3, value: 0, input: 1 },
  CREATE2: { count: 4, value: 0, input: 1 },
  SELFDESTRUCT: { count: 1, input: 0 },
}

/** The interpreter's state when a frame ended (ethereumjs' `runState`). */
interface HaltedState {
  programCounter: number
  opCode: number
  gasLeft: bigint
  gasRefund: bigint
  stack: { getStack(): bigint[] }
  memory: { _store: Uint8Array }
  memoryWordCount: bigint
  /** The frame's environment (the run state keeps it; see jump-cache.ts on the spent copy). */
  env: { address: Address }
  stateManager: StateManagerInterface
}

/** Opcodes that end a frame: STOP, RETURN, REVERT, INVALID, SELFDESTRUCT. */
const HALTING = new Set([0x00, 0xf3, 0xfd, 0xfe, 0xff])

/** A call opcode on its way: set by the opcode wrapper, taken by the frame it opens. */
interface Pending {
  type: FrameType
  entered: boolean
}

/** The address in a stack word (its low 20 bytes). */
function address20(value: bigint): Uint8Array {
  return word(value).subarray(12)
}

/** `length` bytes of memory at `offset`, zero past the end (as the EVM reads it). */
function readMemory(store: Uint8Array, offset: bigint, length: bigint): Uint8Array {
  if (length === 0n) return EMPTY
  const out = new Uint8Array(Number(length))
  const start = Number(offset)
  if (start < store.length) out.set(store.subarray(start, Math.min(store.length, start + out.length)))
  return out
}

/** geth's gas for a callee: the requested gas, capped at all but 1/64 of what is left (EIP-150). */
function callGas(available: bigint, requested: bigint, eip150: boolean): bigint {
  if (!eip150) return requested
  const cap = available - available / 64n
  return requested < cap ? requested : cap
}

/** The hooks of one tracing VM's EVM. */
export class TraceHooks {
  private tracer: Tracer | undefined
  private frames: Frame[] = []
  private pending: Pending | undefined
  private failure: unknown
  private readonly eip150: boolean
  /** EIP-2200's SSTORE gas sentry applies (Istanbul and later). */
  private readonly sentry: boolean

  constructor(private readonly evm: EVM) {
    this.eip150 = evm.common.gteHardfork('tangerineWhistle')
    this.sentry = evm.common.gteHardfork('istanbul')
    layerOpcodeTable<OpEntry>(evm, 'tracer', (map) => {
      for (const [op, type] of CALL_OPS) this.wrap(map, op, (run) => (rs, c) => this.callOp(type, run, rs, c))
      for (let op = 0xa0; op <= 0xa4; op++) this.wrap(map, op, (run) => (rs, c) => this.logOp(run, rs, c))
      this.wrap(map, 0xff, (run) => (rs, c) => this.selfdestructOp(run, rs, c))
    })
  }

  /** Runs `run` with `tracer` receiving this EVM's events; detaches it after, also on failure. */
  async trace<T>(tracer: Tracer, run: () => Promise<T>): Promise<T> {
    const events = this.evm.events
    const before = (m: Message, resolve?: () => void) => this.before(m, resolve ?? (() => {}))
    const after = (r: EVMResult, resolve?: () => void) => this.exit(r, resolve ?? (() => {}))
    const step = (e: InterpreterStep, resolve?: () => void) => this.step(e, resolve ?? (() => {}))
    this.tracer = tracer
    this.frames = []
    this.pending = undefined
    this.failure = undefined
    events.on('beforeMessage', before)
    events.on('afterMessage', after)
    const onOpcode = tracer.onOpcode?.bind(tracer)
    if (onOpcode !== undefined && observesOpcodes(this.evm)) setOpcodeObserver(this.evm, onOpcode)
    else if (tracer.wantsSteps) events.on('step', step)
    try {
      const out = await run()
      if (this.failure !== undefined) throw this.failure
      return out
    } finally {
      events.off('beforeMessage', before)
      events.off('afterMessage', after)
      events.off('step', step)
      setOpcodeObserver(this.evm, undefined)
      this.tracer = undefined
      this.frames = []
    }
  }

  private wrap(map: OpEntry[], op: number, make: (run: Handler) => Handler): void {
    const entry = map[op]
    if (entry === undefined || (entry.opcodeInfo as { code?: number }).code !== op) return
    const run = entry.opHandler
    const wrapped = make(run)
    // In the hidden class of the library's entries (layers.ts), not a spread copy.
    map[op] = opcodeEntry<OpEntry>(entry.opcodeInfo, (rs, c) => (this.tracer === undefined ? run(rs, c) : wrapped(rs, c)), entry.gasHandler)
  }

  private get depth(): number {
    return this.frames.length - 1
  }

  /**
   * A frame about to start. A create's address is computed as ethereumjs computes it right after
   * this event (from the caller's nonce, already raised, or from the salt), since geth's `OnEnter`
   * names the new contract as the frame's `to`.
   */
  private before(m: Message, resolve: () => void): void {
    if (this.tracer === undefined || m.to !== undefined) {
      this.enter(m, undefined)
      return resolve()
    }
    if (m.salt !== undefined) {
      this.enter(m, generateAddress2(m.caller.bytes, m.salt, m.data))
      return resolve()
    }
    this.evm.stateManager.getAccount(m.caller).then(
      (account) => {
        this.enter(m, generateAddress(m.caller.bytes, bigIntToBytes((account?.nonce ?? 1n) - 1n)))
        resolve()
      },
      (error: unknown) => {
        this.failure ??= error
        this.enter(m, undefined)
        resolve()
      },
    )
  }

  private enter(m: Message, created: Uint8Array | undefined): void {
    const tracer = this.tracer
    if (tracer === undefined) return
    let type: FrameType
    if (m.depth === 0 || this.pending === undefined) {
      type = m.to === undefined ? (m.salt === undefined ? 'CREATE' : 'CREATE2') : m.delegatecall ? 'DELEGATECALL' : 'CALL'
    } else {
      type = this.pending.type
      this.pending.entered = true
      this.pending = undefined
    }
    const create = type === 'CREATE' || type === 'CREATE2'
    this.frames.push({ create, message: m, returnData: EMPTY })
    // ethereumjs runs DELEGATECALL and CALLCODE as messages to the caller itself with another
    // account's code; geth names the caller as `from` and the code's account as `to`.
    const code = type === 'DELEGATECALL' || type === 'CALLCODE'
    tracer.onEnter?.({
      depth: m.depth,
      type,
      from: type === 'DELEGATECALL' ? (m.to?.bytes ?? m.caller.bytes) : m.caller.bytes,
      to: create ? created : code ? m.codeAddress.bytes : m.to?.bytes,
      // Call data is a view of the caller's memory, which changes later: keep a copy.
      input: m.data.slice(),
      gas: m.gasLimit,
      value: type === 'STATICCALL' ? undefined : m.value,
    })
  }

  private exit(r: EVMResult, resolve: () => void): void {
    const stop = this.tracer?.onStep === undefined || !this.tracer.wantsSteps ? undefined : this.ranOffTheEnd(r)
    if (stop === undefined) {
      this.leave(r)
      return resolve()
    }
    // The frame ran past the end of its code: geth executes (and traces) the implicit STOP there.
    this.step(stop, () => {
      this.leave(r)
      resolve()
    })
  }

  /** The STOP step geth records when a frame's code ends without a halting opcode. */
  private ranOffTheEnd(r: EVMResult): InterpreterStep | undefined {
    const frame = this.frames[this.frames.length - 1]
    const code = frame?.message?.code
    const rs = r.execResult.runState as (HaltedState & Record<string, unknown>) | undefined
    if (r.execResult.exceptionError !== undefined || rs === undefined || !(code instanceof Uint8Array) || code.length === 0) return undefined
    if (rs.programCounter < code.length || HALTING.has(rs.opCode)) return undefined
    return {
      pc: rs.programCounter,
      opcode: { name: 'STOP', fee: 0, dynamicFee: 0n, isAsync: false, code: 0x00 },
      gasLeft: rs.gasLeft,
      gasRefund: rs.gasRefund,
      stack: rs.stack.getStack(),
      memory: memoryBytes(rs.memory).slice(0, Number(rs.memoryWordCount) * 32),
      depth: frame?.message?.depth ?? 0,
      address: rs.env.address,
      stateManager: rs.stateManager,
    } as unknown as InterpreterStep
  }

  private leave(r: EVMResult): void {
    const tracer = this.tracer
    const frame = this.frames.pop()
    if (tracer === undefined || frame === undefined) return
    const exec = r.execResult
    const error = frameError(exec, frame.create)
    if (error !== undefined && isStepError(error)) tracer.onStepError?.(this.frames.length + 1, error)
    else if (error !== undefined && isFaultError(error)) tracer.onFault?.(this.frames.length + 1, error)
    const output = exec.returnValue
    tracer.onExit?.({
      depth: this.frames.length,
      output,
      gasUsed: exec.executionGasUsed,
      error,
      reverted: error !== undefined,
      created: error === undefined ? r.createdAddress?.bytes : undefined,
    })
    const parent = this.frames[this.frames.length - 1]
    if (parent === undefined) return
    // geth keeps a call's output (success or revert) and a create's revert data only.
    const kept = error === 'execution reverted' || (error === undefined && !frame.create)
    parent.returnData = kept ? output : EMPTY
  }

  private step(e: InterpreterStep, resolve: () => void): void {
    const tracer = this.tracer
    const frame = this.frames[this.frames.length - 1]
    if (tracer?.onStep === undefined || frame === undefined) return resolve()
    let op = e.opcode.code
    // Unassigned bytes all share ethereumjs' INVALID entry; the code says which byte it was.
    if (op === 0xfe) {
      const code = frame.message?.code
      if (code instanceof Uint8Array) op = code[e.pc] ?? op
    }
    let cost = e.opcode.dynamicFee ?? BigInt(e.opcode.fee)
    const call = op === 0xf1 || op === 0xf2 || op === 0xf4 || op === 0xfa
    // geth counts the gas handed to the callee in the CALL's cost; ethereumjs charges it later.
    if (call && e.stack.length > 0) cost += callGas(e.gasLeft - cost, e.stack[e.stack.length - 1] as bigint, this.eip150)
    let done: Promise<void> | void = undefined
    try {
      done = tracer.onStep({
        pc: e.pc,
        op,
        gas: e.gasLeft,
        cost,
        depth: e.depth + 1,
        stack: e.stack,
        memory: e.memory,
        address: e.address.bytes,
        refund: e.gasRefund,
        returnData: frame.returnData,
        state: e.stateManager,
        // ethereumjs announces every opcode before checking it; geth announces a failing one with its error.
        error: e.opcode.code === 0xfe ? undefined : preStepError(op, e.stack.length, e.gasLeft, cost, this.sentry),
      })
    } catch (error) {
      this.failure ??= error
    }
    if (done === undefined) return resolve()
    done.then(resolve, (error: unknown) => {
      this.failure ??= error
      resolve()
    })
  }

  /** CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE, CREATE2. */
  private async callOp(type: FrameType, run: Handler, rs: RunState, common: unknown): Promise<unknown> {
    const frame = this.frames[this.frames.length - 1]
    // geth sets the frame's return data at every call, to nothing when the call never started.
    if (frame !== undefined) frame.returnData = EMPTY
    const layout = ARGS[type]
    const args = rs.stack.peek(layout.count)
    const gas = rs.messageGasLimit
    const pending: Pending = { type, entered: false }
    this.pending = pending
    try {
      const out = await run(rs, common)
      if (!pending.entered && gas !== undefined && gas >= 0n) this.failFast(type, args, gas, rs)
      return out
    } finally {
      if (this.pending === pending) this.pending = undefined
    }
  }

  /**
   * A call or create the EVM refused before opening a frame (call depth, balance, nonce): geth
   * still reports it as a frame that used no gas, with the error.
   */
  private failFast(type: FrameType, args: bigint[], gas: bigint, rs: RunState): void {
    const tracer = this.tracer
    if (tracer === undefined) return
    const layout = ARGS[type]
    const env = frameEnv(rs.interpreter)
    const create = type === 'CREATE' || type === 'CREATE2'
    const value = layout.value === undefined ? 0n : (args[layout.value] ?? 0n)
    let error: string
    if (env.depth >= MAX_CALL_DEPTH) error = 'max call depth exceeded'
    else if (value > env.contract.balance) error = 'insufficient balance for transfer'
    else if (create && env.contract.nonce >= MAX_NONCE) error = 'nonce uint64 overflow'
    else return
    const depth = this.depth + 1
    const from = rs.interpreter.getAddress().bytes
    const input = readMemory(memoryBytes(rs.memory), args[layout.input] ?? 0n, args[layout.input + 1] ?? 0n)
    // geth computes a create's address before these checks and names it as the frame's `to`.
    let to: Uint8Array
    if (type === 'CREATE') to = generateAddress(from, bigIntToBytes(env.contract.nonce))
    else if (type === 'CREATE2') to = generateAddress2(from, word(args[3] ?? 0n), input)
    else to = address20(args[1] ?? 0n)
    tracer.onEnter?.({
      depth,
      type,
      from,
      to,
      input,
      // A call that sends value gets the stipend on top (geth adds it before the call starts).
      gas: value > 0n && !create ? gas + CALL_STIPEND : gas,
      value: type === 'STATICCALL' ? undefined : value,
    })
    tracer.onExit?.({ depth, output: EMPTY, gasUsed: 0n, error, reverted: true, created: undefined })
  }

  /** LOG0…LOG4: the log the opcode appended. */
  private logOp(run: Handler, rs: RunState, common: unknown): unknown {
    const out = run(rs, common)
    const logs = frameLogs(rs.interpreter)
    const log = logs[logs.length - 1]
    if (log !== undefined) this.tracer?.onLog?.(log)
    return out
  }

  /** SELFDESTRUCT: a frame of its own for geth's tracers, carrying the balance sent away. */
  private async selfdestructOp(run: Handler, rs: RunState, common: unknown): Promise<unknown> {
    const tracer = this.tracer
    const self = rs.interpreter.getAddress()
    const beneficiary = address20(rs.stack.peek(1)[0] ?? 0n)
    const balance = (await rs.stateManager.getAccount(self))?.balance ?? 0n
    const depth = this.depth + 1
    tracer?.onEnter?.({ depth, type: 'SELFDESTRUCT', from: self.bytes, to: beneficiary, input: EMPTY, gas: 0n, value: balance })
    tracer?.onExit?.({ depth, output: EMPTY, gasUsed: 0n, error: undefined, reverted: false, created: undefined })
    return run(rs, common)
  }
}
