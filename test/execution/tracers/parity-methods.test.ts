/**
 * The trace_* methods Anvil 1.7.1 does not serve (trace_get, trace_replayTransaction, trace_call,
 * trace_callMany, trace_rawTransaction), held to reth's rules, and the refusals of all of them:
 * through node.request, and over HTTP for the namespace gate.
 */
import { encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../../src/index.js'
import { rpc } from '../../helpers/loopback.js'
import { trackNodes } from '../../helpers/nodes.js'
import { artifact, deploy, rpcError, sender } from '../../helpers/execution.js'

const newNode = trackNodes()
let node: FinalityNode
let matrix: Hex
let target: Hex
let nestedTx: Hex
let precompilesTx: Hex

type Trace = Record<string, unknown> & { action: Record<string, unknown>; traceAddress: number[]; subtraces: number }
type Results = { output: Hex; stateDiff: Record<string, { storage: Record<string, unknown>; nonce: unknown; balance: unknown }> | null; trace: Trace[]; vmTrace: null }

const request = async <T>(method: string, params: unknown[]): Promise<T> => (await node.request({ method, params })) as T
const matrixCall = (fn: string, args: unknown[]) => encodeFunctionData({ abi: artifact('TraceMatrix').abi, functionName: fn, args })
const send = (tx: Record<string, unknown>) => request<Hex>('eth_sendTransaction', [{ from: sender(node), gas: '0x200000', ...tx }])

beforeAll(async () => {
  node = await newNode({ limits: { traceFilterBlocks: 2 } })
  matrix = await deploy(node, 'TraceMatrix')
  target = await deploy(node, 'TraceTarget')
  nestedTx = await send({ to: matrix, data: matrixCall('nested', [target, 7n]) })
  precompilesTx = await send({ to: matrix, data: matrixCall('precompiles', [`0x${'22'.repeat(32)}`, 27, `0x${'33'.repeat(32)}`, `0x${'44'.repeat(32)}`]) })
})

describe('trace_get', () => {
  it('one index: that entry of trace_transaction (reth and Anvil read it as the position in the flat list)', async () => {
    const all = await request<Trace[]>('trace_transaction', [nestedTx])
    expect(all).toHaveLength(4)
    expect(await request('trace_get', [nestedTx, ['0x0']])).toEqual(all[0])
    expect(await request('trace_get', [nestedTx, ['0x3']])).toEqual(all[3])
  })

  it('null: an index past the end, more than one index, an unknown transaction', async () => {
    expect(await request('trace_get', [nestedTx, ['0x4']])).toBeNull()
    expect(await request('trace_get', [nestedTx, ['0x0', '0x1']])).toBeNull()
    expect(await request('trace_get', [`0x${'ab'.repeat(32)}`, ['0x0']])).toBeNull()
  })
})

describe('trace_replayTransaction', () => {
  it('the entry of trace_replayBlockTransactions for that transaction', async () => {
    const { blockNumber } = await request<{ blockNumber: Hex }>('eth_getTransactionReceipt', [nestedTx])
    const [entry] = await request<Array<Results & { transactionHash: Hex }>>('trace_replayBlockTransactions', [blockNumber, ['trace', 'stateDiff']])
    const { transactionHash, ...results } = entry as Results & { transactionHash: Hex }
    expect(transactionHash).toBe(nestedTx)
    expect(await request('trace_replayTransaction', [nestedTx, ['trace', 'stateDiff']])).toEqual(results)
    expect(results.stateDiff?.[target.toLowerCase()]?.storage).toEqual({ [`0x${'0'.repeat(64)}`]: { '*': { from: `0x${'0'.repeat(64)}`, to: `0x${'0'.repeat(63)}7` } } })
  })

  it('only the types asked for: none gives an empty trace and null diffs; stateDiff alone no trace', async () => {
    const none = await request<Results>('trace_replayTransaction', [nestedTx, []])
    expect(none).toEqual({ output: `0x${'0'.repeat(63)}7`, stateDiff: null, trace: [], vmTrace: null })
    const diffOnly = await request<Results>('trace_replayTransaction', [nestedTx, ['stateDiff']])
    expect(diffOnly.trace).toEqual([])
    expect(Object.keys(diffOnly.stateDiff ?? {})).toContain(target.toLowerCase())
  })

  it('vmTrace: one op per opcode with the frames of the calls as subs; the same through trace_call', async () => {
    const { vmTrace } = await request<{ vmTrace: { code: Hex; ops: Array<{ op: string; pc: number; sub: { ops: unknown[] } | null }> } }>('trace_replayTransaction', [nestedTx, ['vmTrace']])
    expect(vmTrace.code).toBe(await request('eth_getCode', [matrix, 'latest']))
    expect(vmTrace.ops[0]).toMatchObject({ op: 'PUSH1', pc: 0, sub: null, ex: { push: ['0x80'], mem: { off: 0, data: '0x' }, store: null } })
    const calls = vmTrace.ops.filter((o) => ['CALL', 'STATICCALL', 'DELEGATECALL'].includes(o.op))
    expect(calls.map((o) => o.op)).toEqual(['CALL', 'STATICCALL', 'DELEGATECALL'])
    for (const call of calls) expect(call.sub?.ops.length).toBeGreaterThan(0)
    const viaCall = await request<{ vmTrace: { ops: Array<{ op: string }> } }>('trace_call', [{ from: sender(node), to: matrix, gas: '0x200000', data: matrixCall('nested', [target, 7n]) }, ['vmTrace'], 'latest'])
    expect(viaCall.vmTrace.ops.map((o) => o.op)).toEqual(vmTrace.ops.map((o) => o.op))
  })

  it('precompile calls: kept by trace_transaction (Anvil), left out of replays (reth)', async () => {
    expect((await request<Trace[]>('trace_transaction', [precompilesTx])).map((t) => t.action.to)).toEqual([
      matrix.toLowerCase(),
      '0x0000000000000000000000000000000000000001',
      '0x0000000000000000000000000000000000000002',
      '0x0000000000000000000000000000000000000004',
    ])
    const replay = await request<Results>('trace_replayTransaction', [precompilesTx, ['trace']])
    expect(replay.trace).toHaveLength(1)
    expect(replay.trace[0]?.subtraces).toBe(0)
  })

  it('refusals: an unknown transaction, a trace type that does not exist', async () => {
    expect(await rpcError(node, 'trace_replayTransaction', [`0x${'ab'.repeat(32)}`, ['trace']])).toMatchObject({ code: -32000, message: 'transaction not found' })
    expect(await rpcError(node, 'trace_replayTransaction', [nestedTx, ['foo']])).toMatchObject({
      code: -32602,
      message: 'invalid argument 1: unknown variant `foo`, expected one of `trace`, `vmTrace`, `stateDiff`',
    })
  })
})

describe('trace_call, trace_callMany, trace_rawTransaction', () => {
  it('trace_call: the call traced on the latest state, its storage change in the diff, nothing mined', async () => {
    const head = await request<Hex>('eth_blockNumber', [])
    const call = { from: sender(node), to: matrix, gas: '0x200000', data: matrixCall('nested', [target, 9n]) }
    const out = await request<Results>('trace_call', [call, ['trace', 'stateDiff']])
    const replayed = await request<Results>('trace_replayTransaction', [nestedTx, ['trace']])
    expect(out.trace.map((t) => [t.action.callType, t.traceAddress])).toEqual(replayed.trace.map((t) => [t.action.callType, t.traceAddress]))
    // get() through DELEGATECALL reads the matrix's own slot 0, which the precompiles transaction set to 1.
    expect(out.output).toBe(`0x${'0'.repeat(63)}a`)
    expect(out.stateDiff?.[target.toLowerCase()]?.storage).toEqual({ [`0x${'0'.repeat(64)}`]: { '*': { from: `0x${'0'.repeat(63)}7`, to: `0x${'0'.repeat(63)}9` } } })
    expect(await request('eth_blockNumber', [])).toBe(head)
  })

  it('trace_callMany: each call sees the state the earlier ones left', async () => {
    const set = { from: sender(node), to: target, data: encodeFunctionData({ abi: artifact('TraceTarget').abi, functionName: 'set', args: [11n] }) }
    const get = { from: sender(node), to: target, data: encodeFunctionData({ abi: artifact('TraceTarget').abi, functionName: 'get', args: [] }) }
    const [first, second] = await request<Results[]>('trace_callMany', [[[set, ['trace']], [get, ['trace']]], 'latest'])
    expect(first?.trace[0]?.action.to).toBe(target.toLowerCase())
    expect(second?.output).toBe(`0x${'0'.repeat(62)}0b`)
  })

  it('trace_rawTransaction: a signed transaction traced on the latest state, not sent', async () => {
    const account = privateKeyToAccount(node.accounts[0]?.privateKey as Hex)
    const nonce = await request<Hex>('eth_getTransactionCount', [account.address, 'latest'])
    const raw = await account.signTransaction({
      chainId: 31337,
      nonce: Number(nonce),
      to: target,
      gas: 100_000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
      data: encodeFunctionData({ abi: artifact('TraceTarget').abi, functionName: 'set', args: [12n] }),
    })
    const out = await request<Results>('trace_rawTransaction', [raw, ['trace', 'stateDiff']])
    expect(out.trace[0]).toMatchObject({ type: 'call', action: { from: account.address.toLowerCase(), to: target.toLowerCase(), callType: 'call' } })
    expect(out.stateDiff?.[account.address.toLowerCase()]?.nonce).toEqual({ '*': { from: nonce, to: `0x${(BigInt(nonce) + 1n).toString(16)}` } })
    expect(await request('eth_getTransactionCount', [account.address, 'latest'])).toBe(nonce)
    // As an array of byte values (alloy's Bytes, what `cast trace --raw` sends): the same answer.
    expect(await request('trace_rawTransaction', [[...Buffer.from(raw.slice(2), 'hex')], ['trace', 'stateDiff']])).toEqual(out)
    expect(await rpcError(node, 'trace_rawTransaction', [[1, 256], ['trace']])).toMatchObject({ code: -32602, message: 'invalid argument 0: invalid type: expected hex or an array of bytes (integers 0 to 255)' })
    expect(await rpcError(node, 'trace_rawTransaction', ['0x', ['trace']])).toMatchObject({ code: -32602, message: 'empty transaction data' })
    expect(await rpcError(node, 'trace_rawTransaction', ['0x0102', ['trace']])).toMatchObject({ code: -32602, message: 'failed to decode signed transaction' })
  })
})

describe('blocks and params', () => {
  it('trace_block and trace_replayBlockTransactions of pending: [] (nothing is mined there, as Anvil answers)', async () => {
    expect(await request('trace_block', ['pending'])).toEqual([])
    expect(await request('trace_replayBlockTransactions', ['pending', ['trace']])).toEqual([])
  })

  it('bad params: -32602 naming the argument', async () => {
    expect(await rpcError(node, 'trace_get', [nestedTx, '0x0'])).toMatchObject({ code: -32602, message: 'invalid argument 1: invalid type: expected a sequence of indices' })
    expect(await rpcError(node, 'trace_callMany', [[{ to: matrix }]])).toMatchObject({ code: -32602, message: 'invalid argument 0: invalid type: expected [call, trace types]' })
    expect(await rpcError(node, 'trace_call', [{ to: matrix }, 'trace'])).toMatchObject({ code: -32602, message: 'invalid argument 1: invalid type: expected a sequence of trace types' })
    expect(await rpcError(node, 'trace_transaction', ['0x12'])).toMatchObject({ code: -32602 })
    expect(await rpcError(node, 'trace_call', [{ to: matrix }, ['trace'], 'pending'])).toMatchObject({ code: -32000, message: 'tracing on top of pending is not supported' })
  })
})

describe('trace_filter', () => {
  it('limits.traceFilterBlocks: N blocks past fromBlock served, N + 1 refused', async () => {
    expect(await request<Trace[]>('trace_filter', [{ fromBlock: '0x1', toBlock: '0x3' }])).not.toHaveLength(0)
    expect(await rpcError(node, 'trace_filter', [{ fromBlock: '0x0', toBlock: '0x3' }])).toMatchObject({ code: -32602, message: 'block range too large, currently limited to 2' })
  })

  it('refusals of the filter: an unknown field, a tag for a block number, a mode that does not exist', async () => {
    expect(await rpcError(node, 'trace_filter', [{ fromBlock: '0x1', topics: [] }])).toMatchObject({ code: -32602, message: expect.stringMatching(/^invalid argument 0: unknown field `topics`/) })
    expect(await rpcError(node, 'trace_filter', [{ fromBlock: 'latest' }])).toMatchObject({ code: -32602, message: expect.stringMatching(/^invalid argument 0: invalid value for fromBlock/) })
    expect(await rpcError(node, 'trace_filter', [{ mode: 'both' }])).toMatchObject({ code: -32602, message: expect.stringMatching(/unknown variant `both`/) })
  })
})

describe('the namespace over HTTP', () => {
  it('off by default (-32601 naming the setting); served, and listed by rpc_modules, when api lists it', async () => {
    const off = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
    const on = await node.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth', 'rpc', 'trace'] })
    try {
      expect(await rpc(off.http as string, 'trace_transaction', [nestedTx])).toMatchObject({
        error: { code: -32601, message: 'the method trace_transaction does not exist/is not available: the trace namespace is off here; enable it with the api option (CLI: --json-rpc.api)' },
      })
      expect(await rpc(on.http as string, 'trace_transaction', [nestedTx])).toEqual({ jsonrpc: '2.0', id: expect.anything(), result: await request('trace_transaction', [nestedTx]) })
      expect(await rpc(on.http as string, 'rpc_modules', [])).toMatchObject({ result: { trace: '1.0' } })
    } finally {
      await off.close()
      await on.close()
    }
  })
})
