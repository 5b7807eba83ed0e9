/**
 * `requestRaw`: a request whose params the method's types refuse, sent on purpose. `node.request`
 * and the provider type the params of every method the node serves; a test of the node's own
 * checks (a -32602 for a wrong shape, a missing or extra argument) sends them through here, so
 * the call reads as deliberate and every other call stays typed.
 */
/** Anything that answers `request({ method, params })`: a node, its provider, a viem transport. */
export interface Requester {
  request(args: { method: string; params?: unknown }): Promise<unknown>
}

/** Calls `method` with `params` as given, untyped: the node checks them at run time. */
export function requestRaw(target: Requester, method: string, params?: unknown): Promise<unknown> {
  return target.request(params === undefined ? { method } : { method, params })
}

