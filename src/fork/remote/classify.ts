/**
 * Which answers mean "slow down": the shapes rate-limited providers use. Infura answers HTTP 429
 * with code -32005 `project ID request rate exceeded` and `data.backoff_seconds`; Alchemy answers
 * HTTP 429 and, over WebSocket, code 429 `Your app has exceeded its compute units per second
 * capacity`; others word it `rate limit`, `too many requests`, `over rate limit` (-32016).
 * -32005 is also EIP-1474's generic `limit exceeded`, which Infura uses for `query returned more
 * than 10000 results`: that is an answer (sending it again gives the same), not a rate limit.
 */
import type { AnswerError } from './transport.js'

const RATE_LIMIT_TEXT = /rate.?limit|too many requests|request rate|(?:capacity|throughput|quota|request count|compute units).*(?:exceeded|limit)|exceeded.*(?:capacity|throughput|quota|request count|compute units|rate)/i
const NOT_A_RATE = /result|range|size|too large|block/i

/** True when a JSON-RPC error answer asks the caller to slow down, so a retry after a wait may succeed. */
export function isRateLimited(error: AnswerError): boolean {
  if (error.code === 429) return true
  if (RATE_LIMIT_TEXT.test(error.message)) return true
  return error.code === -32005 && !NOT_A_RATE.test(error.message)
}

/** Infura's `data.backoff_seconds` in milliseconds, if the error carries it. */
export function backoffOf(error: AnswerError): number | undefined {
  const s = (error.data as { backoff_seconds?: unknown } | undefined)?.backoff_seconds
  return typeof s === 'number' && Number.isFinite(s) && s >= 0 ? s * 1000 : undefined
}

/** A `Retry-After` header (seconds, or an HTTP date) in milliseconds from `now`. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** The URL as it may appear in messages: no credentials, query or fragment, key-like path segments (Infura's, Alchemy's) masked. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    const path = u.pathname
      .split('/')
      .map((segment) => (/^[A-Za-z0-9_-]{16,}$/.test(segment) ? '***' : segment))
      .join('/')
    return `${u.protocol}//${u.host}${path === '/' ? '' : path}`
  } catch {
    return 'the remote'
  }
}
