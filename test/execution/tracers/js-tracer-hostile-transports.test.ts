/**
 * Hostile JavaScript tracers sent over WebSocket and HTTP while other clients (another socket, an
 * HTTP client, node.request) are being served: an endless loop, a huge allocation, a throw in
 * `step`, deep recursion; and a throwing tracer in a debug_traceChain subscription. Each answers
 * its own clear error; the others are answered meanwhile and the node serves on.
 */
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, Listening } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { WsClient, rpc } from '../../helpers/loopback.js'
import { calldata, deploy, sender } from '../../helpers/execution.js'

const newNode = trackNodes()
let node: FinalityNode
let served: Listening
let hostile: WsClient
let other: WsClient
let tx: Hex

const LOOP = `{ step: function () { for (;;) {} }, fault: function () {}, result: function () { return 1 } }`
const HUGE = `{ step: function () { var a = [1]; for (;;) a = a.concat(a) }, fault: function () {}, result: function () {} }`
const THROWS = `{ step: function () { throw new Error('boom') }, fault: function () {}, result: function () { return 1 } }`
const DEEP = `{ f: function (n) { return this.f(n + 1) }, fault: function () {}, result: function () { return this.f(0) } }`

beforeAll(async () => {
  node = await newNode()
  const counter = await deploy(node, 'Counter')
  tx = (await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: counter, data: calldata('Counter', 'increment') }] })) as Hex
  served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'debug'] })
  hostile = await WsClient.connect(served.ws!)
  other = await WsClient.connect(served.ws!)
})

afterAll(async () => {
  hostile.close()
  other.close()
  await served.close()
})

describe('hostile JavaScript tracers over the transports', () => {
  it('an endless loop over WebSocket: the other socket, HTTP and node.request are answered meanwhile; the loop ends at its timeout', async () => {
    const loop = hostile.call('debug_traceTransaction', [tx, { tracer: LOOP, timeout: '500ms' }])
    const during = await Promise.all([other.call('eth_blockNumber'), rpc(served.http!, 'eth_chainId'), node.request({ method: 'eth_blockNumber', params: [] })])
    expect(during[0].result).toMatch(/^0x/)
    expect(during[1].result).toBe('0x7a69')
    expect(during[2]).toMatch(/^0x/)
    expect((await loop).error).toEqual({ code: -32000, message: "execution timeout    in server-side tracer function 'step'" })
  })

  it('a huge allocation, a throw in step and endless recursion: each a clear -32000 error, over WebSocket and HTTP', async () => {
    const cases: Array<[string, RegExp]> = [
      [HUGE, /^InternalError: out of memory at step \(<eval>:1:\d+\)    in server-side tracer function 'step'$/],
      [THROWS, /^Error: boom at .*    in server-side tracer function 'step'$/],
      [DEEP, /^(InternalError|RangeError): .*in server-side tracer function 'result'$/],
    ]
    for (const [tracer, message] of cases) {
      const overWs = hostile.call('debug_traceTransaction', [tx, { tracer }])
      expect((await other.call('eth_chainId')).result).toBe('0x7a69')
      expect((await overWs).error).toMatchObject({ code: -32000, message: expect.stringMatching(message) })
      expect((await rpc(served.http!, 'debug_traceTransaction', [tx, { tracer }])).error).toMatchObject({ code: -32000, message: expect.stringMatching(message) })
    }
    // A well-behaved tracer still works on the same socket afterwards.
    expect((await hostile.call('debug_traceTransaction', [tx, { tracer: '{ n: 0, step: function () { this.n++ }, fault: function () {}, result: function () { return this.n } }' }])).result).toBeGreaterThan(10)
  })

  it('debug_traceChain with a throwing tracer: each transaction\'s entry carries the error; the subscription and the socket go on', async () => {
    const sub = await hostile.call('debug_subscribe', ['traceChain', '0x0', '0x2', { tracer: THROWS }])
    expect(sub.result).toMatch(/^0x[0-9a-f]{32}$/)
    const notes = () => hostile.messages.filter((m) => m.method === 'debug_subscription' && m.params.subscription === sub.result).map((m) => m.params.result)
    while (notes().length < 2) await hostile.waitFor(hostile.messages.length + 1)
    const traced = notes().flatMap((n: { traces: Array<{ txHash: string; error?: string; result?: unknown }> }) => n.traces)
    expect(traced.length).toBeGreaterThan(0)
    for (const t of traced) expect(t.error).toMatch(/^Error: boom at .*    in server-side tracer function 'step'$/)
    expect((await hostile.call('eth_chainId')).result).toBe('0x7a69')
    expect((await other.call('eth_chainId')).result).toBe('0x7a69')
  })
})
