/**
 * JavaScript tracers in geth's API, run in the QuickJS sandbox, through node.request and HTTP:
 * tracers of our own checked against the struct logger, callTracer and prestateTracer, the
 * environment (ctx, db, helpers, bigInt), hostile tracers, block traces and debug_traceCall;
 * in-process tracer objects and opcodeTracer.
 */
import type { Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, TracerObject } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { requestRaw } from '../../helpers/raw-request.js'
import { WsClient } from '../../helpers/loopback.js'
import { calldata, deploy, qty, rpcError, sender } from '../../helpers/execution.js'
import { FRAMES, traceRequests, type CallFrame, type StructResult } from '../../helpers/traces.js'

const newNode = trackNodes()

let node: FinalityNode
let callee: Hex
let caller: Hex
let token: Hex
let transfer: Hex
const { request, send, receiptOf, trace } = traceRequests(() => node)

const OPCOUNT = `{ count: 0, step: function (log, db) { this.count++ }, fault: function (log, db) {}, result: function (ctx, db) { return this.count } }`

const NGRAMS = `{
  uni: {}, bi: {}, prev: '',
  step: function (log) {
    var op = log.op.toString()
    this.uni[op] = (this.uni[op] || 0) + 1
    if (this.prev !== '') { var k = this.prev + '-' + op; this.bi[k] = (this.bi[k] || 0) + 1 }
    this.prev = op
  },
  fault: function () {},
  result: function () { return { unigrams: this.uni, bigrams: this.bi } }
}`

const STORAGE = `{
  seen: {},
  step: function (log, db) {
    var op = log.op.toString()
    if (op !== 'SLOAD' && op !== 'SSTORE') return
    var addr = toHex(log.contract.getAddress())
    var slot = toWord(log.stack.peek(0).toString(16))
    var slots = this.seen[addr] || (this.seen[addr] = {})
    if (!(toHex(slot) in slots)) slots[toHex(slot)] = toHex(db.getState(log.contract.getAddress(), slot))
  },
  fault: function () {},
  result: function () { return this.seen }
}`

beforeAll(async () => {
  node = await newNode()
  callee = await deploy(node, 'Callee')
  caller = await deploy(node, 'Caller')
  token = await deploy(node, 'Token', ['Token', 'TOK', 10n ** 24n])
  transfer = await send({ to: token, data: calldata('Token', 'transfer', [sender(node, 1), 12345n]) })
})

describe('JavaScript tracers: our own, checked against the native tracers', () => {
  it('an opcode counter counts the struct logger entries', async () => {
    const logs = (await trace<StructResult>(transfer)).structLogs
    expect(await trace(transfer, { tracer: OPCOUNT })).toBe(logs.length)
  })

  it('a unigram / bigram counter agrees with the struct logger and opcodeTracer', async () => {
    const ops = (await trace<StructResult>(transfer)).structLogs.map((l) => l.op)
    expect(await trace(transfer, { tracer: 'opcodeTracer' })).toEqual(ops)
    const uni: Record<string, number> = {}
    const bi: Record<string, number> = {}
    ops.forEach((op, i) => {
      uni[op] = (uni[op] ?? 0) + 1
      if (i > 0) bi[`${ops[i - 1]}-${op}`] = (bi[`${ops[i - 1]}-${op}`] ?? 0) + 1
    })
    expect(await trace(transfer, { tracer: NGRAMS })).toEqual({ unigrams: uni, bigrams: bi })
  })

  it('a call-frame tracer (enter / exit / ctx) reproduces callTracer', async () => {
    const strip = (f: CallFrame): CallFrame => {
      const { revertReason: _r, ...rest } = f
      return { ...rest, ...(f.calls === undefined ? {} : { calls: f.calls.map(strip) }) }
    }
    for (const data of [calldata('Caller', 'callSet', [callee, 7n]), calldata('Caller', 'tryCallFail', [callee])]) {
      const hash = await send({ to: caller, data, gas: qty(300_000n) })
      const native = await trace<CallFrame>(hash, { tracer: 'callTracer' })
      expect(native.calls?.length).toBe(1)
      expect(await trace(hash, { tracer: FRAMES })).toEqual(strip(native))
    }
  })

  it('a storage-access tracer (step with db.getState) agrees with prestateTracer', async () => {
    const pre = await trace<Record<string, { storage?: Record<string, string> }>>(transfer, { tracer: 'prestateTracer' })
    const expected = Object.fromEntries(Object.entries(pre).flatMap(([a, acc]) => (acc.storage === undefined ? [] : [[a.toLowerCase(), acc.storage]])))
    expect(Object.keys(expected)).toEqual([token.toLowerCase()])
    expect(await trace(transfer, { tracer: STORAGE })).toEqual(expected)
    // The same on the head state, which reads synchronously (debug_traceCall at latest).
    const call = { from: sender(node), to: token, data: calldata('Token', 'transfer', [sender(node, 2), 1n]) }
    const viaCall = await request<Record<string, Record<string, string>>>('debug_traceCall', [call, 'latest', { tracer: STORAGE }])
    const preCall = await request<Record<string, { storage?: Record<string, string> }>>('debug_traceCall', [call, 'latest', { tracer: 'prestateTracer' }])
    expect(viaCall[token.toLowerCase()]).toEqual(preCall[token.toLowerCase()]?.storage ?? preCall[token]?.storage)
  })
})

