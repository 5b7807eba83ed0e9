/**
 * OpenEthereum's `vmTrace` as reth and Anvil write it (revm-inspectors' parity builder): per frame
 * `{ code, ops }`, per opcode `{ cost, ex: { used, push, mem, store }, pc, sub, op }`. revm's
 * readings differ from OpenEthereum's and are kept, since clients compare against those nodes:
 * `used` is the gas left before the opcode; `mem` is the whole memory before it (`off` its
 * length); `store` is always null; `push` is what the opcode left on top of the stack (for a
 * CALL or CREATE the word under its arguments, read before the callee's answer is pushed);
 * `cost` of a CALL or CREATE includes the gas handed to the callee. Zero-value calls to
 * precompiles below the top are no frames (their opcode's `sub` takes the next frame's trace, as
 * revm's queue hands them out); a frame of empty code has no opcodes; when the last frame started
 * ends in STOP, a frame whose first opcode is STOP ends the walk with no opcodes (revm's rule for
 * plain transfers). `code` is each frame's code before the transaction (empty for a contract the
 * transaction creates).
 */
import { data, keyOf, quantity } from '../../hex.js'
import { opName, stackEffect } from './opcodes.js'
import type { TxStartState } from './state-diff.js'
import type { FrameEnd, FrameStart, Step, Tracer, TxStart } from './types.js'

interface VmStep {
  pc: number
  op: number
  cost: bigint
  used: bigint
  push: bigint[] | undefined
  memory: Uint8Array
  stack: bigint[]
}

interface Node {
  address: string
  steps: VmStep[]
  children: Node[]
  precompile: boolean
}

/** One frame's VM trace. */
export interface VmTrace {
  code: string
  ops: Array<{ cost: number; ex: { used: number; push: string[]; mem: { off: number; data: string }; store: null }; pc: number; sub: VmTrace | null; op: string }>
}

const CALL_LIKE = new Set([0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa])

/** What an opcode leaves on top of the stack, read from the stack after it (revm's `push_stack`). */
function pushed(op: number, after: bigint[]): bigint[] {
  const [, outputs] = stackEffect(op)
  return after.slice(Math.max(0, after.length - outputs))
}

/** Records the opcodes of one transaction for its `vmTrace`. */
export class VmTraceTracer implements Tracer {
  readonly wantsSteps = true
  private readonly nodes: Node[] = []
  private readonly open: Node[] = []
  private precompiles: ReadonlySet<string> = new Set()
  private trace: VmTrace = { code: '0x', ops: [] }

  /** `before` is captured at the transaction's start by whoever runs this tracer. */
  constructor(private readonly before: TxStartState) {}

  onTxStart(tx: TxStart): void {
    this.precompiles = tx.precompiles
  }

  onEnter(start: FrameStart): void {
    if (start.type === 'SELFDESTRUCT') return
    const parent = this.open[this.open.length - 1]
    const address = start.to === undefined ? '' : keyOf(start.to)
    const precompile = parent !== undefined && (start.value ?? 0n) === 0n && this.precompiles.has(address)
    const node: Node = { address, steps: [], children: [], precompile }
    this.nodes.push(node)
    if (parent !== undefined && !precompile) parent.children.push(node)
    this.open.push(node)
  }

  onStep(step: Step): void {
    const node = this.open[this.open.length - 1]
    if (node === undefined) return
    const previous = node.steps[node.steps.length - 1]
    if (previous !== undefined && previous.push === undefined) previous.push = pushed(previous.op, step.stack)
    let cost = step.cost
    // revm charges a CREATE the gas it hands to the init code (all but 1/64 of what is left).
    if (step.op === 0xf0 || step.op === 0xf5) cost += (step.gas - cost) - (step.gas - cost) / 64n
    const entry: VmStep = { pc: step.pc, op: step.op, cost, used: step.gas, push: undefined, memory: step.memory.slice(), stack: step.stack }
    if (CALL_LIKE.has(step.op)) {
      // Read before the callee's answer is pushed: the word under the opcode's arguments.
      const [pops, outputs] = stackEffect(step.op)
      entry.push = pushed(step.op, step.stack.slice(0, Math.max(0, step.stack.length - pops))).slice(-outputs)
    }
    node.steps.push(entry)
  }

  onExit(end: FrameEnd): void {
    const node = this.open[this.open.length - 1]
    if (node === undefined || (end.depth !== this.open.length - 1)) return
    this.open.pop()
    const last = node.steps[node.steps.length - 1]
    if (last !== undefined && last.push === undefined) {
      // Halting opcodes push nothing; one that failed left the stack as it was.
      last.push = end.error === undefined ? [] : pushed(last.op, last.stack)
    }
  }

  async onTxEnd(): Promise<void> {
    const root = this.nodes[0]
    if (root === undefined) return
    this.trace = this.build(root)
    // Codes in breadth-first order of the frames and of the traces (revm's walk).
    const frames: Node[] = [root]
    for (let i = 0; i < frames.length; i++) frames.push(...(frames[i] as Node).children)
    const traces: VmTrace[] = [this.trace]
    for (let i = 0; i < traces.length && i < frames.length; i++) {
      const trace = traces[i] as VmTrace
      for (const op of trace.ops) if (op.sub !== null) traces.push(op.sub)
      trace.code = data(await this.before.code((frames[i] as Node).address))
    }
  }

  result(): VmTrace {
    return this.trace
  }

  /** revm-inspectors' walk: children first, their traces queued and handed to the call-like opcodes in order. */
  private build(root: Node): VmTrace {
    const lastStep = this.nodes[this.nodes.length - 1]?.steps.at(-1)
    const lastIsStop = lastStep?.op === 0x00
    const queue: Array<VmTrace | null> = []
    const visit = (node: Node): VmTrace['ops'] | 'stop' => {
      for (const child of node.children) {
        const ops = visit(child)
        if (ops === 'stop') return 'stop'
        queue.push({ code: '0x', ops })
      }
      const ops: VmTrace['ops'] = []
      for (const step of node.steps) {
        const sub = CALL_LIKE.has(step.op) ? (queue.shift() ?? null) : null
        if (step.op === 0x00 && ops.length === 0 && lastIsStop) return 'stop'
        ops.push({
          cost: Number(step.cost),
          ex: { used: Number(step.used), push: (step.push ?? []).map(quantity), mem: { off: step.memory.length, data: data(step.memory) }, store: null },
          pc: step.pc,
          sub,
          op: opName(step.op),
        })
      }
      return ops
    }
    const ops = visit(root)
    return { code: '0x', ops: ops === 'stop' ? [] : ops }
  }
}
