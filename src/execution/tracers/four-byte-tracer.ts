/**
 * geth's `4byteTracer`: how often each function selector was called, keyed by selector and
 * argument size (`"0x<selector>-<size>"`), over CALL, CALLCODE, DELEGATECALL and STATICCALL frames
 * (the transaction's own call included), leaving out calls to precompiles.
 */
import { data, keyOf } from '../../hex.js'
import type { FrameStart, Tracer, TxStart } from './types.js'

/** geth's `4byteTracer`, for one transaction. */
export class FourByteTracer implements Tracer {
  readonly wantsSteps = false
  private readonly counts = new Map<string, number>()
  private precompiles: ReadonlySet<string> = new Set()

  onTxStart(tx: TxStart): void {
    this.precompiles = tx.precompiles
  }

  onEnter(f: FrameStart): void {
    if (f.input.length < 4) return
    if (f.type !== 'CALL' && f.type !== 'CALLCODE' && f.type !== 'DELEGATECALL' && f.type !== 'STATICCALL') return
    if (f.to !== undefined && this.precompiles.has(keyOf(f.to))) return
    const key = `${data(f.input.subarray(0, 4))}-${f.input.length - 4}`
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1)
  }

  result(): unknown {
    // Go sorts map keys when it encodes JSON.
    return Object.fromEntries([...this.counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  }
}
