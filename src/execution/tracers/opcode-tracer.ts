/**
 * `opcodeTracer` (named by the interface spec's trace results, not one of geth's tracers): the
 * executed opcodes in order, by geth's names, across all call frames.
 */
import { opName } from './opcodes.js'
import type { Step, Tracer } from './types.js'

/** The list of executed opcodes of one transaction. */
export class OpcodeTracer implements Tracer {
  readonly wantsSteps = true
  private readonly ops: string[] = []

  onStep(s: Step): void {
    this.ops.push(opName(s.op))
  }

  result(): unknown {
    return this.ops
  }
}
