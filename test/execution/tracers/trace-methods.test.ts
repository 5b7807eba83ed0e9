/**
 * debug_traceBlockByNumber / ByHash and debug_traceCall through node.request, replays after
 * test-control writes and of the pending block, the tracing hooks' listeners, and the errors.
 */
import type { EVM } from '@ethereumjs/evm'
import { createVM } from '@ethereumjs/vm'
import type { Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { CallTracer } from '../../../src/execution/tracers/call-tracer.js'
import { TraceHooks } from '../../../src/execution/tracers/hooks.js'
import { estimateBytes, StructLogger } from '../../../src/execution/tracers/struct-logger.js'
import type { FinalityNode } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { artifact, calldata, deploy, qty, rpcError, sender, word } from '../../helpers/execution.js'
import { traceRequests, type CallFrame, type StructResult } from '../../helpers/traces.js'

const newNode = trackNodes()

let node: FinalityNode
let from: Hex
let callee: Hex
let caller: Hex
let counter: Hex
const { request, send, receiptOf, trace } = traceRequests(() => node)

beforeAll(async () => {
  node = await newNode()
  from = sender(node)
  callee = await deploy(node, 'Callee')
  caller = await deploy(node, 'Caller')
  counter = await deploy(node, 'Counter')
})

describe('debug_traceBlockByNumber and debug_traceBlockByHash', () => {
  it('a block of several transactions: one entry per transaction, each replayed on the ones before', async () => {
    const manual = await newNode({ mining: { mode: 'manual' } })
    const a = sender(manual)
    const send0 = (tx: Record<string, unknown>) => manual.request({ method: 'eth_sendTransaction', params: [{ from: a, ...tx }] }) as Promise<Hex>
    const deployHash = await send0({ data: artifact('Counter').bytecode })
    await manual.mine()
    const created = (await manual.request({ method: 'eth_getTransactionReceipt', params: [deployHash] })) as { contractAddress: Hex }
    const c = created.contractAddress
    const hashes = [
      await send0({ to: sender(manual, 1), value: qty(1n) }),
      await send0({ to: c, data: calldata('Counter', 'increment'), gas: qty(100_000n) }),
      await send0({ to: c, data: calldata('Counter', 'increment'), gas: qty(100_000n) }),
    ]
    await manual.mine()
    const block = (await manual.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: Hex; number: Hex; transactions: Hex[] }
    expect(block.transactions).toEqual(hashes)

    const byNumber = (await manual.request({ method: 'debug_traceBlockByNumber', params: [block.number, { tracer: 'callTracer' }] })) as Array<{ txHash: Hex; result: CallFrame }>
    expect(byNumber.map((e) => e.txHash)).toEqual(hashes)
    for (const [i, hash] of hashes.entries()) {
      const receipt = (await manual.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { gasUsed: Hex }
      expect(byNumber[i]?.result.gasUsed).toBe(receipt.gasUsed)
    }
    const byHash = await manual.request({ method: 'debug_traceBlockByHash', params: [block.hash, { tracer: 'callTracer' }] })
    expect(byHash).toEqual(byNumber)
    // withLog numbers logs across the block, as the receipts do.
    const withLog = (await manual.request({ method: 'debug_traceBlockByHash', params: [block.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }] })) as Array<{ result: CallFrame }>
    const receiptLogs = (await manual.request({ method: 'eth_getTransactionReceipt', params: [hashes[2]!] })) as { logs: Array<{ logIndex: Hex }> }
    expect(withLog.map((e) => e.result.logs?.map((l) => l.index))).toEqual([undefined, ['0x0'], ['0x1']])
    expect(receiptLogs.logs.map((l) => l.logIndex)).toEqual(['0x1'])

    const logs = (await manual.request({ method: 'debug_traceBlockByNumber', params: ['latest'] })) as Array<{ result: StructResult }>
    const stored = (i: number) => logs[i]?.result.structLogs.find((l) => l.op === 'SSTORE')?.storage
    expect(logs[0]?.result.structLogs).toEqual([])
    expect(stored(1)).toEqual({ [word(0n)]: word(1n) })
    expect(stored(2)).toEqual({ [word(0n)]: word(2n) })
    const single = (await manual.request({ method: 'debug_traceTransaction', params: [hashes[2]!] })) as StructResult
    expect(single).toEqual(logs[2]?.result)
  })
})

describe('replays that start where the block did', () => {
  it('a block after test-control writes replays on them (hardhat_setBalance, impersonation)', async () => {
    const who = '0x00000000000000000000000000000000000000c0'
    await request('hardhat_setBalance', [who, qty(10n ** 18n)])
    await request('hardhat_impersonateAccount', [who])
    const hash = await request<Hex>('eth_sendTransaction', [{ from: who, to: callee, data: calldata('Callee', 'set', [3n]) }])
    const frame = await trace<CallFrame>(hash, { tracer: 'callTracer' })
    expect(frame).toMatchObject({ from: who, to: callee.toLowerCase(), gasUsed: (await receiptOf(hash)).gasUsed })
    const { pre } = await trace<{ pre: Record<string, { balance: string }> }>(hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })
    expect(pre[who]?.balance).toBe(qty(10n ** 18n))
    await request('hardhat_stopImpersonatingAccount', [who])
  })

  it('the pending block: its transactions replayed on the head state', async () => {
    const manual = await newNode({ mining: { mode: 'manual' } })
    const hash = (await manual.request({ method: 'eth_sendTransaction', params: [{ from: sender(manual), to: sender(manual, 1), value: qty(5n) }] })) as Hex
    const entries = (await manual.request({ method: 'debug_traceBlockByNumber', params: ['pending', { tracer: 'callTracer' }] })) as Array<{ txHash: Hex; result: CallFrame }>
    expect(entries).toEqual([{ txHash: hash, result: expect.objectContaining({ type: 'CALL', value: '0x5', gasUsed: '0x5208' }) }])
  })
})

