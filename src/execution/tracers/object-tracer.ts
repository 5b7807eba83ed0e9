/**
 * In-process tracer objects: a caller of `node.request` may pass, as the trace config's `tracer`,
 * an object with geth's tracer functions (`step`, `fault`, `result`, optional `enter` / `exit` /
 * `setup`). They run in the node's own process with no sandbox and no serialisation: big numbers
 * are native `bigint`s, byte arrays `Uint8Array`s, the state reads (`db`) return promises, `step`
 * and `fault` may be async, and whatever `result` returns is the answer, as it is.
 */
import { Address } from '@ethereumjs/util'
import type { StateManagerInterface } from '@ethereumjs/common'
import { Refused } from '../../domain-errors.js'
import { opName } from './opcodes.js'
import { ScopeContracts } from './scope-contracts.js'
import type { FrameEnd, FrameStart, FrameType, Step, Tracer, TxEnd, TxStart } from './types.js'

/** The opcode about to run, as a tracer object's `step` sees it. */
export interface TracerStepLog {
  op: { toNumber(): number; toString(): string; isPush(): boolean }
  /** `peek(0)` is the top. */
  stack: { peek(index: number): bigint; length(): number }
  memory: { slice(begin: number, end: number): Uint8Array; getUint(offset: number): bigint; length(): number }
  contract: { getCaller(): Uint8Array; getAddress(): Uint8Array; getValue(): bigint; getInput(): Uint8Array }
  getPC(): number
  getGas(): bigint
  getCost(): bigint
  /** 1 for the transaction's own frame. */
  getDepth(): number
  getRefund(): bigint
  /** The opcode's error (in `fault`), else undefined. */
  getError(): string | undefined
}

/** The state as the transaction sees it at the moment of the call. */
export interface TracerStateDb {
  getBalance(address: Uint8Array): Promise<bigint>
  getNonce(address: Uint8Array): Promise<bigint>
  getCode(address: Uint8Array): Promise<Uint8Array>
  getState(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array>
  exists(address: Uint8Array): Promise<boolean>
}

/** A call frame entered below the transaction's own (geth's `enter(frame)`). */
export interface TracerCallFrame {
  getType(): FrameType
  getFrom(): Uint8Array
  /** The callee; for a create, the zero address (the new address is not known yet). */
  getTo(): Uint8Array
  getInput(): Uint8Array
  getGas(): bigint
  /** Undefined for STATICCALL. */
  getValue(): bigint | undefined
}

/** A call frame left (geth's `exit(frameResult)`). */
export interface TracerFrameResult {
  getGasUsed(): bigint
  getOutput(): Uint8Array
  getError(): string | undefined
}

/** What `result` receives about the transaction (geth's `ctx`). */
export interface TracerContext {
  type: 'CALL' | 'CREATE'
  from: Uint8Array
  to: Uint8Array
  input: Uint8Array
  gas: bigint
  gasPrice: bigint
  value: bigint
  block: bigint
  intrinsicGas: bigint
  gasUsed: bigint
  output: Uint8Array
  error?: string
  /** Milliseconds the transaction took to run traced. */
  time: number
  blockHash?: Uint8Array
  txIndex?: number
  txHash?: Uint8Array
}

/** A tracer object for `node.request` (see the module's description). */
export interface TracerObject {
  setup?(config: Record<string, unknown>): void
  step?(log: TracerStepLog, db: TracerStateDb): void | Promise<void>
  fault(log: TracerStepLog, db: TracerStateDb): void | Promise<void>
  enter?(frame: TracerCallFrame): void
  exit?(result: TracerFrameResult): void
  result(ctx: TracerContext, db: TracerStateDb): unknown
}

/** True for a value that is a tracer object rather than a tracer's name or code. */
export function isTracerObject(v: unknown): v is TracerObject {
  return typeof v === 'object' && v !== null && typeof (v as { result?: unknown }).result === 'function'
}

function stateDb(get: () => StateManagerInterface | undefined): TracerStateDb {
  const state = () => {
    const s = get()
    if (s === undefined) throw new Refused('no state to read')
    return s
  }
  const word = (b: Uint8Array) => {
    const out = new Uint8Array(32)
    out.set(b.subarray(Math.max(0, b.length - 32)), 32 - Math.min(32, b.length))
    return out
  }
  return {
    getBalance: async (a) => (await state().getAccount(new Address(a)))?.balance ?? 0n,
    getNonce: async (a) => (await state().getAccount(new Address(a)))?.nonce ?? 0n,
    getCode: (a) => state().getCode(new Address(a)),
    getState: async (a, slot) => word(await state().getStorage(new Address(a), word(slot))),
    exists: async (a) => (await state().getAccount(new Address(a))) !== undefined,
  }
}

/** Runs a {@link TracerObject} on the tracer events of one transaction. */
export class ObjectTracer implements Tracer {
  readonly wantsSteps: boolean
  private state: StateManagerInterface | undefined
  private readonly db: TracerStateDb
  private current: Step | undefined
  private error: string | undefined
  /** The first failure of one of the object's functions. */
  private failure: string | undefined
  private readonly ctx: Partial<TracerContext> = {}
  private started = 0
  private readonly contracts = new ScopeContracts()
  private readonly log: TracerStepLog

