/**
 * The `{ output, stateDiff, trace, vmTrace }` answer of trace_replayTransaction,
 * trace_replayBlockTransactions, trace_call, trace_callMany and trace_rawTransaction: one tracer
 * that feeds the flat call tracer and the state diff recorder the trace types ask for.
 */
import { data } from '../../hex.js'
import { ParityTracer, type ParityTrace } from './parity-tracer.js'
import { StateDiffTracer, TxStartState, type AccountDiff } from './state-diff.js'
import { VmTraceTracer, type VmTrace } from './vm-trace.js'
import type { FrameEnd, FrameStart, Step, Tracer, TxEnd, TxStart } from './types.js'

/** OpenEthereum's trace types. */
export const TRACE_TYPES = ['trace', 'vmTrace', 'stateDiff'] as const

/** One of {@link TRACE_TYPES}. */
export type TraceType = (typeof TRACE_TYPES)[number]

/** One transaction's answer, in the order reth writes its fields. */
export interface TraceResults {
  output: string
  stateDiff: Record<string, AccountDiff> | null
  trace: Array<Record<string, unknown>>
  vmTrace: VmTrace | null
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

/** Records what `types` ask for of one transaction. */
export class ReplayTracer implements Tracer {
  readonly wantsSteps: boolean
  private readonly parity: ParityTracer | undefined
  private readonly diff: StateDiffTracer | undefined
  private readonly vm: VmTraceTracer | undefined
  private readonly before = new TxStartState()
  private output: Uint8Array = new Uint8Array(0)

  constructor(types: ReadonlySet<TraceType>) {
    // reth leaves zero-value precompile calls out of its replays' traces.
    this.parity = types.has('trace') ? new ParityTracer({ skipPrecompiles: true }) : undefined
    this.diff = types.has('stateDiff') ? new StateDiffTracer(this.before) : undefined
    this.vm = types.has('vmTrace') ? new VmTraceTracer(this.before) : undefined
    this.wantsSteps = this.vm !== undefined
  }

  onTxStart(tx: TxStart): void {
    if (this.diff !== undefined || this.vm !== undefined) this.before.capture(tx.state)
    this.parity?.onTxStart(tx)
    this.vm?.onTxStart(tx)
  }

  onEnter(frame: FrameStart): void {
    this.parity?.onEnter(frame)
    this.vm?.onEnter(frame)
  }

  onStep(step: Step): void {
    this.vm?.onStep(step)
  }

  onExit(frame: FrameEnd): void {
    this.parity?.onExit(frame)
    this.diff?.onExit(frame)
    this.vm?.onExit(frame)
  }

  async onTxEnd(end: TxEnd): Promise<void> {
    this.output = end.output
    await this.diff?.onTxEnd(end)
    await this.vm?.onTxEnd()
  }

  result(): TraceResults {
    return {
      output: data(this.output),
      stateDiff: this.diff === undefined ? null : this.diff.result(),
      trace: this.parity === undefined ? [] : this.parity.result().map(replayEntry),
      vmTrace: this.vm === undefined ? null : this.vm.result(),
    }
  }
}
