/**
 * Two details of geth's JavaScript tracer API, through node.request, HTTP and WebSocket: a create
 * frame's `getTo()` (and a creating transaction's `ctx.to`) is the new contract's address, as
 * callTracer reports it; and `log.getError()` is set in `step` for an opcode that fails its checks
 * (stack, gas) before it runs, while an opcode that fails as it runs (REVERT, INVALID, a bad jump)
 * is traced without an error and then reported to `fault`. Both for the sandboxed source and for
 * in-process tracer objects.
 */
import type { Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, TracerObject } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { WsClient } from '../../helpers/loopback.js'
import { artifact, calldata, deploy, qty, sender } from '../../helpers/execution.js'
import { FRAMES, traceRequests, type CallFrame, type StructResult } from '../../helpers/traces.js'

const newNode = trackNodes()
let node: FinalityNode
const { request, send, receiptOf, trace } = traceRequests(() => node)

/** Records every step's and fault's error, with the opcode and depth. */
const ERRORS = `{
  steps: [], faults: [],
  step: function (log) { this.steps.push([log.op.toString(), log.getDepth(), log.getError() === undefined ? null : log.getError()]) },
  fault: function (log) { this.faults.push([log.op.toString(), log.getDepth(), log.getError()]) },
  result: function (ctx) { return { steps: this.steps, faults: this.faults, error: ctx.error === undefined ? null : ctx.error } }
}`

interface Errors {
  steps: Array<[string, number, string | null]>
  faults: Array<[string, number, string]>
  error: string | null
}

/** A contract at this address runs `code` (a state override). */
const PROBE = '0x00000000000000000000000000000000000000cc'

async function traceCode(code: Hex, gas = 100_000n): Promise<{ js: Errors; logs: StructResult }> {
  const call = { from: sender(node), to: PROBE, gas: qty(gas) }
  const overrides = { [PROBE]: { code } }
  const js = await request<Errors>('debug_traceCall', [call, 'latest', { tracer: ERRORS, stateOverrides: overrides }])
  const logs = await request<StructResult>('debug_traceCall', [call, 'latest', { stateOverrides: overrides }])
  return { js, logs }
}

beforeAll(async () => {
  node = await newNode()
})

describe('a create frame names the new contract', () => {
  let factory: Hex
  beforeAll(async () => {
    factory = await deploy(node, 'Factory')
  })

  it('getTo() in enter is the address callTracer reports, for CREATE2 and CREATE', async () => {
    for (const data of [calldata('Factory', 'deploy', [`0x${'ab'.repeat(32)}`, 5n]), calldata('Factory', 'deployPlain', [6n])]) {
      const hash = await send({ to: factory, data, gas: qty(1_000_000n) })
      const native = await trace<CallFrame>(hash, { tracer: 'callTracer' })
      const child = native.calls?.[0]
      expect(child?.type).toMatch(/^CREATE2?$/)
      expect(child?.to).toMatch(/^0x[0-9a-f]{40}$/)
      expect(child?.to).not.toBe(`0x${'0'.repeat(40)}`)
      const { revertReason: _r, ...plain } = native
      expect(await trace(hash, { tracer: FRAMES })).toEqual(plain)
    }
  })

  it("a creating transaction's ctx.to is the contract it creates", async () => {
    const hash = await send({ data: artifact('Factory').bytecode })
    const { contractAddress } = await receiptOf(hash)
    const native = await trace<CallFrame>(hash, { tracer: 'callTracer' })
    expect(native.to).toBe(contractAddress?.toLowerCase())
    const out = await trace<CallFrame>(hash, { tracer: FRAMES })
    expect(out).toEqual(native)
  })

  it('a create that fails before it starts still names the address geth computed (callTracer drops it)', async () => {
    const tracer = `{ tos: [], enter: function (f) { this.tos.push([f.getType(), toHex(f.getTo())]) }, exit: function (r) { this.tos.push(r.getError() || null) },
      fault: function () {}, result: function (ctx) { return { tos: this.tos, expected: toHex(toContract(ctx.to, 0)) } } }`
    const call = { from: sender(node), to: PROBE, gas: qty(200_000n) }
    // PUSH1 0 (length), PUSH1 0 (offset), PUSH1 v (value), CREATE: PROBE has no balance, so value 1 fails fast.
    for (const [code, error] of [['0x600060006000f0', null], ['0x600060006001f0', 'insufficient balance for transfer']] as const) {
      const overrides = { [PROBE]: { code } }
      const out = await request<{ tos: unknown[]; expected: string }>('debug_traceCall', [call, 'latest', { tracer, stateOverrides: overrides }])
      expect(out.tos).toEqual([['CREATE', out.expected], error])
      const native = await request<CallFrame>('debug_traceCall', [call, 'latest', { tracer: 'callTracer', stateOverrides: overrides }])
      expect(native.calls?.[0]?.to).toBe(error === null ? out.expected : undefined)
    }
  })

  it('an in-process tracer object sees the same address', async () => {
    const hash = await send({ to: factory, data: calldata('Factory', 'deploy', [`0x${'cd'.repeat(32)}`, 1n]), gas: qty(1_000_000n) })
    const native = await trace<CallFrame>(hash, { tracer: 'callTracer' })
    const tos: string[] = []
    const tracer: TracerObject = {
      enter(f) {
        tos.push(`0x${Buffer.from(f.getTo()).toString('hex')}`)
      },
      exit() {},
      fault() {},
      result: () => tos,
    }
    expect(await node.request({ method: 'debug_traceTransaction', params: [hash, { tracer }] })).toEqual([native.calls?.[0]?.to])
  })
})

