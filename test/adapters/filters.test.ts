/**
 * Polling filters through node.request on a fake clock, and eth_subscribe through the EIP-1193
 * provider (`message` events).
 */
import { encodeFunctionData, type Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { FakeClock } from '../helpers/loopback.js'

const artifacts = loadArtifacts()
const req = (node: FinalityNode, method: string, ...params: unknown[]) => node.request({ method, params })
const errorOf = async (p: Promise<unknown>) => p.then(() => undefined, (e: { code: number; message: string }) => ({ code: e.code, message: e.message }))

async function deployEmitter(node: FinalityNode): Promise<`0x${string}`> {
  const hash = await req(node, 'eth_sendTransaction', { from: node.accounts[0]?.address, data: artifacts.Emitter?.bytecode })
  await node.mine()
  return ((await req(node, 'eth_getTransactionReceipt', hash)) as { contractAddress: `0x${string}` }).contractAddress
}

describe('filters', () => {
  it('eth_newBlockFilter: block hashes since the last poll, then nothing new', async () => {
    const node = await createNode({ mining: { mode: 'manual' } })
    const id = (await req(node, 'eth_newBlockFilter')) as string
    expect(id).toMatch(/^0x[0-9a-f]{32}$/)
    expect(await req(node, 'eth_getFilterChanges', id)).toEqual([])
    const a = await node.mine()
    const b = await node.mine()
    expect(await req(node, 'eth_getFilterChanges', id)).toEqual([a?.hash, b?.hash])
    expect(await req(node, 'eth_getFilterChanges', id)).toEqual([])
    await node.close()
  })

  it('eth_newPendingTransactionFilter: hashes of transactions entering the pool', async () => {
    const node = await createNode({ mining: { mode: 'manual' } })
    const id = await req(node, 'eth_newPendingTransactionFilter')
    const hash = await req(node, 'eth_sendTransaction', { from: node.accounts[0]?.address, to: node.accounts[1]?.address, value: '0x1' })
    expect(await req(node, 'eth_getFilterChanges', id)).toEqual([hash])
    expect(await req(node, 'eth_getFilterChanges', id)).toEqual([])
    await node.close()
  })

  it('eth_newFilter: matching logs since the last poll; eth_getFilterLogs: all matching logs', async () => {
    const node = await createNode({ mining: { mode: 'manual' } })
    const emitter = await deployEmitter(node)
    const data = encodeFunctionData({ abi: artifacts.Emitter?.abi as Abi, functionName: 'emitMany', args: [2n] })
    const send = async () => {
      await req(node, 'eth_sendTransaction', { from: node.accounts[0]?.address, to: emitter, data })
      return node.mine()
    }
    const first = await send()
    const id = await req(node, 'eth_newFilter', { address: emitter, fromBlock: '0x0' })
    const topicOne = await req(node, 'eth_newFilter', { topics: [null, `0x${'0'.repeat(63)}1`] })
    expect(await req(node, 'eth_getFilterChanges', id)).toEqual([])
    const second = await send()
    const changes = (await req(node, 'eth_getFilterChanges', id)) as Array<{ blockHash: string }>
    expect(changes).toHaveLength(2)
    expect(changes.every((l) => l.blockHash === second?.hash)).toBe(true)
    expect(await req(node, 'eth_getFilterChanges', topicOne)).toEqual([changes[1]])
    const all = (await req(node, 'eth_getFilterLogs', id)) as Array<{ blockHash: string }>
    expect(all.map((l) => l.blockHash)).toEqual([first?.hash, first?.hash, second?.hash, second?.hash])
    expect(all).toEqual(await req(node, 'eth_getLogs', { address: emitter, fromBlock: '0x0' }))
    await node.close()
  })

  it('eth_newFilter: a numbered toBlock in the past collects nothing new', async () => {
    const node = await createNode({ mining: { mode: 'manual' } })
    const emitter = await deployEmitter(node)
    const id = await req(node, 'eth_newFilter', { address: emitter, toBlock: '0x1' })
    const data = encodeFunctionData({ abi: artifacts.Emitter?.abi as Abi, functionName: 'fire', args: [] })
    await req(node, 'eth_sendTransaction', { from: node.accounts[0]?.address, to: emitter, data })
    await node.mine()
    expect(await req(node, 'eth_getFilterChanges', id)).toEqual([])
    await node.close()
  })

  it("error: eth_getFilterLogs on a block or pending filter → the spec's LogsSubscription error", async () => {
    const node = await createNode()
    const block = await req(node, 'eth_newBlockFilter')
    const pending = await req(node, 'eth_newPendingTransactionFilter')
    expect(await errorOf(req(node, 'eth_getFilterLogs', block))).toEqual({ code: -32000, message: `filter ${block} doesn't have a LogsSubscription type: got 5` })
    expect(await errorOf(req(node, 'eth_getFilterLogs', pending))).toEqual({ code: -32000, message: `filter ${pending} doesn't have a LogsSubscription type: got 4` })
    await node.close()
  })

  it('eth_uninstallFilter: true, then false; then filter not found', async () => {
    const node = await createNode()
    const id = await req(node, 'eth_newBlockFilter')
    expect(await req(node, 'eth_uninstallFilter', id)).toBe(true)
    expect(await req(node, 'eth_uninstallFilter', id)).toBe(false)
    expect(await errorOf(req(node, 'eth_getFilterChanges', id))).toEqual({ code: -32000, message: 'filter not found' })
    await node.close()
  })

  it('error: unknown ids, prototype names and non-strings', async () => {
    const node = await createNode()
    for (const id of ['0x00', 'toString', '__proto__', 'constructor']) {
      expect(await errorOf(req(node, 'eth_getFilterChanges', id))).toEqual({ code: -32000, message: 'filter not found' })
      expect(await req(node, 'eth_uninstallFilter', id)).toBe(false)
    }
    expect((await errorOf(req(node, 'eth_getFilterChanges', 1)))?.code).toBe(-32602)
    expect((await errorOf(req(node, 'eth_newFilter', { topics: 'x' })))?.code).toBe(-32602)
    await node.close()
  })

  it('limit: a filter idle for 5 minutes minus 1 ms lives; at 5 minutes it is gone; each poll resets the timer', async () => {
    const clock = new FakeClock()
    const node = await createNode({ clock, mining: { mode: 'manual' } })
    const id = await req(node, 'eth_newBlockFilter')
    clock.advance(5 * 60_000 - 1)
    expect(await req(node, 'eth_getFilterChanges', id)).toEqual([])
    clock.advance(5 * 60_000 - 1)
    expect(await req(node, 'eth_getFilterChanges', id)).toEqual([])
    clock.advance(5 * 60_000)
    expect(await errorOf(req(node, 'eth_getFilterChanges', id))).toEqual({ code: -32000, message: 'filter not found' })
    await node.close()
  })

  it('limit: 1000 live filters, the 1001st → -32005; uninstalling frees a place', async () => {
    const node = await createNode()
    const ids: unknown[] = []
    for (let i = 0; i < 1000; i++) ids.push(await req(node, 'eth_newBlockFilter'))
    expect(await errorOf(req(node, 'eth_newBlockFilter'))).toEqual({ code: -32005, message: 'too many filters, the limit is 1000' })
    await req(node, 'eth_uninstallFilter', ids[0])
    expect(await req(node, 'eth_newPendingTransactionFilter')).toMatch(/^0x/)
    await node.close()
  })

  it('limit: expired filters do not count against the cap', async () => {
    const clock = new FakeClock()
    const node = await createNode({ clock, limits: { liveFilters: 2 } })
    await req(node, 'eth_newBlockFilter')
    await req(node, 'eth_newBlockFilter')
    expect((await errorOf(req(node, 'eth_newBlockFilter')))?.code).toBe(-32005)
    clock.advance(5 * 60_000)
    expect(await req(node, 'eth_newBlockFilter')).toMatch(/^0x/)
    await node.close()
  })
})

describe('provider subscriptions', () => {
  it('eth_subscribe: notifications as message events, the id first', async () => {
    const node = await createNode()
    const seen: Array<{ type: string; data: any }> = []
    node.provider.on('message', (m) => seen.push(m as { type: string; data: any }))
    const id = await node.provider.request({ method: 'eth_subscribe', params: ['newHeads'] })
    const pending = await node.provider.request({ method: 'eth_subscribe', params: ['newPendingTransactions'] })
    expect(seen).toEqual([])
    const hash = await node.provider.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0]?.address, to: node.accounts[1]?.address, value: '0x1' }] })
    expect(seen.map((m) => m.type)).toEqual(['eth_subscription', 'eth_subscription'])
    expect(seen[0]?.data).toEqual({ subscription: pending, result: hash })
    expect(seen[1]?.data.subscription).toBe(id)
    expect(seen[1]?.data.result.number).toBe('0x1')
    expect(await node.provider.request({ method: 'eth_unsubscribe', params: [id] })).toBe(true)
    await expect(node.provider.request({ method: 'eth_unsubscribe', params: [id] })).rejects.toMatchObject({ code: -32000, message: 'subscription not found' })
    await node.close()
  })

  it('error: node.request has no notification channel → -32601', async () => {
    const node = await createNode()
    expect(await errorOf(req(node, 'eth_subscribe', 'newHeads'))).toEqual({ code: -32601, message: 'notifications not supported' })
    await node.close()
  })
})
