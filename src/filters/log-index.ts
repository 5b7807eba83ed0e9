/**
 * The log index: every log of the chain in block order, with postings by address and by first
 * topic, so that a range query (eth_getLogs, eth_getFilterLogs) visits only the logs that can
 * match instead of decoding every block and receipt list of the range.
 *
 * It is fed by the chain's `block` event as blocks commit. Blocks taken off the chain
 * (evm_revert, hardhat_reset, rewinds) are dropped when the next block at their height commits,
 * or when a query finds the index above the head; a chain resumed from a database, or one the
 * index missed blocks of, is caught up lazily by the first query that needs those blocks.
 */
import type { Block } from '@ethereumjs/block'
import type { Chain } from '../chain/chain.js'
import type { RawLog, StoredReceipt } from '../chain/receipts.js'
import { data, type Hex, keyOf } from '../hex.js'
import { logMatches, type LogFilter } from './log-filter.js'

/** What the index keeps of one block: its identity, as a log shows it, and where its logs start. */
export interface IndexedBlock {
  readonly hash: Hex
  readonly number: number
  /** Seconds (a number: exact below 2^53, and no string kept per block). */
  readonly timestamp: number
  /** Hashes of the block's transactions that emitted logs, by transaction index. */
  readonly txHashes: Array<Hex | undefined>
  /** Position of the block's first log in the index. */
  readonly first: number
}

/** One log of the index. */
export interface IndexedLog {
  readonly log: RawLog
  /** Height of its block. */
  readonly height: number
  readonly txIndex: number
  /** Position in its block (the RPC's logIndex). */
  readonly logIndex: number
}

/** A matching log with its block, as a query returns it. */
export interface LogHit {
  readonly entry: IndexedLog
  readonly block: IndexedBlock
}

/** Called when a query's result passes `limit`: the height of the block where it did. */
export type OverLimit = (height: number) => never

/** No transaction of the block emitted logs (shared by every such block). */
const NO_TX_HASHES: Array<Hex | undefined> = []

/**
 * The index keeps its blocks and logs in parallel arrays of small values rather than an object
 * each (~100 bytes of heap a block and ~30 a log less); a query makes the {@link IndexedBlock}
 * and {@link IndexedLog} objects of what it returns.
 */
export class LogIndex {
  /**
   * Block hashes as unprefixed hex (one flat string; a `0x` one is two, ~30 bytes more), by
   * height less {@link base}, contiguous from the chain's first block.
   */
  private readonly blockHashes: string[] = []
  /** Block timestamps, by the same position. */
  private readonly timestamps: number[] = []
  /** Position of each block's first log in {@link logs}, by the same position. */
  private readonly firsts: number[] = []
  /** The transaction hashes of blocks with logs, by the same position (see {@link IndexedBlock.txHashes}). */
  private readonly txHashes = new Map<number, Array<Hex | undefined>>()
  /** The chain's first block number: 0, or a fork's fork block (whose older blocks are the remote's). */
  private base = 0
  /** Every log in chain order, with its block's position, transaction index and index in the block by the same position. */
  private readonly logs: RawLog[] = []
  private readonly logBlocks: number[] = []
  private readonly logTxIndexes: number[] = []
  private readonly logIndexes: number[] = []
  private readonly byAddress = new Map<string, number[]>()
  private readonly byTopic0 = new Map<string, number[]>()
  private readonly off: () => void
  /** The catch-up under way, shared by concurrent queries. */
  private catchingUp: Promise<void> | undefined

  constructor(private readonly chain: Chain) {
    const onBlock = (block: Block, receipts: StoredReceipt[]) => this.onBlock(block, receipts)
    chain.on('block', onBlock)
    this.off = () => chain.off('block', onBlock)
    // A new chain is indexed from its genesis (which has no logs) on; a resumed one on first use.
    this.base = Number(chain.firstNumber)
    if (chain.height === chain.firstNumber) this.add(chain.head, [])
  }

  /** Number of logs indexed (the chain's logs up to the highest block indexed so far). */
  get size(): number {
    return this.logs.length
  }

