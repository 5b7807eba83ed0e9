/**
 * Records the call frames of a failed execution run again to explain it: each frame's code (the
 * account's code for a call, the init code for a create), the program counter of its last opcode,
 * its output and error, and its inner frames. Opcodes are watched only to keep the last program
 * counters (through the engine's opcode observer, or the library's `step` event where there is
 * none) and to take a frame's code at its first; the run is made only after an execution failed
 * and only on a node that holds contract metadata.
 */
import { Address } from '@ethereumjs/util'
import type { ObservedStack } from '../engine/opcode-observer.js'
import type { FrameEnd, FrameStart, FrameType, Step, Tracer } from './types.js'

function bigintToAddress(value: bigint): Uint8Array {
  const out = new Uint8Array(20)
  let v = value & ((1n << 160n) - 1n)
  for (let i = 19; i >= 0; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

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
  /** The value the frame was called with (0 for STATICCALL). */
  readonly value: bigint
  /** The caller's program counter at the instruction that made this frame; -1 for the transaction's own. */
  readonly callPc: number
  /**
   * The frame's last EXTCODESIZE found no code, and no inner frame began after it: Solidity's
   * check before calling a function of another contract failed (a call to an address without code).
   */
  calledNoCode: boolean
  /**
   * The open internal calls: the program counter of each jump into a function (marked `i` in
   * the source map and landing on a JUMPDEST) not yet left by a jump out (`o`), outermost first.
   * Kept only when the tracer was given the marks of the frame's code.
   */
  readonly internalCalls: number[]
  /** For each of {@link internalCalls}, the program counter of the JUMPDEST it landed on (the function's entry). */
  readonly internalEntries: number[]
}

/** A code's jump marks by program counter: `i` into a function, `o` out of one. */
export type JumpMarks = (pc: number) => string | undefined

const EXTCODESIZE = 0x3b
const JUMPDEST = 0x5b

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
  /** Per open frame: its jump marks (resolved at its first step) and a jump into a function just made. */
  private readonly marks: (JumpMarks | undefined | null)[] = []
  private readonly jumpedAt: number[] = []
  /** Per open frame: its last opcode was an EXTCODESIZE whose answer is not read yet (observer only). */
  private readonly sizeAsked: boolean[] = []

  /** `jumps` answers a frame's jump marks from its code, or undefined for code of no known contract. */
  constructor(private readonly jumps?: (frame: FailureFrame) => JumpMarks | undefined) {}

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
      value: frame.value ?? 0n,
      callPc: this.stack[this.stack.length - 1]?.pc ?? -1,
      calledNoCode: false,
      internalCalls: [],
      internalEntries: [],
    }
    const parent = this.stack[this.stack.length - 1]
    if (parent !== undefined) parent.calledNoCode = false
    if (parent === undefined) this.root = entry
    else parent.children.push(entry)
    this.stack.push(entry)
    this.marks.push(null)
    this.jumpedAt.push(-1)
    this.sizeAsked.push(false)
  }

  /** Each opcode through the library's `step` event, where the engine has no opcode observer. */
  async onStep(step: Step): Promise<void> {
    const frame = this.stack[this.stack.length - 1]
    if (frame === undefined) return
    if (frame.pc === -1 && frame.code.length === 0 && frame.codeAddress !== undefined) {
      frame.code = await step.state.getCode(new Address(frame.codeAddress))
    }
    this.at(frame, step.pc, step.op)
    if (step.op === EXTCODESIZE) {
      const target = step.stack[step.stack.length - 1]
      if (target !== undefined) frame.calledNoCode = (await step.state.getCode(new Address(bigintToAddress(target)))).length === 0
    }
  }

  /**
   * Each opcode through the engine's observer: the same record, none of a step's copies. The
   * code running is handed over; an EXTCODESIZE's answer is read from the stack's top at the
   * frame's next opcode.
   */
  onOpcode(pc: number, op: number, stack: ObservedStack, code: Uint8Array): void {
    const top = this.stack.length - 1
    const frame = this.stack[top]
    if (frame === undefined) return
    if (frame.pc === -1 && frame.code.length === 0) frame.code = code
    if (this.sizeAsked[top] === true) {
      this.sizeAsked[top] = false
      frame.calledNoCode = stack.length > 0 && stack.peek(1)[0] === 0n
    }
    this.at(frame, pc, op)
    if (op === EXTCODESIZE) this.sizeAsked[top] = true
  }

  /** The frame's last program counters and its internal calls, at an opcode about to run. */
  private at(frame: FailureFrame, pc: number, op: number): void {
    frame.pc = pc
    frame.pcs.push(pc)
    if (this.jumps !== undefined) this.followJumps(frame, pc, op)
    if (frame.pcs.length > 2 * KEPT_PCS) frame.pcs.splice(0, KEPT_PCS)
  }

  /** The frame's internal calls, as EDR follows them: into a function, then out of it. */
  private followJumps(frame: FailureFrame, pc: number, op: number): void {
    const top = this.stack.length - 1
    let marks = this.marks[top]
    if (marks === null) marks = this.marks[top] = this.jumps!(frame)
    if (marks === undefined) return
    const jumped = this.jumpedAt[top]!
    this.jumpedAt[top] = -1
    if (jumped !== -1 && op === JUMPDEST) {
      frame.internalCalls.push(jumped)
      frame.internalEntries.push(pc)
    }
    const mark = marks(pc)
    if (mark === 'i') this.jumpedAt[top] = pc
    else if (mark === 'o') {
      frame.internalCalls.pop()
      frame.internalEntries.pop()
    }
  }

  onExit(end: FrameEnd): void {
    this.marks.pop()
    this.jumpedAt.pop()
    this.sizeAsked.pop()
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
