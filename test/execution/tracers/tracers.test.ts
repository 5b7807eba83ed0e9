/**
 * debug_traceTransaction through node.request: geth's struct logger, callTracer, prestateTracer,
 * 4byteTracer and noopTracer on compiled fixtures and on hand-assembled code whose every opcode,
 * gas cost and stack is known. (Block traces, debug_traceCall and errors: trace-methods.test.ts.)
 */
import { encodeAbiParameters, keccak256, toEventSelector, toFunctionSelector, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { artifact, calldata, deploy, qty, rpcError, sender, word } from '../../helpers/execution.js'
import { TINY_INIT, TINY_RUNTIME, traceRequests, type CallFrame, type StructResult } from '../../helpers/traces.js'

const newNode = trackNodes()

let node: FinalityNode
let from: Hex
let callee: Hex
let caller: Hex
let counter: Hex
let probe: Hex
let tiny: Hex
const { request, send, receiptOf, trace } = traceRequests(() => node)

beforeAll(async () => {
  node = await newNode()
  from = sender(node)
  callee = await deploy(node, 'Callee')
  caller = await deploy(node, 'Caller')
  counter = await deploy(node, 'Counter')
  probe = await deploy(node, 'TraceProbe')
  tiny = (await receiptOf(await send({ data: TINY_INIT }))).contractAddress as Hex
})

describe('debug_traceTransaction: struct logger', () => {
  it('default: a plain transfer runs no code', async () => {
    const hash = await send({ to: sender(node, 1), value: qty(1000n) })
    expect(await trace(hash)).toEqual({ gas: 21000, failed: false, returnValue: '0x', structLogs: [] })
  })

  it('default: every opcode of a tiny contract, with gas, cost, depth, stack and storage', async () => {
    const hash = await send({ to: tiny, gas: qty(100_000n) })
    const result = await trace<StructResult>(hash)
    const costs = [3, 3, 22100, 3, 100, 3, 6, 3, 3, 0]
    expect(result.structLogs.map((l) => [l.pc, l.op, l.gasCost])).toEqual(
      [
        [0, 'PUSH1'],
        [2, 'PUSH1'],
        [4, 'SSTORE'],
        [5, 'PUSH1'],
        [7, 'SLOAD'],
        [8, 'PUSH1'],
        [10, 'MSTORE'],
        [11, 'PUSH1'],
        [13, 'PUSH1'],
        [15, 'RETURN'],
      ].map(([pc, op], i) => [pc, op, costs[i]]),
    )
    let gas = 100_000 - 21_000
    for (const [i, l] of result.structLogs.entries()) {
      expect(l.gas).toBe(gas)
      expect(l.depth).toBe(1)
      gas -= costs[i] as number
    }
    expect(result.structLogs.map((l) => l.stack)).toEqual([[], ['0x2a'], ['0x2a', '0x0'], [], ['0x0'], ['0x2a'], ['0x2a', '0x0'], [], ['0x20'], ['0x20', '0x0']])
    const slot = { [word(0n)]: word(42n) }
    expect(result.structLogs.map((l) => l.storage)).toEqual([undefined, undefined, slot, undefined, slot, ...Array(5).fill(undefined)])
    expect(result.structLogs.every((l) => l.memory === undefined && l.error === undefined && l.refund === undefined)).toBe(true)
    expect(result.returnValue).toBe(word(42n))
    expect(result.failed).toBe(false)
    expect(result.gas).toBe(21_000 + costs.reduce((a, b) => a + b))
    expect(BigInt(result.gas)).toBe(BigInt((await receiptOf(hash)).gasUsed))
  })

  it('enableMemory: 32-byte words of memory before each opcode, absent while memory is empty', async () => {
    const hash = await send({ to: tiny, gas: qty(100_000n) })
    const logs = (await trace<StructResult>(hash, { enableMemory: true })).structLogs
    expect(logs.slice(0, 7).every((l) => l.memory === undefined)).toBe(true)
    expect(logs.slice(7).map((l) => l.memory)).toEqual([[word(42n)], [word(42n)], [word(42n)]])
  })

  it('disableStack and disableStorage leave those fields out; limit caps the JSON size as geth does', async () => {
    const hash = await send({ to: tiny, gas: qty(100_000n) })
    const logs = (await trace<StructResult>(hash, { disableStack: true, disableStorage: true })).structLogs
    expect(logs).toHaveLength(10)
    expect(logs.every((l) => l.stack === undefined && l.storage === undefined)).toBe(true)
    // Each entry is about 70 bytes: recording stops once more than 100 bytes were recorded.
    expect((await trace<StructResult>(hash, { limit: 100 })).structLogs).toHaveLength(2)
  })

  it('storage: a cumulative view of the slots the contract read and wrote, on SLOAD and SSTORE only', async () => {
    await send({ to: counter, data: calldata('Counter', 'increment') })
    const hash = await send({ to: counter, data: calldata('Counter', 'increment') })
    const logs = (await trace<StructResult>(hash)).structLogs
    const withStorage = logs.filter((l) => l.storage !== undefined)
    // `count += 1` reads and writes the slot, `emit Incremented(count)` reads it again.
    expect(withStorage.map((l) => [l.op, l.storage])).toEqual([
      ['SLOAD', { [word(0n)]: word(1n) }],
      ['SSTORE', { [word(0n)]: word(2n) }],
      ['SLOAD', { [word(0n)]: word(2n) }],
    ])
    expect(logs.filter((l) => l.op === 'SLOAD' || l.op === 'SSTORE')).toEqual(withStorage)
    expect(logs.some((l) => l.op === 'LOG1')).toBe(true)
  })

  it('a revert: failed, the revert data as returnValue, and the receipt’s gas', async () => {
    const hash = await send({ to: caller, data: calldata('Caller', 'callFail', [callee]), gas: qty(200_000n) })
    const receipt = await receiptOf(hash)
    expect(receipt.status).toBe('0x0')
    const result = await trace<StructResult>(hash)
    expect(result.failed).toBe(true)
    expect(BigInt(result.gas)).toBe(BigInt(receipt.gasUsed))
    expect(result.returnValue).toBe(
      '0x08c379a0' + encodeAbiParameters([{ type: 'string' }], ['callee failed']).slice(2),
    )
    expect(new Set(result.structLogs.map((l) => l.depth))).toEqual(new Set([1, 2]))
    expect(result.structLogs.filter((l) => l.op === 'REVERT').map((l) => l.depth)).toEqual([2, 1])
    expect(result.structLogs.every((l) => l.error === undefined)).toBe(true)
  })

  it('enableReturnData: what the last call returned, from the opcode after it on', async () => {
    const x = await request<Hex>('eth_call', [{ to: callee, data: calldata('Callee', 'get') }])
    const hash = await send({ to: caller, data: calldata('Caller', 'readThrough', [callee]) })
    const logs = (await trace<StructResult>(hash, { enableReturnData: true })).structLogs
    const call = logs.findIndex((l) => l.op === 'STATICCALL')
    expect(logs.slice(0, call + 1).every((l) => l.returnData === undefined)).toBe(true)
    const after = logs.slice(call + 1).filter((l) => l.depth === 1)
    expect(after.length).toBeGreaterThan(0)
    expect(after.every((l) => l.returnData === x)).toBe(true)
  })

  it('out of gas: the opcode that could not pay carries the error, returnValue is empty', async () => {
    // A fresh copy: the slot is still zero, so the SSTORE costs 22100.
    const fresh = (await receiptOf(await send({ data: TINY_INIT }))).contractAddress as Hex
    const hash = await send({ to: fresh, gas: qty(30_000n) })
    const result = await trace<StructResult>(hash)
    const last = result.structLogs[result.structLogs.length - 1]
    expect(last).toMatchObject({ op: 'SSTORE', gas: 30_000 - 21_000 - 6, gasCost: 22100, error: 'out of gas' })
    expect(result).toMatchObject({ gas: 30_000, failed: true, returnValue: '0x' })
  })
})

describe('debug_traceTransaction: callTracer', () => {
  it('a nested revert: error, output and revertReason on both frames', async () => {
    const hash = await send({ to: caller, data: calldata('Caller', 'callFail', [callee]), gas: qty(200_000n) })
    const frame = await trace<CallFrame>(hash, { tracer: 'callTracer' })
    const revert = '0x08c379a0' + encodeAbiParameters([{ type: 'string' }], ['callee failed']).slice(2)
    expect(frame).toMatchObject({
      type: 'CALL',
      from: from.toLowerCase(),
      to: caller.toLowerCase(),
      value: '0x0',
      gas: qty(200_000n),
      gasUsed: (await receiptOf(hash)).gasUsed,
      input: calldata('Caller', 'callFail', [callee]),
      output: revert,
      error: 'execution reverted',
      revertReason: 'callee failed',
    })
    expect(frame.calls).toHaveLength(1)
    // Callee.fail is `pure`, so Solidity calls it with STATICCALL, which carries no value.
    expect(frame.calls?.[0]).toEqual({
      type: 'STATICCALL',
      from: caller.toLowerCase(),
      to: callee.toLowerCase(),
      gas: frame.calls?.[0]?.gas,
      gasUsed: frame.calls?.[0]?.gasUsed,
      input: toFunctionSelector('fail()'),
      output: revert,
      error: 'execution reverted',
      revertReason: 'callee failed',
    })
  })

  it('withLog: logs in the frame that emitted them, placed among its calls; a reverted frame’s logs are dropped', async () => {
    const hash = await send({ to: probe, data: calldata('TraceProbe', 'trySetThenRevert', [callee, 9n]) })
    const frame = await trace<CallFrame>(hash, { tracer: 'callTracer', tracerConfig: { withLog: true } })
    // The rolled-back XSet log gave its index back: Done is the block's log 0, as in the receipt.
    expect(frame.logs).toEqual([{ address: probe.toLowerCase(), topics: [toEventSelector('Done(uint256)')], data: word(9n), position: '0x1', index: '0x0' }])
    const inner = frame.calls?.[0]
    expect(inner).toMatchObject({ type: 'CALL', from: probe.toLowerCase(), to: probe.toLowerCase(), error: 'execution reverted', revertReason: 'after set' })
    expect(inner?.logs).toBeUndefined()
    expect(inner?.calls?.[0]).toMatchObject({ type: 'CALL', to: callee.toLowerCase(), input: calldata('Callee', 'set', [9n]) })
    expect(inner?.calls?.[0]?.logs).toBeUndefined()

    const kept = await send({ to: caller, data: calldata('Caller', 'callSet', [callee, 5n]) })
    const ok = await trace<CallFrame>(kept, { tracer: 'callTracer', tracerConfig: { withLog: true } })
    expect(ok.logs).toBeUndefined()
    expect(ok.calls?.[0]?.logs).toEqual([{ address: callee.toLowerCase(), topics: [toEventSelector('XSet(uint256)')], data: word(5n), position: '0x0', index: '0x0' }])
    const withoutLogs = await trace<CallFrame>(kept, { tracer: 'callTracer' })
    expect(withoutLogs.calls?.[0]?.logs).toBeUndefined()
  })

  it('onlyTopCall: the transaction’s frame without sub-calls', async () => {
    const hash = await send({ to: caller, data: calldata('Caller', 'callSet', [callee, 6n]) })
    const frame = await trace<CallFrame>(hash, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } })
    expect(frame.calls).toBeUndefined()
    expect(frame.gasUsed).toBe((await receiptOf(hash)).gasUsed)
  })

  it('DELEGATECALL names the delegating contract as `from` and the code’s account as `to`', async () => {
    const hash = await send({ to: probe, data: calldata('TraceProbe', 'delegateGet', [callee]) })
    const frame = await trace<CallFrame>(hash, { tracer: 'callTracer' })
    expect(frame.output).toBe(word(0n))
    expect(frame.calls?.[0]).toMatchObject({ type: 'DELEGATECALL', from: probe.toLowerCase(), to: callee.toLowerCase(), value: '0x0', input: toFunctionSelector('get()'), output: word(0n) })
  })

  it('CREATE2 and value: the created address as `to`, the value sent', async () => {
    const factory = await deploy(node, 'Factory')
    const salt = keccak256('0x01')
    const hash = await send({ to: factory, data: calldata('Factory', 'deploy', [salt, 3n]), value: qty(7n) })
    const child = await request<Hex>('eth_call', [{ to: factory, data: calldata('Factory', 'predict', [salt, 3n]) }])
    const frame = await trace<CallFrame>(hash, { tracer: 'callTracer' })
    expect(frame.value).toBe('0x7')
    expect(frame.calls?.[0]).toMatchObject({ type: 'CREATE2', from: factory.toLowerCase(), to: `0x${child.slice(26)}`, value: '0x7' })
    expect(frame.calls?.[0]?.output).toBe(artifact('Child').deployedBytecode)
  })

  it('a contract creation: type CREATE, the new address as `to`', async () => {
    const hash = await send({ data: TINY_INIT })
    const frame = await trace<CallFrame>(hash, { tracer: 'callTracer' })
    expect(frame).toMatchObject({ type: 'CREATE', to: (await receiptOf(hash)).contractAddress, input: TINY_INIT, output: `0x${TINY_RUNTIME}` })
  })
})

