/** The node's services, as method handlers see them. */
import type { FailureExplainer } from './execution/failures.js'
import type { Common } from '@ethereumjs/common'
import type { Chain } from './chain/chain.js'
import type { BftEngine } from './consensus/bft.js'
import type { Producer } from './producer/producer.js'
import type { ConsensusControls } from './consensus/consensus-controls.js'
import type { CosmosControls } from './cosmos/controls.js'
import type { Keyring } from './accounts/keyring.js'
import type { PoolReads } from './txpool/pool.js'
import type { Limits } from './limits.js'
import type { Clock } from './clock.js'
import type { CallExecutor } from './execution/call.js'
import type { Transactions } from './execution/transactions.js'
import type { Tracing } from './execution/tracers/replay.js'
import type { Controls } from './controls/controls.js'
import type { FilterManager } from './filters/manager.js'
import type { Profiling } from './profiling/profiling.js'
import type { ForkStatus } from './fork/fork.js'
import type { NodeLog } from './log/node-log.js'
import type { History } from './rpc/history-reader.js'

/** The node's own HTTP and WebSocket servers, for geth's admin_start* / admin_stop* methods. */
export interface ServerControl {
  startHttp(o: { host?: string; port?: number; cors?: string; apis?: string; vhosts?: string }): Promise<boolean>
  startWs(o: { host?: string; port?: number; origins?: string; apis?: string }): Promise<boolean>
  stopHttp(): Promise<boolean>
  stopWs(): Promise<boolean>
}

/**
 * The producer as handlers see it: its mode, clock, limits and pending block, read. Handlers change
 * how blocks are made only through `controls.mining` (src/controls/mining.ts), its one writer.
 */
export type ProducerReads = Pick<Producer, 'mode' | 'blockGasLimit' | 'halted' | 'haltReason' | 'now' | 'nextCoinbase' | 'pending' | 'pendingContext' | 'pendingReceipts'> & {
  readonly settings: Pick<Producer['settings'], 'current'>
}

export interface Services {
  /** The EVM chain id, read from its owner, the chain (`chain.chainId`; anvil_setChainId changes it there). */
  readonly chainId: bigint
  readonly common: Common
  readonly chain: Chain
  readonly pool: PoolReads
  readonly producer: ProducerReads
  readonly bft: BftEngine
  /** Faults and validator-set changes on demand (the finality_ controls). */
  readonly consensus: ConsensusControls
  /** The `cosmos` option's staking controls; undefined without the option. */
  readonly cosmos: CosmosControls | undefined
  readonly keyring: Keyring
  readonly limits: Readonly<Limits>
  readonly clock: Clock
  readonly calls: CallExecutor
  /** Transaction replay for the debug_trace* methods. */
  readonly tracing: Tracing
  readonly transactions: Transactions
  /** The debug runtime: the enableProfiling setting, its directory, profilers and the log level. */
  readonly profiling: Profiling
  readonly controls: Controls
  /** Polling filters (eth_newFilter and friends). */
  readonly filters: FilterManager
  /** The directory of the node's database (admin_datadir); undefined for a chain in memory. */
  readonly dataDir: string | undefined
  /** What web3_clientVersion answers (hardhat_metadata, anvil_metadata and admin_nodeInfo repeat it). */
  readonly clientVersion: string
  /**
   * Hardhat compatibility (`hardhatCompat`): where Hardhat Network and geth answer differently,
   * Hardhat's answer (docs/hardhat.md).
   */
  readonly hardhatCompat: boolean
  /** True once `node.close()` began: every call is refused with NodeClosedError. */
  readonly closed: boolean
  /** The servers node.listen() (and the CLI) opened. */
  readonly servers: ServerControl
  /**
   * The chain's history as the JSON-RPC methods read it (rpc/history.ts): the local chain's, and
   * a fork's remote history at and below its fork block.
   */
  readonly history: History<HistoryPorts>
  /** The fork, when the node forks a remote chain (src/fork). */
  readonly fork: ForkStatus | undefined
  /**
   * The contract metadata and the explanation of failures from it (hardhat_addCompilationResult
   * adds to it; hardhat_getStackTraceFailuresCount reads its count).
   */
  readonly failures: FailureExplainer
  /** The node's log (createNode's `onLog`); undefined when none is asked for. */
  readonly log: NodeLog | undefined
  /** Names of the methods served (for rpc_modules). */
  readonly namespaces: () => string[]
}

/**
 * What the history readers (rpc/history.ts, rpc/history-forked.ts) and the block helpers of
 * rpc/blocks.ts read: a namespace that answers through them lists these ports too.
 */
export type HistoryPorts = Pick<Services, 'chain' | 'pool' | 'producer' | 'filters' | 'limits' | 'hardhatCompat' | 'history' | 'fork'>
