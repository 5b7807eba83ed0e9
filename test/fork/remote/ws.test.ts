/**
 * The fork's remote client over WebSocket: a real finality node's WebSocket server on loopback,
 * stopped and started again on the same port; a bare `ws` server that accepts and never answers
 * stands for a remote that hangs or drops its sockets.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocketServer, type WebSocket } from 'ws'
import { createNode, type FinalityNode, type Hex, type Listening } from '../../../src/index.js'
import { remoteClients } from '../../helpers/remote-clients.js'

let node: FinalityNode
let served: Listening
let accounts: Hex[]
const remote = remoteClients()

beforeAll(async () => {
  node = await createNode({ chainId: 1337n })
  served = await node.listen({ address: false, wsAddress: '127.0.0.1:0' })
  accounts = await node.request({ method: 'eth_accounts' })
})

afterAll(async () => {
  await remote.closeAll()
  await served.close()
  await node.close()
})

/** A WebSocket server that accepts, records handshakes and messages, and answers nothing. */
async function silentServer() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  const handshakes: IncomingHttpHeaders[] = []
  const sockets: WebSocket[] = []
  const messages: unknown[] = []
  server.on('connection', (ws, req) => {
    handshakes.push(req.headers)
    sockets.push(ws)
    ws.on('message', (m) => messages.push(JSON.parse(String(m))))
  })
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    handshakes,
    sockets,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of server.clients) ws.terminate()
        server.close(() => resolve())
      }),
  }
}

describe('createRemote over WebSocket', () => {
  it('default: answers over one socket, concurrent requests as one batch', async () => {
    const c = remote({ url: served.ws! })
    expect(await c.request({ method: 'eth_chainId' })).toBe('0x539')
    const got = await Promise.all(accounts.slice(0, 5).map((a) => c.request({ method: 'eth_getBalance', params: [a, 'latest'] })))
    expect(got).toEqual(await Promise.all(accounts.slice(0, 5).map((a) => node.request({ method: 'eth_getBalance', params: [a, 'latest'] }))))
    expect(c.stats()).toEqual({ requests: 6, httpRequests: 2, batches: 1, retries: 0, errors: 0 })
  })

  it('behavior: the remote\'s error answer passes through', async () => {
    const c = remote({ url: served.ws! })
    await expect(c.request({ method: 'eth_nope' })).rejects.toMatchObject({ remoteCode: -32601, answered: true })
  })

  it('behavior: a server gone gives errors, and the client reconnects when it is back', async () => {
    const node2 = await createNode({ chainId: 7n })
    let listening = await node2.listen({ address: false, wsAddress: '127.0.0.1:0' })
    const url = listening.ws!
    const port = new URL(url).port
    const c = remote({ url, retries: 0 })
    try {
      expect(await c.request({ method: 'eth_chainId' })).toBe('0x7')
      await listening.close()
      await expect(c.request({ method: 'eth_chainId' })).rejects.toThrow(new RegExp(`^fork remote ${url}: eth_chainId failed: WebSocket (error|closed)`))
      listening = await node2.listen({ address: false, wsAddress: `127.0.0.1:${port}` })
      expect(await c.request({ method: 'eth_chainId' })).toBe('0x7')
      expect(c.stats()).toMatchObject({ requests: 3, errors: 1 })
    } finally {
      await c.close()
      await listening.close()
      await node2.close()
    }
  })

  it('error: requests pending on a socket that drops get errors, not a hang', async () => {
    const server = await silentServer()
    try {
      const c = remote({ url: server.url, retries: 0 })
      const pending = c.request({ method: 'eth_chainId' }).catch((e: unknown) => e)
      while (server.messages.length === 0) await new Promise((r) => setTimeout(r, 5))
      server.sockets[0]!.terminate()
      expect(await pending).toMatchObject({ answered: false, message: `fork remote ${server.url}: eth_chainId failed: WebSocket closed (1006) before the answer, after 1 attempt` })
    } finally {
      await server.close()
    }
  })

  it('error: a remote that never answers times out', async () => {
    const server = await silentServer()
    try {
      const c = remote({ url: server.url, timeoutMs: 50, retries: 1, retryBaseMs: 1 })
      await expect(c.request({ method: 'eth_chainId' })).rejects.toThrow('timed out after 50 ms, after 2 attempts')
      expect(server.messages).toHaveLength(2)
    } finally {
      await server.close()
    }
  })

  it('error: a server that accepts the connection and never completes the handshake times out', async () => {
    const held: Socket[] = []
    const server = createServer((socket) => void held.push(socket))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
      const c = remote({ url, timeoutMs: 50, retries: 1, retryBaseMs: 1 })
      await expect(c.request({ method: 'eth_chainId' })).rejects.toThrow(new RegExp(`^fork remote ${url}: eth_chainId failed: (timed out after 50 ms|WebSocket error: Opening handshake has timed out), after 2 attempts$`))
      // One connection or two: a retry that starts while the first handshake is still pending (its
      // time-out and the request's are both 50 ms) waits on that handshake instead of opening another.
      expect([1, 2]).toContain(held.length)
    } finally {
      for (const s of held) s.destroy()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('behavior: sends the headers with the handshake', async () => {
    const server = await silentServer()
    try {
      const c = remote({ url: server.url, headers: { authorization: 'Bearer abc', 'x-team': 'defi' }, timeoutMs: 20, retries: 0 })
      await c.request({ method: 'eth_chainId' }).catch(() => {})
      expect(server.handshakes[0]).toMatchObject({ authorization: 'Bearer abc', 'x-team': 'defi' })
    } finally {
      await server.close()
    }
  })

  it('behavior: close() rejects pending requests and closes the socket', async () => {
    const server = await silentServer()
    try {
      const c = remote({ url: server.url })
      const pending = c.request({ method: 'eth_chainId' }).catch((e: unknown) => e)
      while (server.messages.length === 0) await new Promise((r) => setTimeout(r, 5))
      const closedOnServer = new Promise<void>((resolve) => server.sockets[0]!.once('close', () => resolve()))
      await c.close()
      expect(await pending).toMatchObject({ kind: 'closed' })
      await closedOnServer
    } finally {
      await server.close()
    }
  })
})
