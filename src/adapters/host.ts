/**
 * What the network transports share on top of the dispatcher: JSON text in and out, the depth,
 * batch-response and time-out limits, the private-method gate, and connection sessions that carry
 * subscriptions. HTTP and WebSocket stay thin: bytes, status codes and sockets only.
 */
import { RpcError } from '../errors.js'
import { toWireError } from '../rpc/error-map.js'
import type { Hex } from '../hex.js'
import type { Limits } from '../limits.js'
import { SubscriptionHub, Subscriptions, type Notify } from '../filters/subscriptions.js'
import { Dispatcher, firstCallId, firstCallIndex, type CallScope, type RpcId, type RpcResponse } from '../rpc/dispatcher.js'
import { subscribeMethods } from '../rpc/eth/subscribe.js'
import type { Method } from '../rpc/method.js'
import type { Services } from '../services.js'
import { UnauthorizedError, isPrivate } from './auth.js'
import { parsePayload, rawIds, valueDeeperThan } from './json.js'

/** Who is calling over a transport. */
export interface TransportScope extends CallScope {
  /** When true, private methods answer -32001 (a JWT secret is set and no valid token came). */
  readonly locked: boolean
}

/** The answer to one payload: the response text (undefined = nothing to send) and a hook to run once it is sent. */
export interface Answer {
  readonly text: string | undefined
  /** Releases the notifications of subscriptions this payload created; call after sending `text`. */
  sent(): void
}

/** A connection that can carry notifications (a WebSocket, the EIP-1193 provider). */
export interface Session {
  readonly subscriptions: Subscriptions
  /** Runs one payload in this session; `raw` holds the ids as written (see {@link rawIds}). */
  handle(payload: unknown, scope: TransportScope, raw?: ReturnType<typeof rawIds>): Promise<Answer>
  /** Frees the session's subscriptions. */
  close(): void
}

const NOTHING: Answer = { text: undefined, sent: () => {} }

/** An item's id as the client wrote it (undefined when the text is not at hand, as after express.json()). */
type RawId = string | undefined

function errorText(id: RpcId, error: unknown, raw?: RawId): string {
  return `{"jsonrpc":"2.0","id":${raw ?? JSON.stringify(id)},"error":${JSON.stringify(toWireError(error))}}`
}

/** A response's text with its id written exactly as the request's. */
function responseText(r: RpcResponse, raw: RawId): string {
  if (raw === undefined || r.id === null) return JSON.stringify(r)
  const rest = 'error' in r ? JSON.stringify({ error: r.error }) : JSON.stringify({ result: r.result })
  return `{"jsonrpc":"2.0","id":${raw},${rest.slice(1)}`
}

function idOf(item: unknown): { hasId: boolean; id: RpcId } {
  if (typeof item !== 'object' || item === null || Array.isArray(item) || !Object.hasOwn(item, 'id')) return { hasId: false, id: null }
  const id = (item as { id: unknown }).id
  return { hasId: true, id: typeof id === 'string' || typeof id === 'number' ? id : null }
}

/** The transports' side of a node. */
export class RpcHost {
  private readonly base: Dispatcher

  constructor(
    private readonly methods: ReadonlyMap<string, Method>,
    private readonly services: Services,
    readonly limits: Readonly<Limits>,
    readonly hub: SubscriptionHub,
  ) {
    this.base = new Dispatcher(methods, services, limits)
  }

  /** The node's clock (time-outs of the transports). */
  get clock(): Services['clock'] {
    return this.services.clock
  }

  /** Parses and answers raw JSON text (parse errors answer -32700 with id null). */
  async handleText(text: string, scope: TransportScope, session?: Session): Promise<Answer> {
    let payload: unknown
    try {
      payload = parsePayload(text, this.limits.jsonDepth)
    } catch (error) {
      return { text: errorText(null, error), sent: () => {} }
    }
    const raw = rawIds(text)
    return session === undefined ? this.handleValue(payload, scope, raw) : session.handle(payload, scope, raw)
  }

  /** Answers a payload another parser built (express.json()), after the same depth check. */
  async handleParsed(payload: unknown, scope: TransportScope): Promise<Answer> {
    if (valueDeeperThan(payload, this.limits.jsonDepth)) {
      return { text: errorText(null, new RpcError(-32700, `parse error: JSON nested deeper than ${this.limits.jsonDepth}`)), sent: () => {} }
    }
    return this.handleValue(payload, scope)
  }

