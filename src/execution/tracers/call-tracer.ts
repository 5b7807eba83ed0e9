/**
 * geth's `callTracer`: the tree of call frames (CALL, STATICCALL, DELEGATECALL, CALLCODE, CREATE,
 * CREATE2, SELFDESTRUCT) with gas, input, output, errors and Solidity revert reasons, and with
 * `withLog` the logs each frame emitted, placed among its sub-calls by `position`, with their
 * block-wide `index` (the receipt's `logIndex`; geth #33629).
 */
import type { RawLog } from '../../chain/receipts.js'
import { Refused } from '../../domain-errors.js'
import { data, quantity } from '../../hex.js'
import { revertReason } from '../revert.js'
import type { FrameEnd, FrameStart, FrameType, Tracer, TxEnd, TxStart } from './types.js'

/** `tracerConfig` of the call tracer. */
export interface CallTracerConfig {
  /** Only the transaction's own frame, no sub-calls. */
  onlyTopCall?: boolean
  /** Collect the logs of every frame (dropped for frames whose changes were rolled back). */
  withLog?: boolean
}

interface CallLog {
  log: RawLog
  position: number
  /** The log's index in the block, as its receipt numbers it. */
  index: number
}

interface CallFrame {
  type: FrameType
  from: Uint8Array
  to: Uint8Array | undefined
  input: Uint8Array
  gas: bigint
  gasUsed: bigint
  value: bigint | undefined
  output?: Uint8Array
  error?: string
  revertReason?: string
  /** geth's `revertedSnapshot`: the frame failed and its changes were undone. */
  reverted: boolean
  calls: CallFrame[]
  logs: CallLog[]
}

/** geth's `processOutput`: output on success, error and revert data (and reason) on failure. */
function processOutput(frame: CallFrame, end: FrameEnd): void {
  if (end.error === undefined) {
    frame.output = end.output
    return
  }
  frame.error = end.error
  frame.reverted = end.reverted
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.to = undefined
  if (end.error !== 'execution reverted' || end.output.length === 0) return
  frame.output = end.output
  const reason = revertReason(end.output)
  if (reason !== undefined) frame.revertReason = reason
}

/** geth's `clearFailedLogs`: a failed frame's logs, and its children's, never happened. */
function clearFailedLogs(frame: CallFrame, parentFailed: boolean): void {
  const failed = parentFailed || (frame.error !== undefined && frame.reverted)
  if (failed) frame.logs = []
  for (const call of frame.calls) clearFailedLogs(call, failed)
}

function toJson(frame: CallFrame): Record<string, unknown> {
  const out: Record<string, unknown> = {
    from: data(frame.from),
    gas: quantity(frame.gas),
    gasUsed: quantity(frame.gasUsed),
  }
  if (frame.to !== undefined) out.to = data(frame.to)
  out.input = data(frame.input)
  if (frame.output !== undefined && frame.output.length > 0) out.output = data(frame.output)
  if (frame.error !== undefined) out.error = frame.error
  if (frame.revertReason !== undefined) out.revertReason = frame.revertReason
  if (frame.calls.length > 0) out.calls = frame.calls.map(toJson)
  if (frame.logs.length > 0) {
    out.logs = frame.logs.map(({ log: [address, topics, body], position, index }) => ({
      address: data(address),
      topics: topics.map(data),
      data: data(body),
      position: quantity(position),
      index: quantity(index),
    }))
  }
  if (frame.value !== undefined) out.value = quantity(frame.value)
  out.type = frame.type
  return out
}

/** geth's `callTracer`, for one transaction. */
export class CallTracer implements Tracer {
  readonly wantsSteps = false
  private readonly stack: CallFrame[] = []
  private depth = 0
  private gasLimit = 0n
  private createdAddress: Uint8Array | undefined
  /** The index the next log gets: geth's log counter, which a failed frame winds back. */
  private logIndex = 0
  private readonly logIndexAtEnter: number[] = []

  constructor(private readonly config: CallTracerConfig = {}) {}

  onTxStart(tx: TxStart): void {
    this.gasLimit = tx.gasLimit
    this.logIndex = tx.logIndex
    if (tx.create) this.createdAddress = tx.to
  }

  onEnter(f: FrameStart): void {
    this.depth = f.depth
    this.logIndexAtEnter.push(this.logIndex)
    if (this.config.onlyTopCall === true && f.depth > 0) return
    this.stack.push({
      type: f.type,
      from: f.from,
      to: f.depth === 0 && this.createdAddress !== undefined ? this.createdAddress : f.to,
      input: f.input,
      // geth shows the transaction's gas limit on the top frame, not what is left after intrinsic gas.
      gas: f.depth === 0 ? this.gasLimit : f.gas,
      gasUsed: 0n,
      value: f.value,
      reverted: false,
      calls: [],
      logs: [],
    })
  }

  onExit(end: FrameEnd): void {
    const logIndex = this.logIndexAtEnter.pop()
    if (end.reverted && logIndex !== undefined) this.logIndex = logIndex
    if (end.depth === 0) {
      const top = this.stack[0]
      if (top !== undefined && this.stack.length === 1) processOutput(top, end)
      return
    }
    this.depth = end.depth - 1
    if (this.config.onlyTopCall === true) return
    if (this.stack.length <= 1) return
    const call = this.stack.pop() as CallFrame
    call.gasUsed = end.gasUsed
    if (end.created !== undefined) call.to = end.created
    processOutput(call, end)
    this.stack[this.stack.length - 1]?.calls.push(call)
  }

  onLog(log: RawLog): void {
    const index = this.logIndex++
    if (this.config.withLog !== true) return
    if (this.config.onlyTopCall === true && this.depth > 0) return
    const frame = this.stack[this.stack.length - 1]
    frame?.logs.push({ log, position: frame.calls.length, index })
  }

  onTxEnd(end: TxEnd): void {
    const top = this.stack[0]
    if (top === undefined) return
    top.gasUsed = end.gasUsed
    if (this.config.withLog === true) clearFailedLogs(top, false)
  }

  result(): unknown {
    const top = this.stack[0]
    if (top === undefined || this.stack.length !== 1) throw new Refused('incorrect number of top-level calls')
    return toJson(top)
  }
}
