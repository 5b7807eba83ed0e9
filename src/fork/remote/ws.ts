/**
 * The WebSocket transport: one socket, opened on the first send and again on the next send after
 * it closed. Answers are matched by id; a socket that drops fails the calls waiting on it (the
 * client retries them on a new socket). The `ws` package is loaded on first use, as the server
 * side does.
 */
import { createRequire } from 'node:module'
import type { WebSocket } from 'ws'
import { answersOf } from './http.js'
import { abortFailure, Failure, type Answer, type Call, type Transport } from './transport.js'

let wsClass: typeof WebSocket | undefined
function webSocket(): typeof WebSocket {
  wsClass ??= (createRequire(import.meta.url)('ws') as typeof import('ws')).WebSocket
  return wsClass
}

interface Waiting {
  ids: number[]
  batch: boolean
  done(outcomes: Array<Answer | Failure>): void
}

/** A WebSocket transport to `url`, with `headers` on the handshake. */
export function wsTransport(url: string, headers: Record<string, string>, handshakeTimeoutMs: number): Transport {
  let socket: WebSocket | undefined
  // The socket being opened or open, to cut off on close().
  let current: WebSocket | undefined
  let opening: Promise<WebSocket | Failure> | undefined
  let nextId = 1
  let closed = false
  // Keyed by the first id of each send.
  const waiting = new Map<number, Waiting>()
  const byId = new Map<number, number>()

  const finish = (first: number, outcomes: Array<Answer | Failure>) => {
    const w = waiting.get(first)
    if (w === undefined) return
    waiting.delete(first)
    for (const id of w.ids) byId.delete(id)
    w.done(outcomes)
  }

  const failAll = (failure: Failure) => {
    for (const [first, w] of [...waiting]) finish(first, w.ids.map(() => failure))
  }

  const onMessage = (data: unknown) => {
    let body: unknown
    try {
      body = JSON.parse(String(data))
    } catch {
      return
    }
    const items = Array.isArray(body) ? body : [body]
    const first = byId.get((items[0] as { id?: unknown } | undefined)?.id as number)
    if (first === undefined) {
      // An error for a batch as a whole (id null): the remote takes no batches.
      const e = body as { id?: unknown; error?: unknown }
      if (!Array.isArray(body) && e?.id === null && e.error !== undefined) {
        for (const [f, w] of [...waiting]) if (w.batch) finish(f, answersOf(body, w.ids, true)!)
      }
      return
    }
    const w = waiting.get(first)!
    finish(first, answersOf(body, w.ids, w.batch) ?? w.ids.map(() => new Failure('not a JSON-RPC answer', false)))
  }

  const open = (): Promise<WebSocket | Failure> => {
    if (socket !== undefined && socket.readyState === 1) return Promise.resolve(socket)
    opening ??= new Promise<WebSocket | Failure>((resolve) => {
      const ws = new (webSocket())(url, { headers, handshakeTimeout: handshakeTimeoutMs })
      current = ws
      let settled = false
      const settle = (v: WebSocket | Failure) => {
        if (settled) return
        settled = true
        opening = undefined
        resolve(v)
      }
      ws.once('open', () => {
        socket = ws
        settle(ws)
      })
      ws.once('unexpected-response', (_req, res) => {
        const status = res.statusCode ?? 0
        res.resume()
        ws.terminate()
        settle(new Failure(`WebSocket handshake answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`, status === 429 || status >= 500))
      })
      ws.on('error', (error: Error) => settle(new Failure(`WebSocket error: ${error.message}`, true)))
      ws.on('message', onMessage)
      ws.once('close', (code: number) => {
        if (socket === ws) socket = undefined
        settle(new Failure(`WebSocket closed (${code})`, true))
        failAll(new Failure(`WebSocket closed (${code}) before the answer`, true))
      })
    })
    return opening
  }

  return {
    batches: true,
    async send(calls: readonly Call[], signal: AbortSignal): Promise<Array<Answer | Failure>> {
      if (closed) return calls.map(() => new Failure('the client is closed', false))
      const ws = await untilAborted(open(), signal)
      if (ws instanceof Failure) return calls.map(() => ws)
      const ids = calls.map(() => nextId++)
      const batch = calls.length > 1
      const envelopes = calls.map((c, i) => ({ jsonrpc: '2.0', id: ids[i], method: c.method, params: c.params }))
      const first = ids[0]!
      return new Promise((resolve) => {
        const onAbort = () => finish(first, ids.map(() => abortFailure(signal)))
        signal.addEventListener('abort', onAbort, { once: true })
        waiting.set(first, {
          ids,
          batch,
          done: (outcomes) => {
            signal.removeEventListener('abort', onAbort)
            resolve(outcomes)
          },
        })
        for (const id of ids) byId.set(id, first)
        ws.send(JSON.stringify(batch ? envelopes : envelopes[0]), (error) => {
          if (error !== undefined && error !== null) finish(first, ids.map(() => new Failure(`WebSocket send failed: ${error.message}`, true)))
        })
      })
    },
    async close() {
      closed = true
      failAll(new Failure('the client is closed', false))
      const ws = current
      socket = undefined
      current = undefined
      if (ws === undefined) return
      if (ws.readyState !== 1) return ws.terminate()
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve())
        ws.close()
        // A remote that does not answer the close frame is cut off.
        setTimeout(() => ws.terminate(), 1_000).unref()
      })
    },
  }
}

/** `promise`, or the abort's failure when `signal` fires first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | Failure> {
  if (signal.aborted) return Promise.resolve(abortFailure(signal))
  return new Promise((resolve) => {
    const onAbort = () => resolve(abortFailure(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    void promise.then((v) => {
      signal.removeEventListener('abort', onAbort)
      resolve(v)
    })
  })
}
