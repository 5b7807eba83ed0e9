/**
 * Hardhat Network's default tracer (EDR's debug_traceTransaction / debug_traceCall), the struct
 * logger in Hardhat mode: entries `{ depth, gas, gasCost, op, pc, memory, stack, storage }` with
 * stack items, memory words and storage keys and values as 64 hex digits without `0x`; memory on
 * every step unless `disableMemory`, stack unless `disableStack`, and on every step the storage the
 * current contract read or wrote so far in the transaction unless `disableStorage`; no `error` or
 * `refund` field (an opcode that runs out of gas costs the gas that was left). The result is
 * `{ failed, gas, returnValue, structLogs }`, `returnValue` being `""` when nothing was returned.
 * All measured on Hardhat 2.29's provider (test/hardhat-traces.test.ts).
 */
import { Address } from '@ethereumjs/util'
import { Refused } from '../../domain-errors.js'
import { data, keyOf } from '../../hex.js'
import { opName } from './opcodes.js'
import { estimateBytes, type StructLoggerConfig, type TraceBudget } from './struct-logger.js'
import type { FrameEnd, Step, Tracer, TxEnd } from './types.js'

/** One entry, JSON-ready, in Hardhat's field order. */
interface HardhatEntry {
  depth: number
  gas: number
  gasCost: number
  op: string
  pc: number
  memory?: string[]
  stack?: string[]
  storage?: Record<string, string>
}

const SLOAD = 0x54
const SSTORE = 0x55
const ZEROS = '0'.repeat(64)

/** A stack item as 64 hex digits. */
function hex64(value: bigint): string {
  return value.toString(16).padStart(64, '0')
}

function memoryWords(memory: Uint8Array): string[] {
  const hex = Buffer.from(memory).toString('hex')
  const out: string[] = []
  for (let i = 0; i < hex.length; i += 64) out.push(hex.slice(i, i + 64).padEnd(64, '0'))
  return out
}

/** One contract's storage seen so far, and its JSON object (made again only after a change). */
interface ContractStorage {
  slots: Map<string, string>
  json: Record<string, string> | undefined
}

/** Hardhat's struct logger, for one transaction. */
export class HardhatStructLogger implements Tracer {
  readonly wantsSteps = true
  private readonly entries: HardhatEntry[] = []
  private readonly storage = new Map<string, ContractStorage>()
  private readonly last: Array<HardhatEntry | undefined> = []
  private size = 0
  private gasUsed = 0n
  private output: Uint8Array = new Uint8Array(0)
  private error: string | undefined

  constructor(
    private readonly config: StructLoggerConfig & { disableMemory?: boolean } = {},
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

  /** EDR notes no error on the step; an opcode out of gas is charged all that was left. */
  onStepError(depth: number, error: string): void {
    const entry = this.last[depth - 1]
    if (entry !== undefined && error === 'out of gas') entry.gasCost = entry.gas
  }

  async onStep(step: Step): Promise<void> {
    const limit = this.config.limit ?? 0
    if (limit !== 0 && this.size > limit) return
    const entry: HardhatEntry = { depth: step.depth, gas: Number(step.gas), gasCost: Number(step.cost), op: opName(step.op), pc: step.pc }
    if (this.config.disableMemory !== true) entry.memory = memoryWords(step.memory)
    if (this.config.disableStack !== true) entry.stack = step.stack.map(hex64)
    if (this.config.disableStorage !== true) entry.storage = await this.storageAt(step)
    this.last[this.last.length - 1] = entry
    this.entries.push(entry)
    if (limit !== 0) this.size += JSON.stringify(entry).length
    this.budget.bytes -= estimateBytes(entry)
    if (this.budget.bytes < 0) {
      const mib = Math.round(this.budget.limit / 1024 / 1024)
      throw new Refused(`trace too large: the struct logs pass ${mib} MiB (limits.traceBytes); set a "limit", disable the stack, memory or storage`)
    }
  }

  /** The contract's storage seen so far, the slot this SLOAD reads or SSTORE writes included. */
  private async storageAt(step: Step): Promise<Record<string, string>> {
    const key = keyOf(step.address)
    let contract = this.storage.get(key)
    if (contract === undefined) {
      contract = { slots: new Map(), json: undefined }
      this.storage.set(key, contract)
    }
    const n = step.stack.length
    if (step.op === SLOAD && n >= 1) {
      const slot = step.stack[n - 1] as bigint
      const value = await step.state.getStorage(new Address(step.address), Buffer.from(hex64(slot), 'hex'))
      contract.slots.set(hex64(slot), value.length === 0 ? ZEROS : Buffer.from(value).toString('hex').padStart(64, '0'))
      contract.json = undefined
    } else if (step.op === SSTORE && n >= 2) {
      contract.slots.set(hex64(step.stack[n - 1] as bigint), hex64(step.stack[n - 2] as bigint))
      contract.json = undefined
    }
    contract.json ??= Object.fromEntries(contract.slots)
    return contract.json
  }

  onTxEnd(end: TxEnd): void {
    this.gasUsed = end.gasUsed
  }

  result(): unknown {
    const failed = this.error !== undefined
    const returned = failed && this.error !== 'execution reverted' ? new Uint8Array(0) : this.output
    return { failed, gas: Number(this.gasUsed), returnValue: returned.length === 0 ? '' : data(returned), structLogs: this.entries }
  }
}
