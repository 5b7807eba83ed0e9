/**
 * The WebSocket transport on the caller's `http.Server` (upgrade on a path), built on `ws`. Every
 * method is callable, batches too, plus eth_subscribe / eth_unsubscribe. A connection's
 * subscriptions die with it. A socket's requests wait while its unsent answers are at the backlog
 * limit (backpressure); a reader that stopped reading is closed with 1008 while the others carry
 * on; a message past the size limit closes the socket with 1009.
 */
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { createRequire } from 'node:module'
import type { WebSocket, WebSocketServer } from 'ws'
import type { Limits } from '../limits.js'
import type { Payload } from '../filters/subscriptions.js'
import type { Hex } from '../hex.js'
import type { RpcHost } from './host.js'
import type { Clock } from '../clock.js'
import { scopeOf, type ResolvedTransport, type TransportOptions } from './http.js'
import { hostAllowed, originAllowed } from './origins.js'
import { decodeUtf8, methodNames } from './json.js'

/** Options of {@link attachWebSocket}. */
export interface WsOptions extends TransportOptions {
  /** The upgrade path. Default: any path not taken by another upgrade listener of the server. */
  path?: string
  /**
   * `Origin`s allowed to open a socket (geth's `--ws.origins`): `*`, or `scheme://host[:port]` (no
   * port = any). A request without `Origin` (not a browser) always passes; others get 403.
   * Default: any for a `ws()` mount; pages on `http://localhost`, `127.0.0.1`, `[::1]` for `listen()`.
   */
  origins?: string[]
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
  /** Drops the connection at once (a reader that stopped reading cannot take a close frame). */
  terminate?(): void
}

type OutboxLimits = Pick<Limits, 'wsBacklogMessages' | 'wsBacklogBytes' | 'wsStallMs'>

/**
 * Counts what is written but not yet flushed to one socket. At the limit it is `full`: the
 * transport stops starting that socket's requests until the reader catches up (backpressure). A
 * reader that flushes nothing for `wsStallMs` while full, or whose notifications would take the
 * backlog past twice the limit, is closed with 1008 and nothing more is queued, so one reader that
 * stopped cannot grow memory and the others are not slowed.
 */
export class Outbox {
  private messages = 0
  private bytes = 0
  private dead = false
  private cancelStall: (() => void) | undefined

  constructor(
    private readonly socket: SocketLike,
    private readonly limits: OutboxLimits,
    private readonly timers: Pick<Clock, 'setTimer'> = { setTimer: realTimer },
    /** Called after each flush (the transport starts waiting requests). */
    private readonly flushed: () => void = () => {},
  ) {}

  /** Messages waiting. */
  get backlog(): number {
    return this.messages
  }

  /** Bytes waiting. */
  get backlogBytes(): number {
    return this.bytes
  }

  /** True once the reader was cut off. */
  get closed(): boolean {
    return this.dead
  }

  /** True while the backlog is at its limit: the socket's requests wait. */
  get full(): boolean {
    return this.messages >= this.limits.wsBacklogMessages || this.bytes >= this.limits.wsBacklogBytes
  }

  /** Queues an answer (bounded by the requests in flight); false once the socket was cut off. */
  answer(text: string): boolean {
    if (this.dead) return false
    this.write(text, Buffer.byteLength(text))
    return true
  }

  /** Queues a notification; false when the socket was (or is now) cut off for falling behind. */
  send(text: string): boolean {
    if (this.dead) return false
    const size = Buffer.byteLength(text)
    if (this.messages + 1 > 2 * this.limits.wsBacklogMessages || this.bytes + size > 2 * this.limits.wsBacklogBytes) {
      this.cutOff('slow reader: backlog limit reached', false)
      return false
    }
    this.write(text, size)
    return true
  }

  /** Stops the stall timer (the socket closed). */
  dispose(): void {
    this.cancelStall?.()
    this.cancelStall = undefined
  }

  private write(text: string, size: number): void {
    this.messages++
    this.bytes += size
    this.watch()
    this.socket.send(text, () => {
      this.messages--
      this.bytes -= size
      // Progress: a full socket gets a new stall period, one that drained none.
      this.cancelStall?.()
      this.cancelStall = undefined
      this.watch()
      if (!this.dead) this.flushed()
    })
  }

  private watch(): void {
    if (this.dead || this.cancelStall !== undefined || !this.full || !(this.limits.wsStallMs > 0)) return
    this.cancelStall = this.timers.setTimer(() => {
      this.cancelStall = undefined
      if (this.full) this.cutOff(`slow reader: nothing read for ${this.limits.wsStallMs} ms`, true)
    }, this.limits.wsStallMs)
  }

  private cutOff(reason: string, stalled: boolean): void {
    this.dead = true
    this.dispose()
    this.socket.close(1008, reason)
    if (stalled) this.socket.terminate?.()
  }
}

/**
 * One socket's requests: at most `wsRequestsInFlight` run at once, and none starts while `blocked()`
 * (the outbox is full or closed). While requests wait, the socket is paused (`setPaused(true)`),
 * so the client's further requests stay in its own buffers, not in memory here.
 */
export class RequestQueue<T> {
  private readonly waiting: T[] = []
  private running = 0
  private paused = false

