/**
 * The `fork` option of createNode: which remote chain to fork, at which block, and how to talk to
 * the remote. The remote's own settings (time-outs, retries, rate cap, batching) are the remote
 * client's (src/fork/remote/).
 */
import { describe, integer, integerOrBigint, object, string, type Rule } from '../option-rules.js'

/** An EIP-1193 provider: anything with `request({ method, params })` (viem's, ethers', another node's). */
export interface EIP1193Like {
  request(args: { method: string; params?: unknown[] | readonly unknown[] }): Promise<unknown>
}

/** `createNode({ fork })`: fork a live chain, its state read on demand. */
export interface ForkOptions {
  /** An HTTP(S) or WebSocket JSON-RPC endpoint. One of `url` and `provider` is required. */
  url?: string
  /** An EIP-1193 provider to fork (another in-process node's `node.provider`, a viem transport). */
  provider?: EIP1193Like
  /**
   * The block to fork at: a number, or a negative number for that many blocks before the
   * remote's head. Default: the remote's latest block when the node starts (pinned).
   */
  blockNumber?: number | bigint
  /** The chain id of the fork; default the remote's (`eth_chainId`). */
  chainId?: number | bigint
  /** Headers sent with every HTTP request to `url` (an API key, …). */
  headers?: Record<string, string>
  /** A directory where fetched state is kept between runs (opt-in). */
  cacheDir?: string
  /** Milliseconds before one request to the remote gives up. */
  timeoutMs?: number
  /** How many times a failed request (429, 5xx, time-out) is tried again. */
  retries?: number
  /** The first back-off in milliseconds (doubled on each retry). */
  retryBaseMs?: number
  /** The most requests per second sent to the remote. */
  requestsPerSecond?: number
  /** The most requests in one JSON-RPC batch. */
  batchSize?: number
}

const headers: Rule = (v, fail, path) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('must be an object { [name]: value } of strings')
  for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) fail(`has a bad header name ${JSON.stringify(name)}`, `${path}.${name}`)
    if (typeof value !== 'string' || /[\r\n]/.test(value)) fail(`must be a string without line breaks, got ${describe(value)}`, `${path}.${name}`)
  }
}

const url: Rule = (v, fail) => {
  string(v, fail, '')
  let protocol = ''
  try {
    protocol = new URL(v as string).protocol
  } catch {
    fail(`is not a URL: ${JSON.stringify(v)}`)
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(protocol)) fail(`must be an http(s):// or ws(s):// URL, got ${JSON.stringify(v)}`)
}

const provider: Rule = (v, fail) => {
  if (typeof v !== 'object' || v === null || typeof (v as { request?: unknown }).request !== 'function') fail('must be an EIP-1193 provider (an object with request({ method, params }))')
}

const blockNumber: Rule = (v, fail) => {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return
  if (typeof v === 'bigint') return
  fail(`must be an integer block number (number or bigint; negative: that many before the remote's head), got ${describe(v)}`)
}

const positive: Rule = (v, fail) => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) fail(`must be a positive number, got ${describe(v)}`)
}

const fields = object({
  url,
  provider,
  blockNumber,
  chainId: integerOrBigint(1n),
  headers,
  cacheDir: string,
  timeoutMs: positive,
  retries: integer(0),
  retryBaseMs: positive,
  requestsPerSecond: positive,
  batchSize: integer(1),
})

/** The rule of the `fork` option. */
export const forkRule: Rule = (v, fail, path) => {
  fields(v, fail, path)
  const o = v as ForkOptions
  if (o.url === undefined && o.provider === undefined) fail('needs url or provider', path)
  if (o.url !== undefined && o.provider !== undefined) fail('takes url or provider, not both', path)
  if (o.headers !== undefined && o.url === undefined) fail('are sent to url only: give url with headers', `${path}.headers`)
}