describe('JavaScript tracers: the environment', () => {
  it('ctx fields, db reads in result, helpers and bigInt', async () => {
    const receipt = await receiptOf(transfer)
    const tx = await request<{ from: Hex; gasPrice: Hex; input: Hex; gas: Hex; transactionIndex: Hex }>('eth_getTransactionByHash', [transfer])
    const code = `{
      fault: function () {},
      result: function (ctx, db) {
        return { type: ctx.type, from: toHex(ctx.from), to: toHex(ctx.to), input: toHex(ctx.input), gas: ctx.gas, gasUsed: ctx.gasUsed,
          gasPrice: ctx.gasPrice.toString(16), value: ctx.value.toString(), block: ctx.block, output: toHex(ctx.output), error: ctx.error,
          blockHash: toHex(ctx.blockHash), txIndex: ctx.txIndex, txHash: toHex(ctx.txHash), intrinsicGas: ctx.intrinsicGas, time: typeof ctx.time,
          nonce: db.getNonce(ctx.from), exists: db.exists(ctx.to), code: db.getCode(ctx.to).length > 0, balance: bigInt.isInstance(db.getBalance(ctx.from)),
          word: toHex(toWord('0x2a')), address: toHex(toAddress('0x01')), sliced: toHex(slice(ctx.input, 0, 4)), pre: isPrecompiled(toAddress('0x01')) && !isPrecompiled(ctx.to),
          created: toHex(toContract(ctx.from, 0)), created2: toHex(toContract2(toAddress('0x00'), '0x00', '0x00')),
          big: [bigInt('ff', 16).add(1).toString(), bigInt(2).pow(100).toString(16), bigInt(7).compare(8), JSON.stringify({ n: bigInt(5) })],
          host: [typeof process, typeof require, typeof fetch, typeof setTimeout] }
      }
    }`
    const out = await trace<Record<string, unknown>>(transfer, { tracer: code })
    expect(out).toEqual({
      type: 'CALL',
      from: tx.from.toLowerCase(),
      to: token.toLowerCase(),
      input: tx.input,
      gas: Number(tx.gas),
      gasUsed: Number(receipt.gasUsed),
      gasPrice: BigInt(tx.gasPrice).toString(16),
      value: '0',
      block: Number(receipt.blockNumber),
      output: `0x${'0'.repeat(63)}1`,
      blockHash: receipt.blockHash,
      txIndex: Number(tx.transactionIndex),
      txHash: transfer,
      intrinsicGas: out.intrinsicGas,
      time: 'string',
      nonce: out.nonce,
      exists: true,
      code: true,
      balance: true,
      word: `0x${'0'.repeat(62)}2a`,
      address: `0x${'0'.repeat(39)}1`,
      sliced: tx.input.slice(0, 10),
      pre: true,
      created: out.created,
      // geth's own test value for CreateAddress2(0x0, 0x0, keccak(0x00)).
      created2: '0x4d1a2e2bb4f88f0250f26ffff098b0b30b26bf38',
      big: ['256', '1' + '0'.repeat(25), -1, '{"n":"5"}'],
      host: ['undefined', 'undefined', 'undefined', 'undefined'],
    })
    expect(out.intrinsicGas).toBeGreaterThan(21_000)
    expect(out.intrinsicGas).toBeLessThan(Number(receipt.gasUsed))
    expect(typeof out.nonce).toBe('number')
  })

  it('setup receives tracerConfig as JSON text; step sees pc, gas, cost, depth, stack and memory', async () => {
    const code = `{
      first: null, n: 0,
      setup: function (cfg) { this.cfg = JSON.parse(cfg) },
      step: function (log) {
        if (this.first === null) this.first = { pc: log.getPC(), op: log.op.toNumber(), push: log.op.isPush(), gas: log.getGas(), cost: log.getCost(), depth: log.getDepth(),
          stack: log.stack.length(), memory: log.memory.length(), refund: log.getRefund(), error: log.getError() === undefined }
        if (log.op.toString() === 'MSTORE' && this.mem === undefined) this.mem = [log.stack.peek(0).toString(16), log.stack.peek(1).toString(16)]
        if (log.op.toString() === 'MLOAD' && this.mload === undefined && log.memory.length() >= 0x60) this.mload = log.memory.getUint(0x40).toString(16)
      },
      fault: function () {},
      result: function () { return { cfg: this.cfg, first: this.first, mem: this.mem, mload: this.mload } }
    }`
    const logs = (await trace<StructResult>(transfer)).structLogs
    const out = await trace<{ cfg: unknown; first: Record<string, unknown>; mem: string[]; mload: string }>(transfer, { tracer: code, tracerConfig: { a: [1] } })
    expect(out.cfg).toEqual({ a: [1] })
    const l0 = logs[0]!
    expect(out.first).toEqual({ pc: 0, op: 0x60, push: true, gas: l0.gas, cost: l0.gasCost, depth: 1, stack: 0, memory: 0, refund: 0, error: true })
    expect(out.mem).toEqual(['40', '80'])
    expect(out.mload).toBe('80')
  })

  it('a tracer without setup gets none; an unknown bare name still fails as in geth', async () => {
    expect(await rpcError(node, 'debug_traceTransaction', [transfer, { tracer: 'unigramTracer' }])).toMatchObject({
      code: -32000,
      message: 'ReferenceError: unigramTracer is not defined at <eval>:1:2(0)',
    })
  })
})

