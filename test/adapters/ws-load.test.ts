/**
 * The WebSocket transport under load and beside an app's own WebSocket server: backpressure (a
 * client that reads many large answers gets all of them; one that stopped reading is cut off and its
 * requests stop running), upgrades shared with another `ws` server, and the Origin check.
 */
import { createServer, type Server } from 'node:http'
import WebSocket, { WebSocketServer } from 'ws'
import { describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { RequestQueue, type WsOptions } from '../../src/adapters/ws.js'
import { WsClient, onLoopback } from '../helpers/loopback.js'

const BIG = `0x${'5b'.repeat(10_000)}` as const // 10 kB of JUMPDEST: eth_getCode answers ~20 kB
const HOLDER = '0x00000000000000000000000000000000000c0de1'

async function attach(node: FinalityNode, options?: WsOptions, server: Server = createServer()) {
  const endpoint = node.ws(server, options)
  const port = await onLoopback(server)
  return {
    port,
    url: `ws://127.0.0.1:${port}`,
    endpoint,
    close: async () => {
      await endpoint.close()
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}

function getCodeBatch(n: number): string[] {
  return Array.from({ length: n }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_getCode', params: [HOLDER, 'latest'] }))
}

describe('ws: request queue', () => {
  function setup(inFlight: number) {
    const started: number[] = []
    const finish = new Map<number, () => void>()
    const paused: boolean[] = []
    let full = false
    const queue = new RequestQueue<number>(
      (n) => {
        started.push(n)
        return new Promise<void>((resolve) => finish.set(n, resolve))
      },
      { wsRequestsInFlight: inFlight },
      () => full,
      (p) => paused.push(p),
    )
    return { queue, started, finish, paused, setFull: (f: boolean) => (full = f) }
  }

  it('limit: wsRequestsInFlight N run at once, request N+1 waits (and the socket pauses) until one finishes', async () => {
    const { queue, started, finish, paused } = setup(2)
    queue.push(1)
    queue.push(2)
    expect(started).toEqual([1, 2])
    expect(paused).toEqual([])
    queue.push(3)
    expect(started).toEqual([1, 2])
    expect(queue.queued).toBe(1)
    expect(paused).toEqual([true])
    finish.get(1)?.()
    await new Promise((r) => setImmediate(r))
    expect(started).toEqual([1, 2, 3])
    expect(paused).toEqual([true, false])
    expect(queue.inFlight).toBe(2)
  })

  it('behavior: nothing starts while the outbox is full; a flush (pump) starts what waits', () => {
    const { queue, started, paused, setFull } = setup(64)
    setFull(true)
    queue.push(1)
    queue.push(2)
    expect(started).toEqual([])
    expect(paused).toEqual([true])
    setFull(false)
    queue.pump()
    expect(started).toEqual([1, 2])
    expect(paused).toEqual([true, false])
  })
})

describe('ws: backpressure', () => {
  it('a client that reads 2,000 large answers gets every one of them (its requests wait, it is not cut off)', async () => {
    const node = await createNode({ limits: { wsBacklogBytes: 512 * 1024 } })
    await node.setCode(HOLDER, BIG)
    const { url, endpoint, close } = await attach(node)
    const c = await WsClient.connect(url)
    for (const text of getCodeBatch(2000)) c.ws.send(text)
    const got = await c.waitFor(2000)
    expect(c.closed).toBeUndefined()
    expect(got).toHaveLength(2000)
    expect(new Set(got.map((m) => m.id)).size).toBe(2000)
    expect(got.every((m) => m.result === BIG)).toBe(true)
    expect(endpoint.connections).toBe(1)
    c.close()
    await close()
    await node.close()
  })

  it('a client that stops reading is cut off after wsStallMs; its remaining requests never run; others carry on', async () => {
    const node = await createNode({ limits: { wsBacklogBytes: 256 * 1024, wsStallMs: 300 } })
    await node.setCode(HOLDER, BIG)
    let ran = 0
    const { url, endpoint, close } = await attach(node, { onRequest: () => ran++ })
    const stalled = await WsClient.connect(url)
    const other = await WsClient.connect(url)
    stalled.ws.pause()
    for (const text of getCodeBatch(2000)) stalled.ws.send(text)
    while (endpoint.connections === 2) await new Promise((r) => setTimeout(r, 20))
    expect(endpoint.connections).toBe(1)
    // Requests wait while the answers are unread: far fewer than sent were run.
    expect(ran).toBeLessThan(2000)
    expect((await other.call('eth_chainId')).result).toBe('0x7a69')
    stalled.ws.resume()
    expect((await stalled.waitClosed()).code).not.toBe(1000)
    other.close()
    await close()
    await node.close()
  })
})

describe('ws: an app with its own WebSocket server on the same http.Server', () => {
  it.each(['before', 'after'])('its ws server ({ server, path }) created %s node.ws(server): its path works, nothing crashes', async (order) => {
    const node = await createNode()
    const server = createServer()
    let theirs: WebSocketServer | undefined
    const make = () => {
      theirs = new WebSocketServer({ server, path: '/events' })
      theirs.on('connection', (socket) => socket.send('hello from the app'))
    }
    if (order === 'before') make()
    const { port, close } = await attach(node, undefined, server)
    if (order === 'after') make()
    const app = new WebSocket(`ws://127.0.0.1:${port}/events`)
    const hello = await new Promise<string>((resolve, reject) => {
      app.once('message', (d) => resolve(d.toString()))
      app.once('error', reject)
    })
    expect(hello).toBe('hello from the app')
    app.close()
    theirs?.close()
    await close()
    await node.close()
  })

  it('an app that routes its own path by hand: its path is its own, every other path is the node\'s', async () => {
    const node = await createNode()
    const server = createServer()
    const theirs = new WebSocketServer({ noServer: true })
    theirs.on('connection', (socket) => socket.send('hello from the app'))
    server.on('upgrade', (req, socket, head) => {
      if (req.url === '/events') theirs.handleUpgrade(req, socket, head, (ws) => theirs.emit('connection', ws, req))
    })
    const { port, url, close } = await attach(node, undefined, server)
    const app = new WebSocket(`ws://127.0.0.1:${port}/events`)
    expect(await new Promise<string>((resolve) => app.once('message', (d) => resolve(d.toString())))).toBe('hello from the app')
    const c = await WsClient.connect(url)
    expect((await c.call('eth_chainId')).result).toBe('0x7a69')
    c.close()
    app.close()
    theirs.close()
    await close()
    await node.close()
  })
})

describe('ws: origins', () => {
  it('origins: listed origins (any port when the rule has none) and clients without Origin connect; others get 403', async () => {
    const node = await createNode()
    const { url, close } = await attach(node, { origins: ['http://localhost', 'https://app.example:8443'] })
    for (const origin of ['http://localhost:5173', 'http://localhost', 'https://app.example:8443', undefined]) {
      const c = await WsClient.connect(url, origin === undefined ? {} : { origin })
      expect((await c.call('eth_chainId')).result).toBe('0x7a69')
      c.close()
    }
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'https://localhost:5173', 'https://app.example']) {
      await expect(WsClient.connect(url, { origin })).rejects.toThrow('HTTP 403')
    }
    await close()
    await node.close()
  })

  it('default for a ws() mount: any origin', async () => {
    const node = await createNode()
    const { url, close } = await attach(node)
    const c = await WsClient.connect(url, { origin: 'https://anywhere.example' })
    expect((await c.call('eth_chainId')).result).toBe('0x7a69')
    c.close()
    await close()
    await node.close()
  })
})
