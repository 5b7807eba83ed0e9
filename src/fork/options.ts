/**
 * The `fork` option of createNode: which remote chain to fork, at which block, and how to talk to
 * the remote. The remote's own settings (time-outs, retries, rate cap, batching) are the remote
 * client's (src/fork/remote/).
 */
import { chainIdRule, describe, string, type Rule } from '../option-rules.js'
import { remoteRule, type RemoteOptions } from './remote/index.js'

/** `createNode({ fork })`: fork a live chain, its state read on demand. The remote's settings are {@link RemoteOptions}. */
export interface ForkOptions extends RemoteOptions {
  /**
   * The block to fork at: a number, or a negative number for that many blocks before the
   * remote's head. Default: the remote's latest block when the node starts (pinned).
   */
  blockNumber?: number | bigint
  /** The chain id of the fork; default the remote's (`eth_chainId`). */
  chainId?: number | bigint
  /** A directory where fetched state is kept between runs (opt-in). */
  cacheDir?: string
  /**
   * Most answers of the remote's history (blocks, transactions, receipts, logs at or below the
   * fork block) kept in memory, the least recently used dropped first; 0 keeps none. Default
   * {@link DEFAULT_HISTORY_ENTRIES}.
   */
  historyEntries?: number
  /**
   * Most trie nodes of the remote state one walk of the state (debug_accountRange,
   * debug_dumpBlock) may fetch, each with a proof; past it the walk fails saying why. Default
   * {@link DEFAULT_WALK_FETCHES}.
   */
  walkFetches?: number
}

/** The default of `fork.walkFetches`. */
export const DEFAULT_WALK_FETCHES = 1_000

const walkFetches: Rule = (v, fail) => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > 1_000_000) fail(`must be an integer from 0 to 1000000, got ${describe(v)}`)
}

/** The default of `fork.historyEntries`. */
export const DEFAULT_HISTORY_ENTRIES = 1_000

const historyEntries: Rule = (v, fail) => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > 10_000_000) fail(`must be an integer from 0 to 10000000, got ${describe(v)}`)
}

const blockNumber: Rule = (v, fail) => {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return
  if (typeof v === 'bigint') return
  fail(`must be an integer block number (number or bigint; negative: that many before the remote's head), got ${describe(v)}`)
}

/** The rule of the `fork` option: the remote's fields (src/fork/remote) and the fork's own. */
export const forkRule: Rule = remoteRule({ blockNumber, chainId: chainIdRule, cacheDir: string, historyEntries, walkFetches })
