/** Shared by the tracing tests: the result shapes, a hand-assembled contract and request helpers. */
import type { Hex } from 'viem'
import type { FinalityNode } from '../../src/index.js'
import { sender } from './execution.js'

/** Runtime code: SSTORE(0, 0x2a); SLOAD(0); MSTORE(0, …); RETURN(0, 32). */
export const TINY_RUNTIME = '602a600055600054600052602060' + '00f3'
/** Init code that returns TINY_RUNTIME (16 bytes, copied from offset 12). */
export const TINY_INIT: Hex = `0x6010600c60003960106000f3${TINY_RUNTIME}`

/** A JavaScript tracer in geth's API that rebuilds callTracer's frames from enter / exit / ctx. */
export const FRAMES = `{
  open: [], top: [],
  hex: function (n) { return '0x' + bigInt(n).toString(16) },
  enter: function (f) {
    var v = f.getValue()
    this.open.push({ type: f.getType(), from: toHex(f.getFrom()), to: toHex(f.getTo()), value: v === undefined ? undefined : '0x' + v.toString(16),
      gas: this.hex(f.getGas()), input: toHex(f.getInput()), calls: [] })
  },
  exit: function (r) {
    var f = this.open.pop()
    f.gasUsed = this.hex(r.getGasUsed())
    var out = toHex(r.getOutput())
    if (out !== '0x') f.output = out
    if (r.getError() !== undefined) f.error = r.getError()
    if (f.calls.length === 0) delete f.calls
    var parent = this.open[this.open.length - 1]
    if (parent) parent.calls.push(f); else this.top.push(f)
  },
  fault: function () {},
  result: function (ctx) {
    var out = { type: ctx.type, from: toHex(ctx.from), to: toHex(ctx.to), value: '0x' + ctx.value.toString(16), gas: this.hex(ctx.gas),
      gasUsed: this.hex(ctx.gasUsed), input: toHex(ctx.input) }
    if (toHex(ctx.output) !== '0x') out.output = toHex(ctx.output)
    if (ctx.error !== undefined) out.error = ctx.error
    if (this.top.length > 0) out.calls = this.top
    return out
  }
}`

/** One struct logger entry. */
export interface StructLog {
  pc: number
  op: string
  gas: number
  gasCost: number
  depth: number
  stack?: string[]
  memory?: string[]
  storage?: Record<string, string>
  returnData?: string
  refund?: number
  error?: string
}

/** The struct logger's result. */
export interface StructResult {
  gas: number
  failed: boolean
  returnValue: string
  structLogs: StructLog[]
}

/** A callTracer frame. */
export interface CallFrame {
  type: string
  from: string
  to?: string
  value?: string
  gas: string
  gasUsed: string
  input: string
  output?: string
  error?: string
  revertReason?: string
  calls?: CallFrame[]
  logs?: Array<{ address: string; topics: string[]; data: string; position: string; index: string }>
}

/** A receipt's fields the tests read. */
export interface Receipt {
  gasUsed: Hex
  status: Hex
  blockNumber: Hex
  blockHash: Hex
  contractAddress: Hex | null
}

/** Requests to the node `node()` returns (set in a `beforeAll`); `send` sends from account 0. */
export function traceRequests(node: () => FinalityNode) {
  const request = async <T>(method: string, params: unknown[]): Promise<T> => (await node().request({ method, params })) as T
  return {
    request,
    send: (tx: Record<string, unknown>) => request<Hex>('eth_sendTransaction', [{ from: sender(node()), ...tx }]),
    receiptOf: (hash: Hex) => request<Receipt>('eth_getTransactionReceipt', [hash]),
    trace: <T>(hash: Hex, config?: Record<string, unknown>) => request<T>('debug_traceTransaction', config === undefined ? [hash] : [hash, config]),
  }
}
