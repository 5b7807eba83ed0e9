/**
 * geth's default tracer, the struct (opcode) logger: one entry per executed opcode, in the JSON
 * of geth's `toLegacyJSON` as the execution-apis spec fixed it (execution-apis #762, geth #34093):
 * stack items as minimal `0x` quantities, memory as `0x`-prefixed 32-byte words, storage as a map
 * of `0x`-prefixed 32-byte words shown only on SLOAD and SSTORE, `error` and `refund` only when set.
 */
import { Address } from '@ethereumjs/util'
import { Refused } from '../../domain-errors.js'
import { data, keyOf, quantity, word } from '../../hex.js'
import { opName } from './opcodes.js'
import type { FrameEnd, Step, Tracer, TxEnd } from './types.js'

/** What one trace request may still output, shared by the tracers of its transactions. */
export interface TraceBudget {
  /** Estimated JSON bytes left. */
  bytes: number
  /** The limit, for the error message. */
  readonly limit: number
}

/** The struct logger's options (geth's `logger.Config`). */
export interface StructLoggerConfig {
  enableMemory?: boolean
  disableStack?: boolean
  disableStorage?: boolean
  enableReturnData?: boolean
  /** Stop recording once the entries' JSON exceeds this many bytes (0 = no limit), as geth. */
  limit?: number
  /** Hardhat's option (its memory is on by default); geth's form ignores it, as geth does. */
  disableMemory?: boolean
}

/** One entry, JSON-ready. */
export interface Entry {
  pc: number
  op: string
  gas: number
  gasCost: number
  depth: number
  error?: string
  stack?: string[]
  returnData?: string
  memory?: string[]
  storage?: Record<string, string>
  refund?: number
}

const SLOAD = 0x54
const SSTORE = 0x55

/**
 * A gas amount as a JSON number, as geth prints these fields. Gas is bounded by the block gas limit
 * (and `rpc-gas-cap`), far below 2^53, so the conversion is exact.
 */
function gasNumber(gas: bigint): number {
  return Number(gas)
}

function word32(value: bigint): string {
  return data(word(value))
}

function memoryWords(memory: Uint8Array): string[] {
  const out: string[] = []
  for (let i = 0; i < memory.length; i += 32) {
    const chunk = memory.subarray(i, i + 32)
    out.push(chunk.length === 32 ? data(chunk) : data(chunk) + '00'.repeat(32 - chunk.length))
  }
  return out
}

function padded(value: Uint8Array): string {
  if (value.length === 32) return data(value)
  return '0x' + '00'.repeat(32 - value.length) + data(value).slice(2)
}

/** About the JSON size of an entry, without encoding it (checked on every step; `limits.traceBytes`). */
export function estimateBytes(entry: Entry): number {
  let n = 64 + entry.op.length
  if (entry.stack !== undefined) for (const item of entry.stack) n += item.length + 3
  if (entry.memory !== undefined) n += entry.memory.length * 69
  if (entry.storage !== undefined) for (const _ in entry.storage) n += 136
  if (entry.returnData !== undefined) n += entry.returnData.length + 16
  return n
}

/** geth's struct logger, for one transaction. */
export class StructLogger implements Tracer {
  readonly wantsSteps = true
  private readonly entries: Entry[] = []
  /** Per contract, every slot read or written so far (geth keeps them for the whole transaction). */
  private readonly storage = new Map<string, Map<string, string>>()
  /** The last entry of each open frame, which gets the error of a failing opcode. */
  private readonly last: Array<Entry | undefined> = []
  private size = 0
  private gasUsed = 0n
  private output: Uint8Array = new Uint8Array(0)
  private error: string | undefined

  constructor(
    private readonly config: StructLoggerConfig = {},
    private readonly budget: TraceBudget = { bytes: Infinity, limit: Infinity },
  ) {}

  onEnter(): void {
    this.last.push(undefined)
  }

  onExit(frame: FrameEnd): void {
    this.last.pop()
    if (frame.depth === 0) {
      this.output = frame.output
      this.error = frame.error
    }
  }

  onStepError(depth: number, error: string): void {
    const entry = this.last[depth - 1]
    if (entry !== undefined) entry.error = error
  }

  async onStep(step: Step): Promise<void> {
    const limit = this.config.limit ?? 0
    if (limit !== 0 && this.size > limit) return
    const entry: Entry = {
      pc: step.pc,
      op: opName(step.op),
      gas: gasNumber(step.gas),
      gasCost: gasNumber(step.cost),
      depth: step.depth,
    }
    if (this.config.disableStack !== true) entry.stack = step.stack.map(quantity)
    if (this.config.enableReturnData === true && step.returnData.length > 0) entry.returnData = data(step.returnData)
    if (this.config.enableMemory === true && step.memory.length > 0) entry.memory = memoryWords(step.memory)
    if (this.config.disableStorage !== true && (step.op === SLOAD || step.op === SSTORE)) await this.recordStorage(step, entry)
    if (step.refund > 0n) entry.refund = gasNumber(step.refund)
    this.last[this.last.length - 1] = entry
    this.entries.push(entry)
    if (limit !== 0) this.size += JSON.stringify(entry).length
    this.budget.bytes -= estimateBytes(entry)
    if (this.budget.bytes < 0) {
      const mib = Math.round(this.budget.limit / 1024 / 1024)
      throw new Refused(
        `trace too large: the struct logs pass ${mib} MiB (limits.traceBytes); set a "limit", disable the stack, memory or storage, or use callTracer`,
      )
    }
  }

  /** geth's cumulative storage view: the slot SLOAD reads (current value) or SSTORE writes. */
  private async recordStorage(step: Step, entry: Entry): Promise<void> {
    const n = step.stack.length
    const key = keyOf(step.address)
    let slots = this.storage.get(key)
    if (step.op === SLOAD && n >= 1) {
      const slot = step.stack[n - 1] as bigint
      const value = await step.state.getStorage(new Address(step.address), word(slot))
      slots ??= new Map()
      slots.set(word32(slot), padded(value))
    } else if (step.op === SSTORE && n >= 2) {
      slots ??= new Map()
      slots.set(word32(step.stack[n - 1] as bigint), word32(step.stack[n - 2] as bigint))
    }
    if (slots === undefined) return
    this.storage.set(key, slots)
    if (slots.size === 0) return
    // Go sorts map keys when it encodes JSON.
    entry.storage = Object.fromEntries([...slots].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  }

  onTxEnd(end: TxEnd): void {
    this.gasUsed = end.gasUsed
  }

  result(): unknown {
    const failed = this.error !== undefined
    // geth returns the output on success and the revert data on a revert, nothing otherwise.
    const returnValue = failed && this.error !== 'execution reverted' ? '0x' : data(this.output)
    return { gas: gasNumber(this.gasUsed), failed, returnValue, structLogs: this.entries }
  }
}
