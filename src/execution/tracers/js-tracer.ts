/**
 * geth's JavaScript tracers, run in a sandbox: QuickJS compiled to WebAssembly
 * (`quickjs-emscripten`), one runtime per traced transaction. The tracer's code sees only the
 * prelude's environment (`js-prelude.ts`) and the host functions below: no modules, no timers,
 * no I/O. A runtime gets a memory limit and a stack limit; every call into it runs under an
 * interrupt handler that stops it at the trace's deadline (the trace config's `timeout`) and after
 * `limits.jsTracerCallMs` of one uninterrupted call, since the node does nothing else while
 * a call runs. Between steps the tracer yields to the event loop every few milliseconds.
 *
 * The engine is loaded on the first JavaScript trace ({@link loadSandbox}), not at import.
 */
import { requireLater } from '../../lazy-module.js'
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten'
import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from '../../crypto/keccak.js'
import { Refused } from '../../domain-errors.js'
import { data, keyOf } from '../../hex.js'
import { opName } from './opcodes.js'
import { PRELUDE } from './js-prelude.js'
import { bytesOf, TracerState } from './js-state.js'
import { ScopeContracts } from './scope-contracts.js'
import type { FrameEnd, FrameStart, Step, Tracer, TxEnd, TxStart } from './types.js'

/**
 * The sandbox's limits (`limits.jsTracerMemoryBytes`, `jsTracerStackBytes`, `jsTracerCallMs`):
 * the memory and native stack one tracer's runtime may use, and the longest one call into it may
 * run, since the node serves nothing else meanwhile.
 */
export interface JsTracerLimits {
  memoryBytes: number
  stackBytes: number
  callMs: number
}

/** The defaults of {@link JsTracerLimits}. */
export const JS_TRACER_LIMITS: Readonly<JsTracerLimits> = Object.freeze({ memoryBytes: 64 * 1024 * 1024, stackBytes: 256 * 1024, callMs: 1000 })
/** How long steps may run back to back before the tracer lets the event loop run. */
const YIELD_EVERY_MS = 10
/** geth's cap on how far `memory.slice` may read past the memory's end. */
const MEMORY_PAD_LIMIT = 1024 * 1024

let engine: Promise<QuickJSWASMModule> | undefined

/** Loads the WebAssembly engine once; JavaScript tracers are created only after it resolved. */
export function loadSandbox(): Promise<QuickJSWASMModule> {
  // A module of its own (not the package's shared one), so that a trapped one can be replaced.
  engine ??= requireLater<typeof import('quickjs-emscripten')>('quickjs-emscripten')
    .then((m) => m.newQuickJSWASMModule())
    .catch((error: unknown) => {
      engine = undefined
      throw error
    })
  return engine
}

let loaded: QuickJSWASMModule | undefined

/** The engine, once {@link loadSandbox} resolved. */
function sandbox(): QuickJSWASMModule {
  if (loaded === undefined) throw new Error('the JavaScript tracer sandbox is not loaded')
  return loaded
}

/**
 * Drops the engine after it failed in a way QuickJS did not catch (a WebAssembly trap or abort):
 * its memory may be inconsistent, so the next JavaScript trace loads a new instance.
 */
function discardSandbox(): void {
  engine = undefined
  loaded = undefined
}

/** Loads the engine and keeps it for {@link JsTracer}. */
export async function prepareSandbox(): Promise<void> {
  loaded ??= await loadSandbox()
}

function hex0x(b: Uint8Array): string {
  return data(b)
}

/** A JavaScript tracer (geth's `jsTracer`) in a QuickJS sandbox. */
export class JsTracer implements Tracer {
  readonly wantsSteps: boolean
  private readonly module: QuickJSWASMModule
  private readonly runtime: QuickJSRuntime
  /** The engine trapped: nothing of it may be used any more. */
  private broken = false
  private readonly vm: QuickJSContext
  private readonly api: QuickJSHandle
  private readonly fns: Record<'step' | 'fault' | 'enter' | 'exit' | 'result' | 'precompiles', QuickJSHandle>
  private readonly frames: boolean
  /** The tracer's `step` takes `db`: on a state read through promises, each step reads ahead. */
  private readonly stepReadsDb: boolean
  private deadline: number
  private callStart = 0
  private lastYield = 0
  private current: Step | undefined
  private readonly db = new TracerState()
  private failure: string | undefined
  private disposed = false
  private readonly ctx: Record<string, unknown> = {}
  private started = 0
  private readonly contracts = new ScopeContracts()
  /** The accounts the transaction's frames named, by hex. */
  private readonly touched = new Map<string, Uint8Array>()