  /** The height of the highest block indexed. */
  get height(): number {
    return this.base + this.blockHashes.length - 1
  }

  /** The block at `position` (height less base), as a hit shows it. */
  private blockAt(position: number): IndexedBlock {
    return {
      hash: `0x${this.blockHashes[position] as string}`,
      number: this.base + position,
      timestamp: this.timestamps[position] as number,
      txHashes: this.txHashes.get(position) ?? NO_TX_HASHES,
      first: this.firsts[position] as number,
    }
  }

  /** A fork moved the chain's first block (a reset to another fork block): start again from it. */
  private rebase(): void {
    const first = Number(this.chain.firstNumber)
    if (first === this.base) return
    this.truncate(0)
    this.base = first
  }

  /** Stops following the chain. */
  close(): void {
    this.off()
  }

  /**
   * The logs of blocks `from`..`to` (heights at most the chain's) that match the filter's
   * addresses and topics, in chain order. `overLimit` is called once more than `limit` match.
   */
  async query(filter: LogFilter, from: number, to: number, limit: number, overLimit: OverLimit): Promise<LogHit[]> {
    await this.catchUp(to)
    const base = this.base
    from = Math.max(from, base) - base
    to -= base
    const top = Math.min(to, this.blockHashes.length - 1)
    const lo = this.firsts[from]
    if (lo === undefined || from > top) return []
    const hi = this.firsts[top + 1] ?? this.logs.length
    const out: LogHit[] = []
    let block: IndexedBlock | undefined
    const take = (position: number): void => {
      const log = this.logs[position] as RawLog
      if (!logMatches(log, filter)) return
      const at = this.logBlocks[position] as number
      if (out.length === limit) overLimit(base + at)
      if (block === undefined || block.number !== base + at) block = this.blockAt(at)
      const entry: IndexedLog = { log, height: base + at, txIndex: this.logTxIndexes[position] as number, logIndex: this.logIndexes[position] as number }
      out.push({ entry, block })
    }
    const candidates = this.candidates(filter, lo, hi)
    if (candidates === undefined) for (let p = lo; p < hi; p++) take(p)
    else for (const p of candidates) take(p)
    return out
  }

  /** Positions in [lo, hi) that the postings allow, ascending; undefined when they do not narrow. */
  private candidates(filter: LogFilter, lo: number, hi: number): number[] | undefined {
    let keys: Uint8Array[]
    let postings: Map<string, number[]>
    if (filter.addresses.length > 0) {
      keys = filter.addresses
      postings = this.byAddress
    } else {
      const topic0 = filter.topics[0]
      if (topic0 === undefined || topic0 === null) return undefined
      keys = topic0
      postings = this.byTopic0
    }
    const out: number[] = []
    const seen = new Set<string>()
    for (const key of keys) {
      const k = keyOf(key)
      if (seen.has(k)) continue
      seen.add(k)
      const list = postings.get(k)
      if (list === undefined) continue
      for (let i = lowerBound(list, lo); i < list.length && (list[i] as number) < hi; i++) out.push(list[i] as number)
    }
    if (seen.size > 1) out.sort((a, b) => a - b)
    return out
  }

  private onBlock(block: Block, receipts: StoredReceipt[]): void {
    this.rebase()
    const height = Number(block.header.number) - this.base
    // A block at a height already indexed replaces it and everything above (a revert came first).
    if (height < this.blockHashes.length) this.truncate(height)
    // A gap (a resumed chain, or blocks committed before the index existed) is filled by catchUp.
    if (height === this.blockHashes.length) this.add(block, receipts)
  }

