/**
 * trace_* on a fork of Anvil: the remote's transactions and blocks (at or below the fork block)
 * are replayed here on their parent's state read from the remote, and answer what Anvil answers
 * for them (the same block, so nothing is normalised); a transaction of the fork's own is traced
 * as on any chain.
 */
import { encodeFunctionData, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const A = loadArtifacts()

let anvil: RunningAnvil
let id = 0
async function call(method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(anvil.http, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error !== undefined) throw new Error(`anvil ${method}: ${body.error.message}`)
  return body.result
}

async function mined(hash: Hex): Promise<{ contractAddress: Hex; blockNumber: Hex }> {
  for (let i = 0; i < 400; i++) {
    const r = await call('eth_getTransactionReceipt', [hash])
    if (r !== null) return r
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`anvil did not mine ${hash}`)
}

let fork: FinalityNode
let nested: Hex
let nestedBlock: Hex
let matrix: Hex
let target: Hex
let from: Hex

beforeAll(async () => {
  anvil = await startAnvil(['--hardfork', 'prague'])
  from = ((await call('eth_accounts')) as Hex[])[0] as Hex
  const send = async (tx: Record<string, unknown>) => mined(await call('eth_sendTransaction', [{ from, gas: '0x300000', ...tx }]))
  matrix = (await send({ data: A.TraceMatrix!.bytecode })).contractAddress
  target = (await send({ data: A.TraceTarget!.bytecode })).contractAddress
  nested = await call('eth_sendTransaction', [{ from, gas: '0x300000', to: matrix, data: encodeFunctionData({ abi: A.TraceMatrix!.abi, functionName: 'nested', args: [target, 5n] }) }])
  nestedBlock = (await mined(nested)).blockNumber
  await send({ to: '0x000000000000000000000000000000000000bEEF', value: '0x1' })
  fork = await newNode({ fork: { url: anvil.http }, hardfork: 'prague' })
}, 60_000)

afterAll(async () => {
  await anvil?.stop()
})

const request = (method: string, params: unknown[]) => fork.request({ method, params })

describe('trace_* on a fork of Anvil', () => {
  it('trace_transaction and trace_get of a remote transaction: Anvil\'s answer', async () => {
    const theirs = await call('trace_transaction', [nested])
    expect(theirs).toHaveLength(4)
    expect(await request('trace_transaction', [nested])).toEqual(theirs)
    expect(await request('trace_get', [nested, ['0x2']])).toEqual(theirs[2])
  })

  it('trace_block and trace_replayBlockTransactions of a remote block: Anvil\'s answer', async () => {
    expect(await request('trace_block', [nestedBlock])).toEqual(await call('trace_block', [nestedBlock]))
    const replay = await call('trace_replayBlockTransactions', [nestedBlock, ['trace', 'stateDiff']])
    expect(await request('trace_replayBlockTransactions', [nestedBlock, ['trace', 'stateDiff']])).toEqual(replay)
    const { transactionHash: _hash, ...one } = replay[0]
    expect(await request('trace_replayTransaction', [nested, ['trace', 'stateDiff']])).toEqual(one)
  })

  it('a transaction of the fork\'s own: traced here', async () => {
    const hash = (await request('eth_sendTransaction', [{ from, to: matrix, gas: '0x300000', data: encodeFunctionData({ abi: A.TraceMatrix!.abi, functionName: 'nested', args: [target, 6n] }) }])) as Hex
    const traces = (await request('trace_transaction', [hash])) as Array<{ transactionHash: Hex; traceAddress: number[] }>
    expect(traces.map((t) => t.traceAddress)).toEqual([[], [0], [1], [2]])
    expect(traces.every((t) => t.transactionHash === hash)).toBe(true)
  })
})