describe('debug_traceCall', () => {
  it('a call traced as eth_call runs it, on the state after the block', async () => {
    const frame = await request<CallFrame>('debug_traceCall', [{ from, to: caller, data: calldata('Caller', 'readThrough', [callee]) }, 'latest', { tracer: 'callTracer' }])
    const x = await request<Hex>('eth_call', [{ to: callee, data: calldata('Callee', 'get') }])
    expect(frame).toMatchObject({ type: 'CALL', from: from.toLowerCase(), to: caller.toLowerCase(), output: x })
    expect(frame.calls?.[0]).toMatchObject({ type: 'STATICCALL', to: callee.toLowerCase(), output: x })
  })

  it('state and block overrides apply to the traced call', async () => {
    const code = '0x4360005260206000f3' // RETURN(block.number)
    const target = '0x00000000000000000000000000000000000000aa'
    const result = await request<StructResult>('debug_traceCall', [
      { to: target },
      'latest',
      { stateOverrides: { [target]: { code } }, blockOverrides: { number: '0x1234' } },
    ])
    expect(result.structLogs.map((l) => l.op)).toEqual(['NUMBER', 'PUSH1', 'MSTORE', 'PUSH1', 'PUSH1', 'RETURN'])
    expect(result.structLogs[1]?.stack).toEqual(['0x1234'])
    expect(result.returnValue).toBe(word(0x1234n))

    const slot = await request<StructResult>('debug_traceCall', [
      { to: counter, data: calldata('Counter', 'count') },
      'latest',
      { stateOverrides: { [counter]: { stateDiff: { [word(0n)]: word(77n) } } } },
    ])
    expect(slot.returnValue).toBe(word(77n))
    expect(slot.structLogs.find((l) => l.op === 'SLOAD')?.storage).toEqual({ [word(0n)]: word(77n) })
  })

  it('txIndex: runs on the state before that transaction of the block', async () => {
    const manual = await newNode({ mining: { mode: 'manual' } })
    const a = sender(manual)
    const deployHash = (await manual.request({ method: 'eth_sendTransaction', params: [{ from: a, data: artifact('Counter').bytecode }] })) as Hex
    await manual.mine()
    const c = ((await manual.request({ method: 'eth_getTransactionReceipt', params: [deployHash] })) as { contractAddress: Hex }).contractAddress
    for (let i = 0; i < 3; i++) await manual.request({ method: 'eth_sendTransaction', params: [{ from: a, to: c, data: calldata('Counter', 'increment'), gas: qty(100_000n) }] })
    await manual.mine()
    const count = async (txIndex?: number) => {
      const config = txIndex === undefined ? { tracer: 'noopTracer' } : { txIndex: qty(txIndex) }
      const r = (await manual.request({ method: 'debug_traceCall', params: [{ to: c, data: calldata('Counter', 'count') }, 'latest', config] })) as StructResult
      return r.returnValue
    }
    expect(await count(0)).toBe(word(0n))
    expect(await count(2)).toBe(word(2n))
    expect(await count(3)).toBe(word(3n))
    expect(await rpcError(manual, 'debug_traceCall', [{ to: c }, 'latest', { txIndex: '0x4' }])).toMatchObject({ code: -32000, message: expect.stringMatching(/^transaction index 4 out of range for block 0x[0-9a-f]{64}$/) })
  })

  it('timeout: a call that runs past it fails with geth’s `execution timeout`', async () => {
    const target = '0x00000000000000000000000000000000000000bb'
    const loop = { [target]: { code: '0x5b600056' } } // JUMPDEST; PUSH1 0; JUMP: forever
    const error = await rpcError(node, 'debug_traceCall', [{ to: target, gas: qty(30_000_000n) }, 'latest', { tracer: 'callTracer', timeout: '20ms', stateOverrides: loop }])
    expect(error).toEqual({ code: -32000, message: 'execution timeout', data: undefined })
    // The node still answers, and the next trace runs (its VM was not reused mid-execution).
    expect(await request('debug_traceCall', [{ to: target }, 'latest', { tracer: 'noopTracer', stateOverrides: { [target]: { code: '0x00' } } }])).toEqual({})
  })
})

