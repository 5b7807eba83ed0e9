/**
 * The two JSON forms of the struct logger's entries and result (struct-logger.ts walks the steps).
 *
 * geth's (`toLegacyJSON` as the execution-apis spec fixed it, execution-apis #762, geth #34093):
 * `{ pc, op, gas, gasCost, depth, error?, stack, returnData?, memory?, storage?, refund? }`, stack
 * items as minimal `0x` quantities, memory (only with `enableMemory`) as `0x`-prefixed 32-byte
 * words, storage as a map of `0x`-prefixed 32-byte words shown only on SLOAD and SSTORE, keys
 * sorted as Go encodes a map, `error` and `refund` only when set. The result is
 * `{ gas, failed, returnValue, structLogs }`.
 *
 * Hardhat Network's (EDR's debug_traceTransaction / debug_traceCall, Hardhat mode's default
 * tracer): `{ depth, gas, gasCost, op, pc, memory, stack, storage }`, stack items, memory words
 * and storage keys and values as 64 hex digits without `0x`; memory on every step unless
 * `disableMemory`, and on every step the storage the current contract read or wrote so far in the
 * transaction (unsorted) unless `disableStorage`; no `error` or `refund` field (an opcode that runs
 * out of gas costs the gas that was left). The result is `{ failed, gas, returnValue, structLogs }`,
 * `returnValue` being `""` when nothing was returned. All measured on Hardhat 2.29's provider
 * (test/hardhat/traces.test.ts).
 */
import { data, keyOf, quantity } from '../../hex.js'
import { opName } from './opcodes.js'
import type { Step } from './types.js'

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

/** One entry, JSON-ready (a type, not an interface, so it stays assignable to `Record<string, unknown>`). */
export type StructLogEntry = {
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

/** How the struct logger writes what it records. */
export interface StructLogForm {
  /** Before stack items, memory words and storage words: `0x` (geth) or nothing (Hardhat). */
  readonly prefix: '0x' | ''
  /** Storage on every step (Hardhat) rather than on SLOAD and SSTORE only (geth). */
  readonly storageEveryStep: boolean
  /** The step's entry, in the form's field order; `storage` is the contract's, when shown. */
  entry(step: Step, config: StructLoggerConfig, storage: Record<string, string> | undefined): StructLogEntry
  /** A contract's slots seen so far as the entries' JSON object; undefined: no field. */
  storage(slots: Map<string, string>): Record<string, string> | undefined
  /** The opcode of `entry` failed with `error` before it ran. */
  stepError(entry: StructLogEntry, error: string): void
  /** The trace's answer; `returned` is already empty when the transaction failed without reverting. */
  result(gasUsed: number, failed: boolean, returned: Uint8Array, structLogs: StructLogEntry[]): unknown
  /** The end of the `trace too large` message: what the caller can do. */
  readonly smaller: string
}

/**
 * A gas amount as a JSON number, as both print these fields. Gas is bounded by the block gas limit
 * (and `rpc-gas-cap`), far below 2^53, so the conversion is exact.
 */
const gasNumber = (gas: bigint): number => Number(gas)

/** Memory as 32-byte words of 64 hex digits, each after `prefix`. */
function memoryWords(memory: Uint8Array, prefix: string): string[] {
  const hex = keyOf(memory)
  const out: string[] = []
  for (let i = 0; i < hex.length; i += 64) out.push(prefix + hex.slice(i, i + 64).padEnd(64, '0'))
  return out
}

/** A stack item as 64 hex digits. */
function hex64(value: bigint): string {
  return value.toString(16).padStart(64, '0')
}

/** geth's form (the default). */
export const GETH_FORM: StructLogForm = {
  prefix: '0x',
  storageEveryStep: false,
  entry(step, config, storage) {
    const entry: StructLogEntry = { pc: step.pc, op: opName(step.op), gas: gasNumber(step.gas), gasCost: gasNumber(step.cost), depth: step.depth }
    if (config.disableStack !== true) entry.stack = step.stack.map(quantity)
    if (config.enableReturnData === true && step.returnData.length > 0) entry.returnData = data(step.returnData)
    if (config.enableMemory === true && step.memory.length > 0) entry.memory = memoryWords(step.memory, '0x')
    if (storage !== undefined) entry.storage = storage
    if (step.refund > 0n) entry.refund = gasNumber(step.refund)
    return entry
  },
  storage(slots) {
    if (slots.size === 0) return undefined
    // Go sorts map keys when it encodes JSON.
    return Object.fromEntries([...slots].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  },
  stepError(entry, error) {
    entry.error = error
  },
  result(gasUsed, failed, returned, structLogs) {
    return { gas: gasUsed, failed, returnValue: data(returned), structLogs }
  },
  smaller: 'set a "limit", disable the stack, memory or storage, or use callTracer',
}

/** Hardhat Network's form (Hardhat mode). */
export const HARDHAT_FORM: StructLogForm = {
  prefix: '',
  storageEveryStep: true,
  entry(step, config, storage) {
    const entry: StructLogEntry = { depth: step.depth, gas: gasNumber(step.gas), gasCost: gasNumber(step.cost), op: opName(step.op), pc: step.pc }
    if (config.disableMemory !== true) entry.memory = memoryWords(step.memory, '')
    if (config.disableStack !== true) entry.stack = step.stack.map(hex64)
    if (storage !== undefined) entry.storage = storage
    return entry
  },
  storage(slots) {
    return Object.fromEntries(slots)
  },
  /** EDR notes no error on the step; an opcode out of gas is charged all that was left. */
  stepError(entry, error) {
    if (error === 'out of gas') entry.gasCost = entry.gas
  },
  result(gasUsed, failed, returned, structLogs) {
    return { failed, gas: gasUsed, returnValue: returned.length === 0 ? '' : data(returned), structLogs }
  },
  smaller: 'set a "limit", disable the stack, memory or storage',
}