describe("log.getError(): in step for an opcode's checks, in fault for a failure as it runs", () => {
  it('stack underflow: the step carries the error, fault is not called (as geth)', async () => {
    const { js, logs } = await traceCode('0x600101') // PUSH1 1, ADD
    expect(js.steps).toEqual([
      ['PUSH1', 1, null],
      ['ADD', 1, 'stack underflow (1 <=> 2)'],
    ])
    expect(js.faults).toEqual([])
    expect(js.error).toBe('stack underflow (1 <=> 2)')
    expect(logs.structLogs.map((l) => l.error ?? null)).toEqual(js.steps.map((s) => s[2]))
  })

  it('out of gas: the last step carries it', async () => {
    const { js, logs } = await traceCode('0x5b600056', 21_100n) // JUMPDEST, PUSH1 0, JUMP: a loop
    const last = js.steps[js.steps.length - 1]
    expect(last?.[2]).toBe('out of gas')
    expect(js.steps.slice(0, -1).every((s) => s[2] === null)).toBe(true)
    expect(js.faults).toEqual([])
    expect(js.error).toBe('out of gas')
    expect(logs.structLogs.map((l) => l.error ?? null)).toEqual(js.steps.map((s) => s[2]))
  })

  it('stack overflow: the 1025th push carries the error', async () => {
    const { js } = await traceCode(`0x${'5f'.repeat(1025)}`, 200_000n)
    expect(js.steps.length).toBe(1025)
    expect(js.steps[1024]).toEqual(['PUSH0', 1, 'stack limit reached 1024 (1023)'])
    expect(js.steps.filter((s) => s[2] !== null).length).toBe(1)
    expect(js.faults).toEqual([])
  })

  it('REVERT, INVALID and a bad jump: the step has no error, fault gets it with the same log', async () => {
    const cases: Array<[Hex, string, string]> = [
      ['0x60006000fd', 'REVERT', 'execution reverted'],
      ['0xfe', 'INVALID', 'invalid opcode: INVALID'],
      ['0x600556', 'JUMP', 'invalid jump destination'],
    ]
    for (const [code, op, error] of cases) {
      const { js, logs } = await traceCode(code)
      expect(js.steps.every((s) => s[2] === null)).toBe(true)
      expect(js.steps[js.steps.length - 1]?.[0]).toBe(op)
      expect(js.faults).toEqual([[op, 1, error]])
      expect(js.error).toBe(error)
      expect(logs.structLogs.every((l) => l.error === undefined)).toBe(true)
    }
  })

  it('a Solidity revert in a nested frame: fault once at depth 2, for the REVERT; the transaction goes on', async () => {
    const callee = await deploy(node, 'Callee')
    const caller = await deploy(node, 'Caller')
    const hash = await send({ to: caller, data: calldata('Caller', 'tryCallFail', [callee]), gas: qty(300_000n) })
    const out = await trace<Errors>(hash, { tracer: ERRORS })
    expect(out.faults).toEqual([['REVERT', 2, 'execution reverted']])
    expect(out.steps.every((s) => s[2] === null)).toBe(true)
    expect(out.error).toBeNull()
  })

  it('an in-process tracer object: getError in step and fault the same way', async () => {
    const seen: Array<[string, string | undefined]> = []
    const tracer: TracerObject = {
      step(log) {
        seen.push(['step', log.getError()])
      },
      fault(log) {
        seen.push(['fault', log.getError()])
      },
      result: () => seen,
    }
    const call = (code: Hex) => node.request({ method: 'debug_traceCall', params: [{ from: sender(node), to: PROBE }, 'latest', { tracer, stateOverrides: { [PROBE]: { code } } }] })
    await call('0x01')
    expect(seen).toEqual([['step', 'stack underflow (0 <=> 2)']])
    seen.length = 0
    await call('0xfe')
    expect(seen).toEqual([
      ['step', undefined],
      ['fault', 'invalid opcode: INVALID'],
    ])
  })
})

describe('over HTTP and WebSocket', () => {
  it('the same answers as node.request', async () => {
    const factory = await deploy(node, 'Factory')
    const hash = await send({ to: factory, data: calldata('Factory', 'deployPlain', [9n]), gas: qty(1_000_000n) })
    const frames = await trace(hash, { tracer: FRAMES })
    const errors = (await traceCode('0x01')).js
    const server = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'debug'] })
    const ws = await WsClient.connect(server.ws as string)
    try {
      const post = async (method: string, params: unknown[]) => {
        const res = await fetch(server.http as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
        return ((await res.json()) as { result?: unknown }).result
      }
      const errorCall = [{ from: sender(node), to: PROBE, gas: qty(100_000n) }, 'latest', { tracer: ERRORS, stateOverrides: { [PROBE]: { code: '0x01' } } }]
      expect(await post('debug_traceTransaction', [hash, { tracer: FRAMES }])).toEqual(frames)
      expect(await post('debug_traceCall', errorCall)).toEqual(errors)
      expect((await ws.call('debug_traceTransaction', [hash, { tracer: FRAMES }])).result).toEqual(frames)
      expect((await ws.call('debug_traceCall', errorCall)).result).toEqual(errors)
    } finally {
      ws.close()
      await server.close()
    }
  })
})
