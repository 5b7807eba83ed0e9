/**
 * The dispatcher: validates the JSON-RPC 2.0 envelope, gates methods by namespace, decodes params
 * by codecs and runs handlers. It is the one place that turns anything thrown into an error
 * response; nothing thrown below it escapes, and bad input never changes state. A domain error a
 * method throws becomes its JSON-RPC error (error-map.ts) as it leaves `call`.
 */
import { absentReason } from './absent.js'
import {
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  NodeClosedError,
  RpcError,
  type RpcErrorObject,
} from '../errors.js'
import { toRpcError, toWireError } from './error-map.js'
import type { Limits } from '../limits.js'
import type { Services } from '../services.js'
import { decodeParams } from './codecs.js'
import type { Method } from './method.js'

/** A JSON-RPC id. */
export type RpcId = string | number | null

/** A response object. */
export type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: RpcErrorObject }

/** Who is calling: which namespaces are open to them. */
export interface CallScope {
  namespaces: ReadonlySet<string>
}

function namespaceOf(name: string): string {
  const i = name.indexOf('_')
  return i < 0 ? '' : name.slice(0, i)
}

/** The index of a batch's first call (an item with a valid id and a method), or -1. */
export function firstCallIndex(batch: readonly unknown[]): number {
  return batch.findIndex((item) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item) || !Object.hasOwn(item, 'id')) return false
    const { id, method } = item as { id: unknown; method: unknown }
    return typeof method === 'string' && method !== '' && (id === null || typeof id === 'string' || typeof id === 'number')
  })
}

/** The id of a batch's first call, as geth reports a batch it refuses; null when it has none. */
export function firstCallId(batch: readonly unknown[]): RpcId {
  const i = firstCallIndex(batch)
  return i < 0 ? null : (batch[i] as { id: RpcId }).id
}

export class Dispatcher {
  /** The namespace that gates `name`: the one its method declares, or its name's prefix. */
  gateOf(name: string): string {
    const method = this.methods.get(name)
    return method === undefined ? namespaceOf(name) : this.gateOfServed(name, method)
  }

  /**
   * The gating namespace of each served method called so far, found once rather than cut out of
   * its name per request; bounded by the methods served (only their names are kept).
   */
  private readonly gates = new Map<string, string>()

  private gateOfServed(name: string, method: Method): string {
    let gate = this.gates.get(name)
    if (gate === undefined) {
      gate = method.namespace ?? namespaceOf(name)
      this.gates.set(name, gate)
    }
    return gate
  }

  constructor(
    private readonly methods: ReadonlyMap<string, Method>,
    private readonly services: Services,
    private readonly limits: Readonly<Limits>,
  ) {}

  /** The method names served, sorted. */
  names(): string[] {
    return [...this.methods.keys()].sort()
  }

  /**
   * Runs one method by name with positional params; rejects with an RpcError on failure (a domain
   * error mapped by error-map.ts). Not an `async` function: a handler's result is handed on with
   * one turn of the microtask queue at most (the mapping of a rejection), not the extra turns an
   * async function's promise takes.
   */
  call(name: string, params: unknown, scope: CallScope): Promise<unknown> {
    const log = this.services.log
    return log === undefined ? this.run(name, params, scope) : log.request(name, () => this.run(name, params, scope))
  }

  private run(name: string, params: unknown, scope: CallScope): Promise<unknown> {
    try {
      if (this.services.closed) throw new NodeClosedError()
      const method = this.lookup(name, scope)
      const args = this.positional(params, method)
      const out = method.run(this.services, args, { namespaces: scope.namespaces, methods: this.methods })
      // A native promise first, without reading `then` off every method's own result (their
      // shapes are many: the read's feedback went stale and threw this function's code away).
      if (out instanceof Promise) return out.then(undefined, rejectMapped)
      // `then` read off objects alone (a thenable is one): off a primitive the read met each kind's
      // map anew, and the first boolean answer (evm_setAutomine's) threw this code away.
      if ((typeof out !== 'object' || out === null) && typeof out !== 'function') return Promise.resolve(out)
      return typeof (out as PromiseLike<unknown>).then === 'function' ? Promise.resolve(out).then(undefined, rejectMapped) : Promise.resolve(out)
    } catch (error) {
      return rejectMapped(error)
    }
  }

