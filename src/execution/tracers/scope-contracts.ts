/**
 * The contract of each call depth as a tracer's scope shows it (geth's `log.contract`, the
 * object tracers' `getCaller` / `getValue` / `getInput`): a DELEGATECALL keeps the caller and value
 * of the frame that made it; a SELFDESTRUCT frame has no contract of its own.
 */
import type { FrameStart } from './types.js'

export class ScopeContracts {
  private readonly callers: Uint8Array[] = []
  private readonly values: bigint[] = []
  private readonly inputs: Uint8Array[] = []

  /** Records the contract of the frame that starts. */
  enter(f: FrameStart): void {
    if (f.type === 'SELFDESTRUCT') return
    const d = f.depth
    const delegated = f.type === 'DELEGATECALL'
    this.callers[d] = delegated ? (this.callers[d - 1] ?? f.from) : f.from
    this.values[d] = delegated ? (this.values[d - 1] ?? 0n) : (f.value ?? 0n)
    this.inputs[d] = f.input
  }

  /** The caller at `depth`, if a frame there was recorded. */
  caller(depth: number): Uint8Array | undefined {
    return this.callers[depth]
  }

  /** The value at `depth` (0 when none was recorded). */
  value(depth: number): bigint {
    return this.values[depth] ?? 0n
  }

  /** The input at `depth` (empty when none was recorded). */
  input(depth: number): Uint8Array {
    return this.inputs[depth] ?? new Uint8Array(0)
  }
}
