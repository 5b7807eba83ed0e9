/**
 * A real HTTP proxy on 127.0.0.1 in front of a real JSON-RPC server, for the fork remote's tests:
 * it forwards each POST as it is, counts what arrives (POSTs, JSON-RPC requests, batch sizes,
 * headers), and injects the failures a rate-limited or broken remote shows when a test asks for
 * one: a status code, a delay, a dropped socket, a refusal of batches.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { onLoopback } from './loopback.js'

/** What the proxy does with one POST, decided by the test; `undefined` forwards it. */
export type Fault =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { delayMs: number }
  | { drop: true }
  | undefined

/** One POST as it arrived. */
export interface Arrival {
  headers: IncomingMessage['headers']
  /** JSON-RPC methods in it, in order (one for a single request). */
  methods: string[]
  /** Their params, in the same order. */
  params: unknown[]
  batch: boolean
  /** Date.now() when it arrived. */
  at: number
}

export interface FaultProxy {
  url: string
  arrivals: Arrival[]
  /** Decides the fault of the n-th POST (0-based), given what it carries. */
  fault: (n: number, arrival: Arrival) => Fault
  /** Answer batches with a single JSON-RPC error object, as servers without batch support do. */
  refuseBatches: boolean
  /** Changes the real node's answer (its parsed JSON, a batch's array) before it goes back: a lying remote. */
  rewrite: ((answer: unknown, arrival: Arrival) => unknown) | undefined
  close(): Promise<void>
}

/** Starts a proxy in front of `target` (an http:// URL). */
export async function faultProxy(target: string): Promise<FaultProxy> {
  const proxy: FaultProxy = {
    url: '',
    arrivals: [],
    fault: () => undefined,
    refuseBatches: false,
    rewrite: undefined,
    close: async () => {},
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => void handle(req, res, Buffer.concat(chunks)))
  })
  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    let parsed: unknown
    try {
      parsed = JSON.parse(body.toString('utf8'))
    } catch {
      parsed = undefined
    }
    const items = Array.isArray(parsed) ? parsed : [parsed]
    const arrival: Arrival = {
      headers: req.headers,
      methods: items.map((i) => String((i as { method?: unknown } | undefined)?.method)),
      params: items.map((i) => (i as { params?: unknown } | undefined)?.params),
      batch: Array.isArray(parsed),
      at: Date.now(),
    }
    const n = proxy.arrivals.push(arrival) - 1
    const fault = proxy.fault(n, arrival)
    if (fault !== undefined && 'drop' in fault) return req.socket.destroy()
    if (fault !== undefined && 'status' in fault) {
      res.writeHead(fault.status, { 'content-type': 'text/plain', ...fault.headers })
      return res.end(fault.body ?? `injected ${fault.status}`)
    }
    if (fault !== undefined && 'delayMs' in fault) await new Promise((r) => setTimeout(r, fault.delayMs))
    if (arrival.batch && proxy.refuseBatches) {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not supported' } }))
    }
    try {
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      let text = await upstream.text()
      if (proxy.rewrite !== undefined) text = JSON.stringify(proxy.rewrite(JSON.parse(text), arrival))
      if (res.destroyed) return
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
      res.end(text)
    } catch {
      if (!res.destroyed) req.socket.destroy()
    }
  }
  const port = await onLoopback(server)
  proxy.url = `http://127.0.0.1:${port}`
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return proxy
}
