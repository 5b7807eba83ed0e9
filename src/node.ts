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
import { createTransports, type Transports } from './adapters/transports.js'
import { resolve } from 'node:path'
import { quantity } from './hex.js'
import type { NodeOptions } from './options.js'
import { checkNodeOptions } from './options-check.js'
import { Dispatcher } from './rpc/dispatcher.js'
import { eventFormat } from './rpc/format.js'
import { NAMESPACES, buildRegistry } from './rpc/registry.js'
import { clientVersion } from './rpc/web3.js'
import { localHistory } from './rpc/history.js'
import { forkedHistory } from './rpc/history-forked.js'
import type { Services } from './services.js'
import { createComponents, type Components } from './node/components.js'
import type { FinalityNode } from './node/finality-node.js'
import { Lifecycle, nodeObject } from './node/node-object.js'
import { resolveSettings, type NodeSettings } from './node/settings.js'

export type { FinalityNode } from './node/finality-node.js'

/** The services handlers run on. `transports`: asked for the servers only when an admin method runs (they dispatch to these services). */
function nodeServices(settings: NodeSettings, c: Components, lifecycle: Lifecycle, transports: () => Transports): Services {
  const { common, db, hardhat, limits, clock } = settings
  const enabled = new Set(settings.options.api ?? NAMESPACES)
  return {
    // The EVM chain id can change (anvil_setChainId); consensus keeps the genesis one as its domain.
    get chainId() {
      return common.chainId()
    },
    common, limits, clock,
    chain: c.chain, pool: c.pool, producer: c.producer, bft: c.bft, consensus: c.consensus, keyring: c.keyring, calls: c.calls,
    transactions: c.transactions, filters: c.filters, controls: c.controls, tracing: c.tracing, profiling: c.profiling, log: c.log,
    get closed() {
      return lifecycle.closed
    },
    // classic-level (the CLI's --db) names its directory; a database without one has none.
    dataDir: typeof (db as { location?: unknown } | undefined)?.location === 'string' ? resolve((db as unknown as { location: string }).location) : undefined,
    clientVersion: clientVersion(hardhat),
    hardhatCompat: hardhat,
    get servers() {
      return transports().servers
    },
    namespaces: () => [...enabled].sort(),
    get fork() {
      return c.fork.status()
    },
    // One reader of history: below a fork's fork block it asks the remote (a reset may open a fork later).
    history: forkedHistory(localHistory, c.fork),
  }
}

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
  const { limits } = settings
  // The one cycle of the wiring: admin_startHttp (a method) opens servers that dispatch to these services.
  const services = nodeServices(settings, components, lifecycle, () => transports)
  const methods = buildRegistry(limits)
  const dispatcher = new Dispatcher(methods, services, limits)
  const scope = { namespaces: new Set(options.api ?? NAMESPACES) }
  const transports = createTransports(methods, services, limits, { chain: components.chain, pool: components.pool, format: eventFormat })
  const provider: Eip1193Provider = new Eip1193Provider(
    transports.providerCall((subscription, p) => provider.emit('message', { type: `${p.namespace ?? 'eth'}_subscription`, data: { subscription, result: p.value } }), scope),
    quantity(settings.chainId),
  )
  components.chain.on('chainChanged', (id: bigint) => provider.emit('chainChanged', quantity(id)))
  nodeStarted()
  return nodeObject({ settings, components, services, methods, dispatcher, scope, transports, provider, lifecycle })
}
