/**
 * Access to private methods over HTTP and WebSocket (RELIABILITY.md "Private methods"): a bearer
 * JWT (HS256, `iat` within ±60 s, as the engine API checks it) when a secret is configured, and a
 * refusal to expose signing or test controls beyond loopback without one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { nodeNet } from '../builtins.js'
import { RpcError } from '../errors.js'

/**
 * Namespaces whose every method is private: key management, tracing, node control, test controls,
 * and `testing` (builds blocks with any transaction; execution-apis calls it sensitive).
 */
export const PRIVATE_NAMESPACES: ReadonlySet<string> = new Set(['personal', 'debug', 'admin', 'miner', 'evm', 'hardhat', 'anvil', 'test', 'testing'])

/** Private methods of public namespaces: the ones that sign with keys the node holds. */
export const PRIVATE_METHODS: ReadonlySet<string> = new Set([
  'eth_sign',
  'eth_signTransaction',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'eth_sendUnsignedTransaction',
  // The finality namespace's test controls (its reads are public).
  'finality_setFault',
  'finality_heal',
  'finality_partition',
  'finality_changeValidators',
  'finality_setDelegation',
  'finality_completeUnbonding',
  'finality_jailValidator',
  'finality_unjailValidator',
])

/** True for a method that needs an authenticated caller when a JWT secret is configured. */
export function isPrivate(method: string): boolean {
  if (PRIVATE_METHODS.has(method)) return true
  const i = method.indexOf('_')
  return i > 0 && PRIVATE_NAMESPACES.has(method.slice(0, i))
}

/** -32001: a private method called without a valid token. */
export class UnauthorizedError extends RpcError {
  constructor(method: string) {
    super(-32001, `unauthorized: ${method} is a private method; send Authorization: Bearer <JWT> (HS256, iat within 60s)`)
    this.name = 'UnauthorizedError'
  }
}

/** Reads a JWT secret: bytes, or hex with or without `0x` (geth's jwtsecret file format). */
export function jwtSecretOf(secret: string | Uint8Array): Uint8Array {
  if (typeof secret !== 'string') return secret
  const hex = secret.trim().replace(/^0x/i, '')
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length % 2 === 1 || hex.length < 64) {
    throw new Error('the JWT secret must be at least 32 bytes of hex')
  }
  return Buffer.from(hex, 'hex')
}

function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url')
}

/** Signs an HS256 token with `iat` = `nowMs` (for clients and tests). */
export function signJwt(secret: Uint8Array, nowMs: number, claims: Record<string, unknown> = {}): string {
  const head = b64url(Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })))
  const body = b64url(Buffer.from(JSON.stringify({ iat: Math.floor(nowMs / 1000), ...claims })))
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest()
  return `${head}.${body}.${b64url(sig)}`
}

/** Checks an `Authorization` header value: `Bearer <HS256 JWT>` with `iat` within ±60 s of `nowMs`. */
export function verifyBearer(header: string, secret: Uint8Array, nowMs: number): boolean {
  const match = /^Bearer ([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(header.trim())
  if (match === null) return false
  const [, head, body, sig] = match as unknown as [string, string, string, string]
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest()
  const given = Buffer.from(sig, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown }
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { iat?: unknown }
    if (header.alg !== 'HS256' || typeof claims.iat !== 'number') return false
    return Math.abs(nowMs / 1000 - claims.iat) <= 60
  } catch {
    return false
  }
}

/** True for a loopback host (`127.x`, `::1`, `localhost`). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (h === 'localhost' || h === '::1') return true
  return nodeNet().isIP(h) === 4 && h.startsWith('127.')
}

/**
 * Refuses to bind beyond loopback with private namespaces enabled and no JWT secret (throws with
 * the reason). Private methods of public namespaces are locked on such a transport instead.
 */
export function assertSafeExposure(host: string, api: Iterable<string>, hasSecret: boolean): void {
  if (hasSecret || isLoopback(host)) return
  const exposed = [...api].filter((ns) => PRIVATE_NAMESPACES.has(ns))
  if (exposed.length > 0) {
    throw new Error(
      `refusing to serve ${exposed.join(', ')} on ${host} (not loopback) without a JWT secret; bind to 127.0.0.1 or set --json-rpc.jwt-secret`,
    )
  }
}