describe('JavaScript tracers: hostile code', () => {
  const fails = (tracer: string, extra: Record<string, unknown> = {}) => rpcError(node, 'debug_traceTransaction', [transfer, { tracer, ...extra }])

  it('missing functions, syntax errors and a throwing step answer geth-style errors', async () => {
    expect(await fails('{ result: function () {} }')).toMatchObject({ code: -32000, message: 'trace object must expose a function fault()' })
    expect(await fails('{ fault: function () {} }')).toMatchObject({ code: -32000, message: 'trace object must expose a function result()' })
    expect(await fails('{ fault: function () {}, result: function () {}, enter: function () {} }')).toMatchObject({
      message: 'trace object must expose either both or none of enter() and exit()',
    })
    expect((await fails('{ result: function ( {')).message).toMatch(/^SyntaxError: /)
    const thrown = await fails(`{ step: function () { throw new Error('boom') }, fault: function () {}, result: function () { return 1 } }`)
    expect(thrown.code).toBe(-32000)
    expect(thrown.message).toMatch(/^Error: boom at .*    in server-side tracer function 'step'$/)
    expect((await fails(`{ fault: function () {}, result: function () { return null.x } }`)).message).toMatch(
      /^TypeError: .*    in server-side tracer function 'result'$/,
    )
    expect((await fails(`{ step: function (log) { log.stack.peek(99) }, fault: function () {}, result: function () {} }`)).message).toMatch(
      /^RangeError: tracer accessed out of bound stack: size 0, index 99 at step \(<eval>:1:\d+\)    in server-side tracer function 'step'$/,
    )
  })

  it('an endless loop in step or result stops at the timeout; the node answers others meanwhile and after', async () => {
    const loop = `{ step: function () { for (;;) {} }, fault: function () {}, result: function () { return 1 } }`
    const started = fails(loop, { timeout: '300ms' })
    // Requested while the loop runs: answered, at the latest right after the stopped call.
    expect(await request('eth_blockNumber', [])).toMatch(/^0x/)
    expect(await started).toMatchObject({ code: -32000, message: "execution timeout    in server-side tracer function 'step'" })
    expect(await fails(`{ fault: function () {}, result: function () { for (;;) {} } }`, { timeout: '200ms' })).toMatchObject({
      message: "execution timeout    in server-side tracer function 'result'",
    })
    expect(await request('eth_blockNumber', [])).toMatch(/^0x/)
    expect(await trace(transfer, { tracer: OPCOUNT })).toBeGreaterThan(100)
  })

  it('one call is stopped after 1 s even with a longer timeout (the event loop waits for it)', async () => {
    const out = await fails(`{ fault: function () {}, result: function () { for (;;) {} } }`, { timeout: '1m' })
    expect(out.message).toBe("tracer function ran longer than 1000 ms in one call (limits.jsTracerCallMs)    in server-side tracer function 'result'")
  })

  it('the sandbox limits are settings: limits.jsTracerCallMs, jsTracerMemoryBytes and jsTracerStackBytes', async () => {
    const slow = await newNode({ limits: { jsTracerCallMs: 100 } })
    const slowTx = await slow.request({ method: 'eth_sendTransaction', params: [{ from: slow.accounts[0]!.address, to: slow.accounts[1]!.address, value: '0x1' }] })
    expect((await rpcError(slow, 'debug_traceTransaction', [slowTx, { tracer: `{ fault: function () {}, result: function () { for (;;) {} } }`, timeout: '1m' }])).message).toBe(
      "tracer function ran longer than 100 ms in one call (limits.jsTracerCallMs)    in server-side tracer function 'result'",
    )
    // The memory and stack limits on a node whose time limit no loaded machine reaches: each
    // failure below must be the limit it tests, never the time.
    const tight = await newNode({ limits: { jsTracerCallMs: 60_000, jsTracerMemoryBytes: 1024 * 1024, jsTracerStackBytes: 64 * 1024 } })
    const tx = await tight.request({ method: 'eth_sendTransaction', params: [{ from: tight.accounts[0]!.address, to: tight.accounts[1]!.address, value: '0x1' }] })
    const fail = (tracer: string) => rpcError(tight, 'debug_traceTransaction', [tx, { tracer, timeout: '1m' }])
    // 100,000 small objects fit in the default 64 MiB and not in 1 MiB.
    const big = `{ fault: function () {}, result: function () { var a = []; for (var i = 0; i < 100000; i++) a.push({ i: i, s: 'abc' + i }); return a.length } }`
    expect(await trace(transfer, { tracer: big })).toBe(100000)
    expect((await fail(big)).message).toMatch(/^InternalError: out of memory .*in server-side tracer function 'result'$/)
    // A recursion 600 deep fits the default 256 KiB stack and not 64 KiB (~290 frames).
    const deep = `{ f: function (n) { return n === 0 ? 0 : this.f(n - 1) + 1 }, fault: function () {}, result: function () { return this.f(600) } }`
    expect(await trace(transfer, { tracer: deep })).toBe(600)
    expect((await fail(deep)).message).toMatch(/^(RangeError|InternalError): .*stack.*    in server-side tracer function 'result'$/i)
    expect(await tight.request({ method: 'debug_traceTransaction', params: [tx, { tracer: '{ fault: function () {}, result: function () { return 7 } }' }] })).toBe(7)
  })

  it('a huge allocation and deep recursion fail inside the sandbox', async () => {
    expect((await fails(`{ step: function () { var a = [1]; for (;;) a = a.concat(a) }, fault: function () {}, result: function () {} }`)).message).toMatch(
      /^InternalError: out of memory at step \(<eval>:1:\d+\)    in server-side tracer function 'step'$/,
    )
    expect((await fails(`{ fault: function () {}, result: function () { return new ArrayBuffer(1e9) } }`)).message).toMatch(
      /^(RangeError|InternalError): .*    in server-side tracer function 'result'$/,
    )
    expect((await fails(`{ f: function () { return this.f() + 1 }, fault: function () {}, result: function () { return this.f() } }`)).message).toMatch(
      /^(RangeError|InternalError): .*stack.*    in server-side tracer function 'result'$/i,
    )
    expect(await trace(transfer, { tracer: OPCOUNT })).toBeGreaterThan(100)
  })
})

