/**
 * The checks of `node.http(options)`, `node.ws(server, options)` and `node.listen(options)`: one
 * table each, so an unknown key (`listen({ prot: 0 })`), a wrong type or a bad value throws an
 * InvalidOptionError naming it instead of being ignored.
 */
import { arrayOf, boolean, checkOptions, func, integer, InvalidOptionError, oneOf, string, type Rule } from '../option-rules.js'
import { NAMESPACES } from '../rpc/registry.js'
import { checkExplorerOptions } from '../explorer/serve.js'
import type { HttpOptions, TransportOptions } from './http.js'
import type { ListenOptions } from './listen.js'
import type { WsOptions } from './ws.js'

const jwtSecret: Rule = (v, fail) => {
  if (v instanceof Uint8Array) {
    if (v.length < 32) fail(`must be at least 32 bytes, got ${v.length}`)
    return
  }
  if (typeof v !== 'string') fail('must be hex or bytes of at least 32 bytes')
  const hex = (v as string).trim().replace(/^0x/i, '')
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 === 1 || hex.length < 64) fail('must be at least 32 bytes of hex')
}

const path: Rule = (v, fail) => {
  if (typeof v !== 'string' || !v.startsWith('/')) fail(`must be a path starting with '/', got ${JSON.stringify(v)}`)
}

const address: Rule = (v, fail) => {
  if (v === false) return
  if (typeof v !== 'string' || !/^(?:\[[^\]]+\]|[^:]*):\d{1,5}$/.test(v.trim()) || Number(v.trim().split(':').pop()) > 65535) {
    fail(`must be '<host>:<port>' (port 0 = a free one) or false, got ${JSON.stringify(v)}`)
  }
}

const TRANSPORT_RULES = {
  api: arrayOf(oneOf(NAMESPACES)),
  hosts: arrayOf(string),
  jwtSecret,
  lockPrivate: boolean,
  onRequest: func,
} as const satisfies Record<keyof TransportOptions, Rule>

const HTTP_RULES = { ...TRANSPORT_RULES, cors: arrayOf(string) } as const satisfies Record<keyof HttpOptions, Rule>

const WS_RULES = { ...TRANSPORT_RULES, path, origins: arrayOf(string) } as const satisfies Record<keyof WsOptions, Rule>

const LISTEN_RULES = {
  ...HTTP_RULES,
  address,
  wsAddress: address,
  wsPath: path,
  wsApi: arrayOf(oneOf(NAMESPACES)),
  origins: arrayOf(string),
  host: string,
  port: integer(0),
  explorer: (v, fail) => {
    if (typeof v === 'boolean') return
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`must be true, false or { rpc?, ws? }, got ${JSON.stringify(v)}`)
    checkExplorerOptions(v, 'listen.explorer')
  },
} as const satisfies Record<keyof ListenOptions, Rule>

// Each interface's every key has a rule: a new option without one fails to compile here.
type Missing<T, R> = Exclude<keyof T, keyof R>
const complete: [Missing<HttpOptions, typeof HTTP_RULES> | Missing<WsOptions, typeof WS_RULES> | Missing<ListenOptions, typeof LISTEN_RULES>] extends [never] ? true : false = true
void complete

/** Throws an InvalidOptionError naming the first bad option of `node.http(options)`. */
export function checkHttpOptions(options: unknown): void {
  checkOptions('http', HTTP_RULES, options)
}

/** Throws an InvalidOptionError naming the first bad option of `node.ws(server, options)`. */
export function checkWsOptions(options: unknown): void {
  checkOptions('ws', WS_RULES, options)
}

/** Throws an InvalidOptionError naming the first bad option of `node.listen(options)`. */
export function checkListenOptions(options: unknown): void {
  checkOptions('listen', LISTEN_RULES, options)
  const o = (options ?? {}) as ListenOptions
  if (typeof o.port === 'number' && o.port > 65535) throw new InvalidOptionError('listen', 'port', `must be at most 65535, got ${o.port}`)
  if ((o.port !== undefined || o.host !== undefined) && o.address !== undefined) {
    throw new InvalidOptionError('listen', 'address', 'cannot be given with port/host: address is the same setting as "<host>:<port>"')
  }
}