  constructor(
    private readonly t: TracerObject,
    config: Record<string, unknown> | undefined,
  ) {
    if (typeof t.fault !== 'function') throw new Refused('trace object must expose a function fault()')
    if ((typeof t.enter === 'function') !== (typeof t.exit === 'function')) {
      throw new Refused('trace object must expose either both or none of enter() and exit()')
    }
    this.wantsSteps = typeof t.step === 'function'
    this.db = stateDb(() => this.state)
    const step = () => {
      if (this.current === undefined) throw new Refused('no opcode is being traced')
      return this.current
    }
    this.log = {
      op: { toNumber: () => step().op, toString: () => opName(step().op), isPush: () => step().op >= 0x5f && step().op <= 0x7f },
      stack: {
        peek: (i) => {
          const stack = step().stack
          if (!(i >= 0 && i < stack.length)) throw new RangeError(`tracer accessed out of bound stack: size ${stack.length}, index ${i}`)
          return stack[stack.length - 1 - i] as bigint
        },
        length: () => step().stack.length,
      },
      memory: {
        slice: (begin, end) => {
          const memory = step().memory
          if (end < begin || begin < 0) throw new RangeError(`tracer accessed out of bound memory: offset ${begin}, end ${end}`)
          const out = new Uint8Array(end - begin)
          if (begin < memory.length) out.set(memory.subarray(begin, Math.min(end, memory.length)))
          return out
        },
        getUint: (offset) => {
          const memory = step().memory
          if (!(offset >= 0 && offset + 32 <= memory.length)) {
            throw new RangeError(`tracer accessed out of bound memory: available ${memory.length}, offset ${offset}, size 32`)
          }
          let v = 0n
          for (const b of memory.subarray(offset, offset + 32)) v = (v << 8n) | BigInt(b)
          return v
        },
        length: () => step().memory.length,
      },
      contract: {
        getCaller: () => this.contracts.caller(step().depth - 1) ?? new Uint8Array(20),
        getAddress: () => step().address,
        getValue: () => this.contracts.value(step().depth - 1),
        getInput: () => this.contracts.input(step().depth - 1),
      },
      getPC: () => step().pc,
      getGas: () => step().gas,
      getCost: () => step().cost,
      getDepth: () => step().depth,
      getRefund: () => step().refund,
      getError: () => this.error,
    }
    t.setup?.(config ?? {})
  }

  onTxStart(tx: TxStart): void {
    this.state = tx.state
    this.started = performance.now()
    Object.assign(this.ctx, {
      type: tx.create ? 'CREATE' : 'CALL',
      from: tx.from,
      to: tx.to,
      input: tx.input,
      gas: tx.gasLimit,
      gasPrice: tx.gasPrice,
      value: tx.value,
      block: tx.blockNumber,
      intrinsicGas: tx.intrinsicGas,
    })
    if (tx.blockHash !== undefined) {
      this.ctx.blockHash = tx.blockHash
      if (tx.txHash !== undefined) {
        this.ctx.txIndex = tx.txIndex
        this.ctx.txHash = tx.txHash
      }
    }
  }

  /**
   * Runs one of the object's functions; its first failure (thrown, or a rejected promise) stops
   * the calls and is the trace's answer, as a JavaScript tracer's is.
   */
  private guard(fn: string, call: () => unknown): Promise<void> | void {
    if (this.failure !== undefined) return
    const failed = (error: unknown) => {
      this.failure ??= `${error instanceof Error ? error.message : String(error)}    in server-side tracer function '${fn}'`
    }
    try {
      const out = call()
      if (out instanceof Promise) return out.then(() => undefined, failed)
    } catch (error) {
      failed(error)
    }
  }

  onEnter(f: FrameStart): void {
    this.contracts.enter(f)
    const d = f.depth
    const enter = this.t.enter
    if (d === 0 || enter === undefined) return
    const to = f.to ?? new Uint8Array(20)
    void this.guard('enter', () =>
      enter.call(this.t, {
        getType: () => f.type,
        getFrom: () => f.from,
        getTo: () => to,
        getInput: () => f.input,
        getGas: () => f.gas,
        getValue: () => f.value,
      }),
    )
  }

  onExit(f: FrameEnd): void {
    const exit = this.t.exit
    if (f.depth === 0 || exit === undefined) return
    void this.guard('exit', () => exit.call(this.t, { getGasUsed: () => f.gasUsed, getOutput: () => f.output, getError: () => f.error }))
  }

  onStep(s: Step): Promise<void> | void {
    this.current = s
    this.state = s.state
    this.error = s.error
    const step = this.t.step
    if (step === undefined) return
    return this.guard('step', () => step.call(this.t, this.log, this.db))
  }

  /** As the JavaScript tracer: the opcode's `step` saw the error already, unless it was not foreseen. */
  onStepError(depth: number, error: string): void {
    if (this.current?.error === error) return
    this.onFault(depth, error)
  }

  /** The frame failed while its last opcode ran: geth's `fault`. */
  onFault(_depth: number, error: string): void {
    this.error = error
    void this.guard('fault', () => this.t.fault(this.log, this.db))
  }

  onTxEnd(end: TxEnd): void {
    this.state = end.state
    this.current = undefined
    Object.assign(this.ctx, { gasUsed: end.gasUsed, output: end.output, time: performance.now() - this.started })
    if (end.error !== undefined) this.ctx.error = end.error
  }

  async result(): Promise<unknown> {
    if (this.failure !== undefined) throw new Refused(this.failure)
    try {
      return await this.t.result(this.ctx as TracerContext, this.db)
    } catch (error) {
      if (error instanceof Refused) throw error
      throw new Refused(`${error instanceof Error ? error.message : String(error)}    in server-side tracer function 'result'`)
    }
  }
}