describe('JavaScript tracers: blocks, calls, HTTP', () => {
  it('debug_traceBlockByNumber: a result per transaction; a failing tracer fails each entry', async () => {
    const receipt = await receiptOf(transfer)
    const logs = (await trace<StructResult>(transfer)).structLogs
    expect(await request('debug_traceBlockByNumber', [receipt.blockNumber, { tracer: OPCOUNT }])).toEqual([{ txHash: transfer, result: logs.length }])
    expect(await request('debug_traceBlockByHash', [receipt.blockHash, { tracer: '{ fault: function () {}, result: function () { throw 1 } }' }])).toEqual([
      { txHash: transfer, error: "1    in server-side tracer function 'result'" },
    ])
    expect(await request('debug_traceBlockByNumber', [receipt.blockNumber, { tracer: '{ result: function ( {' }])).toEqual([
      { txHash: transfer, error: expect.stringMatching(/^SyntaxError: /) },
    ])
  })

  it('debug_traceCall with a JavaScript tracer and state overrides', async () => {
    const code = `{ step: function (log) { if (log.op.toString() === 'BALANCE') this.b = log.stack.peek(0).toString(16) }, fault: function () {}, result: function (ctx, db) { return db.getBalance(ctx.to).toString(16) } }`
    const out = await request('debug_traceCall', [
      { from: sender(node), to: '0x00000000000000000000000000000000000000aa' },
      'latest',
      { tracer: code, stateOverrides: { '0x00000000000000000000000000000000000000aa': { balance: '0x1234' } } },
    ])
    expect(out).toBe('1234')
  })

  it('over HTTP: a JavaScript tracer, and a tracer object arrives as data and is refused', async () => {
    const server = await node.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth', 'debug'] })
    try {
      const post = async (method: string, params: unknown[]) => {
        const res = await fetch(server.http as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
        return (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
      }
      const logs = (await trace<StructResult>(transfer)).structLogs
      expect((await post('debug_traceTransaction', [transfer, { tracer: OPCOUNT }])).result).toBe(logs.length)
      const loop = post('debug_traceTransaction', [transfer, { tracer: `{ step: function () { for (;;) {} }, fault: function () {}, result: function () {} }`, timeout: '300ms' }])
      expect((await post('eth_chainId', [])).result).toMatch(/^0x/)
      expect((await loop).error).toEqual({ code: -32000, message: "execution timeout    in server-side tracer function 'step'" })
      expect((await post('debug_traceTransaction', [transfer, { tracer: { result: 1 } }])).error).toMatchObject({
        code: -32602,
        message: 'invalid argument 1: json: cannot unmarshal object into Go struct field TraceConfig.tracer of type string',
      })
    } finally {
      await server.close()
    }
  })
})

describe('JavaScript tracers over WebSocket', () => {
  it('a JavaScript trace, a hostile one while another request is answered, and a block trace', async () => {
    const server = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'debug'] })
    const ws = await WsClient.connect(server.ws as string)
    try {
      const logs = (await trace<StructResult>(transfer)).structLogs
      expect((await ws.call('debug_traceTransaction', [transfer, { tracer: OPCOUNT }])).result).toBe(logs.length)
      const loop = ws.call('debug_traceTransaction', [transfer, { tracer: `{ step: function () { for (;;) {} }, fault: function () {}, result: function () {} }`, timeout: '300ms' }])
      expect((await ws.call('eth_chainId', [])).result).toMatch(/^0x/)
      expect((await loop).error).toEqual({ code: -32000, message: "execution timeout    in server-side tracer function 'step'" })
      const { blockNumber } = await receiptOf(transfer)
      expect((await ws.call('debug_traceBlockByNumber', [blockNumber, { tracer: 'opcodeTracer' }])).result).toEqual([
        { txHash: transfer, result: logs.map((l) => l.op) },
      ])
    } finally {
      ws.close()
      await server.close()
    }
  })
})

