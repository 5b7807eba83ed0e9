/**
 * The WebSocket transport on the caller's `http.Server` (upgrade on a path), built on `ws`. Every
 * method is callable, batches too, plus eth_subscribe / eth_unsubscribe. A connection's
 * subscriptions die with it; a reader that falls behind past the backlog limit is closed with
 * 1008 while the others carry on; a message past the size limit closes the socket with 1009.
 */
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Limits } from '../limits.js'
import type { Payload } from '../filters/subscriptions.js'
import type { Hex } from '../hex.js'
import type { RpcHost } from './host.js'
import { hostAllowed, scopeOf, type ResolvedTransport, type TransportOptions } from './http.js'
import { decodeUtf8, methodNames } from './json.js'

/** Options of {@link attachWebSocket}. */
export interface WsOptions extends TransportOptions {
  /** The upgrade path. Default: any path. */
  path?: string
}

/** A WebSocket endpoint attached to a server. */
export interface WsEndpoint {
  /** Open connections. */
  readonly connections: number
  /** Live subscriptions over all connections. */
  readonly subscriptions: number
  /** Closes every connection (1001) and detaches from the server. */
  close(): Promise<void>
}

/** What the outbox writes to: the part of a `ws` socket it uses. */
export interface SocketLike {
  send(data: string, cb: (error?: Error) => void): void
  close(code: number, reason: string): void
}

/**
 * Counts what is written but not yet flushed to one socket; past the message or byte limit the
 * socket is closed with 1008 and nothing more is queued, so one slow reader cannot grow memory.
 */
export class Outbox {
  private messages = 0
  private bytes = 0
  private dead = false

  constructor(
    private readonly socket: SocketLike,
    private readonly limits: Pick<Limits, 'wsBacklogMessages' | 'wsBacklogBytes'>,
  ) {}

  /** Messages waiting. */
  get backlog(): number {
    return this.messages
  }

  /** True once the reader was cut off. */
  get closed(): boolean {
    return this.dead
  }

  /** Queues one message; false when the socket was closed for falling behind. */
  send(text: string): boolean {
    if (this.dead) return false
    const size = Buffer.byteLength(text)
    if (this.messages + 1 > this.limits.wsBacklogMessages || this.bytes + size > this.limits.wsBacklogBytes) {
      this.dead = true
      this.socket.close(1008, 'slow reader: backlog limit reached')
      return false
    }
    this.messages++
    this.bytes += size
    this.socket.send(text, () => {
      this.messages--
      this.bytes -= size
    })
    return true
  }
}

function notification(id: Hex, p: Payload): string {
  return `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${p.json()}}}`
}

function refuse(socket: Duplex, status: number, message: string): void {
  socket.end(`HTTP/1.1 ${status} ${message}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

/** Attaches the WebSocket transport of `host` to `server`. */
export function attachWebSocket(host: RpcHost, server: Server, t: ResolvedTransport, options: WsOptions = {}): WsEndpoint {
  const limits = host.limits
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.wsMessageBytes, perMessageDeflate: false })
  let open = 0
  const sessions = new Set<{ subscriptions: { size: number } }>()

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0]
    if (options.path !== undefined && path !== options.path) return
    if (!hostAllowed(t.hosts, req.headers.host)) return refuse(socket, 403, 'Forbidden')
    const scope = scopeOf(t, req.headers.authorization, Date.now())
    if (scope === 'unauthorized') return refuse(socket, 401, 'Unauthorized')
    if (limits.maxOpenConnections > 0 && open >= limits.maxOpenConnections) return refuse(socket, 503, 'Service Unavailable')
    open++
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, scope))
  }

  const serve = (ws: WebSocket, scope: Exclude<ReturnType<typeof scopeOf>, 'unauthorized'>) => {
    const outbox = new Outbox(ws, limits)
    const session = host.session((id, p) => {
      if (!outbox.send(notification(id, p))) session.close()
    })
    sessions.add(session)
    ws.on('message', (raw: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer)
      const started = performance.now()
      let text: string
      try {
        text = decodeUtf8(bytes)
      } catch {
        outbox.send('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid UTF-8"}}')
        return
      }
      void isBinary
      host
        .handleText(text, scope, session)
        .then((answer) => {
          if (answer.text !== undefined && !outbox.send(answer.text)) return session.close()
          answer.sent()
          if (options.onRequest !== undefined) options.onRequest({ methods: methodNames(text), ms: performance.now() - started })
        })
        .catch(() => ws.close(1011, 'internal error'))
    })
    ws.on('close', () => {
      open--
      sessions.delete(session)
      session.close()
    })
    ws.on('error', () => ws.terminate())
  }

  server.on('upgrade', onUpgrade)
  return {
    get connections() {
      return open
    },
    get subscriptions() {
      let n = 0
      for (const s of sessions) n += s.subscriptions.size
      return n
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.off('upgrade', onUpgrade)
        for (const ws of wss.clients) ws.close(1001, 'node closing')
        const timer = setTimeout(() => {
          for (const ws of wss.clients) ws.terminate()
        }, 1000)
        timer.unref()
        wss.close(() => {
          clearTimeout(timer)
          resolve()
        })
      }),
  }
}
