/**
 * The remote client: a queue of requests sent through one transport. Requests made in the same
 * turn of the event loop leave together as one JSON-RPC batch (up to `batchSize`), after the
 * requests-per-second bucket lets them; each send has a time-out; failures worth retrying are
 * sent again after an exponential back-off with jitter (or the remote's `Retry-After`); the
 * remote's own error answers pass through. A remote that refuses batches is sent single requests
 * from then on.
 */
import { ForkRemoteError } from '../../domain-errors.js'
import { backoffOf, isRateLimited } from './classify.js'
import type { RemoteOptions } from './options.js'
import { REMOTE_DEFAULTS } from './options.js'
import { tokenBucket } from './rate.js'
import { Failure, type Answer, type Call, type Transport } from './transport.js'

/** Counts since the client was created. */
export interface RemoteStats {
  /** JSON-RPC requests asked of the client. */
  requests: number
  /** Round trips on the wire: HTTP POSTs, WebSocket messages, provider calls (a batch is one). */
  httpRequests: number
  /** Round trips that carried more than one request. */
  batches: number
  /** Requests sent again after a retryable failure. */
  retries: number
  /** Requests that ended rejected (an error answer or a failure). */
  errors: number
}

/** The longest `Retry-After` / `backoff_seconds` waited for; a remote asking for more fails the request at once. */
export const MAX_RETRY_AFTER_MS = 60_000

interface Job {
  call: Call
  resolve(value: unknown): void
  reject(error: ForkRemoteError): void
  /** Sends so far. */
  attempts: number
}

