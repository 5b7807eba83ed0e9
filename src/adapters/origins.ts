/**
 * Which browser pages may drive a node: `Origin` rules for CORS and WebSocket upgrades, and the
 * `Host` check against DNS rebinding, with geth's rules (`--http.corsdomain`, `--ws.origins`,
 * `--http.vhosts`).
 */
import { nodeNet } from '../builtins.js'

/** The origins of pages served from this machine: any port, as geth's `http://localhost` rule. */
export const LOCAL_ORIGINS: readonly string[] = Object.freeze(['http://localhost', 'http://127.0.0.1', 'http://[::1]'])

/** The Host names a node serving this machine accepts; IP addresses always pass (geth's `--http.vhosts` default). */
export const LOCAL_HOSTS: readonly string[] = Object.freeze(['localhost'])

const RULE = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\[[^\]\s]+\]|[^\s:/[\]]+)(?::(\d{1,5}))?\/?$/i

interface Parsed {
  scheme: string | undefined
  host: string
  port: string | undefined
}

function parse(origin: string): Parsed | undefined {
  const m = RULE.exec(origin.trim())
  if (m === null) return undefined
  return { scheme: m[1]?.toLowerCase(), host: (m[2] as string).toLowerCase(), port: m[3] }
}

/**
 * True when `origin` (a request's `Origin` header) matches one of `rules`: `*`, or
 * `[scheme://]host[:port]` where a missing scheme or port matches any. No rules = any origin.
 */
export function originAllowed(rules: readonly string[] | undefined, origin: string | undefined): boolean {
  if (rules === undefined || origin === undefined) return true
  if (rules.includes('*')) return true
  const o = parse(origin)
  if (o === undefined) return false
  return rules.some((rule) => {
    const r = parse(rule)
    if (r === undefined) return false
    return r.host === o.host && (r.scheme === undefined || r.scheme === o.scheme) && (r.port === undefined || r.port === (o.port ?? defaultPort(o.scheme)))
  })
}

function defaultPort(scheme: string | undefined): string | undefined {
  return scheme === 'http' || scheme === 'ws' ? '80' : scheme === 'https' || scheme === 'wss' ? '443' : undefined
}

/** Throws on an origin rule that cannot match anything (a typo would otherwise lock the browser out silently). */
export function checkOriginRules(rules: readonly string[], what: string): void {
  for (const rule of rules) {
    if (rule !== '*' && parse(rule) === undefined) throw new Error(`${what}: "${rule}" is not an origin; want * or scheme://host[:port]`)
  }
}

/** The host name of a `Host` header (`name:port`, `[v6]:port`), lower case. */
export function hostName(header: string): string {
  const name = header.startsWith('[') ? header.slice(1, header.indexOf(']')) : (header.split(':')[0] ?? '')
  return name.toLowerCase()
}

/**
 * geth's Host check: no header, an IP address, or a listed name (`*` = any) passes. A DNS-rebinding
 * page reaches the node under its own name, which is not listed.
 */
export function hostAllowed(allowed: ReadonlySet<string> | undefined, host: string | undefined): boolean {
  if (allowed === undefined || allowed.has('*') || host === undefined || host === '') return true
  const name = hostName(host)
  return nodeNet().isIP(name) !== 0 || allowed.has(name) || allowed.has(host.toLowerCase())
}
