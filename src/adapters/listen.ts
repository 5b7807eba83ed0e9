/**
 * `node.listen()`: HTTP and WebSocket servers for callers who have none, on 127.0.0.1 by default,
 * port 0 for an ephemeral port. Returns the bound URLs and a `close()`.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { nodeHttp } from '../builtins.js'
import type { AddressInfo, Socket } from 'node:net'
import { assertSafeExposure, isLoopback } from './auth.js'
import type { RpcHost } from './host.js'
import { createHttpHandler, type HttpOptions, type ResolvedTransport } from './http.js'
import { LOCAL_HOSTS, LOCAL_ORIGINS } from './origins.js'
import { attachWebSocket, type WsEndpoint } from './ws.js'
import { createExplorerHandler, wantsPage, type ExplorerOptions } from '../explorer/serve.js'

/**
 * Options of `node.listen()`; the spec's `json-rpc` settings. Either `port`/`host`, one server
 * for HTTP and WebSocket as Hardhat and Anvil serve them (`listen({ port: 0 })`), or
 * `address`/`wsAddress`, a server each (the CLI's `--json-rpc.address` / `--json-rpc.ws-address`).
 */
export interface ListenOptions extends HttpOptions {
  /** Port of one server for HTTP and WebSocket (0 = a free port). Default: `address`'s. */
  port?: number
  /** Bind host of that server. Default `127.0.0.1`. */
  host?: string
  /** HTTP bind address `<host>:<port>`. Default `127.0.0.1:8545`; `false` = no HTTP server. Not with `port`/`host`. */
  address?: string | false
  /**
   * WebSocket bind address. Default `127.0.0.1:8546`; with `port`/`host`, or an `address` of port 0,
   * the HTTP server itself (never a fixed port beside an ephemeral one). The same as `address` (a
   * fixed port) = one server for both; `<host>:0` = a server of its own on a free port; `false` = none.
   */
  wsAddress?: string | false
  /**
   * The explorer page (docs/explorer.md) for browsers: a GET that accepts `text/html` gets the
   * page, other GETs the empty 200 of health checks. `true`, or where the page reaches the node
   * (default: this server, and the WebSocket server's URL). Default off; the CLI turns it on.
   */
  explorer?: boolean | ExplorerOptions
  /** WebSocket upgrade path. Default: any. */
  wsPath?: string
  /** Namespaces of the WebSocket server. Default: `api`. */
  wsApi?: string[]
  /**
   * `Origin`s allowed to open a WebSocket (`*`, or `scheme://host[:port]`, no port = any). Default:
   * `cors` when given, else pages on `http://localhost`, `127.0.0.1` and `[::1]`.
   */
  origins?: string[]
}

/** Running servers. */
export interface Listening {
  /** `http://host:port` of the HTTP server, if any. */
  readonly http: string | undefined
  /** `ws://host:port` of the WebSocket server, if any. */
  readonly ws: string | undefined
  /** Stops accepting, closes WebSocket connections and every socket that carries no request (idle keep-alive ones, a browser tab's pool), and resolves once the requests under way are answered. */
  close(): Promise<void>
}

/** One transport of a `listen()`: where it is bound, and how to stop it alone (admin_stopHTTP / admin_stopWS). */
export interface ServerPart {
  /** `host:port` as bound (the real port when 0 was asked). */
  readonly endpoint: string
  readonly host: string
  readonly port: number
  /** True until stopped. */
  readonly running: boolean
  stop(): Promise<void>
}

/** What the node keeps of a `listen()`: its options and each transport, for the admin methods. */
export interface OwnListening extends Listening {
  readonly options: ListenOptions
  readonly parts: { readonly http?: ServerPart; readonly ws?: ServerPart }
}

/** `<host>:<port>` → parts; `[::1]:8545` for IPv6, `:8545` means 127.0.0.1. */
export function parseAddress(address: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(address.trim())
  if (m === null) throw new Error(`invalid address "${address}", want <host>:<port>`)
  const port = Number(m[3])
  if (port > 65535) throw new Error(`invalid port in "${address}"`)
  return { host: m[1] ?? (m[2] === '' || m[2] === undefined ? '127.0.0.1' : m[2]), port }
}

