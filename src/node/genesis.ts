/**
 * The node's first block: a fork's fork block, a stored chain resumed, a geth genesis file
 * exactly, or a genesis of the node's options (the system contracts, the node's accounts, `alloc`
 * and a state dump, in that order: a later source's account replaces an earlier one). The accounts
 * are made into state by chain/genesis.ts, as a genesis file's and anvil_loadState's are.
 */
import type { NodeCommon } from '../execution/engine/common.js'
import type { Chain } from '../chain/chain.js'
import { SUPPORTED_HARDFORKS } from '../chain/common.js'
import { putAccount, type AllocAccount } from '../chain/genesis.js'
import { parseGethGenesis, type GenesisSpec } from '../chain/geth-genesis.js'
import { SYSTEM_CONTRACTS } from '../chain/system-contracts.js'
import { dumpToAlloc, parseDump } from '../controls/state-dump.js'
import type { ForkSession } from '../fork/session.js'
import { fromHex } from '../hex.js'
import { DEFAULTS, type NodeOptions } from '../options.js'
import { emptyDiff, type StateDiff } from '../state/types.js'
import type { Database } from '../chain/store.js'
import type { Clock } from '../clock.js'
import type { OpenedFork } from '../fork/fork.js'

/** What the chain starts from (the node's settings, src/node/settings.ts). */
export interface ChainStart {
  readonly options: NodeOptions
  readonly db: Database | undefined
  /** The chain id the database holds, when it holds a chain. */
  readonly storedChainId: bigint | undefined
  readonly chainId: bigint
  readonly common: NodeCommon
  readonly genesisFile: GenesisSpec | undefined
  /** The fork opened, when the node forks a remote. */
  readonly opened: OpenedFork | undefined
  /** The node's accounts and their genesis balances. */
  readonly balances: ReadonlyArray<{ address: string; balance: bigint }>
  readonly blockGasLimit: bigint
  /** When the chain's clock starts, if given. */
  readonly startTime: bigint | undefined
  readonly clock: Clock
}

/** The `genesis` option read, and checked against the other options. */
export function readGenesisFile(options: NodeOptions): GenesisSpec | undefined {
  if (options.genesis === undefined) return undefined
  const file = parseGethGenesis(options.genesis)
  if (file.laterForks.length === 0 && !(SUPPORTED_HARDFORKS as readonly string[]).includes(file.hardfork)) {
    throw new Error(`the genesis file's hardfork ${file.hardfork} is not supported; supported: ${SUPPORTED_HARDFORKS.join(', ')}`)
  }
  if (options.chainId !== undefined && BigInt(options.chainId) !== file.chainId) {
    throw new Error(`chainId ${options.chainId} differs from the genesis file's ${file.chainId}`)
  }
  return file
}

/** What an application adds to a genesis of the node's options (the `cosmos` option's module). */
export interface GenesisModules {
  /** Its accounts, before the node's accounts and `alloc` (which replace one of the same address). */
  readonly accounts?: ReadonlyArray<[string, AllocAccount]>
  /** Its records of the whole allocation, written last (the supply counter). */
  readonly seal?: (diff: StateDiff) => void
}

/** The genesis state of the node's options. `withSystem`: the system contracts (EIP-4788 on) are there too. */
export function genesisDiff(options: NodeOptions, balances: ChainStart['balances'], withSystem: boolean, modules: GenesisModules = {}): StateDiff {
  const diff = emptyDiff()
  if (withSystem) for (const c of SYSTEM_CONTRACTS) putAccount(diff, c.address, { nonce: 1n, code: fromHex(c.code) })
  for (const [address, account] of modules.accounts ?? []) putAccount(diff, address, account)
  for (const a of balances) putAccount(diff, a.address, { balance: a.balance })
  const fromDump = options.state === undefined ? {} : dumpToAlloc(parseDump(options.state))
  for (const [address, a] of Object.entries({ ...options.alloc, ...fromDump })) {
    putAccount(diff, address, { balance: a.balance, nonce: a.nonce, code: a.code === undefined ? undefined : fromHex(a.code), storage: a.storage })
  }
  modules.seal?.(diff)
  return diff
}

/**
 * Starts the chain: at the fork block, where the stored chain stopped, or at a new genesis. A
 * database that holds another chain id than the node's is refused before its blocks are read
 * (decoded under another chain id they fail obscurely).
 */
export async function startChain(chain: Chain, settings: ChainStart, fork: ForkSession, modules: GenesisModules = {}): Promise<void> {
  const { options, db, storedChainId, chainId, common, genesisFile, opened } = settings
  if (db !== undefined && storedChainId !== undefined && storedChainId !== chainId) {
    await db.close()
    throw new Error(
      `the database holds a chain with chain id ${storedChainId}, not ${chainId}: to resume it, leave chainId out or pass ${storedChainId} (CLI: --chain-id); for a new chain, use another database directory`,
    )
  }
  if (opened !== undefined) return fork.start(opened)
  // A stored chain goes on where it stopped; genesis options no longer apply.
  if (db !== undefined && (await chain.resume())) return
  if (genesisFile !== undefined) {
    // The file's genesis exactly, so its hash is the one geth computes: no accounts added.
    await chain.initGenesis(genesisFile.alloc, genesisFile.header)
  } else {
    await chain.initGenesis(genesisDiff(options, settings.balances, common.isActivatedEIP(4788), modules), {
      gasLimit: settings.blockGasLimit,
      timestamp: settings.startTime ?? BigInt(Math.floor(settings.clock.now() / 1000)),
      baseFeePerGas: common.isActivatedEIP(1559) ? (options.initialBaseFee ?? DEFAULTS.initialBaseFee) : undefined,
    })
  }
  await chain.recordChainId(chainId)
}
