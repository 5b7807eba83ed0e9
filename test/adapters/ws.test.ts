/**
 * The WebSocket transport over real sockets on 127.0.0.1: calls and batches, eth_subscribe for
 * every kind, the id-before-notification order, freeing on close, and the limits at N and N+1.
 */
import { createServer, type Server } from 'node:http'
import { encodeFunctionData, type Abi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { Outbox, type SocketLike } from '../../src/adapters/ws.js'
import { loadArtifacts } from '../helpers/compile.js'
import { FakeClock, WsClient, onLoopback } from '../helpers/loopback.js'

const artifacts = loadArtifacts()

async function attach(node: FinalityNode, options?: Parameters<FinalityNode['ws']>[1]) {
  const server: Server = createServer()
  const endpoint = node.ws(server, options)
  const port = await onLoopback(server)
  return {
    url: `ws://127.0.0.1:${port}`,
    endpoint,
    close: async () => {
      await endpoint.close()
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}

async function deploy(node: FinalityNode, name: string): Promise<`0x${string}`> {
  const from = node.accounts[0]?.address
  const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from, data: artifacts[name]?.bytecode }] })
  await node.mine()
  const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: `0x${string}` }
  return receipt.contractAddress
}

describe('ws', () => {
  let node: FinalityNode
  let url: string
  let endpoint: ReturnType<FinalityNode['ws']>
  let close: () => Promise<void>

  beforeAll(async () => {
    node = await createNode({ mining: { mode: 'manual' } })
    ;({ url, endpoint, close } = await attach(node))
  })
  afterAll(async () => {
    await close()
    await node.close()
  })

  it('default: calls and batches work over the socket', async () => {
    const c = await WsClient.connect(url)
    expect((await c.call('eth_chainId', [], 1)).result).toBe('0x7a69')
    c.ws.send('[{"jsonrpc":"2.0","id":7,"method":"net_version"},{"jsonrpc":"2.0","method":"eth_chainId"}]')
    const batch = await c.waitFor(2)
    expect(batch[1]).toEqual([{ jsonrpc: '2.0', id: 7, result: '31337' }])
    c.close()
  })

  it('error: bad JSON → -32700 and the connection stays usable', async () => {
    const c = await WsClient.connect(url)
    c.ws.send('{nope')
    expect((await c.waitFor(1))[0]).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
    expect((await c.call('eth_chainId')).result).toBe('0x7a69')
    c.close()
  })

  it('newHeads: one header per block, in order, in the shape of eth_getHeaderByNumber', async () => {
    const c = await WsClient.connect(url)
    const id = (await c.call('eth_subscribe', ['newHeads'], 1)).result as string
    expect(id).toMatch(/^0x[0-9a-f]{32}$/)
    const mined = [await node.mine(), await node.mine(), await node.mine()]
    await c.waitFor(4)
    const heads = c.notifications(id)
    expect(heads.map((h) => h.hash)).toEqual(mined.map((b) => b?.hash))
    const byRpc = await node.request({ method: 'eth_getHeaderByNumber', params: [heads.at(-1).number] })
    expect(heads.at(-1)).toEqual(byRpc)
    c.close()
  })

  it('newHeads: the id reaches the client before a notification of a block mined during the call', async () => {
    const auto = await createNode()
    const server = await attach(auto)
    const c = await WsClient.connect(server.url)
    // In one batch: subscribe, then a transaction that automine commits before the batch is answered.
    const tx = { from: auto.accounts[0]?.address, to: auto.accounts[1]?.address, value: '0x1' }
    c.ws.send(JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] },
      { jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [tx] },
    ]))
    const [answer, notification] = await c.waitFor(2)
    expect(answer).toHaveLength(2)
    expect(notification.method).toBe('eth_subscription')
    expect(notification.params.subscription).toBe(answer[0].result)
    expect(notification.params.result.number).toBe('0x1')
    c.close()
    await server.close()
    await auto.close()
  })

  it('newHeads: includeTransactions gives full transaction objects', async () => {
    const c = await WsClient.connect(url)
    const id = (await c.call('eth_subscribe', ['newHeads', { includeTransactions: true }])).result
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0]?.address, to: node.accounts[1]?.address, value: '0x1' }] })
    await node.mine()
    await c.waitFor(2)
    const [head] = c.notifications(id)
    expect(head.transactions).toHaveLength(1)
    expect(head.transactions[0].hash).toBe(hash)
    expect(head.transactions[0].from).toBe(node.accounts[0]?.address.toLowerCase())
    c.close()
  })

  it('newPendingTransactions: hashes, or full objects with true', async () => {
    const c = await WsClient.connect(url)
    const hashes = (await c.call('eth_subscribe', ['newPendingTransactions'])).result
    const full = (await c.call('eth_subscribe', ['newPendingTransactions', true])).result
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[2]?.address, to: node.accounts[3]?.address, value: '0x2' }] })
    await c.waitFor(4)
    expect(c.notifications(hashes)).toEqual([hash])
    expect(c.notifications(full)[0]).toMatchObject({ hash, blockHash: null, value: '0x2' })
    await node.mine()
    c.close()
  })

  it('logs: address and topic filters as eth_getLogs, one notification per matching log', async () => {
    const emitter = await deploy(node, 'Emitter')
    const abi = artifacts.Emitter?.abi as Abi
    const c = await WsClient.connect(url)
    const all = (await c.call('eth_subscribe', ['logs', { address: emitter }])).result
    const note = '0x' + '0'.repeat(63) + '1'
    const topicOne = (await c.call('eth_subscribe', ['logs', { address: emitter, topics: [null, note] }])).result
    const other = (await c.call('eth_subscribe', ['logs', { address: node.accounts[5]?.address }])).result
    const data = encodeFunctionData({ abi, functionName: 'emitMany', args: [3n] })
    await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0]?.address, to: emitter, data }] })
    const block = await node.mine()
    await c.waitFor(3 + 3 + 1)
    const logs = await node.request({ method: 'eth_getLogs', params: [{ blockHash: block?.hash }] })
    expect(c.notifications(all)).toEqual(logs)
    expect(c.notifications(topicOne)).toEqual([(logs as unknown[])[1]])
    expect(c.notifications(other)).toEqual([])
    c.close()
  })

  it('syncing: answers false once', async () => {
    const c = await WsClient.connect(url)
    const id = (await c.call('eth_subscribe', ['syncing'])).result
    await c.waitFor(2)
    await node.mine()
    expect(c.notifications(id)).toEqual([false])
    c.close()
  })

  it('errors: unknown subscription name, missing name', async () => {
    const c = await WsClient.connect(url)
    expect((await c.call('eth_subscribe', ['nope'])).error).toEqual({ code: -32601, message: 'no "nope" subscription in eth namespace' })
    expect((await c.call('eth_subscribe', [])).error.code).toBe(-32602)
    expect((await c.call('eth_subscribe', ['logs', { topics: 'x' }])).error.code).toBe(-32602)
    c.close()
  })

  it('eth_unsubscribe: true, then geth\'s -32000 subscription not found; never-issued ids too; no notifications after', async () => {
    const c = await WsClient.connect(url)
    const id = (await c.call('eth_subscribe', ['newHeads'])).result
    expect((await c.call('eth_unsubscribe', [id])).result).toBe(true)
    expect((await c.call('eth_unsubscribe', [id])).error).toEqual({ code: -32000, message: 'subscription not found' })
    expect((await c.call('eth_unsubscribe', ['toString'])).error).toEqual({ code: -32000, message: 'subscription not found' })
    expect((await c.call('eth_unsubscribe', ['0x9cef478923ff08bf67fde6c64013158d'])).error).toEqual({ code: -32000, message: 'subscription not found' })
    await node.mine()
    expect(c.notifications(id)).toEqual([])
    c.close()
  })

  it('behavior: closing a connection frees its subscriptions', async () => {
    const before = endpoint.subscriptions
    const c = await WsClient.connect(url)
    for (let i = 0; i < 5; i++) await c.call('eth_subscribe', ['newHeads'])
    expect(endpoint.subscriptions).toBe(before + 5)
    c.close()
    await c.waitClosed()
    for (let i = 0; i < 100 && endpoint.subscriptions !== before; i++) await new Promise((r) => setTimeout(r, 10))
    expect(endpoint.subscriptions).toBe(before)
  })
})