  /** Answers a parsed JSON-RPC payload: one request, or a batch. `undefined` = nothing to send. */
  async handle(payload: unknown, scope: CallScope): Promise<RpcResponse | RpcResponse[] | undefined> {
    if (Array.isArray(payload)) {
      if (payload.length === 0) return this.error(null, new InvalidRequestError('empty batch'))
      // geth: one error in an array, carrying the id of the batch's first call.
      if (payload.length > this.limits.batchItems) return [this.error(firstCallId(payload), new InvalidRequestError('batch too large'))]
      const out: RpcResponse[] = []
      for (const item of payload) {
        const r = await this.one(item, scope)
        if (r !== undefined) out.push(r)
      }
      return out.length === 0 ? undefined : out
    }
    return this.one(payload, scope)
  }

  private async one(request: unknown, scope: CallScope): Promise<RpcResponse | undefined> {
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return this.error(null, new InvalidRequestError())
    }
    const r = request as Record<string, unknown>
    const hasId = Object.hasOwn(r, 'id')
    const id = r.id
    if (hasId && id !== null && typeof id !== 'string' && typeof id !== 'number') {
      return this.error(null, new InvalidRequestError('invalid request id'))
    }
    const rid = (hasId ? id : null) as RpcId
    if (r.jsonrpc !== '2.0') return this.error(rid, new InvalidRequestError('invalid request: jsonrpc must be "2.0"'))
    if (typeof r.method !== 'string') return this.error(rid, new InvalidRequestError('invalid request: method must be a string'))
    if (r.method.length > this.limits.methodNameLength) return this.error(rid, new InvalidRequestError('method name too long'))
    try {
      const result = await this.call(r.method, r.params, scope)
      if (!hasId) return undefined
      return { jsonrpc: '2.0', id: rid, result: result === undefined ? null : result }
    } catch (error) {
      if (!hasId) return undefined
      return this.error(rid, error)
    }
  }

  private lookup(name: string, scope: CallScope): Method {
    const method = this.methods.get(name)
    if (method === undefined) {
      const reason = absentReason(name)
      throw new MethodNotFoundError(name, reason === undefined ? undefined : `the method ${name} does not exist/is not available: ${reason}`)
    }
    const namespace = this.gateOfServed(name, method)
    if (!scope.namespaces.has(namespace)) {
      // The code stays -32601 (geth's for a namespace it does not serve); the text says how to turn it on.
      throw new MethodNotFoundError(
        name,
        `the method ${name} does not exist/is not available: the ${namespace} namespace is off here; enable it with the api option (CLI: --json-rpc.api)`,
      )
    }
    return method
  }

  /** geth's rules: absent or null = [], an object is refused, arity checked against the codecs. */
  private positional(params: unknown, method: Method): unknown[] {
    const args = params === undefined || params === null ? [] : params
    if (!Array.isArray(args)) throw new InvalidParamsError('non-array args')
    const codecs = method.params
    if (args.length > codecs.length) throw new InvalidParamsError(`too many arguments, want at most ${codecs.length}`)
    return decodeParams(codecs, args, this.limits.hexParamLength)
  }

  private error(id: RpcId, error: unknown): RpcResponse {
    if (!(error instanceof RpcError) && process.env.FINALITY_DEBUG) console.error(error)
    return { jsonrpc: '2.0', id, error: toWireError(error) }
  }
}

/** A rejection with the JSON-RPC error of what was thrown. */
function rejectMapped(error: unknown): Promise<never> {
  return Promise.reject(toRpcError(error))
}
