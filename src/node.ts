/**
 * createNode(): the composition root. It checks the options, resolves the settings
 * (node/settings.ts), makes the components (node/components.ts) and wires them behind the
 * services, the dispatcher, the transports and the node object (node/node-object.ts); it
 * decides nothing itself (docs/architecture.md, Composition).
 */
import { initKeccak } from './crypto/keccak.js'
import { nodeStarted } from './compile-cache.js'
import { installEngine } from './execution/engine/install.js'
import { Eip1193Provider } from './adapters/eip1193.js'
import { quantity } from './hex.js'
import type { NodeOptions } from './options.js'
import { checkNodeOptions } from './options-check.js'
import { Dispatcher } from './rpc/dispatcher.js'
import { NAMESPACES, buildRegistry } from './rpc/registry.js'
import { createComponents } from './node/components.js'
import type { FinalityNode } from './node/finality-node.js'
import { Lifecycle, nodeObject } from './node/node-object.js'
import { resolveSettings } from './node/settings.js'
import { NodeServices } from './node/services.js'

export type { FinalityNode } from './node/finality-node.js'

/**
 * Creates an in-process chain: genesis with prefunded accounts, a BFT producer, the JSON-RPC
 * dispatcher and an EIP-1193 provider.
 */
export async function createNode(options: NodeOptions = {}): Promise<FinalityNode> {
  checkNodeOptions(options)
  await initKeccak()
  await installEngine()
  const settings = await resolveSettings(options)
  const components = await createComponents(settings)
  const lifecycle = new Lifecycle()
  const methods = buildRegistry(settings.limits)
  // The services make the transports (admin_startHttp, a method, opens servers that dispatch to them).
  const services = new NodeServices(settings, components, lifecycle, methods)
  const { transports } = services
  const dispatcher = new Dispatcher(methods, services, settings.limits)
  const scope = { namespaces: new Set(options.api ?? NAMESPACES) }
  const provider: Eip1193Provider = new Eip1193Provider(
    transports.providerCall((subscription, p) => provider.emit('message', { type: `${p.namespace ?? 'eth'}_subscription`, data: { subscription, result: p.value } }), scope),
    quantity(settings.chainId),
    () => components.failures.active,
  )
  components.chain.on('chainChanged', (id: bigint) => provider.emit('chainChanged', quantity(id)))
  nodeStarted()
  return nodeObject({ settings, components, services, methods, dispatcher, scope, transports, provider, lifecycle })
}
