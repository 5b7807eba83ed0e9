/**
 * The Hardhat 3 plugin's network hooks: a connection to a finality network gets a node of its
 * own, made from the network's config, behind the connection's provider.
 *
 * Where the node sits. Hardhat 3 runs every request of a connection through the `onRequest`
 * hook chain, whose last step sends it to the network (the simulated network's node, or the
 * HTTP URL). Its own handlers in that chain fill a send's `from`, gas (eth_estimateGas times
 * `gasMultiplier`, or the fixed `gas`) and fees, and sign for an `http` network's `accounts`;
 * they run after every plugin's handler (built-in plugins come first in the plugin list, and a
 * chain runs the last plugin's handler first), so a plugin that answered in `onRequest` would
 * answer before them. The node therefore takes that last step's place: the connection's
 * provider runs the same `onRequest` chain and ends it at the node. It is the provider object
 * Hardhat made for the connection that is changed (its `request` and `close`), not the
 * connection's `provider` property: plugins that wrap a connection (hardhat-viem,
 * hardhat-ethers, the network helpers) read `connection.provider` in their own `newConnection`
 * handlers, before or after this one depending on their place in the plugin list, and all of
 * them hold this one object. The simulated network Hardhat made behind that object is never
 * asked anything (`forking` is kept from it: see hardhat3-config.ts), and is released with the
 * connection. The project's build-info goes to the node (hardhat3-build-info.ts).
 */
import type { FinalityNode } from '../node.js'
import { hardhatNetworkOptions } from './network-options.js'
import { hardhat3NetworkSettings } from './hardhat3-settings.js'
import { addProjectBuildInfos, takeCompilationResults } from './hardhat3-build-info.js'
import type { EdrNetworkConfig, HardhatProvider, HookContext, JsonRpcRequest, JsonRpcResponse, NetworkConnection } from './hardhat3-types.js'

/** Hardhat 3 recognises its provider errors by this non-enumerable own property. */
const PROVIDER_ERROR_MARK = '_isProviderError'

/** An error from the node as Hardhat 3's `ProviderError`: `code`, `data` and its mark. */
function asProviderError(error: unknown): Error {
  const out = error instanceof Error ? error : new Error(String(error))
  if (typeof (out as { code?: unknown }).code !== 'number') Object.assign(out, { code: -32603 })
  Object.defineProperty(out, PROVIDER_ERROR_MARK, { value: true, configurable: false, enumerable: false, writable: false })
  return out
}

/** A failed response a plugin's handler returned instead of throwing, as the error Hardhat throws. */
function errorOfResponse(error: { code: number; message: string; data?: unknown }): Error {
  const out = new Error(error.message)
  Object.assign(out, { code: error.code, ...(error.data === undefined ? {} : { data: error.data }) })
  return asProviderError(out)
}

async function createNodeFor(config: EdrNetworkConfig): Promise<FinalityNode> {
  const finality = config.finality
  if (finality === undefined) throw new TypeError('finality-evm/hardhat: not a finality network')
  const settings = await hardhat3NetworkSettings(config, finality.userSet)
  // The main package, loaded when a finality network is first connected to: the plugin's own
  // module stays small, and the engine is the package's one copy (dist/hardhat.js imports it).
  const { createNode } = await import('../index.js')
  return createNode({ ...hardhatNetworkOptions(settings), ...finality.options })
}

/**
 * Puts a new node behind `connection`'s provider: requests run Hardhat's `onRequest` chain and
 * end at the node; the node's subscription events are the provider's; closing the connection
 * closes the node.
 */
export async function attachNode(context: HookContext, connection: NetworkConnection): Promise<FinalityNode> {
  const node = await createNodeFor(connection.networkConfig as EdrNetworkConfig)
  await addProjectBuildInfos(context, node)
  const provider = connection.provider
  const closeSimulated = provider.close.bind(provider)
  let nextId = 1

  const toNode = async (_context: HookContext, _connection: NetworkConnection, request: JsonRpcRequest): Promise<JsonRpcResponse> => {
    try {
      const result = await node.provider.request({ method: request.method, params: request.params as unknown[] | undefined })
      return { jsonrpc: '2.0', id: request.id, result }
    } catch (error) {
      // As Hardhat's own providers do at this step: an error is thrown, not answered.
      throw asProviderError(error)
    }
  }

  const request: HardhatProvider['request'] = async ({ method, params }) => {
    const rpc: JsonRpcRequest = { jsonrpc: '2.0', id: nextId++, method, params: params ?? [] }
    const response = await context.hooks.runHandlerChain('network', 'onRequest', [connection, rpc], toNode)
    if ('error' in response) throw errorOfResponse(response.error)
    return response.result
  }

  const close: HardhatProvider['close'] = async () => {
    node.provider.off('message', forward)
    await node.close()
    await closeSimulated()
  }

  // eth_subscribe's notifications, in both forms Hardhat's providers emit.
  const forward = (message: { type: string; data: unknown }): void => {
    provider.emit('message', message)
    provider.emit('notification', message.data)
  }
  node.provider.on('message', forward)

  Object.defineProperty(provider, 'request', { value: request, configurable: true, writable: true, enumerable: false })
  Object.defineProperty(provider, 'close', { value: close, configurable: true, writable: true, enumerable: false })
  takeCompilationResults(provider, node)
  return node
}

/** The network hooks: `newConnection` puts a node behind each connection to a finality network. */
export function networkHooks() {
  return {
    async newConnection(context: HookContext, next: (context: HookContext) => Promise<NetworkConnection>): Promise<NetworkConnection> {
      const connection = await next(context)
      const config = connection.networkConfig
      if (config.type !== 'edr-simulated' || config.finality === undefined) return connection
      try {
        await attachNode(context, connection)
      } catch (error) {
        // A setting refused: the connection Hardhat made is released, and the error names it.
        await connection.provider.close()
        throw error
      }
      return connection
    },
  }
}
