/**
 * The services handlers run on (src/services.ts), made of the node's components. They own the
 * node's transports: admin_startHttp (a method, run on these services) opens servers that
 * dispatch to the same services, so the transports are made here, with them, last.
 */
import { resolve } from 'node:path'
import { createTransports, type Transports } from '../adapters/transports.js'
import type { Clock } from '../clock.js'
import type { Common } from '@ethereumjs/common'
import type { Limits } from '../limits.js'
import { eventFormat } from '../rpc/format.js'
import { forkedHistory } from '../rpc/history-forked.js'
import { localHistory } from '../rpc/history.js'
import type { History } from '../rpc/history-reader.js'
import type { Method } from '../rpc/method.js'
import { NAMESPACES } from '../rpc/registry.js'
import { clientVersion } from '../rpc/web3.js'
import type { ServerControl, Services } from '../services.js'
import type { Components } from './components.js'
import type { Lifecycle } from './node-object.js'
import type { NodeSettings } from './settings.js'

export class NodeServices implements Services {
  readonly common: Common
  readonly limits: Readonly<Limits>
  readonly clock: Clock
  readonly chain: Components['chain']
  readonly pool: Components['pool']
  readonly producer: Components['producer']
  readonly bft: Components['bft']
  readonly consensus: Components['consensus']
  readonly cosmos: Components['cosmosControls']
  readonly keyring: Components['keyring']
  readonly calls: Components['calls']
  readonly transactions: Components['transactions']
  readonly filters: Components['filters']
  readonly controls: Components['controls']
  readonly tracing: Components['tracing']
  readonly profiling: Components['profiling']
  readonly log: Components['log']
  readonly failures: Components['failures']
  readonly dataDir: string | undefined
  readonly clientVersion: string
  readonly hardhatCompat: boolean
  readonly namespaces: () => string[]
  /** One reader of history: below a fork's fork block it asks the remote (a reset may open a fork later). */
  readonly history: History<Services>
  /** The node's transports (the provider's calls, http(), ws(), listen()). */
  readonly transports: Transports
  private readonly session: Components['fork']

  constructor(
    settings: NodeSettings,
    c: Components,
    private readonly lifecycle: Lifecycle,
    methods: ReadonlyMap<string, Method>,
  ) {
    const { db, hardhat } = settings
    const enabled = new Set(settings.options.api ?? NAMESPACES)
    this.common = settings.common
    this.limits = settings.limits
    this.clock = settings.clock
    this.chain = c.chain
    this.pool = c.pool
    this.producer = c.producer
    this.bft = c.bft
    this.consensus = c.consensus
    this.cosmos = c.cosmosControls
    this.keyring = c.keyring
    this.calls = c.calls
    this.transactions = c.transactions
    this.filters = c.filters
    this.controls = c.controls
    this.tracing = c.tracing
    this.profiling = c.profiling
    this.log = c.log
    this.failures = c.failures
    this.session = c.fork
    // classic-level (the CLI's --db) names its directory; a database without one has none.
    this.dataDir = typeof (db as { location?: unknown } | undefined)?.location === 'string' ? resolve((db as unknown as { location: string }).location) : undefined
    this.clientVersion = clientVersion(hardhat)
    this.hardhatCompat = hardhat
    this.namespaces = () => [...enabled].sort()
    this.history = forkedHistory(localHistory, c.fork)
    this.transports = createTransports(methods, this, settings.limits, { chain: c.chain, pool: c.pool, format: eventFormat })
  }

  /** The EVM chain id can change (anvil_setChainId); consensus keeps the genesis one as its domain. */
  get chainId(): bigint {
    return this.chain.chainId
  }

  get closed(): boolean {
    return this.lifecycle.closed
  }

  get servers(): ServerControl {
    return this.transports.servers
  }

  get fork(): ReturnType<Components['fork']['status']> {
    return this.session.status()
  }
}
