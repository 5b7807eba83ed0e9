/** How a JSON-RPC method is declared: its param codecs and its handler, once. */
import type { Codec } from './codecs.js'
import type { Services } from '../services.js'

type Decoded<C> = { [K in keyof C]: C[K] extends Codec<infer T> ? T : never }

/** Who calls, as a handler sees it. */
export interface MethodScope {
  /** The namespaces open to the caller (rpc_modules lists those). */
  readonly namespaces: ReadonlySet<string>
  /** The methods of the dispatcher answering the call, which differ by transport (rpc_discover). */
  readonly methods?: ReadonlyMap<string, Method>
}

/** One method: params decoded by codecs, then `run`. */
export interface Method {
  /**
   * The namespace that gates the method, when its name's prefix is not it: Anvil's
   * `eth_sendUnsignedTransaction` is a test control (`anvil`), not part of `eth`.
   */
  readonly namespace?: string
  readonly params: readonly Codec<unknown>[]
  /** `scope` is who calls. */
  readonly run: (services: Services, params: unknown[], scope: MethodScope) => unknown
}

/** Declares a method; the handler receives decoded, typed params. */
export function method<const C extends readonly Codec<unknown>[]>(spec: {
  namespace?: string
  params: C
  run: (services: Services, params: Decoded<C>, scope: MethodScope) => unknown
}): Method {
  return oneShape(spec as unknown as Method)
}

/**
 * Every method the same hidden class (`namespace` present, undefined or not, and the fields in one
 * order): the dispatcher's reads of them stay monomorphic. A declaration with a namespace
 * (`personal_sign`) had its own, and the dispatcher's compiled `call` was thrown away ("wrong map")
 * the first time one was called.
 */
function oneShape(spec: Method): Method {
  return { namespace: spec.namespace, params: spec.params, run: spec.run }
}

/**
 * The services a namespace's handlers receive: only the ports it names. A namespace declares its
 * own `method` with them (`const method = methodsOf<'chain' | 'controls'>()`), so tsc refuses a
 * handler that reaches a service its namespace does not list, and the list at the top of each
 * file says what the namespace reads and through which owner it writes.
 */
export type Ports<K extends keyof Services> = Pick<Services, K>

/** {@link method} for handlers that see only the ports `K` (the dispatcher hands them all the services). */
export function methodsOf<K extends keyof Services>(): <const C extends readonly Codec<unknown>[]>(spec: {
  namespace?: string
  params: C
  run: (services: Ports<K>, params: Decoded<C>, scope: MethodScope) => unknown
}) => Method {
  return (spec) => oneShape(spec as unknown as Method)
}

/** A namespace's methods, by full name. */
export type MethodTable = Readonly<Record<string, Method>>