describe('tracing hooks', () => {
  it('the step listener is attached only while a tracer that wants steps runs, and removed when the run fails', async () => {
    const vm = await createVM()
    const evm = vm.evm as EVM
    const hooks = new TraceHooks(evm)
    const listeners = () => ['step', 'beforeMessage', 'afterMessage'].map((e) => evm.events.listenerCount(e as 'step'))
    const failing = hooks.trace(new StructLogger(), async () => {
      expect(listeners()).toEqual([1, 1, 1])
      throw new Error('boom')
    })
    await expect(failing).rejects.toThrow('boom')
    expect(listeners()).toEqual([0, 0, 0])
    await hooks.trace(new CallTracer(), async () => expect(listeners()).toEqual([0, 1, 1]))
    expect(listeners()).toEqual([0, 0, 0])
  })
})

describe('errors', () => {
  it('unknown transaction, block, genesis and pending, with geth’s messages', async () => {
    const zero = `0x${'00'.repeat(31)}01`
    expect(await rpcError(node, 'debug_traceTransaction', [zero])).toEqual({ code: -32000, message: 'transaction not found', data: undefined })
    expect(await rpcError(node, 'debug_traceBlockByHash', [zero])).toEqual({ code: -32000, message: `block ${zero} not found`, data: undefined })
    expect(await rpcError(node, 'debug_traceBlockByNumber', ['0xffff'])).toEqual({ code: -32000, message: 'block #65535 not found', data: undefined })
    expect(await rpcError(node, 'debug_traceBlockByNumber', ['0x0'])).toEqual({ code: -32000, message: 'genesis is not traceable', data: undefined })
    expect(await rpcError(node, 'debug_traceBlockByNumber', ['earliest'])).toEqual({ code: -32000, message: 'genesis is not traceable', data: undefined })
    expect(await rpcError(node, 'debug_traceCall', [{ to: callee }, 'pending'])).toEqual({ code: -32000, message: 'tracing on top of pending is not supported', data: undefined })
  })

  it('an unknown tracer and a bad timeout: geth’s words, -32000', async () => {
    const hash = await send({ to: sender(node, 1), value: qty(1n) })
    expect(await rpcError(node, 'debug_traceTransaction', [hash, { tracer: 'fooTracer' }])).toEqual({ code: -32000, message: 'ReferenceError: fooTracer is not defined at <eval>:1:2(0)', data: undefined })
    expect(await rpcError(node, 'debug_traceTransaction', [hash, { timeout: 'soon' }])).toEqual({ code: -32000, message: 'time: invalid duration "soon"', data: undefined })
    expect(await rpcError(node, 'debug_traceTransaction', [hash, { timeout: '5' }])).toEqual({ code: -32000, message: 'time: missing unit in duration "5"', data: undefined })
    expect(await rpcError(node, 'debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: 'yes' } }])).toEqual({
      code: -32000,
      message: 'json: cannot unmarshal string into Go struct field callTracerConfig.onlyTopCall of type bool',
      data: undefined,
    })
    // A block trace reports a JavaScript tracer's failure per transaction, as geth does.
    const { blockHash } = await receiptOf(hash)
    expect(await request('debug_traceBlockByHash', [blockHash, { tracer: 'fooTracer' }])).toEqual([{ txHash: hash, error: 'ReferenceError: fooTracer is not defined at <eval>:1:2(0)' }])
  })

  it('params are checked by the shared codecs (-32602)', async () => {
    expect(await rpcError(node, 'debug_traceTransaction', ['0x01'])).toMatchObject({ code: -32602, message: 'invalid argument 0: hex string has length 2, want 64 for common.Hash' })
    expect(await rpcError(node, 'debug_traceBlockByNumber', ['3'])).toMatchObject({ code: -32602, message: 'invalid argument 0: hex string without 0x prefix' })
    expect(await rpcError(node, 'debug_traceTransaction', [`0x${'00'.repeat(32)}`, { disableStack: 'no' }])).toMatchObject({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go struct field TraceConfig.disableStack of type bool',
    })
    expect(await rpcError(node, 'debug_traceTransaction', [`0x${'00'.repeat(32)}`, 'callTracer'])).toMatchObject({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go value of type tracers.TraceConfig',
    })
    expect(await rpcError(node, 'debug_traceCall', [{ to: callee }])).toMatchObject({ code: -32602, message: 'missing value for required argument 1' })
  })
})

