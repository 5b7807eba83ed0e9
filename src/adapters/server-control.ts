/**
 * The node's own servers as geth's admin methods see them: admin_startHTTP / admin_startWS open a
 * server like `node.listen()` does (the settings of the node's last listen as defaults), and
 * admin_stopHTTP / admin_stopWS stop every HTTP / WebSocket transport the node opened. Servers
 * an application mounted itself (`node.http()`, `node.ws()`) are not the node's to stop.
 */
import { ServerError } from '../errors.js'
import type { ServerControl } from '../services.js'
import { parseAddress, type ListenOptions, type OwnListening } from './listen.js'

const list = (v: string) => v.split(',').map((s) => s.trim()).filter((s) => s !== '')

/** The admin view over the `listen()`s of one node; `open` starts one more. */
export function serverControl(own: () => Iterable<OwnListening>, open: (options: ListenOptions) => Promise<OwnListening>): ServerControl {
  const last = () => [...own()].at(-1)?.options
  const runningPart = (which: 'http' | 'ws') => [...own()].map((l) => l.parts[which]).find((p) => p !== undefined && p.running)
  const defaults = (which: 'http' | 'ws') => {
    const o = last()
    const address = which === 'http' ? o?.address : o?.wsAddress
    if (typeof address === 'string') return parseAddress(address)
    const short = o?.port !== undefined || o?.host !== undefined
    if (short) return { host: o?.host ?? '127.0.0.1', port: o?.port ?? 8545 }
    // listen()'s rule: WebSocket on an HTTP server of port 0, never a fixed port beside it.
    const http = typeof o?.address === 'string' ? parseAddress(o.address) : undefined
    if (which === 'ws' && o?.wsAddress === undefined && http?.port === 0) return http
    return { host: '127.0.0.1', port: which === 'http' ? 8545 : 8546 }
  }
  const start = async (which: 'http' | 'ws', host: string | undefined, port: number | undefined, extra: ListenOptions): Promise<boolean> => {
    const d = defaults(which)
    const h = host ?? d.host
    const p = port ?? d.port
    const running = runningPart(which)
    if (running !== undefined) {
      // geth's httpServer.setListenAddr, then enableRPC / enableWS.
      if (host !== undefined || port !== undefined) {
        if (h !== running.host || p !== running.port) throw new ServerError(`HTTP server already running on ${running.endpoint}`)
      }
      throw new ServerError(which === 'http' ? 'JSON-RPC over HTTP is already enabled' : 'JSON-RPC over WebSocket is already enabled')
    }
    const { port: _p, host: _h, address: _a, wsAddress: _w, ...base } = last() ?? {}
    const at = `${h.includes(':') ? `[${h}]` : h}:${p}`
    const options: ListenOptions = which === 'http'
      ? { ...base, ...extra, address: at, wsAddress: false }
      : { ...base, ...extra, address: false, wsAddress: at, ...(extra.api === undefined ? {} : { wsApi: extra.api }) }
    try {
      await open(options)
    } catch (error) {
      throw new ServerError(error instanceof Error ? error.message : String(error))
    }
    return true
  }
  return {
    startHttp: ({ host, port, cors, apis, vhosts }) =>
      start('http', host, port, {
        ...(cors === undefined ? {} : { cors: list(cors) }),
        ...(apis === undefined ? {} : { api: list(apis) }),
        ...(vhosts === undefined ? {} : { hosts: list(vhosts) }),
      }),
    startWs: ({ host, port, origins, apis }) =>
      start('ws', host, port, {
        ...(origins === undefined ? {} : { origins: list(origins) }),
        ...(apis === undefined ? {} : { api: list(apis) }),
      }),
    // geth answers true whether or not a server was running.
    stopHttp: async () => {
      await Promise.all([...own()].map((l) => l.parts.http?.stop()))
      return true
    },
    stopWs: async () => {
      await Promise.all([...own()].map((l) => l.parts.ws?.stop()))
      return true
    },
  }
}