/** A client over `transport`; `remote` names it in messages. */
export function createClient(transport: Transport, remote: string, options: RemoteOptions) {
  const timeoutMs = options.timeoutMs ?? REMOTE_DEFAULTS.timeoutMs
  const retries = options.retries ?? REMOTE_DEFAULTS.retries
  const retryBaseMs = options.retryBaseMs ?? REMOTE_DEFAULTS.retryBaseMs
  let batchSize = transport.batches ? (options.batchSize ?? REMOTE_DEFAULTS.batchSize) : 1
  const bucket = tokenBucket(options.requestsPerSecond ?? REMOTE_DEFAULTS.requestsPerSecond, Date.now())
  const stats: RemoteStats = { requests: 0, httpRequests: 0, batches: 0, retries: 0, errors: 0 }

  const queue: Job[] = []
  const waiting = new Map<ReturnType<typeof setTimeout>, Job | undefined>()
  const inFlight = new Set<AbortController>()
  let immediate: ReturnType<typeof setImmediate> | undefined
  let closed = false

  const failed = (method: string, reason: string, kind: 'failed' | 'badRequest' | 'badParams' = 'failed') =>
    new ForkRemoteError({ remote, method, kind, message: `fork remote ${remote}: ${method} failed: ${reason}` })
  const closedError = (method: string) =>
    new ForkRemoteError({ remote, method, kind: 'closed', message: `fork remote ${remote}: the client is closed (${method} not answered)` })

  const reject = (job: Job, error: ForkRemoteError) => {
    stats.errors++
    job.reject(error)
  }

  // Set while the queue waits for the rate cap's next token: that timer flushes it.
  let tokenWait: ReturnType<typeof setTimeout> | undefined

  const schedule = () => {
    if (immediate === undefined && tokenWait === undefined && !closed && queue.length > 0) immediate = setImmediate(flush)
  }

  function flush(): void {
    immediate = undefined
    while (queue.length > 0 && !closed) {
      const now = Date.now()
      const tokens = bucket.available(now)
      if (tokens < 1) {
        const timer = setTimeout(() => {
          waiting.delete(timer)
          tokenWait = undefined
          flush()
        }, bucket.msUntilNext(now))
        tokenWait = timer
        waiting.set(timer, undefined)
        return
      }
      const chunk = queue.splice(0, Math.min(batchSize, tokens))
      bucket.take(chunk.length, now)
      void dispatch(chunk)
    }
  }

  async function dispatch(chunk: Job[]): Promise<void> {
    stats.httpRequests++
    if (chunk.length > 1) stats.batches++
    for (const job of chunk) {
      if (job.attempts > 0) stats.retries++
      job.attempts++
    }
    const controller = new AbortController()
    inFlight.add(controller)
    const timer = setTimeout(() => controller.abort(new Failure(`timed out after ${timeoutMs} ms`, true)), timeoutMs)
    let outcomes: Array<Answer | Failure>
    try {
      outcomes = await transport.send(
        chunk.map((j) => j.call),
        controller.signal,
      )
    } catch (error) {
      outcomes = chunk.map(() => new Failure(error instanceof Error ? error.message : String(error), false))
    } finally {
      clearTimeout(timer)
      inFlight.delete(controller)
    }
    chunk.forEach((job, i) => settle(job, outcomes[i] ?? new Failure('no outcome', false), chunk.length))
  }

  function settle(job: Job, outcome: Answer | Failure, sentWith: number): void {
    const method = job.call.method
    if (closed) return reject(job, closedError(method))
    if (outcome instanceof Failure) {
      if (outcome.batchRefused && sentWith > 1) {
        // A batch over the remote's size limit is halved; a remote that takes no batches gets single requests from now on.
        const smaller = /too large|too many|limit/i.test(outcome.reason) ? Math.max(1, Math.floor(sentWith / 2)) : 1
        batchSize = Math.min(batchSize, smaller)
        job.attempts--
        queue.push(job)
        return schedule()
      }
      return outcome.retryable ? retry(job, outcome.reason, outcome.retryAfterMs) : reject(job, failed(method, outcome.reason))
    }
    if (outcome.ok) return job.resolve(outcome.result)
    const { code, message, data } = outcome.error
    if (isRateLimited(outcome.error)) return retry(job, `rate limited (${code} ${message})`, backoffOf(outcome.error), outcome.error)
    reject(job, new ForkRemoteError({ remote, method, kind: 'answered', remoteCode: code, message, data }))
  }

  function retry(job: Job, reason: string, retryAfterMs: number | undefined, answer?: { code: number; message: string; data?: unknown }): void {
    const method = job.call.method
    const giveUp = (why: string) =>
      answer === undefined
        ? reject(job, failed(method, why))
        : reject(job, new ForkRemoteError({ remote, method, kind: 'answered', remoteCode: answer.code, message: `fork remote ${remote}: ${method} failed: ${why}`, data: answer.data }))
    if (job.attempts > retries) return giveUp(`${reason}, after ${job.attempts} attempt${job.attempts === 1 ? '' : 's'}`)
    if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
      return giveUp(`${reason}; the remote asks to wait ${Math.ceil(retryAfterMs / 1000)} s, more than ${MAX_RETRY_AFTER_MS / 1000} s`)
    }
    const exp = retryBaseMs * 2 ** (job.attempts - 1)
    const backoff = exp / 2 + Math.random() * (exp / 2)
    const timer = setTimeout(() => {
      waiting.delete(timer)
      queue.push(job)
      schedule()
    }, Math.max(backoff, retryAfterMs ?? 0))
    waiting.set(timer, job)
  }

  return {
    request(args: { method: string; params?: unknown[] }): Promise<unknown> {
      stats.requests++
      const method = typeof args === 'object' && args !== null ? args.method : undefined
      if (typeof method !== 'string' || method === '') {
        stats.errors++
        return Promise.reject(failed(String(method), 'the method must be a non-empty string', 'badRequest'))
      }
      const params = args.params ?? []
      if (!Array.isArray(params)) {
        stats.errors++
        return Promise.reject(failed(method, 'params must be an array', 'badParams'))
      }
      if (closed) {
        stats.errors++
        return Promise.reject(closedError(method))
      }
      return new Promise((resolve, rejectJob) => {
        queue.push({ call: { method, params }, resolve, reject: rejectJob, attempts: 0 })
        schedule()
      })
    },
    stats(): RemoteStats {
      return { ...stats }
    },
    async close(): Promise<void> {
      if (closed) return
      closed = true
      if (immediate !== undefined) clearImmediate(immediate)
      immediate = undefined
      for (const [timer, job] of waiting) {
        clearTimeout(timer)
        if (job !== undefined) reject(job, closedError(job.call.method))
      }
      waiting.clear()
      for (const job of queue.splice(0)) reject(job, closedError(job.call.method))
      for (const controller of inFlight) controller.abort(new Failure('the client is closed', false))
      await transport.close()
    },
  }
}
