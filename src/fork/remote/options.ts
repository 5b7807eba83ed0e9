/**
 * The settings of a fork's remote, their defaults and their check. The rules are in the style of
 * `createNode`'s (src/options-check.ts): `remoteRule(extra)` checks a remote's fields, plus the
 * caller's own (`blockNumber`…), as one nested option object.
 */
import { describe, integer, InvalidOptionError, object, type Fail, type Rule } from '../../option-rules.js'

/** An EIP-1193 provider: the one method a remote needs. */
export interface RemoteProvider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>
}

/** Where and how a fork reaches its remote. Give `url` or `provider`, not both. */
export interface RemoteOptions {
  /** `http(s)://` or `ws(s)://` JSON-RPC endpoint. Credentials in it (`https://user:pass@host`) become a Basic `Authorization` header. */
  url?: string
  /** Any EIP-1193 provider (another in-process node, a viem transport's `request`): no socket, no batching. */
  provider?: RemoteProvider
  /** Sent with every HTTP request and with the WebSocket handshake. */
  headers?: Record<string, string>
  /** Milliseconds one send (a request or a batch) may take before it fails as timed out. Default 20 000. */
  timeoutMs?: number
  /** Times a request is sent again after a retryable failure (429, 5xx, rate-limit answer, network error, time-out). Default 5. */
  retries?: number
  /** Base of the exponential back-off in milliseconds (doubled per attempt, with jitter; `Retry-After` wins when longer). Default 250. */
  retryBaseMs?: number
  /** Cap on JSON-RPC requests per second (each item of a batch counts); 0 = no cap. Default 0. */
  requestsPerSecond?: number
  /** Most requests in one JSON-RPC batch; 1 = no batching. Default 50, at most 1000 (geth's batch limit). */
  batchSize?: number
}

/** The defaults of {@link RemoteOptions}. */
export const REMOTE_DEFAULTS = Object.freeze({
  timeoutMs: 20_000,
  retries: 5,
  retryBaseMs: 250,
  requestsPerSecond: 0,
  batchSize: 50,
})

/** The largest `batchSize` accepted: geth's and this node's default batch limit. */
export const MAX_BATCH_SIZE = 1000
/** The most retries accepted (with the default back-off, 2^20 × 250 ms is days). */
export const MAX_RETRIES = 20
/** Longest `timeoutMs` accepted: 10 minutes. */
export const MAX_TIMEOUT_MS = 600_000

const URL_PROTOCOLS = ['http:', 'https:', 'ws:', 'wss:']

const url: Rule = (v, fail) => {
  if (typeof v !== 'string' || v === '') return fail(`must be an http(s):// or ws(s):// URL, got ${describe(v)}`)
  let parsed: URL
  try {
    parsed = new URL(v)
  } catch {
    return fail(`is not a valid URL: ${JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v)}`)
  }
  if (!URL_PROTOCOLS.includes(parsed.protocol)) fail(`must use http, https, ws or wss, got ${parsed.protocol.slice(0, -1)}`)
}

const provider: Rule = (v, fail) => {
  if (typeof v !== 'object' || v === null || typeof (v as { request?: unknown }).request !== 'function') {
    fail(`must be an EIP-1193 provider { request({ method, params }) }, got ${describe(v)}`)
  }
}

// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const headers: Rule = (v, fail, path) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(`must be an object { [name]: value } of strings, got ${describe(v)}`)
  for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
    const at = `${path}.${name}`
    if (!HEADER_NAME.test(name)) fail('is not a valid HTTP header name', at)
    if (typeof value !== 'string') fail(`must be a string, got ${describe(value)}`, at)
    if (/[\r\n\0]/.test(value as string)) fail('must not contain CR, LF or NUL', at)
  }
}

function integerIn(min: number, max: number): Rule {
  const base = integer(min)
  return (v, fail, path) => {
    base(v, fail, path)
    if ((v as number) > max) fail(`must be at most ${max}, got ${v as number}`)
  }
}

const requestsPerSecond: Rule = (v, fail) => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) fail(`must be a number of requests per second, 0 or more (0 = no cap), got ${describe(v)}`)
}

/** One rule per field of {@link RemoteOptions}. */
export const REMOTE_OPTION_RULES = {
  url,
  provider,
  headers,
  timeoutMs: integerIn(1, MAX_TIMEOUT_MS),
  retries: integerIn(0, MAX_RETRIES),
  retryBaseMs: integerIn(0, 60_000),
  requestsPerSecond,
  batchSize: integerIn(1, MAX_BATCH_SIZE),
} as const satisfies Record<keyof RemoteOptions, Rule>

/**
 * A rule for an option object holding a remote's fields and the caller's `extra` fields (a
 * fork's `blockNumber`…): unknown keys are refused, and exactly one of `url` and `provider` is
 * required.
 */
export function remoteRule(extra: Readonly<Record<string, Rule>> = {}): Rule {
  const fields = object({ ...REMOTE_OPTION_RULES, ...extra }, '{ url | provider, headers?, timeoutMs?, retries?, … }')
  return (v, fail, path) => {
    fields(v, fail, path)
    const o = v as { url?: unknown; provider?: unknown; headers?: unknown }
    const at = (name: string) => (path === '' ? name : `${path}.${name}`)
    if (o.url === undefined && o.provider === undefined) fail('needs url (http(s):// or ws(s)://) or provider (EIP-1193)', at('url'))
    if (o.url !== undefined && o.provider !== undefined) fail('cannot be given with provider: give one of them', at('url'))
    if (o.provider !== undefined && o.headers !== undefined) fail('only apply to url: a provider sends its own', at('headers'))
  }
}

/** Throws an `InvalidOptionError` (`<where>: option <name> <reason>`) naming the first bad field of `options`. */
export function checkRemoteOptions(where: string, options: unknown): asserts options is RemoteOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${where}: options must be an object { url | provider, … }, got ${describe(options)}`)
  }
  const fail: Fail = (reason, path) => {
    throw new InvalidOptionError(where, path ?? '', reason)
  }
  remoteRule()(options, fail, '')
}
