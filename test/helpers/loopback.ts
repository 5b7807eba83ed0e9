/** Shared pieces of the transport tests: loopback servers on ephemeral ports, raw ws clients. */
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import WebSocket from 'ws'
import type { Clock, FinalityNode, Listening } from '../../src/index.js'
import { pickPorts } from '../../src/abci/ports.js'
import { afterAll, beforeAll } from 'vitest'

/** Starts `server` on 127.0.0.1 with an ephemeral port; resolves to its port. */
export async function onLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/**
 * A port free on 127.0.0.1 now, for a process or a flag that takes a fixed port: below the
 * kernel's ephemeral range, so no outgoing connection takes it before it is listened on.
 */
export async function freePort(): Promise<number> {
  return (await pickPorts(1))[0]!
}

/** A plain node:http server around a handler. */
export async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(handler)
  const port = await onLoopback(server)
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** POSTs a body; resolves to status, headers and text. */
export async function post(url: string, body: string | Uint8Array, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

/** POSTs one JSON-RPC request and parses the answer. */
export async function rpc(url: string, method: string, params: unknown[] = [], headers: Record<string, string> = {}): Promise<any> {
  const { text } = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), headers)
  return JSON.parse(text)
}

/** A raw WebSocket client that queues every message it receives, in order. */
export class WsClient {
  readonly messages: any[] = []
  private waiters: Array<() => void> = []
  closed: { code: number; reason: string } | undefined

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()))
      this.wake()
    })
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() }
      this.wake()
    })
  }

  static async connect(url: string, options?: WebSocket.ClientOptions): Promise<WsClient> {
    const ws = new WebSocket(url, options)
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    })
    return new WsClient(ws)
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w()
  }

  /** Waits until `n` messages arrived (or the socket closed); bounded by the test time-out. */
  async waitFor(n: number): Promise<any[]> {
    while (this.messages.length < n && this.closed === undefined) await new Promise<void>((r) => this.waiters.push(r))
    return this.messages
  }

  /** Waits for the socket to close. */
  async waitClosed(): Promise<{ code: number; reason: string }> {
    while (this.closed === undefined) await new Promise<void>((r) => this.waiters.push(r))
    return this.closed
  }

  /** Sends a request and resolves to its response (matched by id). */
  async call(method: string, params: unknown[] = [], id: number = Math.floor(Math.random() * 1e9)): Promise<any> {
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    for (;;) {
      const found = this.messages.find((m) => m.id === id)
      if (found !== undefined) return found
      if (this.closed !== undefined) throw new Error(`socket closed ${this.closed.code}`)
      await new Promise<void>((r) => this.waiters.push(r))
    }
  }

  /** The notifications of one subscription, in order. */
  notifications(subscription: string): any[] {
    return this.messages.filter((m) => m.method === 'eth_subscription' && m.params.subscription === subscription).map((m) => m.params.result)
  }

  close(): void {
    this.ws.close()
  }
}

/** A clock tests move by hand; timers fire when their time comes. */
export class FakeClock implements Clock {
  private t = 1_700_000_000_000
  private timers = new Set<{ at: number; fn: () => void }>()
  now(): number {
    return this.t
  }
  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.t + ms, fn }
    this.timers.add(timer)
    return () => this.timers.delete(timer)
  }
  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    this.t += ms
    for (const timer of [...this.timers].sort((a, b) => a.at - b.at)) {
      if (timer.at <= this.t && this.timers.delete(timer)) timer.fn()
    }
  }
}

/**
 * Serves `node()` over HTTP and WebSocket on ephemeral loopback ports for the enclosing describe
 * block (opened in beforeAll, closed in afterAll), with `api` open: `served.http` is the URL,
 * `served.ws` a connected client.
 */
export function servedOverHttpAndWs(node: () => FinalityNode, api: string[]): { readonly http: string; readonly ws: WsClient } {
  let listening: Listening | undefined
  let client: WsClient | undefined
  beforeAll(async () => {
    listening = await node().listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api })
    client = await WsClient.connect(listening.ws!)
  })
  afterAll(async () => {
    client?.close()
    await listening?.close()
  })
  return {
    get http() {
      return listening!.http!
    },
    get ws() {
      return client!
    },
  }
}

/** The status of a POST of eth_chainId with a Host header of our choosing (fetch does not let us set it). */
export function postWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { host, 'content-type': 'application/json' } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')
  })
}
