/**
 * The HTTP transport: a `(req, res, next?)` handler for `http.createServer`, Express
 * (`app.use('/rpc', node.http())`, with or without `express.json()`) and any node:http-style
 * framework. Status codes follow RELIABILITY.md: 200 for an empty GET (health checks), 405, 413 (the body is not read past the limit),
 * 415, 403 for a Host not allowed, 401 for a bad token, 204 when every call was a notification.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { RpcError, toErrorObject } from '../errors.js'
import { toRpcError, toWireError } from '../rpc/error-map.js'
import { verifyBearer } from './auth.js'
import type { RpcHost, TransportScope } from './host.js'
import { decodeUtf8, methodNames } from './json.js'
import { hostAllowed, originAllowed } from './origins.js'

/** Options shared by the HTTP and WebSocket transports. */
export interface TransportOptions {
  /** Namespaces open on this transport. Default `eth, web3, net, rpc` (the spec's default set). */
  api?: string[]
  /**
   * Allowed `Host` names (port ignored, `*` = any); others get 403 `invalid host specified`. An IP
   * address always passes (geth's rule: DNS rebinding needs a name). Default: any for `http()` and
   * `ws()` mounts; `localhost` for `listen()`.
   */
  hosts?: string[]
  /** JWT secret (32+ bytes, hex or bytes): private methods need `Authorization: Bearer <JWT>`. */
  jwtSecret?: string | Uint8Array
  /** Lock private methods without a secret (listen() sets it when bound beyond loopback). @internal */
  lockPrivate?: boolean
  /** Called after each request with the method names and the time taken (the CLI's log). */
  onRequest?: (info: { methods: string[]; ms: number }) => void
}

/** Options of {@link createHttpHandler}. */
export interface HttpOptions extends TransportOptions {
  /**
   * Origins allowed by CORS: `*`, or `scheme://host[:port]` (no port = any port). Default: CORS
   * off for an `http()` mount; pages on `http://localhost`, `127.0.0.1` and `[::1]` for `listen()`.
   */
  cors?: string[]
}

/** A node:http / Express handler. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

const JSON_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest'])

/** The transport-level settings, resolved once per handler. */
export interface ResolvedTransport {
  readonly namespaces: ReadonlySet<string>
  readonly secret: Uint8Array | undefined
  readonly hosts: ReadonlySet<string> | undefined
  readonly lockPrivate: boolean
}

export { hostAllowed } from './origins.js'

/** The scope of one request: 'unauthorized' for a present but bad token. */
export function scopeOf(t: ResolvedTransport, authorization: string | undefined, now: number): TransportScope | 'unauthorized' {
  if (t.secret === undefined) return { namespaces: t.namespaces, locked: t.lockPrivate }
  if (authorization === undefined) return { namespaces: t.namespaces, locked: true }
  if (!verifyBearer(authorization, t.secret, now)) return 'unauthorized'
  return { namespaces: t.namespaces, locked: false }
}

function methodsOf(payload: unknown): string[] {
  const items = Array.isArray(payload) ? payload : [payload]
  return items.map((i) => (typeof i === 'object' && i !== null && typeof (i as { method?: unknown }).method === 'string' ? (i as { method: string }).method : '?'))
}

function send(res: ServerResponse, status: number, body?: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return
  const h: Record<string, string | number> = { ...headers }
  if (body !== undefined) {
    h['content-type'] = 'application/json'
    h['content-length'] = Buffer.byteLength(body)
  }
  res.writeHead(status, h)
  res.end(body)
}

function plain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(message), ...headers })
  res.end(message)
}