  constructor(
    code: string,
    config: Record<string, unknown> | undefined,
    private readonly timeoutMs: number,
    private readonly limits: Readonly<JsTracerLimits> = JS_TRACER_LIMITS,
  ) {
    this.deadline = performance.now() + timeoutMs
    this.module = sandbox()
    this.runtime = this.module.newRuntime()
    this.runtime.setMemoryLimit(limits.memoryBytes)
    this.runtime.setMaxStackSize(limits.stackBytes)
    this.runtime.setInterruptHandler(() => {
      const now = performance.now()
      return now > this.deadline || now - this.callStart > limits.callMs
    })
    this.vm = this.runtime.newContext()
    try {
      this.installHost()
      this.callStart = performance.now()
      this.unwrap(this.vm.evalCode(PRELUDE, '<prelude>'), 'setup')
      this.api = this.vm.getProp(this.vm.global, '__tracer')
      const fn = (name: string) => this.vm.getProp(this.api, name)
      this.fns = { step: fn('step'), fault: fn('fault'), enter: fn('enter'), exit: fn('exit'), result: fn('result'), precompiles: fn('precompiles') }
      const init = fn('init')
      const args = [this.vm.newString(code), this.vm.newString(JSON.stringify(config ?? {}))]
      let flags: unknown
      try {
        flags = this.call(init, args, undefined)
      } finally {
        init.dispose()
      }
      if (typeof flags === 'string') throw new Refused(flags)
      this.wantsSteps = ((flags as number) & 1) !== 0
      this.frames = ((flags as number) & 2) !== 0
      this.stepReadsDb = ((flags as number) & 4) !== 0
    } catch (error) {
      this.dispose()
      throw error
    }
  }

  /** The functions the prelude calls on the host (`__host`). */
  private installHost(): void {
    const vm = this.vm
    const host = vm.newObject()
    const def = (name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | undefined) => {
      const h = vm.newFunction(name, fn)
      vm.setProp(host, name, h)
      h.dispose()
    }
    const num = (h: QuickJSHandle | undefined) => (h === undefined ? 0 : vm.getNumber(h))
    const str = (h: QuickJSHandle | undefined) => (h === undefined ? '' : vm.getString(h))
    const step = () => {
      if (this.current === undefined) throw new Error('no opcode is being traced')
      return this.current
    }
    def('opName', (op) => vm.newString(opName(num(op))))
    def('stackLength', () => vm.newNumber(step().stack.length))
    def('stackPeek', (i) => {
      const stack = step().stack
      const n = num(i)
      if (!(n >= 0 && n < stack.length)) throw new RangeError(`tracer accessed out of bound stack: size ${stack.length}, index ${n}`)
      return vm.newString(`0x${(stack[stack.length - 1 - n] as bigint).toString(16)}`)
    })
    def('memoryLength', () => vm.newNumber(step().memory.length))
    def('memorySlice', (b, e) => {
      const memory = step().memory
      const begin = num(b)
      const end = num(e)
      if (end === begin) return vm.newArrayBuffer(new ArrayBuffer(0))
      if (!(end > begin && begin >= 0)) throw new RangeError(`tracer accessed out of bound memory: offset ${begin}, end ${end}`)
      if (end - memory.length > MEMORY_PAD_LIMIT) {
        throw new RangeError(`tracer reached limit for padding memory slice: end ${end}, memorySize ${memory.length}`)
      }
      const out = new Uint8Array(end - begin)
      if (begin < memory.length) out.set(memory.subarray(begin, Math.min(end, memory.length)))
      return vm.newArrayBuffer(out.buffer)
    })
    def('memoryUint', (o) => {
      const memory = step().memory
      const offset = num(o)
      if (!(offset >= 0 && offset + 32 <= memory.length)) {
        throw new RangeError(`tracer accessed out of bound memory: available ${memory.length}, offset ${offset}, size 32`)
      }
      return vm.newString(`0x${keyOf(memory.subarray(offset, offset + 32)) || '0'}`)
    })
    def('contract', (which) => {
      const s = step()
      const d = s.depth - 1
      switch (num(which)) {
        case 0:
          return vm.newString(hex0x(this.contracts.caller(d) ?? new Uint8Array(20)))
        case 1:
          return vm.newString(hex0x(s.address))
        default:
          return vm.newString(`0x${this.contracts.value(d).toString(16)}`)
      }
    })
    def('contractInput', () => vm.newArrayBuffer(this.contracts.input(step().depth - 1).slice().buffer))
    def('create', (from, nonce) => {
      const n = num(nonce)
      const address = keccak256(RLP.encode([bytesOf(str(from)), n === 0 ? new Uint8Array(0) : BigInt(n)])).subarray(12)
      return vm.newString(hex0x(address))
    })
    def('create2', (from, salt, code) => {
      const preimage = new Uint8Array(85)
      preimage[0] = 0xff
      preimage.set(bytesOf(str(from)), 1)
      preimage.set(bytesOf(str(salt)), 21)
      preimage.set(keccak256(bytesOf(str(code))), 53)
      return vm.newString(hex0x(keccak256(preimage).subarray(12)))
    })
    const db = this.db
    def('balance', (a) => vm.newString(`0x${(db.account(str(a))?.balance ?? 0n).toString(16)}`))
    def('nonce', (a) => vm.newNumber(Number(db.account(str(a))?.nonce ?? 0n)))
    def('exists', (a) => (db.account(str(a)) === undefined ? vm.false : vm.true))
    def('code', (a) => vm.newArrayBuffer(db.codeOf(str(a)).slice().buffer))
    def('storage', (a, k) => vm.newString(hex0x(db.slot(str(a), str(k)))))
    vm.setProp(vm.global, '__host', host)
    host.dispose()
  }