  /** Brings the index to the chain's blocks up to `to`: drops reverted ones, reads missing ones. */
  private async catchUp(to: number): Promise<void> {
    for (;;) {
      this.rebase()
      to -= this.base
      const head = this.chain.head
      const headHeight = Number(head.header.number) - this.base
      if (this.blockHashes.length > headHeight + 1) this.truncate(headHeight + 1)
      const top = this.blockHashes[headHeight]
      // The head replaced without the index seeing it: start again from genesis.
      if (top !== undefined && top !== keyOf(head.hash())) this.truncate(0)
      // A revert while catching up may have taken `to` off the chain: the query stops at the head.
      if (this.blockHashes.length > Math.min(to, headHeight)) return
      this.catchingUp ??= this.readBlocks(to).finally(() => (this.catchingUp = undefined))
      await this.catchingUp
      to += this.base
    }
  }

  private async readBlocks(to: number): Promise<void> {
    while (this.blockHashes.length <= to) {
      const height = this.blockHashes.length
      const block = await this.chain.blockByNumber(BigInt(height + this.base))
      if (block === undefined) {
        if (BigInt(height + this.base) > this.chain.height) return
        throw new Error(`the chain has no block ${height + this.base} to index`)
      }
      const receipts = await this.chain.receipts(block.hash())
      // The chain moved while reading (a commit indexed it already, or a revert): read again.
      if (this.blockHashes.length !== height) continue
      const parent = this.blockHashes[height - 1]
      if (parent !== undefined && parent !== keyOf(block.header.parentHash)) {
        this.truncate(0)
        continue
      }
      this.add(block, receipts)
    }
  }

  private add(block: Block, receipts: StoredReceipt[]): void {
    const at = this.blockHashes.length
    const first = this.logs.length
    let txHashes: Array<Hex | undefined> | undefined
    let logIndex = 0
    for (let txIndex = 0; txIndex < receipts.length; txIndex++) {
      const logs = (receipts[txIndex] as StoredReceipt).logs
      if (logs.length === 0) continue
      const tx = block.transactions[txIndex]
      txHashes ??= []
      if (tx !== undefined) txHashes[txIndex] = data(tx.hash())
      for (const log of logs) {
        const position = this.logs.length
        this.logs.push(log)
        this.logBlocks.push(at)
        this.logTxIndexes.push(txIndex)
        this.logIndexes.push(logIndex++)
        post(this.byAddress, keyOf(log[0]), position)
        const topic0 = log[1][0]
        if (topic0 !== undefined) post(this.byTopic0, keyOf(topic0), position)
      }
    }
    this.blockHashes.push(keyOf(block.hash()))
    this.timestamps.push(Number(block.header.timestamp))
    this.firsts.push(first)
    if (txHashes !== undefined) this.txHashes.set(at, txHashes)
  }

  /** Drops the blocks from `height` on, with their logs and postings. */
  private truncate(height: number): void {
    const first = this.firsts[height]
    if (first === undefined) return
    if (first === 0) {
      // Every log goes (a reset, or a reorg below the first log): no posting is left to unpost.
      this.logs.length = 0
      this.byAddress.clear()
      this.byTopic0.clear()
    }
    while (this.logs.length > first) {
      const log = this.logs.pop() as RawLog
      unpost(this.byAddress, keyOf(log[0]))
      const topic0 = log[1][0]
      if (topic0 !== undefined) unpost(this.byTopic0, keyOf(topic0))
    }
    this.logBlocks.length = first
    this.logTxIndexes.length = first
    this.logIndexes.length = first
    for (let at = height; at < this.blockHashes.length; at++) this.txHashes.delete(at)
    this.blockHashes.length = height
    this.timestamps.length = height
    this.firsts.length = height
  }
}

function post(postings: Map<string, number[]>, key: string, position: number): void {
  const list = postings.get(key)
  if (list === undefined) postings.set(key, [position])
  else list.push(position)
}

/** Removes the newest posting of `key` (logs are dropped newest first). */
function unpost(postings: Map<string, number[]>, key: string): void {
  const list = postings.get(key)
  if (list === undefined) return
  list.pop()
  if (list.length === 0) postings.delete(key)
}

/** First index of the sorted `list` whose value is at least `value`. */
function lowerBound(list: number[], value: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((list[mid] as number) < value) lo = mid + 1
    else hi = mid
  }
  return lo
}
