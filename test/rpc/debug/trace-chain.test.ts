/**
 * debug_traceChain: geth's `debug_subscribe("traceChain", start, end, config?)`, block traces
 * notified as `debug_subscription` over WebSocket and the EIP-1193 provider.
 */
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { WsClient, rpc as httpRpc } from '../../helpers/loopback.js'
import { rpcError, sender } from '../../helpers/execution.js'

const newNode = trackNodes()
const to = '0x00000000000000000000000000000000000beef2'

describe('debug_traceChain', () => {
  let node: FinalityNode
  let served: Awaited<ReturnType<FinalityNode['listen']>>
  let ws: WsClient
  beforeAll(async () => {
    node = await newNode()
    for (let i = 0; i < 3; i++) await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to, value: '0x1' }] })
    await node.mine()
    served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'debug'] })
    ws = await WsClient.connect(served.ws!)
  })
  afterAll(async () => {
    ws.close()
    await served.close()
  })

  it('default: the blocks after start up to end, in order, as { block, hash, traces }; the id comes first', async () => {
    const answer = await ws.call('debug_subscribe', ['traceChain', '0x0', '0x4', { tracer: 'callTracer' }], 7)
    const id = answer.result as string
    expect(id).toMatch(/^0x[0-9a-f]+$/)
    const at = ws.messages.indexOf(answer)
    const mine = () => ws.messages.filter((m) => m.method === 'debug_subscription' && m.params.subscription === id)
    while (mine().length < 4) await ws.waitFor(ws.messages.length + 1)
    expect(ws.messages.findIndex((m) => m.method === 'debug_subscription' && m.params.subscription === id)).toBeGreaterThan(at)
    const results = mine().map((m) => m.params.result)
    expect(results.map((r) => r.block)).toEqual(['0x1', '0x2', '0x3', '0x4'])
    for (const r of results) {
      const block = (await node.request({ method: 'eth_getBlockByNumber', params: [r.block, false] })) as { hash: Hex }
      expect(r.hash).toBe(block.hash)
      expect(r.traces).toEqual(await node.request({ method: 'debug_traceBlockByNumber', params: [r.block, { tracer: 'callTracer' }] }))
    }
    expect(results[3].traces).toEqual([])
    expect((await ws.call('debug_unsubscribe', [id])).result).toBe(true)
    expect((await ws.call('debug_unsubscribe', [id])).error).toEqual({ code: -32000, message: 'subscription not found' })
  })

  it('default: the EIP-1193 provider receives debug_subscription messages', async () => {
    const received: Array<{ type: string; data: { subscription: string; result: { block: string } } }> = []
    const done = new Promise<void>((resolve) => {
      node.provider.on('message', (m: (typeof received)[number]) => {
        received.push(m)
        if (received.length === 2) resolve()
      })
    })
    const id = await node.provider.request({ method: 'debug_subscribe', params: ['traceChain', '0x1', '0x3'] })
    await done
    expect(received.map((m) => [m.type, m.data.subscription, m.data.result.block])).toEqual([
      ['debug_subscription', id, '0x2'],
      ['debug_subscription', id, '0x3'],
    ])
  })

  it('error: geth\'s messages for a bad range, an unknown block, an unknown subscription; no subscription is left', async () => {
    expect((await ws.call('debug_subscribe', ['traceChain', '0x3', '0x3'])).error).toEqual({ code: -32000, message: 'end block (#3) needs to come after start block (#3)' })
    expect((await ws.call('debug_subscribe', ['traceChain', '0x0', '0x99'])).error).toEqual({ code: -32000, message: 'block #153 not found' })
    expect((await ws.call('debug_subscribe', ['nope'])).error).toEqual({ code: -32601, message: 'no "nope" subscription in debug namespace' })
    expect((await ws.call('debug_subscribe', [5])).error).toMatchObject({ code: -32602 })
    expect((await ws.call('debug_subscribe', ['traceChain', 'zz', '0x1'])).error).toMatchObject({ code: -32602 })
    expect((await ws.call('debug_subscribe', ['traceChain', '0x0', '0x1', { tracer: 5 }])).error).toMatchObject({ code: -32602 })
    const count = ws.messages.length
    await node.mine()
    await ws.call('eth_chainId')
    expect(ws.messages.slice(count).filter((m) => m.method !== undefined)).toEqual([])
  })

  it('error: HTTP and node.request cannot carry notifications', async () => {
    expect((await httpRpc(served.http!, 'debug_subscribe', ['traceChain', '0x0', '0x1'])).error).toEqual({ code: -32601, message: 'notifications not supported' })
    expect(await rpcError(node, 'debug_subscribe', ['traceChain', '0x0', '0x1'])).toMatchObject({ code: -32601, message: 'notifications not supported' })
  })
})