describe('ws: limits', () => {
  it('limit: 1024 subscriptions per socket accepted, the 1025th → -32005', async () => {
    const node = await createNode()
    const { url, close } = await attach(node)
    const c = await WsClient.connect(url)
    const batch = (from: number, n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: from + i, method: 'eth_subscribe', params: ['newHeads'] })))
    c.ws.send(batch(0, 1000))
    await c.waitFor(1)
    c.ws.send(batch(1000, 25))
    const answers = (await c.waitFor(2)).flat()
    expect(answers.slice(0, 1024).every((a: any) => typeof a.result === 'string')).toBe(true)
    expect(answers[1024].error).toEqual({ code: -32005, message: 'too many subscriptions, the limit is 1024' })
    c.close()
    await close()
    await node.close()
  })

  it('limit: a message of exactly the limit is read; one byte more closes with 1009', async () => {
    const node = await createNode({ limits: { wsMessageBytes: 1000 } })
    const { url, close } = await attach(node)
    const head = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","pad":"'
    const msg = (n: number) => head + 'a'.repeat(n - head.length - 2) + '"}'
    const c = await WsClient.connect(url)
    c.ws.send(msg(1000))
    expect((await c.waitFor(1))[0].result).toBe('0x7a69')
    c.ws.send(msg(1001))
    expect((await c.waitClosed()).code).toBe(1009)
    await close()
    await node.close()
  })

  it('limit: max open connections N accepted, N+1 refused; 0 = unlimited', async () => {
    const node = await createNode({ limits: { maxOpenConnections: 2 } })
    const { url, close } = await attach(node)
    const a = await WsClient.connect(url)
    const b = await WsClient.connect(url)
    await expect(WsClient.connect(url)).rejects.toThrow('HTTP 503')
    a.close()
    await a.waitClosed()
    for (let i = 0; i < 100; i++) {
      const again = await WsClient.connect(url).catch(() => undefined)
      if (again !== undefined) {
        again.close()
        break
      }
      await new Promise((r) => setTimeout(r, 10))
    }
    b.close()
    await close()
    await node.close()
    const open = await createNode()
    const unlimited = await attach(open)
    const clients = await Promise.all(Array.from({ length: 20 }, () => WsClient.connect(unlimited.url)))
    expect(unlimited.endpoint.connections).toBe(20)
    clients.forEach((c) => c.close())
    await unlimited.close()
    await open.close()
  })

  it('limit: outbox full at N messages / bytes (requests wait); notifications accepted up to 2N, 2N+1 closes with 1008', () => {
    const fake = (): SocketLike & { closed?: number; sent: number } => ({
      sent: 0,
      send() {
        this.sent++
      },
      close(code) {
        this.closed = code
      },
    })
    const byCount = fake()
    const box = new Outbox(byCount, { wsBacklogMessages: 3, wsBacklogBytes: 1 << 20, wsStallMs: 0 })
    expect([box.answer('a'), box.answer('b')]).toEqual([true, true])
    expect(box.full).toBe(false)
    expect(box.answer('c')).toBe(true)
    expect(box.full).toBe(true)
    // Answers are never refused for the backlog (they are bounded by the requests in flight).
    expect(box.answer('d')).toBe(true)
    expect([box.send('e'), box.send('f')]).toEqual([true, true])
    expect(byCount.closed).toBeUndefined()
    expect(box.send('g')).toBe(false)
    expect(byCount.closed).toBe(1008)
    expect(box.answer('h')).toBe(false)
    const byBytes = fake()
    const box2 = new Outbox(byBytes, { wsBacklogMessages: 100, wsBacklogBytes: 10, wsStallMs: 0 })
    expect(box2.send('12345')).toBe(true)
    expect(box2.full).toBe(false)
    expect(box2.send('12345')).toBe(true)
    expect(box2.full).toBe(true)
    expect(box2.send('1234567890')).toBe(true)
    expect(box2.send('1')).toBe(false)
    expect(byBytes.closed).toBe(1008)
  })

  it('limit: a full outbox that flushes nothing for wsStallMs is cut off (1008, dropped); each flush starts a new period', () => {
    const clock = new FakeClock()
    const pending: Array<() => void> = []
    const socket = {
      closed: undefined as number | undefined,
      terminated: false,
      send(_data: string, cb: () => void) {
        pending.push(cb)
      },
      close(code: number) {
        this.closed = code
      },
      terminate() {
        this.terminated = true
      },
    }
    let flushes = 0
    const box = new Outbox(socket, { wsBacklogMessages: 2, wsBacklogBytes: 1 << 20, wsStallMs: 1000 }, clock, () => flushes++)
    box.answer('a')
    clock.advance(5000)
    expect(socket.closed).toBeUndefined() // not full: no stall period
    box.answer('b')
    clock.advance(999)
    ;(pending.shift() as () => void)()
    expect(flushes).toBe(1)
    box.answer('c')
    clock.advance(999)
    expect(socket.closed).toBeUndefined() // the flush started a new period
    clock.advance(1)
    expect(socket.closed).toBe(1008)
    expect(socket.terminated).toBe(true)
    expect(box.closed).toBe(true)
  })

  it('behavior: a reader that stops reading is closed with 1008; another client gets every notification', async () => {
    const node = await createNode({ mining: { mode: 'manual' }, limits: { wsBacklogBytes: 256 * 1024 } })
    const { url, endpoint, close } = await attach(node)
    const emitter = await deploy(node, 'Emitter')
    const abi = artifacts.Emitter?.abi as Abi
    const slow = await WsClient.connect(url)
    const fast = await WsClient.connect(url)
    await slow.call('eth_subscribe', ['logs', { address: emitter }])
    const fastId = (await fast.call('eth_subscribe', ['logs', { address: emitter }])).result
    expect(endpoint.subscriptions).toBe(2)
    slow.ws.pause()
    const data = encodeFunctionData({ abi, functionName: 'emitMany', args: [200n] })
    let sent = 0
    // Until the server cuts the slow reader off (its subscription is freed at once).
    for (let i = 0; i < 100 && endpoint.subscriptions === 2; i++) {
      await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0]?.address, to: emitter, data }] })
      await node.mine()
      sent += 200
      await fast.waitFor(1 + sent)
    }
    expect(endpoint.subscriptions).toBe(1)
    slow.ws.resume()
    expect((await slow.waitClosed()).code).toBe(1008)
    expect(fast.notifications(fastId)).toHaveLength(sent)
    expect(fast.closed).toBeUndefined()
    fast.close()
    await close()
    await node.close()
  })
})
