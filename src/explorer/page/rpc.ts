/**
 * The page's only way to the node: JSON-RPC over HTTP (fetch) and subscriptions over one
 * WebSocket, reconnected when it drops. Where both are comes from the settings the server wrote
 * into the page (src/explorer/serve.ts), resolved against the page's own address.
 */

/** A JSON-RPC error answer, kept with its code (-32601 for a namespace that is off). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

interface Settings {
  rpc?: string
  ws?: string
}

function settings(): Settings {
  const el = document.getElementById('finality-settings')
  return el === null ? {} : (JSON.parse(el.textContent ?? '{}') as Settings)
}

const given = settings()
/** The JSON-RPC endpoint: the settings' path or URL, else the page's own address. */
export const rpcUrl = new URL(given.rpc ?? location.pathname, location.href).href
/** The WebSocket endpoint: `ws://…` as given, or a path on the page's host. */
export const wsUrl = (() => {
  const ws = given.ws ?? given.rpc ?? location.pathname
  if (/^wss?:\/\//.test(ws)) return ws
  const url = new URL(ws, location.href)
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  return url.href
})()

let nextId = 1

/** Calls `method` over HTTP; rejects with an RpcError for an error answer. */
export async function call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }) })
  if (!res.ok && res.headers.get('content-type')?.includes('json') !== true) throw new RpcError(-32000, `HTTP ${res.status}: ${(await res.text()).trim()}`)
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string; data?: unknown } }
  if (body.error !== undefined) throw new RpcError(body.error.code, body.error.message, body.error.data)
  return body.result as T
}

type Handler = (result: unknown) => void
interface Wanted {
  method: string
  params: unknown[]
  handler: Handler
  id?: string
}

/** The subscriptions, kept across reconnects; `status` tells whether the socket is up. */
export class Feed {
  private socket: WebSocket | undefined
  private readonly wanted: Wanted[] = []
  private readonly pending = new Map<number, (answer: { result?: unknown; error?: { code: number; message: string } }) => void>()
  private readonly byId = new Map<string, Handler>()
  status: 'connecting' | 'open' | 'closed' = 'connecting'
  onStatus: (status: Feed['status'], error?: string) => void = () => {}

  constructor(private readonly url: string) {
    this.open()
  }

  /** Subscribes (`eth_subscribe`, `finality_subscribe`); again after each reconnect. Errors (a namespace off) go to `onError`. */
  subscribe(method: string, params: unknown[], handler: Handler, onError: (e: RpcError) => void = () => {}): void {
    const w: Wanted = { method, params, handler }
    this.wanted.push(w)
    if (this.status === 'open') this.start(w, onError)
    else this.errors.set(w, onError)
  }

  private readonly errors = new Map<Wanted, (e: RpcError) => void>()

  private start(w: Wanted, onError: (e: RpcError) => void): void {
    const id = nextId++
    this.pending.set(id, (answer) => {
      if (answer.error !== undefined) return onError(new RpcError(answer.error.code, answer.error.message))
      w.id = answer.result as string
      this.byId.set(w.id, w.handler)
    })
    this.socket?.send(JSON.stringify({ jsonrpc: '2.0', id, method: w.method, params: w.params }))
  }

  private open(): void {
    const socket = new WebSocket(this.url)
    this.socket = socket
    socket.onopen = () => {
      this.status = 'open'
      this.onStatus('open')
      this.byId.clear()
      for (const w of this.wanted) this.start(w, this.errors.get(w) ?? (() => {}))
    }
    socket.onmessage = (m) => {
      const msg = JSON.parse(String(m.data)) as { id?: number; result?: unknown; error?: { code: number; message: string }; params?: { subscription: string; result: unknown } }
      if (msg.id !== undefined) {
        this.pending.get(msg.id)?.(msg)
        this.pending.delete(msg.id)
      } else if (msg.params !== undefined) this.byId.get(msg.params.subscription)?.(msg.params.result)
    }
    socket.onclose = () => {
      this.status = 'closed'
      this.onStatus('closed', `no WebSocket at ${this.url}: blocks are polled, consensus events need it; reconnecting`)
      setTimeout(() => this.open(), 1000)
    }
  }
}

/** What to tell a user when a call failed: a namespace that is off says which, and how to turn it on. */
export function explain(e: unknown): string {
  if (e instanceof RpcError) {
    const off = /the (\w+) namespace is off/.exec(e.message)
    if (off !== null) return `the ${off[1]} namespace is off on this server (CLI: add it to --json-rpc.api)`
    return e.message
  }
  return e instanceof Error ? e.message : String(e)
}
