/**
 * Typed params and results of every method the node serves, for `node.request` and
 * `node.provider.request`: every quantity is `0x` hex, as on the wire. The table
 * ({@link RpcMethodTypes}) names exactly the methods of the dispatcher's registry
 * (test/types/method-table.test.ts holds the two equal, arity included).
 */
import type { EthMethodTypes } from './rpc-types/eth.js'
import type { TracingMethodTypes } from './rpc-types/tracing.js'
import type { AnvilMethodTypes, EvmMethodTypes, FinalityMethodTypes, HardhatMethodTypes } from './rpc-types/controls.js'
import type { NodeMethodTypes } from './rpc-types/node.js'

export type * from './rpc-types/objects.js'
export type * from './rpc-types/eth.js'
export type * from './rpc-types/tracing.js'
export type * from './rpc-types/controls.js'
export type * from './rpc-types/node.js'

/**
 * Params (a tuple; optional trailing params as the method accepts them) and result (the wire
 * JSON) of each method the node serves, by name. A method answering `never` always answers an
 * error on this node (a Go runtime control with no V8 analogue, a minimum gas price on an
 * EIP-1559 chain).
 */
export interface RpcMethodTypes extends EthMethodTypes, TracingMethodTypes, NodeMethodTypes, EvmMethodTypes, FinalityMethodTypes, HardhatMethodTypes, AnvilMethodTypes {}

/** The name of a method the node serves. */
export type TypedMethod = keyof RpcMethodTypes

/** A request of a served method; `params` may be left out where the method needs none. */
export type TypedRequest<M extends TypedMethod> = [] extends RpcMethodTypes[M]['params']
  ? { readonly method: M; readonly params?: RpcMethodTypes[M]['params'] }
  : { readonly method: M; readonly params: RpcMethodTypes[M]['params'] }

/**
 * A request by method name: a served method's typed params, or for any other name (a method
 * of a newer release, a user's own) any params. A name the node does not serve answers -32601
 * at run time.
 */
export type RpcRequest<M extends string> = M extends TypedMethod ? TypedRequest<M> : { readonly method: M; readonly params?: unknown }

/**
 * The argument of `node.request` and `node.provider.request` for the method name `M` (inferred
 * from `method`): a served method's name must come with its params, any other name or a plain
 * `string` (what viem and ethers pass) takes any params.
 */
export type RpcRequestArgs<M extends string> = { readonly method: M } & RpcRequest<M>

/**
 * The result of a method by name: a served method's wire type; for any other name (or a plain
 * `string`) `Untyped`, `unknown` unless the caller names another.
 */
export type RpcResult<M extends string, Untyped = unknown> = M extends TypedMethod ? RpcMethodTypes[M]['result'] : Untyped