describe('in-process tracer objects (node.request)', () => {
  it('real functions with native values, async db reads, and the result as returned', async () => {
    const seen: string[] = []
    const marker = { notJson: () => 1 }
    let slots = 0
    const tracer: TracerObject = {
      setup(config) {
        seen.push(`setup:${JSON.stringify(config)}`)
      },
      async step(log, db) {
        if (log.op.toString() === 'SLOAD' || log.op.toString() === 'SSTORE') {
          const value = await db.getState(log.contract.getAddress(), new Uint8Array(32))
          if (value.length === 32) slots++
        }
        if (log.getDepth() > 1 && seen.length < 3) seen.push(`deep:${log.op.toString()}`)
      },
      fault() {},
      enter(frame) {
        seen.push(`enter:${frame.getType()}:${typeof frame.getGas()}`)
      },
      exit(r) {
        seen.push(`exit:${r.getError() ?? 'ok'}`)
      },
      async result(ctx, db) {
        return { marker, gasUsed: ctx.gasUsed, balance: await db.getBalance(ctx.from), type: ctx.type }
      },
    }
    const hash = await send({ to: caller, data: calldata('Caller', 'callSet', [callee, 9n]), gas: qty(300_000n) })
    const out = (await node.request({ method: 'debug_traceTransaction', params: [hash, { tracer, tracerConfig: { x: 1 } }] })) as Record<string, unknown>
    expect(out.marker).toBe(marker)
    expect(out.gasUsed).toBe(BigInt((await receiptOf(hash)).gasUsed))
    expect(typeof out.balance).toBe('bigint')
    expect(out.type).toBe('CALL')
    expect(seen[0]).toBe('setup:{"x":1}')
    expect(seen).toContain('enter:CALL:bigint')
    expect(seen).toContain('exit:ok')
    expect(slots).toBeGreaterThan(0)
  })

  it('a throwing or rejecting function is the error of the trace; the node serves on', async () => {
    const base = { fault() {}, result: () => 1 }
    const traced = (tracer: TracerObject) => node.request({ method: 'debug_traceTransaction', params: [transfer, { tracer }] })
    await expect(traced({ ...base, step: () => { throw new Error('boom') } })).rejects.toMatchObject({ code: -32000, message: "boom    in server-side tracer function 'step'" })
    await expect(traced({ ...base, step: async () => Promise.reject(new Error('later')) })).rejects.toMatchObject({ message: "later    in server-side tracer function 'step'" })
    await expect(traced({ ...base, enter: () => { throw new Error('in') }, exit() {} })).resolves.toBe(1)
    const hash = await send({ to: caller, data: calldata('Caller', 'callSet', [callee, 3n]), gas: qty(300_000n) })
    await expect(node.request({ method: 'debug_traceTransaction', params: [hash, { tracer: { ...base, enter: () => { throw new Error('in') }, exit() {} } }] })).rejects.toMatchObject({
      message: "in    in server-side tracer function 'enter'",
    })
    await expect(traced({ fault() {}, result: async () => { throw new Error('late') } })).rejects.toMatchObject({ message: "late    in server-side tracer function 'result'" })
    expect(await trace(transfer, { tracer: OPCOUNT })).toBeGreaterThan(100)
  })

  it('a tracer object without fault is refused', async () => {
    await expect(requestRaw(node, 'debug_traceTransaction', [transfer, { tracer: { result: () => 1 } }])).rejects.toMatchObject({
      code: -32000,
      message: 'trace object must expose a function fault()',
    })
  })
})

describe('performance (figures, not assertions)', () => {
  it('an ERC20 transfer traced by a JavaScript opcode counter vs the struct logger', async () => {
    const time = async (config: Record<string, unknown>) => {
      for (let i = 0; i < 3; i++) await trace(transfer, config)
      const t0 = performance.now()
      for (let i = 0; i < 20; i++) await trace(transfer, config)
      return Math.round(((performance.now() - t0) / 20) * 100) / 100
    }
    const steps = (await trace<StructResult>(transfer)).structLogs.length
    const figures = {
      steps,
      structLoggerMs: await time({}),
      jsOpcountMs: await time({ tracer: OPCOUNT }),
      jsOpcountNoDbMs: await time({ tracer: OPCOUNT.replace('function (log, db) { this.count++ }', 'function () { this.count++ }') }),
      jsStorageMs: await time({ tracer: STORAGE }),
      jsFramesMs: await time({ tracer: FRAMES }),
      opcodeTracerMs: await time({ tracer: 'opcodeTracer' }),
    }
    console.log('JS tracer figures', JSON.stringify(figures))
    expect(figures.steps).toBeGreaterThan(100)
  })
})
