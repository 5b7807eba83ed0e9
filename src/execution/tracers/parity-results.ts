/**
 * The `{ output, stateDiff, trace, vmTrace }` answer of trace_replayTransaction,
 * trace_replayBlockTransactions, trace_call, trace_callMany and trace_rawTransaction: one tracer
 * that feeds the flat call tracer and the state diff recorder the trace types ask for.
 */
import { Refused } from '../../domain-errors.js'
import { data } from '../../hex.js'
import { ParityTracer, type ParityTrace } from './parity-tracer.js'
import { StateDiffTracer, type AccountDiff } from './state-diff.js'
import type { FrameEnd, FrameStart, Tracer, TxEnd, TxStart } from './types.js'

/** OpenEthereum's trace types. */
export const TRACE_TYPES = ['trace', 'vmTrace', 'stateDiff'] as const

/** One of {@link TRACE_TYPES}. */
export type TraceType = (typeof TRACE_TYPES)[number]

/** One transaction's answer, in the order reth writes its fields. */
export interface TraceResults {
  output: string
  stateDiff: Record<string, AccountDiff> | null
  trace: Array<Record<string, unknown>>
  vmTrace: null
}

/** A flat trace without block or transaction fields, its fields in reth's order for replays. */
export function replayEntry(t: ParityTrace): Record<string, unknown> {
  const out: Record<string, unknown> = { type: t.type, action: t.action }
  if (t.error !== undefined) out.error = t.error
  out.result = t.result
  out.subtraces = t.subtraces
  out.traceAddress = t.traceAddress
  return out
}

/**
 * Refuses `vmTrace`: the per-opcode VM trace (OpenEthereum's `vmTrace`) is not built here.
 * debug_traceTransaction's struct logger gives every opcode with its stack, memory and storage.
 */
export function checkTraceTypes(types: ReadonlySet<TraceType>): void {
  if (types.has('vmTrace')) {
    throw new Refused('vmTrace is not supported: debug_traceTransaction (the struct logger, with enableMemory) gives each opcode with its stack, memory and storage')
  }
}

/** Records what `types` ask for of one transaction. */
export class ReplayTracer implements Tracer {
  readonly wantsSteps = false
  private readonly parity: ParityTracer | undefined
  private readonly diff: StateDiffTracer | undefined
  private output: Uint8Array = new Uint8Array(0)

  constructor(types: ReadonlySet<TraceType>) {
    // reth leaves zero-value precompile calls out of its replays' traces.
    this.parity = types.has('trace') ? new ParityTracer({ skipPrecompiles: true }) : undefined
    this.diff = types.has('stateDiff') ? new StateDiffTracer() : undefined
  }

  onTxStart(tx: TxStart): void {
    this.parity?.onTxStart(tx)
    this.diff?.onTxStart(tx)
  }

  onEnter(frame: FrameStart): void {
    this.parity?.onEnter(frame)
  }

  onExit(frame: FrameEnd): void {
    this.parity?.onExit(frame)
    this.diff?.onExit(frame)
  }

  async onTxEnd(end: TxEnd): Promise<void> {
    this.output = end.output
    await this.diff?.onTxEnd(end)
  }

  result(): TraceResults {
    return {
      output: data(this.output),
      stateDiff: this.diff === undefined ? null : this.diff.result(),
      trace: this.parity === undefined ? [] : this.parity.result().map(replayEntry),
      vmTrace: null,
    }
  }
}