  /** Opens a session whose notifications go to `notify`. */
  session(notify: Notify): Session {
    const subscriptions = new Subscriptions(this.hub, notify)
    let collect: Hex[] | undefined
    const methods = new Map(this.methods)
    const created = (id: Hex) => {
      if (collect !== undefined) collect.push(id)
      else queueMicrotask(() => subscriptions.release(id))
    }
    for (const [name, m] of Object.entries(subscribeMethods(subscriptions, created))) methods.set(name, m)
    const dispatcher = new Dispatcher(methods, this.services, this.limits)
    return {
      subscriptions,
      handle: async (payload, scope, raw) => {
        const ids: Hex[] = []
        const text = await this.answer(dispatcher, payload, scope, raw, (run) => {
          // Handlers run synchronously up to their first await, so eth_subscribe reports here.
          collect = ids
          try {
            return run()
          } finally {
            collect = undefined
          }
        })
        return { text, sent: () => ids.forEach((id) => subscriptions.release(id)) }
      },
      close: () => subscriptions.close(),
    }
  }

  private async handleValue(payload: unknown, scope: TransportScope, raw?: ReturnType<typeof rawIds>): Promise<Answer> {
    const text = await this.answer(this.base, payload, scope, raw, (run) => run())
    return text === undefined ? NOTHING : { text, sent: () => {} }
  }

  private async answer(
    dispatcher: Dispatcher,
    payload: unknown,
    scope: TransportScope,
    raw: ReturnType<typeof rawIds>,
    wrap: (run: () => Promise<unknown>) => Promise<unknown>,
  ): Promise<string | undefined> {
    if (!Array.isArray(payload)) return this.one(dispatcher, payload, scope, wrap, typeof raw === 'string' ? raw : undefined)
    const raws = Array.isArray(raw) ? raw : []
    if (payload.length === 0) return JSON.stringify(await dispatcher.handle(payload, scope))
    if (payload.length > this.limits.batchItems) {
      const at = firstCallIndex(payload)
      const first = firstCallId(payload)
      return `[${errorText(first, new RpcError(-32600, 'batch too large'), first === null ? undefined : raws[at])}]`
    }
    const parts: string[] = []
    let bytes = 0
    for (const [i, item] of payload.entries()) {
      if (bytes > this.limits.batchResponseBytes) {
        // geth: once the batch's responses pass the limit, later calls are answered, not run.
        const { hasId, id } = idOf(item)
        if (hasId) parts.push(errorText(id, new RpcError(-32003, 'response too large'), id === null ? undefined : raws[i]))
        continue
      }
      const text = Array.isArray(item)
        ? errorText(null, new RpcError(-32600, 'invalid request'))
        : await this.one(dispatcher, item, scope, wrap, raws[i])
      if (text === undefined) continue
      parts.push(text)
      bytes += text.length
    }
    return parts.length === 0 ? undefined : `[${parts.join(',')}]`
  }

  private async one(
    dispatcher: Dispatcher,
    item: unknown,
    scope: TransportScope,
    wrap: (run: () => Promise<unknown>) => Promise<unknown>,
    rawId: RawId,
  ): Promise<string | undefined> {
    const { hasId, id } = idOf(item)
    // Only a valid id is echoed as written; an object or array id is answered with null.
    const raw = id === null ? undefined : rawId
    const method = typeof item === 'object' && item !== null ? (item as { method?: unknown }).method : undefined
    if (scope.locked && typeof method === 'string' && isPrivate(method) && scope.namespaces.has(dispatcher.gateOf(method))) {
      return hasId ? errorText(id, new UnauthorizedError(method), raw) : undefined
    }
    const response = wrap(() => dispatcher.handle(item, scope))
    const result = await this.withTimeout(response)
    if (result === TIMED_OUT) return hasId ? errorText(id, new RpcError(-32002, 'request timed out'), raw) : undefined
    return result === undefined ? undefined : responseText(result as RpcResponse, raw)
  }

  private withTimeout<T>(work: Promise<T>): Promise<T | typeof TIMED_OUT> {
    const ms = this.limits.requestTimeoutMs
    if (!(ms > 0)) return work
    return new Promise((resolve, reject) => {
      const cancel = this.services.clock.setTimer(() => resolve(TIMED_OUT), ms)
      work.then(
        (v) => {
          cancel()
          resolve(v)
        },
        (e) => {
          cancel()
          reject(e)
        },
      )
    })
  }
}

const TIMED_OUT = Symbol('timed out')
