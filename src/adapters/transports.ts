/**
 * Wires a node's transports: the polling filters' and subscriptions' event sources, the
 * provider's in-process subscriptions, and the `http()`, `ws()` and `listen()` members.
 */
import type { Server } from 'node:http'
import type { Chain } from '../chain/chain.js'
import type { Limits } from '../limits.js'
import { SubscriptionHub, Subscriptions, type EventFormat, type Notify } from '../filters/subscriptions.js'
import { Dispatcher, type CallScope } from '../rpc/dispatcher.js'
import { subscribeMethods } from '../rpc/eth/subscribe.js'
import type { Method } from '../rpc/method.js'
import { PUBLIC_NAMESPACES } from '../rpc/registry.js'
import type { Services } from '../services.js'
import type { TxPool } from '../txpool/pool.js'
import { jwtSecretOf } from './auth.js'
import { RpcHost } from './host.js'
import { createHttpHandler, type HttpHandler, type HttpOptions, type ResolvedTransport } from './http.js'
import { listen, type ListenOptions, type Listening, type OwnListening } from './listen.js'
import { serverControl } from './server-control.js'
import type { ServerControl } from '../services.js'
import { attachWebSocket, type WsEndpoint, type WsOptions } from './ws.js'
import { checkHttpOptions, checkListenOptions, checkWsOptions } from './transport-options.js'

/** The node members and hooks the transports provide. */
export interface Transports {
  /** The dispatcher call the EIP-1193 provider uses, with eth_subscribe bound to `notify`. */
  providerCall(notify: Notify, scope: CallScope): (method: string, params: unknown) => Promise<unknown>
  http(options?: HttpOptions): HttpHandler
  ws(server: Server, options?: WsOptions): WsEndpoint
  listen(options?: ListenOptions): Promise<Listening>
  /** The servers listen() opened, for the admin methods. */
  readonly servers: ServerControl
  /** Closes servers and WebSocket endpoints the node opened, and stops the event fan-out. */
  close(): Promise<void>
}

/** Resolves the per-transport settings. */
export function resolveTransport(options: HttpOptions, lockPrivate = false): ResolvedTransport {
  return {
    namespaces: new Set(options.api ?? PUBLIC_NAMESPACES),
    secret: options.jwtSecret === undefined ? undefined : jwtSecretOf(options.jwtSecret),
    hosts: options.hosts === undefined ? undefined : new Set(options.hosts.map((h) => h.toLowerCase())),
    lockPrivate: lockPrivate || options.lockPrivate === true,
  }
}

/** Creates the transports of one node. */
export function createTransports(
  methods: ReadonlyMap<string, Method>,
  services: Services,
  limits: Readonly<Limits>,
  source: { chain: Chain; pool: TxPool; format: EventFormat },
): Transports {
  const hub = new SubscriptionHub(source.chain, source.pool, limits, source.format)
  const host = new RpcHost(methods, services, limits, hub)
  const endpoints = new Set<WsEndpoint>()
  const servers = new Set<OwnListening>()
  const open = async (options: ListenOptions): Promise<OwnListening> => {
    const running = await listen(host, resolveTransport, options)
    servers.add(running)
    return running
  }
  let providerSubs: Subscriptions | undefined

  return {
    providerCall(notify, scope) {
      const subs = new Subscriptions(hub, notify)
      providerSubs = subs
      const own = new Map(methods)
      let collect: Array<`0x${string}`> | undefined
      const created = (id: `0x${string}`) => collect?.push(id)
      for (const [name, m] of Object.entries(subscribeMethods(subs, created))) own.set(name, m)
      const dispatcher = new Dispatcher(own, services, limits)
      return async (method, params) => {
        const ids: Array<`0x${string}`> = []
        collect = ids
        let result: Promise<unknown>
        try {
          // Handlers run synchronously up to their first await, so eth_subscribe reports here.
          result = dispatcher.call(method, params, scope)
        } finally {
          collect = undefined
        }
        const value = await result
        // The id reaches the caller's await before the first `message` event.
        for (const id of ids) {
          subs.handed(id)
          setImmediate(() => subs.release(id))
        }
        return value
      }
    },
    http(options = {}) {
      checkHttpOptions(options)
      return createHttpHandler(host, resolveTransport(options), options)
    },
    ws(server, options = {}) {
      if (typeof (server as { on?: unknown } | undefined)?.on !== 'function') throw new TypeError('ws: the first argument must be a node:http Server')
      checkWsOptions(options)
      const endpoint = attachWebSocket(host, server, resolveTransport(options), options)
      endpoints.add(endpoint)
      return {
        get connections() {
          return endpoint.connections
        },
        get subscriptions() {
          return endpoint.subscriptions
        },
        close: async () => {
          endpoints.delete(endpoint)
          await endpoint.close()
        },
      }
    },
    servers: serverControl(() => servers, async (options) => {
      checkListenOptions(options)
      return open(options)
    }),
    async listen(options = {}) {
      checkListenOptions(options)
      const running = await open(options)
      return {
        http: running.http,
        ws: running.ws,
        close: async () => {
          servers.delete(running)
          await running.close()
        },
      }
    },
    async close() {
      await Promise.all([...endpoints].map((e) => e.close()))
      await Promise.all([...servers].map((s) => s.close()))
      endpoints.clear()
      servers.clear()
      providerSubs?.close()
      hub.close()
    },
  }
}
