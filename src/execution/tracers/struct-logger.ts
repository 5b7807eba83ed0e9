/**
 * geth's default tracer, the struct (opcode) logger: one entry per executed opcode, with the
 * storage each contract read or wrote so far. One walk for both JSON forms it answers in
 * (struct-log-forms.ts): geth's, and Hardhat Network's in Hardhat mode.
 */
import { Address } from '@ethereumjs/util'
import { Refused } from '../../domain-errors.js'
import { keyOf, word } from '../../hex.js'
import { GETH_FORM, type StructLogEntry, type StructLogForm, type StructLoggerConfig } from './struct-log-forms.js'
import type { FrameEnd, Step, Tracer, TxEnd } from './types.js'

/** What one trace request may still output, shared by the tracers of its transactions. */
export interface TraceBudget {
  /** Estimated JSON bytes left. */
  bytes: number
  /** The limit, for the error message. */
  readonly limit: number
}

const SLOAD = 0x54
const SSTORE = 0x55

/** About the JSON size of an entry, without encoding it (checked on every step; `limits.traceBytes`). */
export function estimateBytes(entry: StructLogEntry): number {
  let n = 64 + entry.op.length
  if (entry.stack !== undefined) for (const item of entry.stack) n += item.length + 3
  if (entry.memory !== undefined) n += entry.memory.length * 69
  if (entry.storage !== undefined) for (const _ in entry.storage) n += 136
  if (entry.returnData !== undefined) n += entry.returnData.length + 16
  return n
}

/** One contract's slots seen so far, and their JSON object (made again only after a change). */
interface ContractStorage {
  slots: Map<string, string>
  json: Record<string, string> | undefined
}

/** The struct logger, for one transaction, in geth's form or another (Hardhat's). */
export class StructLogger implements Tracer {
  readonly wantsSteps = true
  private readonly entries: StructLogEntry[] = []
  /** Per contract, every slot read or written so far (geth keeps them for the whole transaction). */
  private readonly storage = new Map<string, ContractStorage>()
  /** The last entry of each open frame, which gets the error of a failing opcode. */
  private readonly last: Array<StructLogEntry | undefined> = []
  private readonly limit: number
  private readonly storageShown: boolean
  private size = 0
  private gasUsed = 0n
  private output: Uint8Array = new Uint8Array(0)
  private error: string | undefined

  constructor(
    private readonly config: StructLoggerConfig = {},
    private readonly budget: TraceBudget = { bytes: Infinity, limit: Infinity },
    private readonly form: StructLogForm = GETH_FORM,
  ) {
    this.limit = config.limit ?? 0
    this.storageShown = config.disableStorage !== true
  }

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
    if (entry !== undefined) this.form.stepError(entry, error)
  }

  async onStep(step: Step): Promise<void> {
    const limit = this.limit
    if (limit !== 0 && this.size > limit) return
    const op = step.op
    let storage: Record<string, string> | undefined
    if (this.storageShown && (this.form.storageEveryStep || op === SLOAD || op === SSTORE)) {
      // Only SLOAD reads the state: no promise to wait for on the other steps.
      storage = op === SLOAD ? await this.load(step) : this.storageAt(step)
    }
    const entry = this.form.entry(step, this.config, storage)
    this.last[this.last.length - 1] = entry
    this.entries.push(entry)
    if (limit !== 0) this.size += JSON.stringify(entry).length
    this.budget.bytes -= estimateBytes(entry)
    if (this.budget.bytes < 0) {
      const mib = Math.round(this.budget.limit / 1024 / 1024)
      throw new Refused(`trace too large: the struct logs pass ${mib} MiB (limits.traceBytes); ${this.form.smaller}`)
    }
  }

  /** The contract's slots, with the slot this SLOAD reads at its current value. */
  private async load(step: Step): Promise<Record<string, string> | undefined> {
    const contract = this.contract(step.address)
    const n = step.stack.length
    if (n >= 1) {
      const slot = step.stack[n - 1] as bigint
      const value = await step.state.getStorage(new Address(step.address), word(slot))
      contract.slots.set(this.word(slot), this.form.prefix + keyOf(value).padStart(64, '0'))
      contract.json = undefined
    }
    return (contract.json ??= this.form.storage(contract.slots))
  }

  /** The contract's slots, with the slot this SSTORE writes. */
  private storageAt(step: Step): Record<string, string> | undefined {
    const contract = this.contract(step.address)
    const n = step.stack.length
    if (step.op === SSTORE && n >= 2) {
      contract.slots.set(this.word(step.stack[n - 1] as bigint), this.word(step.stack[n - 2] as bigint))
      contract.json = undefined
    }
    return (contract.json ??= this.form.storage(contract.slots))
  }

  private contract(address: Uint8Array): ContractStorage {
    const key = keyOf(address)
    let contract = this.storage.get(key)
    if (contract === undefined) {
      contract = { slots: new Map(), json: undefined }
      this.storage.set(key, contract)
    }
    return contract
  }

  /** A slot or a stored value as a 32-byte word in the form's hex. */
  private word(value: bigint): string {
    return this.form.prefix + value.toString(16).padStart(64, '0')
  }

  onTxEnd(end: TxEnd): void {
    this.gasUsed = end.gasUsed
  }

  result(): unknown {
    const failed = this.error !== undefined
    // Both return the output on success and the revert data on a revert, nothing otherwise.
    const returned = failed && this.error !== 'execution reverted' ? new Uint8Array(0) : this.output
    return this.form.result(Number(this.gasUsed), failed, returned, this.entries)
  }
}
