/**
 * Polling filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter): each one
 * collects what happened since its last poll, and expires after an idle period on the injected
 * clock, as geth's filter system does.
 */
import { randomBytes } from 'node:crypto'
import type { Block } from '@ethereumjs/block'
import type { Chain } from '../chain/chain.js'
import type { StoredReceipt } from '../chain/receipts.js'
import type { Clock } from '../clock.js'
import { LimitReached, NotFound, Refused } from '../domain-errors.js'
import { data, type Hex } from '../hex.js'
import type { Limits } from '../limits.js'
import type { PoolEntry, TxPool } from '../txpool/pool.js'
import { matchingLogs, type FormatLogs, type LogFilter } from './log-filter.js'
import { LogIndex } from './log-index.js'

/**
 * Filter kinds with geth's numbering (filters.Type before 1.13: Unknown 0, Logs 1, PendingLogs 2,
 * MinedAndPendingLogs 3, PendingTransactions 4, Blocks 5); the spec's error message prints it.
 */
export const FilterType = { logs: 1, pendingTransactions: 4, blocks: 5 } as const

/** A filter kind's number. */
export type FilterTypeNumber = (typeof FilterType)[keyof typeof FilterType]

interface PollFilter {
  readonly type: FilterTypeNumber
  readonly criteria: LogFilter | undefined
  items: unknown[]
  cancelExpiry: () => void
  lastPoll: number
}

/** A new opaque id: 16 random bytes as `0x…` hex, the shape geth's rpc.NewID gives. */
export function newId(): Hex {
  return `0x${randomBytes(16).toString('hex')}`
}

/** The polling filters of one node. */
export class FilterManager {
  private readonly filters = new Map<string, PollFilter>()
  private readonly unlisten: Array<() => void> = []
  /** Every log of the chain, for range queries (eth_getLogs, eth_getFilterLogs). */
  readonly logIndex: LogIndex

  constructor(
    chain: Chain,
    pool: TxPool,
    private readonly clock: Clock,
    private readonly limits: Readonly<Limits>,
    /** How a matching log is handed to the poller (the RPC layer's eth_getLogs shape). */
    private readonly formatLogs: FormatLogs,
  ) {
    this.logIndex = new LogIndex(chain)
    this.unlisten.push(() => this.logIndex.close())
    const onBlock = (block: Block, receipts: StoredReceipt[]) => this.onBlock(block, receipts)
    const onPending = (entry: PoolEntry) => this.push(FilterType.pendingTransactions, () => `0x${entry.hash}`)
    chain.on('block', onBlock)
    pool.on('pending', onPending)
    this.unlisten.push(() => chain.off('block', onBlock), () => pool.off('pending', onPending))
  }

  /** Number of live filters. */
  get size(): number {
    return this.filters.size
  }

  /** Installs a filter; -32005 past the live-filter limit. */
  install(type: FilterTypeNumber, criteria?: LogFilter): Hex {
    this.sweep()
    if (this.filters.size >= this.limits.liveFilters) {
      throw new LimitReached(`too many filters, the limit is ${this.limits.liveFilters}`)
    }
    const id = newId()
    const filter: PollFilter = { type, criteria, items: [], cancelExpiry: () => {}, lastPoll: this.clock.now() }
    this.filters.set(id, filter)
    this.arm(id, filter)
    return id
  }

  /** What arrived since the last poll; resets the idle timer. */
  changes(id: string): unknown[] {
    const filter = this.get(id)
    const items = filter.items
    filter.items = []
    this.arm(id, filter)
    return items
  }

  /** The criteria of a log filter; geth's error for other kinds. Resets the idle timer. */
  criteria(id: string): LogFilter {
    const filter = this.get(id)
    if (filter.type !== FilterType.logs || filter.criteria === undefined) {
      throw new Refused(`filter ${id} doesn't have a LogsSubscription type: got ${filter.type}`)
    }
    this.arm(id, filter)
    return filter.criteria
  }

  /** True while filter `id` exists (not removed, not expired). */
  has(id: string): boolean {
    return this.live(id) !== undefined
  }

  /** Removes a filter: true if it existed. */
  uninstall(id: string): boolean {
    const filter = this.live(id)
    if (filter === undefined) return false
    filter.cancelExpiry()
    this.filters.delete(id)
    return true
  }

  /** Drops every filter and goes on listening (Hardhat mode's reset: a new provider has none). */
  clear(): void {
    for (const f of this.filters.values()) f.cancelExpiry()
    this.filters.clear()
  }

  /** Stops listening and drops every filter. */
  close(): void {
    for (const off of this.unlisten.splice(0)) off()
    this.clear()
  }

  private get(id: string): PollFilter {
    const filter = this.live(id)
    if (filter === undefined) throw new NotFound('filter not found')
    return filter
  }

  /** The filter if it exists and has not outlived its idle time (timers may lag a fake clock). */
  private live(id: string): PollFilter | undefined {
    const filter = this.filters.get(id)
    if (filter === undefined) return undefined
    if (this.expired(filter)) {
      filter.cancelExpiry()
      this.filters.delete(id)
      return undefined
    }
    return filter
  }

  private expired(filter: PollFilter): boolean {
    return this.clock.now() - filter.lastPoll >= this.limits.filterIdleMs
  }

  private sweep(): void {
    for (const id of [...this.filters.keys()]) this.live(id)
  }

  private arm(id: string, filter: PollFilter): void {
    filter.cancelExpiry()
    filter.lastPoll = this.clock.now()
    filter.cancelExpiry = this.clock.setTimer(() => {
      if (this.filters.get(id) === filter) this.filters.delete(id)
    }, this.limits.filterIdleMs)
  }

  private push(type: FilterTypeNumber, item: () => unknown): void {
    let value: unknown
    for (const filter of this.filters.values()) {
      if (filter.type !== type) continue
      value ??= item()
      filter.items.push(value)
    }
  }

  private onBlock(block: Block, receipts: StoredReceipt[]): void {
    if (block.header.number === 0n) return
    this.push(FilterType.blocks, () => data(block.hash()))
    for (const filter of this.filters.values()) {
      if (filter.type !== FilterType.logs || filter.criteria === undefined) continue
      if (!inRange(filter.criteria, block.header.number)) continue
      for (const log of matchingLogs(block, receipts, filter.criteria, this.formatLogs)) filter.items.push(log)
    }
  }
}

/** geth's rule for a log filter's live logs: the block must lie in the numbered range, if any. */
function inRange(criteria: LogFilter, number: bigint): boolean {
  if (criteria.blockHash !== undefined) return false
  const from = criteria.fromBlock
  const to = criteria.toBlock
  if (from?.kind === 'number' && number < from.number) return false
  if (to?.kind === 'number' && number > to.number) return false
  return !(to?.kind === 'tag' && to.tag === 'earliest')
}
