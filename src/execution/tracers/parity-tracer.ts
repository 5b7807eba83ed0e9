/**
 * OpenEthereum's flat call traces (the trace_* methods): one entry per call frame in depth-first
 * order, each with its `traceAddress` (the path of child indices from the transaction's own
 * frame) and `subtraces` (its child count). The shapes and words are those reth and Anvil write
 * (revm-inspectors' parity builder): `callType` in lower case, `creationMethod` on a creation,
 * a SELFDESTRUCT as a `suicide` entry that is its frame's last child, `result` null for a frame
 * that failed other than by REVERT, and errors in OpenEthereum's words (`Reverted`, `Out of gas`).
 */
import { data, quantity } from '../../hex.js'
import type { FrameEnd, FrameStart, FrameType, Tracer, TxStart } from './types.js'

/** One flat trace entry, before the block and transaction fields are added. */
export type ParityTrace = {
  type: 'call' | 'create' | 'suicide'
  action: Record<string, unknown>
  error?: string
  result: Record<string, unknown> | null
  subtraces: number
  traceAddress: number[]
}

/** What a frame records until its trace is written. */
interface Frame {
  start: FrameStart
  end: FrameEnd | undefined
  children: Frame[]
  /** A zero-value call to a precompile below the top, which reth's replays leave out. */
  precompile: boolean
}

/**
 * OpenEthereum's error words for geth's (as revm-inspectors prints revm's halts in parity style;
 * halts it has no words for are revm's own names).
 */
const ERRORS: ReadonlyArray<readonly [test: (geth: string) => boolean, parity: string]> = [
  [(e) => e === 'execution reverted', 'Reverted'],
  [(e) => e === 'out of gas' || e === 'contract creation code storage out of gas', 'Out of gas'],
  [(e) => e === 'insufficient balance for transfer', 'Insufficient balance for transfer'],
  [(e) => e.startsWith('invalid opcode'), 'Bad instruction'],
  [(e) => e === 'invalid jump destination', 'Bad jump destination'],
  [(e) => e.startsWith('stack limit reached'), 'Out of stack'],
  [(e) => e.startsWith('stack underflow'), 'StackUnderflow'],
  [(e) => e === 'max call depth exceeded', 'CallTooDeep'],
  [(e) => e === 'write protection', 'StateChangeDuringStaticCall'],
  [(e) => e === 'contract address collision', 'CreateCollision'],
  [(e) => e === 'nonce uint64 overflow', 'NonceOverflow'],
  [(e) => e === 'max code size exceeded', 'CreateContractSizeLimit'],
  [(e) => e === 'max initcode size exceeded', 'CreateInitCodeSizeLimit'],
  [(e) => e === 'invalid code: must not begin with 0xef', 'CreateContractStartingWithEF'],
  [(e) => e === 'return data out of bounds', 'OutOfOffset'],
]

/** OpenEthereum's words for a frame's error given in geth's. */
export function parityError(geth: string): string {
  for (const [test, parity] of ERRORS) if (test(geth)) return parity
  return geth
}

const CALL_TYPES: Partial<Record<FrameType, string>> = {
  CALL: 'call',
  STATICCALL: 'staticcall',
  DELEGATECALL: 'delegatecall',
  CALLCODE: 'callcode',
}

const ZERO_ADDRESS = new Uint8Array(20)
const EMPTY = new Uint8Array(0)

/** The trace of one frame (not a SELFDESTRUCT). */
function traceOf(frame: Frame, traceAddress: number[], subtraces: number): ParityTrace {
  const { start, end } = frame
  const create = start.type === 'CREATE' || start.type === 'CREATE2'
  const to = start.to ?? ZERO_ADDRESS
  const value = quantity(start.value ?? 0n)
  const action = create
    ? { from: data(start.from), gas: quantity(start.gas), init: data(start.input), value, creationMethod: start.type.toLowerCase() }
    : { from: data(start.from), callType: CALL_TYPES[start.type], gas: quantity(start.gas), input: data(start.input), to: data(to), value }
  const error = end?.error
  // A failed frame keeps a result only when it reverted: its gas and revert data.
  let result: Record<string, unknown> | null = null
  if (end !== undefined && (error === undefined || error === 'execution reverted')) {
    const output = data(end.output ?? EMPTY)
    result = create ? { address: data(to), code: output, gasUsed: quantity(end.gasUsed) } : { gasUsed: quantity(end.gasUsed), output }
  }
  const trace: ParityTrace = { type: create ? 'create' : 'call', action, result, subtraces, traceAddress }
  if (error !== undefined) trace.error = parityError(error)
  return trace
}

/** A SELFDESTRUCT's `suicide` entry: the contract, the balance it gave away and its heir. */
function suicideOf(frame: Frame, traceAddress: number[]): ParityTrace {
  const { start } = frame
  return {
    type: 'suicide',
    action: { address: data(start.from), balance: quantity(start.value ?? 0n), refundAddress: data(start.to ?? ZERO_ADDRESS) },
    result: null,
    subtraces: 0,
    traceAddress,
  }
}

/** Options of {@link ParityTracer}. */
export interface ParityTracerOptions {
  /**
   * Leave out zero-value calls to precompiles below the transaction's own frame, as reth's
   * replays (trace_replay*, trace_call*) do; Anvil's trace_transaction keeps them.
   */
  skipPrecompiles?: boolean
}

/** Collects one transaction's frames and writes them as OpenEthereum's flat trace list. */
export class ParityTracer implements Tracer {
  readonly wantsSteps = false
  private readonly stack: Frame[] = []
  private root: Frame | undefined
  private precompiles: ReadonlySet<string> = new Set()
  /** Addresses of the contracts this transaction's successful creations made (stateDiff reads them). */
  readonly created = new Set<string>()

  constructor(private readonly options: ParityTracerOptions = {}) {}

  onTxStart(tx: TxStart): void {
    this.precompiles = tx.precompiles
  }

  onEnter(start: FrameStart): void {
    const parent = this.stack[this.stack.length - 1]
    const callee = start.to === undefined ? '' : Buffer.from(start.to).toString('hex')
    const precompile =
      parent !== undefined && start.type !== 'SELFDESTRUCT' && (start.value ?? 0n) === 0n && this.precompiles.has(callee)
    const frame: Frame = { start, end: undefined, children: [], precompile }
    if (parent === undefined) this.root = frame
    else parent.children.push(frame)
    this.stack.push(frame)
  }

  onExit(end: FrameEnd): void {
    const frame = this.stack.pop()
    if (frame === undefined) return
    frame.end = end
    if (end.created !== undefined) this.created.add(Buffer.from(end.created).toString('hex'))
  }

  /** The flat list, depth first. */
  result(): ParityTrace[] {
    const out: ParityTrace[] = []
    if (this.root !== undefined) this.write(this.root, [], out)
    return out
  }

  private write(frame: Frame, traceAddress: number[], out: ParityTrace[]): void {
    const children = this.options.skipPrecompiles === true ? frame.children.filter((c) => !c.precompile) : frame.children
    out.push(traceOf(frame, traceAddress, children.length))
    children.forEach((child, i) => {
      const address = [...traceAddress, i]
      if (child.start.type === 'SELFDESTRUCT') out.push(suicideOf(child, address))
      else this.write(child, address, out)
    })
  }
}