describe('limits.traceBytes', () => {
  // JUMPDEST PUSH1 0 JUMP: a loop that runs until its gas is gone, 3 struct logs a round.
  const loop = '0x00000000000000000000000000000000000100bb'
  const traceLoop = (n: FinalityNode, gas: number) =>
    n.request({ method: 'debug_traceCall', params: [{ to: loop, gas: qty(gas) }, 'latest', { stateOverrides: { [loop]: { code: '0x5b600056' } } }] })

  it('limit: a trace whose struct logs come to exactly traceBytes is answered, one byte less is refused', async () => {
    const probe = await newNode()
    const full = (await traceLoop(probe, 30_000)) as StructResult
    const size = full.structLogs.reduce((sum, e) => sum + estimateBytes(e as never), 0)
    expect(full.structLogs.length).toBeGreaterThan(2_000)

    const at = await newNode({ limits: { traceBytes: size } })
    expect(((await traceLoop(at, 30_000)) as StructResult).structLogs.length).toBe(full.structLogs.length)
    const below = await newNode({ limits: { traceBytes: size - 1 } })
    const e = await rpcError(below, 'debug_traceCall', [{ to: loop, gas: qty(30_000) }, 'latest', { stateOverrides: { [loop]: { code: '0x5b600056' } } }])
    expect(e.code).toBe(-32000)
    expect(e.message).toMatch(/^trace too large: the struct logs pass \d+ MiB \(limits\.traceBytes\)/)
    // The node serves on, and a callTracer trace of the same call is small enough.
    const calls = (await below.request({
      method: 'debug_traceCall',
      params: [{ to: loop, gas: qty(30_000) }, 'latest', { tracer: 'callTracer', stateOverrides: { [loop]: { code: '0x5b600056' } } }],
    })) as CallFrame
    expect(calls.error).toBe('out of gas')
  })
})
