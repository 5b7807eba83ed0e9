/**
 * Records the call frames of a failed execution run again to explain it: each frame's code (the
 * account's code for a call, the init code for a create), the program counter of its last opcode,
 * its output and error, and its inner frames. Steps are watched only to keep the last program
 * counter and to read a frame's code once, at its first step; the run is made only after an
 * execution failed and only on a node that holds contract metadata.
 */
import { Address } from '@ethereumjs/util'
import type { FrameEnd, FrameStart, FrameType, Step, Tracer } from './types.js'

/** One call frame of the failed execution. */
export interface FailureFrame {
  readonly type: FrameType
  /** The account whose code ran (for DELEGATECALL and CALLCODE, the code's account). */
  readonly codeAddress: Uint8Array | undefined
  /** The call's input; for a create, the init code and the constructor's arguments. */
  readonly input: Uint8Array
  /** The code that ran: deployed code for a call, `input` for a create; empty before any step. */
  code: Uint8Array
  /** The program counter of the frame's last opcode; -1 when none ran. */
  pc: number
  /** The program counters of its last opcodes, oldest first (at most {@link KEPT_PCS}). */
  readonly pcs: number[]
  output: Uint8Array
  error: string | undefined
  readonly children: FailureFrame[]
}

const EMPTY = new Uint8Array(0)

/**
 * How many of a frame's last program counters are kept: a panic raised in a compiler helper
 * (generated code, no source) is placed at the last instruction before it that has a source.
 */
export const KEPT_PCS = 256

/** The frames of one run; `root` is the transaction's own frame once it ran. */
export class FailureTracer implements Tracer {
  readonly wantsSteps = true
  root: FailureFrame | undefined
  private readonly stack: FailureFrame[] = []

  onEnter(frame: FrameStart): void {
    const create = frame.type === 'CREATE' || frame.type === 'CREATE2'
    const entry: FailureFrame = {
      type: frame.type,
      codeAddress: frame.to,
      input: frame.input,
      code: create ? frame.input : EMPTY,
      pc: -1,
      pcs: [],
      output: EMPTY,
      error: undefined,
      children: [],
    }
    const parent = this.stack[this.stack.length - 1]
    if (parent === undefined) this.root = entry
    else parent.children.push(entry)
    this.stack.push(entry)
  }

  async onStep(step: Step): Promise<void> {
    const frame = this.stack[this.stack.length - 1]
    if (frame === undefined) return
    if (frame.pc === -1 && frame.code.length === 0 && frame.codeAddress !== undefined) {
      frame.code = await step.state.getCode(new Address(frame.codeAddress))
    }
    frame.pc = step.pc
    frame.pcs.push(step.pc)
    if (frame.pcs.length > 2 * KEPT_PCS) frame.pcs.splice(0, KEPT_PCS)
  }

  onExit(end: FrameEnd): void {
    const frame = this.stack.pop()
    if (frame === undefined) return
    frame.output = end.output
    frame.error = end.error
  }

  result(): FailureFrame | undefined {
    return this.root
  }
}

/**
 * The frames from the transaction's own down to the one where the failure began: at each level
 * the last inner frame that failed with the same output (a revert its caller passed on, as
 * Solidity bubbles it), for a revert; the last failed inner frame for a halt.
 */
export function failureChain(root: FailureFrame): FailureFrame[] {
  const chain = [root]
  let here = root
  for (;;) {
    const next = [...here.children].reverse().find((c) => c.error !== undefined && (here.error === 'execution reverted' ? c.error === 'execution reverted' && Buffer.compare(c.output, here.output) === 0 : false))
    if (next === undefined) return chain
    chain.push(next)
    here = next
  }
}
