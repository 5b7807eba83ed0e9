/**
 * `rpc-evm-timeout`: aborts a call that executes past its deadline on the injected clock, and
 * lets the rest of the node run while a long call executes.
 *
 * ethereumjs runs the EVM on the JS thread; between opcodes it only awaits promises that are
 * already resolved, so a long call starves timers and I/O (other requests, interval mining).
 * The guard wraps the opcodes any long execution must go through (JUMP, JUMPI and the
 * CALL / CREATE family: straight-line code without them ends quickly) in the call VMs only.
 * Every {@link CHECK_EVERY} of them it reads the clock and throws past the deadline, and every
 * {@link YIELD_EVERY} it yields one macrotask turn. The `step` event would do the same but
 * builds an event object with copies of stack and memory for every opcode; block building never
 * carries the guard at all.
 */
import type { EVMInterface } from '@ethereumjs/evm'
import type { Clock } from '../clock.js'
import { Refused } from '../domain-errors.js'
import { gasBlindWrapper } from './engine/gas-plan.js'
import { asyncOpcodeInfo, layerOpcodeTable, opcodeEntry } from './engine/layers.js'

/** JUMP, JUMPI, CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, STATICCALL. */
const GUARDED = [0x56, 0x57, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa] as const

/** Guarded opcodes between two clock reads. */
const CHECK_EVERY = 256
/** Guarded opcodes between two yields to the event loop (a few milliseconds of execution). */
const YIELD_EVERY = 8192

/** Thrown inside the EVM when the deadline passes; not an EVM error, so it unwinds the run. */
export class EvmTimeout extends Error {
  constructor() {
    super('execution aborted')
    this.name = 'EvmTimeout'
  }
}

/** A Go `time.Duration` string of whole milliseconds, as geth prints the timeout: 10s, 1.5s, 250ms, 1m30s. */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  const hours = Math.floor(ms / 3_600_000)
  const minutes = Math.floor((ms % 3_600_000) / 60_000)
  const seconds = (ms % 60_000) / 1000
  const s = `${seconds}s`
  if (hours > 0) return `${hours}h${minutes}m${s}`
  if (minutes > 0) return `${minutes}m${s}`
  return s
}

/** -32000 `execution aborted (timeout = 10s)`: geth's answer for a call past `rpc-evm-timeout`. */
export class ExecutionAbortedError extends Refused {
  constructor(ms: number) {
    super(`execution aborted (timeout = ${goDuration(ms)})`)
    this.name = 'ExecutionAbortedError'
  }
}

/** The error of a run aborted after `ms`. */
export function timeoutError(ms: number): ExecutionAbortedError {
  return new ExecutionAbortedError(ms)
}

type OpEntry = {
  opcodeInfo: { isAsync: boolean }
  opHandler: (runState: unknown, common: unknown) => unknown
  gasHandler: unknown
}

/** The deadline of the call a VM runs; armed per run. */
export class CallGuard {
  private deadline: number | undefined
  private count = 0

  constructor(private readonly clock: Clock) {}

  /** Arms the guard for a run of at most `ms` (0 = no deadline). */
  arm(ms: number): void {
    this.deadline = ms > 0 ? this.clock.now() + ms : undefined
    this.count = 0
  }

  /** Sets an absolute deadline (several runs sharing one budget, as estimateGas does). */
  armUntil(deadline: number | undefined): void {
    this.deadline = deadline
    this.count = 0
  }

  disarm(): void {
    this.deadline = undefined
  }

  /** Called by the guarded opcodes. */
  tick(): Promise<void> | undefined {
    if (this.deadline === undefined) return undefined
    const n = ++this.count
    if (n % CHECK_EVERY !== 0) return undefined
    if (this.clock.now() >= this.deadline) throw new EvmTimeout()
    if (n % YIELD_EVERY !== 0) return undefined
    return new Promise((resolve) => setImmediate(resolve))
  }

  /** Wraps the guarded opcodes of one EVM (a call VM, never the block builder's). */
  install(evm: EVMInterface): void {
    layerOpcodeTable<OpEntry>(evm, 'timeout', (map) => this.wrap(map))
  }

  private wrap(map: OpEntry[]): void {
    for (const op of GUARDED) {
      const entry = map[op]
      if (entry === undefined) continue
      const run = entry.opHandler
      // In the hidden classes of the library's entries and opcode information (layers.ts).
      map[op] = opcodeEntry<OpEntry>(
        asyncOpcodeInfo(entry.opcodeInfo),
        // A promise only when the guard pauses or the opcode's own handler returns one: the
        // interpreter loop awaits what is a promise, and a JUMP of a call runs ~10 times per
        // transfer. A time-out throws from `tick` as before, inside the loop's handling.
        (runState, common) => {
          const pause = this.tick()
          return pause === undefined ? run(runState, common) : pause.then(() => run(runState, common))
        },
        entry.gasHandler,
      )
      // The guard reads no gas: a jump it wraps is still charged as a number (gas-plan.ts).
      gasBlindWrapper(map[op].opHandler, run)
    }
  }
}