describe('debug_traceTransaction: prestateTracer, 4byteTracer, noopTracer', () => {
  it('prestateTracer: the accounts and slots touched, as they were before', async () => {
    const before = BigInt(await request<Hex>('eth_getTransactionCount', [from, 'latest']))
    const count = BigInt(await request<Hex>('eth_call', [{ to: counter, data: calldata('Counter', 'count') }]))
    const hash = await send({ to: counter, data: calldata('Counter', 'increment') })
    const pre = await trace<Record<string, Record<string, unknown>>>(hash, { tracer: 'prestateTracer' })
    expect(pre[from.toLowerCase()]).toMatchObject({ nonce: Number(before) })
    expect(pre[counter.toLowerCase()]).toEqual({
      balance: '0x0',
      code: artifact('Counter').deployedBytecode,
      codeHash: keccak256(artifact('Counter').deployedBytecode),
      nonce: 1,
      storage: { [word(0n)]: word(count) },
    })
  })

  it('prestateTracer diffMode: only what changed, before and after', async () => {
    const count = BigInt(await request<Hex>('eth_call', [{ to: counter, data: calldata('Counter', 'count') }]))
    const nonce = BigInt(await request<Hex>('eth_getTransactionCount', [from, 'latest']))
    const hash = await send({ to: counter, data: calldata('Counter', 'increment') })
    const { pre, post } = await trace<{ pre: Record<string, Record<string, unknown>>; post: Record<string, Record<string, unknown>> }>(hash, {
      tracer: 'prestateTracer',
      tracerConfig: { diffMode: true },
    })
    const c = counter.toLowerCase()
    expect(pre[c]).toMatchObject({ storage: { [word(0n)]: word(count) } })
    expect(post[c]).toEqual({ storage: { [word(0n)]: word(count + 1n) } })
    expect(post[from.toLowerCase()]?.nonce).toBe(Number(nonce) + 1)
    expect(BigInt(post[from.toLowerCase()]?.balance as string)).toBeLessThan(BigInt(pre[from.toLowerCase()]?.balance as string))
    expect(await rpcError(node, 'debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true, includeEmpty: true } }])).toEqual({
      code: -32000,
      message: 'cannot use diffMode with includeEmpty',
      data: undefined,
    })
  })

  it('4byteTracer: selector-size counts of the calls made; noopTracer: {}', async () => {
    const hash = await send({ to: caller, data: calldata('Caller', 'callSet', [callee, 8n]) })
    expect(await trace(hash, { tracer: '4byteTracer' })).toEqual({
      [`${toFunctionSelector('callSet(address,uint256)')}-64`]: 1,
      [`${toFunctionSelector('set(uint256)')}-32`]: 1,
    })
    expect(await trace(hash, { tracer: 'noopTracer' })).toEqual({})
  })
})