  private unwrap(result: ReturnType<QuickJSContext['evalCode']>, fn: string): unknown {
    if ('error' in result && result.error !== undefined) {
      const message = this.describe(result.error, fn)
      result.error.dispose()
      throw new Refused(message)
    }
    const value = this.vm.dump(result.value)
    result.value.dispose()
    return value
  }

  /** geth's text for a failure in tracer function `fn`. */
  private describe(error: QuickJSHandle, fn: string | undefined): string {
    const e = this.vm.dump(error) as { name?: string; message?: string; stack?: string } | string
    const now = performance.now()
    if (typeof e === 'object' && e !== null && e.name === 'InternalError' && e.message === 'interrupted') {
      const text = now > this.deadline ? 'execution timeout' : `tracer function ran longer than ${this.limits.callMs} ms in one call (limits.jsTracerCallMs)`
      return fn === undefined ? text : `${text}    in server-side tracer function '${fn}'`
    }
    let text: string
    if (typeof e === 'object' && e !== null && typeof e.message === 'string') {
      // The first frame in the tracer's own code (QuickJS names eval'd code `<input>`, geth `<eval>`).
      const where = /at ([^\n]*<input>[^\n]*)/.exec(e.stack ?? '')?.[1]?.replace('<input>', '<eval>')
      text = `${e.name ?? 'Error'}: ${e.message}${where === undefined ? '' : ` at ${where}`}`
    } else {
      text = String(e)
    }
    return fn === undefined ? text : `${text}    in server-side tracer function '${fn}'`
  }

  /** Calls an entry point of the prelude; a failure is geth's error for tracer function `fn`. */
  private call(fn: QuickJSHandle, args: QuickJSHandle[], name: string | undefined): unknown {
    this.callStart = performance.now()
    try {
      let result: ReturnType<QuickJSContext['callFunction']>
      try {
        result = this.vm.callFunction(fn, this.vm.undefined, ...args)
      } catch (error) {
        this.fail()
        throw new Refused(`the tracer sandbox failed: ${(error as Error).message}`)
      }
      if (result.error !== undefined) {
        const message = this.describe(result.error, name)
        result.error.dispose()
        throw new Refused(message)
      }
      const value = this.vm.dump(result.value)
      result.value.dispose()
      return value
    } finally {
      if (!this.broken) for (const a of args) a.dispose()
    }
  }

  /** The engine trapped: it is dropped, not disposed (see {@link discardSandbox}). */
  private fail(): void {
    this.broken = true
    this.disposed = true
    if (loaded === this.module) discardSandbox()
  }

  /** Runs a tracer function; its first failure stops the tracing and is the trace's answer. */
  private run(fn: 'step' | 'fault' | 'enter' | 'exit', args: () => QuickJSHandle[]): void {
    if (this.failure !== undefined || this.disposed) return
    try {
      this.call(this.fns[fn], args(), fn)
    } catch (error) {
      this.failure = (error as Error).message
    }
  }

  onTxStart(tx: TxStart): void {
    this.deadline = performance.now() + this.timeoutMs
    this.started = performance.now()
    this.lastYield = this.started
    this.db.begin(tx.state)
    const c = tx
    Object.assign(this.ctx, {
      type: tx.create ? 'CREATE' : 'CALL',
      from: hex0x(tx.from),
      to: hex0x(tx.to),
      input: hex0x(c.input),
      gas: Number(tx.gasLimit),
      gasPrice: `0x${c.gasPrice.toString(16)}`,
      value: `0x${tx.value.toString(16)}`,
      block: Number(c.blockNumber),
      intrinsicGas: Number(c.intrinsicGas),
    })
    if (c.blockHash !== undefined) {
      this.ctx.blockHash = hex0x(c.blockHash)
      if (c.txHash !== undefined) {
        this.ctx.txIndex = c.txIndex
        this.ctx.txHash = hex0x(c.txHash)
      }
    }
    const list = [...tx.precompiles].map((p) => `0x${p.padStart(40, '0')}`)
    if (this.failure === undefined && !this.disposed) {
      try {
        this.call(this.fns.precompiles, [this.arrayOf(list)], undefined)
      } catch (error) {
        this.failure = (error as Error).message
      }
    }
  }