  constructor(
    private readonly run: (item: T) => Promise<void>,
    private readonly limits: Pick<Limits, 'wsRequestsInFlight'>,
    private readonly blocked: () => boolean,
    private readonly setPaused: (paused: boolean) => void,
  ) {}

  /** Requests running now. */
  get inFlight(): number {
    return this.running
  }

  /** Requests waiting. */
  get queued(): number {
    return this.waiting.length
  }

  /** Adds a request and starts what may start. */
  push(item: T): void {
    this.waiting.push(item)
    this.pump()
  }

  /** Starts waiting requests while there is room (after a flush or a finished request). */
  pump(): void {
    while (this.waiting.length > 0 && this.running < this.limits.wsRequestsInFlight && !this.blocked()) {
      this.running++
      this.run(this.waiting.shift() as T).finally(() => {
        this.running--
        this.pump()
      })
    }
    const pause = this.waiting.length > 0
    if (pause !== this.paused) {
      this.paused = pause
      this.setPaused(pause)
    }
  }

  /** Drops what waits (the socket closed). */
  clear(): void {
    this.waiting.length = 0
  }
}

function realTimer(fn: () => void, ms: number): () => void {
  const t = setTimeout(fn, ms)
  t.unref()
  return () => clearTimeout(t)
}

function notification(id: Hex, p: Payload): string {
  return `{"jsonrpc":"2.0","method":"${p.namespace ?? 'eth'}_subscription","params":{"subscription":"${id}","result":${p.json()}}}`
}

/** True when another upgrade listener wrote to, ended or upgraded the socket. */
function taken(socket: Duplex): boolean {
  if (socket.destroyed || !socket.writable || socket.writableLength > 0) return true
  if ((socket as Duplex & { bytesWritten?: number }).bytesWritten) return true
  // A `ws` server marks the sockets it upgraded (its `kWebSocket` symbol; any copy of the package).
  return Object.getOwnPropertySymbols(socket).some((k) => k.description === 'websocket')
}

function refuse(socket: Duplex, status: number, message: string): void {
  socket.end(`HTTP/1.1 ${status} ${message}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

/** `ws`, required at the first WebSocket endpoint (synchronously: `node.ws()` is): a node without one never loads it. */
let wsServerClass: typeof WebSocketServer | undefined
function webSocketServer(): typeof WebSocketServer {
  wsServerClass ??= (createRequire(import.meta.url)('ws') as typeof import('ws')).WebSocketServer
  return wsServerClass
}

/** Attaches the WebSocket transport of `host` to `server`. */
export function attachWebSocket(host: RpcHost, server: Server, t: ResolvedTransport, options: WsOptions = {}): WsEndpoint {
  const limits = host.limits
  const wss = new (webSocketServer())({ noServer: true, maxPayload: limits.wsMessageBytes, perMessageDeflate: false })
  let open = 0
  const sessions = new Set<{ subscriptions: { size: number } }>()

  const accept = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!hostAllowed(t.hosts, req.headers.host)) return refuse(socket, 403, 'Forbidden')
    // geth's --ws.origins: a browser page from another site may not open a socket (no Origin = not a browser).
    if (!originAllowed(options.origins, req.headers.origin)) return refuse(socket, 403, 'Forbidden')
    const scope = scopeOf(t, req.headers.authorization, Date.now())
    if (scope === 'unauthorized') return refuse(socket, 401, 'Unauthorized')
    if (limits.maxOpenConnections > 0 && open >= limits.maxOpenConnections) return refuse(socket, 503, 'Service Unavailable')
    open++
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, scope))
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0]
    if (options.path !== undefined && path !== options.path) return
    // The app may have its own upgrade listeners (its own `ws` server on another path): let them
    // have their turn, and take only a socket none of them took.
    if (server.listeners('upgrade').length === 1) return accept(req, socket, head)
    setImmediate(() => {
      if (!taken(socket)) accept(req, socket, head)
    })
  }

  const serve = (ws: WebSocket, scope: Exclude<ReturnType<typeof scopeOf>, 'unauthorized'>) => {
    const outbox: Outbox = new Outbox(ws, limits, host.clock, () => queue.pump())
    const queue = new RequestQueue<Buffer>((bytes) => run(bytes), limits, () => outbox.full || outbox.closed, (paused) => (paused ? ws.pause() : ws.resume()))
    const session = host.session((id, p) => {
      if (!outbox.send(notification(id, p))) session.close()
    })
    sessions.add(session)
    const run = async (bytes: Buffer) => {
      const started = performance.now()
      let text: string
      try {
        text = decodeUtf8(bytes)
      } catch {
        outbox.answer('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid UTF-8"}}')
        return
      }
      try {
        const answer = await host.handleText(text, scope, session)
        if (answer.text !== undefined && !outbox.answer(answer.text)) return session.close()
        answer.sent()
        if (options.onRequest !== undefined) options.onRequest({ methods: methodNames(text), ms: performance.now() - started })
      } catch {
        ws.close(1011, 'internal error')
      }
    }
    ws.on('message', (raw: Buffer | ArrayBuffer | Buffer[]) => {
      queue.push(Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer))
    })
    ws.on('close', () => {
      open--
      queue.clear()
      outbox.dispose()
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
