/**
 * The HTTP(S) transport: one POST per send with the global `fetch` (its connection pool keeps
 * sockets alive between requests). Status codes decide what is retried: 429, 502, 503 and 504
 * always, other 5xx without a JSON-RPC answer in the body; other statuses without one are not.
 */
import { parseRetryAfter } from './classify.js'
import { abortFailure, Failure, type Answer, type Call, type Transport } from './transport.js'

/** Reads the answers of a JSON-RPC response body for the calls sent with `ids`, or undefined when the body is not one. */
export function answersOf(body: unknown, ids: readonly number[], batch: boolean): Array<Answer | Failure> | undefined {
  if (batch) {
    if (!Array.isArray(body)) {
      // A single object for a batch: the remote does not take batches (or refused this one as a whole).
      const reason = isEnvelope(body) && body.error !== undefined ? `batch refused: ${String(body.error.message)}` : 'batch answered with a non-array'
      return isEnvelope(body) ? ids.map(() => new Failure(reason, true, undefined, true)) : undefined
    }
    // geth and this node answer a batch past their limit with one error about the batch (`batch too large`).
    const refusal = body.find((item) => isEnvelope(item) && item.error?.code === -32600 && /batch/i.test(String(item.error.message))) as Envelope | undefined
    if (refusal !== undefined) return ids.map(() => new Failure(`batch refused: ${String(refusal.error!.message)}`, true, undefined, true))
    const byId = new Map<unknown, Envelope>()
    for (const item of body) if (isEnvelope(item)) byId.set(item.id, item)
    return ids.map((id) => {
      const item = byId.get(id)
      return item === undefined ? new Failure(`no answer for request id ${id} in the batch`, true) : answerOf(item)
    })
  }
  if (!isEnvelope(body)) return undefined
  return [answerOf(body)]
}

interface Envelope {
  id?: unknown
  result?: unknown
  error?: { code?: unknown; message?: unknown; data?: unknown }
}

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && ('result' in v || 'error' in v)
}

function answerOf(item: Envelope): Answer | Failure {
  if (item.error !== undefined && item.error !== null) {
    const { code, message, data } = item.error
    if (typeof code !== 'number' || typeof message !== 'string') return new Failure('malformed JSON-RPC error object', false)
    return { ok: false, error: data === undefined ? { code, message } : { code, message, data } }
  }
  return { ok: true, result: item.result }
}

/** An HTTP(S) transport to `url` sending `headers` (credentials in the URL become Basic authorization). */
export function httpTransport(url: string, headers: Record<string, string>): Transport {
  const target = new URL(url)
  const sent: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...headers }
  if (target.username !== '' || target.password !== '') {
    const user = decodeURIComponent(target.username)
    const pass = decodeURIComponent(target.password)
    if (!Object.keys(sent).some((h) => h.toLowerCase() === 'authorization')) sent.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`
    target.username = ''
    target.password = ''
  }
  const endpoint = target.toString()
  let nextId = 1
  let closed = false

  return {
    batches: true,
    async send(calls: readonly Call[], signal: AbortSignal): Promise<Array<Answer | Failure>> {
      const fail = (f: Failure) => calls.map(() => f)
      if (closed) return fail(new Failure('the client is closed', false))
      const ids = calls.map(() => nextId++)
      const envelopes = calls.map((c, i) => ({ jsonrpc: '2.0', id: ids[i], method: c.method, params: c.params }))
      const batch = calls.length > 1
      let status: number
      let statusText: string
      let retryAfter: string | null
      let text: string
      try {
        const res = await fetch(endpoint, { method: 'POST', headers: sent, body: JSON.stringify(batch ? envelopes : envelopes[0]), signal })
        status = res.status
        statusText = res.statusText
        retryAfter = res.headers.get('retry-after')
        text = await res.text()
      } catch (error) {
        if (signal.aborted) return fail(abortFailure(signal))
        return fail(new Failure(networkReason(error), true))
      }
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      }
      const httpReason = `HTTP ${status}${statusText === '' ? '' : ` ${statusText}`}`
      // 429 and the gateway statuses say nothing about the request, whatever the body holds.
      if (status === 429 || status === 502 || status === 503 || status === 504) return fail(new Failure(httpReason, true, parseRetryAfter(retryAfter, Date.now())))
      const answers = answersOf(body, ids, batch)
      if (answers !== undefined) return answers
      if (status >= 500) return fail(new Failure(httpReason, true, parseRetryAfter(retryAfter, Date.now())))
      // A batch refused at the HTTP level (400, 413…) may go through one by one.
      if (batch && status >= 400) return fail(new Failure(`batch refused: ${httpReason}`, true, undefined, true))
      return fail(new Failure(status >= 200 && status < 300 ? `not a JSON-RPC answer (${httpReason})` : httpReason, false))
    },
    async close() {
      closed = true
    },
  }
}

/** The cause of a fetch that failed before an answer: `connect ECONNREFUSED 127.0.0.1:8545`, `socket hang up`… */
export function networkReason(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause
  const inner = cause instanceof Error ? cause.message : undefined
  const outer = error instanceof Error ? error.message : String(error)
  return inner === undefined || inner === '' ? outer : `${outer}: ${inner}`
}