  private arrayOf(list: string[]): QuickJSHandle {
    const arr = this.vm.newArray()
    list.forEach((s, i) => {
      const h = this.vm.newString(s)
      this.vm.setProp(arr, i, h)
      h.dispose()
    })
    return arr
  }

  onEnter(f: FrameStart): void {
    // The contract of each depth, for `log.contract` (geth's scope contract).
    this.contracts.enter(f)
    const d = f.depth
    this.touched.set(hex0x(f.from), f.from)
    if (f.to !== undefined) this.touched.set(hex0x(f.to), f.to)
    if (!this.frames || d === 0) return
    const vm = this.vm
    this.run('enter', () => [
      vm.newString(f.type),
      vm.newString(hex0x(f.from)),
      vm.newString(hex0x(f.to ?? new Uint8Array(20))),
      vm.newArrayBuffer(f.input.slice().buffer),
      vm.newNumber(Number(f.gas)),
      f.value === undefined ? vm.undefined : vm.newString(`0x${f.value.toString(16)}`),
    ])
  }

  onExit(f: FrameEnd): void {
    if (!this.frames || f.depth === 0) return
    const vm = this.vm
    this.run('exit', () => [
      vm.newNumber(Number(f.gasUsed)),
      vm.newArrayBuffer(f.output.slice().buffer),
      f.error === undefined ? vm.undefined : vm.newString(f.error),
    ])
  }

  onStep(s: Step): Promise<void> | void {
    if (this.failure !== undefined || this.disposed) return
    this.current = s
    const go = () => {
      this.run('step', () => [
        this.vm.newNumber(s.pc),
        this.vm.newNumber(s.op),
        this.vm.newNumber(Number(s.gas)),
        this.vm.newNumber(Number(s.cost)),
        this.vm.newNumber(s.depth),
        this.vm.newNumber(Number(s.refund)),
        s.error === undefined ? this.vm.undefined : this.vm.newString(s.error),
      ])
      const now = performance.now()
      if (now - this.lastYield < YIELD_EVERY_MS) return
      this.lastYield = now
      return new Promise<void>((resolve) => setImmediate(resolve))
    }
    this.db.at(s.state)
    const ahead = this.stepReadsDb ? this.db.beforeStep(s, this.contracts.caller(s.depth - 1)) : undefined
    if (ahead !== undefined) return ahead.then(go)
    return go()
  }

  /**
   * The frame failed on an opcode's checks. geth tells the tracer in that opcode's `step`, which
   * saw the error already; only an error the step did not foresee goes to `fault`.
   */
  onStepError(_depth: number, error: string): void {
    if (this.current?.error === error) return
    this.onFault(_depth, error)
  }

  /** The frame failed while its last opcode ran: geth's `fault`, with that step's log. */
  onFault(_depth: number, error: string): void {
    const vm = this.vm
    this.run('fault', () => [vm.newString(error)])
  }

  async onTxEnd(end: TxEnd): Promise<void> {
    this.current = undefined
    this.ctx.gasUsed = Number(end.gasUsed)
    this.ctx.output = hex0x(end.output)
    if (end.error !== undefined) this.ctx.error = end.error
    this.ctx.time = `${((performance.now() - this.started) / 1000).toFixed(6)}s`
    // An older block's state reads through promises: the accounts of the transaction's frames
    // are read ahead for `result`.
    await this.db.beforeResult(end.state, [bytesOf(this.ctx.from as string), bytesOf(this.ctx.to as string), ...this.touched.values()])
  }

  result(): unknown {
    try {
      if (this.disposed) throw new Refused('the tracer was already used')
      this.deadline = performance.now() + this.timeoutMs
      const json = this.call(this.fns.result, [this.vm.newString(JSON.stringify(this.ctx))], 'result') as string
      if (this.failure !== undefined) throw new Refused(this.failure)
      return JSON.parse(json) as unknown
    } finally {
      this.dispose()
    }
  }

  /** Frees the sandbox (its memory is outside V8's heap and is not collected). */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    try {
      this.api?.dispose()
      for (const h of Object.values(this.fns ?? {})) h.dispose()
      this.vm?.dispose()
      this.runtime.dispose()
    } catch {
      this.fail()
    }
  }
}