function urlOf(scheme: string, server: Server): string {
  const a = server.address() as AddressInfo
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address
  return `${scheme}://${host}:${a.port}`
}

function bind(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function upgradeRequired(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' })
  res.end('upgrade required\n')
}

/** The sockets of each server that carry a request now (a request's socket until its response is done). */
const busy = new WeakMap<Server, Set<Socket>>()
/** Every open socket of each server. */
const open = new WeakMap<Server, Set<Socket>>()

/** Tracks a server's sockets, so that {@link shut} can end those that carry no request. */
function track(server: Server): void {
  const sockets = new Set<Socket>()
  const carrying = new Set<Socket>()
  open.set(server, sockets)
  busy.set(server, carrying)
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    carrying.add(req.socket)
    res.once('close', () => carrying.delete(req.socket))
  })
}

/**
 * Stops accepting and resolves once every connection is gone: requests under way finish (their
 * responses say `Connection: close`), and sockets that carry none are ended now. Node's
 * closeIdleConnections() alone misses the sockets a browser opens ahead and never sends on (its
 * pool: an explorer tab left open), and close() would wait on them for as long as the tab lives.
 */
function shut(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeIdleConnections()
    const carrying = busy.get(server)
    for (const socket of open.get(server) ?? []) if (!carrying?.has(socket) && !socket.destroyed) socket.destroy()
  })
}

/**
 * Idle connections are kept `ms` (the `httpKeepAliveMs` limit). Node checks a request's headers
 * against `headersTimeout` from the connection's last activity, so it must outlast the idle time,
 * and `requestTimeout` must not be below it.
 */
function keepAlive(server: Server, ms: number): void {
  server.keepAliveTimeout = ms
  if (ms === 0) return
  server.headersTimeout = Math.max(server.headersTimeout, ms + 1000)
  if (server.requestTimeout > 0) server.requestTimeout = Math.max(server.requestTimeout, server.headersTimeout)
}

/** Serves the page to browsers ahead of `rpc`; the WebSocket URL of a server of its own is written into the page. */
function withExplorer(rpc: (req: IncomingMessage, res: ServerResponse) => void, options: ExplorerOptions, ws: () => string | undefined) {
  const page = createExplorerHandler(() => {
    const url = options.ws ?? ws()
    return url === undefined ? options : { ...options, ws: url }
  })
  return (req: IncomingMessage, res: ServerResponse) => (wantsPage(req) ? page(req, res) : rpc(req, res))
}