/** Reads the body up to `limit` bytes; undefined when it is larger (reading stops there). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    // Someone else consumed the stream (a body parser that left no body): nothing to read.
    if (req.readableEnded) return resolve(Buffer.alloc(0))
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.off('data', onData)
        req.pause()
        resolve(undefined)
        return
      }
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => resolve(Buffer.concat(chunks, size)))
    req.once('error', reject)
  })
}

/** Creates the HTTP handler of a node. */
export function createHttpHandler(host: RpcHost, t: ResolvedTransport, options: HttpOptions = {}): HttpHandler {
  const cors = options.cors
  const limits = host.limits
  const clock = () => Date.now()

  const corsHeaders = (req: IncomingMessage): Record<string, string> => {
    const origin = req.headers.origin
    if (cors === undefined || origin === undefined) return {}
    if (!originAllowed(cors, origin)) return {}
    return { 'access-control-allow-origin': cors.includes('*') ? '*' : origin, vary: 'Origin' }
  }

  const tooLarge = (res: ServerResponse) => {
    plain(res, 413, 'content length too large\n', { connection: 'close' })
  }

  return (req, res, next) => {
    const run = async () => {
      const extra = corsHeaders(req)
      if (!hostAllowed(t.hosts, req.headers.host)) return plain(res, 403, 'invalid host specified\n')
      if (req.method === 'OPTIONS' && cors !== undefined) {
        return send(res, 204, undefined, {
          ...extra,
          'access-control-allow-methods': 'POST, OPTIONS',
          'access-control-allow-headers': 'content-type, authorization',
          'access-control-max-age': '600',
        })
      }
      // geth: an empty GET answers 200, so load-balancer health checks pass.
      if (req.method === 'GET' && Number(req.headers['content-length'] ?? 0) === 0 && req.headers['transfer-encoding'] === undefined && !(req.url ?? '').includes('?')) {
        return send(res, 200, undefined, { ...extra, 'content-length': '0' })
      }
      if (req.method !== 'POST') return plain(res, 405, 'method not allowed\n', { allow: cors === undefined ? 'POST' : 'POST, OPTIONS' })
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
      if (!JSON_TYPES.has(type)) return plain(res, 415, 'invalid content type, only application/json is supported\n', extra)
      const length = Number(req.headers['content-length'] ?? 0)
      if (length > limits.httpBodyBytes) return tooLarge(res)
      const scope = scopeOf(t, req.headers.authorization, clock())
      if (scope === 'unauthorized') return plain(res, 401, 'invalid or expired token\n', extra)

      const started = performance.now()
      const pre = req as IncomingMessage & { _body?: boolean; body?: unknown }
      let answer
      let logged: string[]
      const parsedBefore = pre.body !== undefined && (pre._body === true || req.readableEnded)
      if (parsedBefore && typeof pre.body !== 'string' && !Buffer.isBuffer(pre.body)) {
        logged = methodsOf(pre.body)
        answer = await host.handleParsed(pre.body, scope)
      } else {
        let bytes: Buffer | undefined
        if (typeof pre.body === 'string') bytes = Buffer.from(pre.body)
        else if (Buffer.isBuffer(pre.body)) bytes = pre.body
        else bytes = await readBody(req, limits.httpBodyBytes)
        if (bytes === undefined || bytes.length > limits.httpBodyBytes) return tooLarge(res)
        let text: string
        try {
          text = decodeUtf8(bytes)
        } catch (error) {
          return send(res, 200, JSON.stringify({ jsonrpc: '2.0', id: null, error: toWireError(error) }), extra)
        }
        answer = await host.handleText(text, scope)
        logged = options.onRequest === undefined ? [] : methodNames(text)
      }
      options.onRequest?.({ methods: logged, ms: performance.now() - started })
      if (answer.text === undefined) return send(res, 204, undefined, extra)
      send(res, 200, answer.text, extra)
    }
    run().catch((error: unknown) => {
      if (next !== undefined && !res.headersSent) return next(error)
      const wire = toRpcError(error)
      send(res, 500, JSON.stringify({ jsonrpc: '2.0', id: null, error: toErrorObject(wire instanceof RpcError ? wire : new RpcError(-32603, 'internal error')) }))
    })
  }
}