/** Starts the servers; `transport(lockPrivate)` resolves the per-transport settings. */
export async function listen(
  host: RpcHost,
  transport: (options: HttpOptions, lockPrivate: boolean) => ResolvedTransport,
  options: ListenOptions = {},
): Promise<OwnListening> {
  const short = options.port !== undefined || options.host !== undefined
  const httpAddress = options.address === false
    ? undefined
    : short
      ? { host: options.host ?? '127.0.0.1', port: options.port ?? 8545 }
      : parseAddress(options.address ?? '127.0.0.1:8545')
  // With port/host, WebSocket upgrades are served by the HTTP server unless wsAddress says otherwise;
  // so with an HTTP port of 0, so that an ephemeral server never hides a fixed WebSocket port
  // (two nodes, or a test beside a running node, would collide on 8546).
  const shared = options.wsAddress === undefined && (short || httpAddress?.port === 0)
  const wsAddress = shared ? httpAddress : options.wsAddress === false ? undefined : parseAddress(options.wsAddress ?? '127.0.0.1:8546')
  const hasSecret = options.jwtSecret !== undefined
  if (httpAddress !== undefined) assertSafeExposure(httpAddress.host, options.api ?? [], hasSecret)
  if (wsAddress !== undefined) assertSafeExposure(wsAddress.host, options.wsApi ?? options.api ?? [], hasSecret)
  // A server of its own serves browsers on this machine and no other site: CORS and WebSocket
  // origins for local pages, and geth's Host check against DNS rebinding.
  const own = {
    cors: options.cors ?? [...LOCAL_ORIGINS],
    origins: options.origins ?? options.cors ?? [...LOCAL_ORIGINS],
    hosts: options.hosts ?? [...LOCAL_HOSTS],
  }
  const httpOptions: HttpOptions = { ...options, ...own }
  const servers: Server[] = []
  const endpoints: WsEndpoint[] = []
  const limit = host.limits.maxOpenConnections
  const make = () => {
    const server = nodeHttp().createServer()
    track(server)
    if (limit > 0) server.maxConnections = limit
    keepAlive(server, host.limits.httpKeepAliveMs)
    servers.push(server)
    return server
  }
  let httpServer: Server | undefined
  let wsServer: Server | undefined
  let httpHandler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  let shares = false
  try {
    if (httpAddress !== undefined) {
      httpServer = make()
      const lock = !hasSecret && !isLoopback(httpAddress.host)
      httpHandler = createHttpHandler(host, transport(httpOptions, lock), httpOptions)
      if (options.explorer !== undefined && options.explorer !== false) httpHandler = withExplorer(httpHandler, options.explorer === true ? {} : options.explorer, () => (wsServer === undefined || wsServer === httpServer ? undefined : urlOf('ws', wsServer)))
      httpServer.on('request', httpHandler)
      await bind(httpServer, httpAddress.host, httpAddress.port)
    }
    if (wsAddress !== undefined) {
      const same =
        httpServer !== undefined &&
        httpAddress !== undefined &&
        (shared || (wsAddress.port !== 0 && wsAddress.host === httpAddress.host && wsAddress.port === httpAddress.port))
      wsServer = same ? httpServer : make()
      shares = same
      const lock = !hasSecret && !isLoopback(wsAddress.host)
      const wsOptions = { ...httpOptions, ...(options.wsApi === undefined ? {} : { api: options.wsApi }), ...(options.wsPath === undefined ? {} : { path: options.wsPath }) }
      endpoints.push(attachWebSocket(host, wsServer as Server, transport(wsOptions, lock), wsOptions))
      if (!same) {
        ;(wsServer as Server).on('request', upgradeRequired)
        await bind(wsServer as Server, wsAddress.host, wsAddress.port)
      }
    }
  } catch (error) {
    await Promise.all(servers.filter((s) => s.listening).map(shut))
    throw error
  }
  let closing: Promise<void> | undefined
  const running = { http: httpServer !== undefined, ws: wsServer !== undefined }
  const part = (server: Server, which: 'http' | 'ws', stop: () => Promise<void>): ServerPart => {
    const a = server.address() as AddressInfo
    const endpoint = a.family === 'IPv6' ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`
    return {
      endpoint,
      host: a.address,
      port: a.port,
      get running() {
        return running[which]
      },
      stop: async () => {
        if (!running[which]) return
        running[which] = false
        await stop()
      },
    }
  }
  const parts: { http?: ServerPart; ws?: ServerPart } = {}
  if (httpServer !== undefined) {
    const server = httpServer
    parts.http = part(server, 'http', async () => {
      // A server that also carries the WebSocket keeps running for it, answering plain requests 426.
      if (shares && running.ws) {
        server.off('request', httpHandler as never)
        server.on('request', upgradeRequired)
      } else await shut(server)
    })
  }
  if (wsServer !== undefined) {
    const server = wsServer
    parts.ws = part(server, 'ws', async () => {
      await Promise.all(endpoints.map((e) => e.close()))
      if (!shares || !running.http) await shut(server)
    })
  }
  return {
    options,
    parts,
    http: httpServer === undefined ? undefined : urlOf('http', httpServer),
    ws: wsServer === undefined ? undefined : urlOf('ws', wsServer),
    close: () =>
      (closing ??= (async () => {
        await Promise.all(endpoints.map((e) => e.close()))
        await Promise.all(servers.map(shut))
      })()),
  }
}
