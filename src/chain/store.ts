/**
 * The chain's records in an abstract-level database, behind bounded in-memory caches.
 * One `commit` writes a block, its receipts, transaction index, commit certificate, trie nodes
 * and the new head in a single atomic batch.
 *
 * Without a database (a node created without `db`) the records live only in memory: the caches
 * keep everything and nothing is written. Writing each block into memory-level as well, to hold
 * a second copy in the same process, cost ~9 % of a transfer (its red-black tree and
 * abstract-level's per-operation checks).
 */
import type { AbstractLevel } from 'abstract-level'
import { RLP } from '@ethereumjs/rlp'
import { fromHex, keyOf, toBigInt } from '../hex.js'
import { decodeReceipts, encodeReceipts, isZeroBytes, type RawLog, type StoredReceipt, ZERO_BLOOM } from './receipts.js'
import { decodeCertificate, encodeCertificate } from '../consensus/certificate.js'
import type { CommitCertificate } from '../consensus/votes.js'

/** Any abstract-level database with string keys and binary values. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Database = AbstractLevel<any, any, any>

/** Where a transaction sits. */
export interface TxLocation {
  blockHash: Uint8Array
  index: number
  /** `keyOf(blockHash)`, when the location was kept in memory at commit. */
  blockKey?: string
}

/** A bounded map that forgets its oldest entries first. */
class Recent<V> {
  private readonly map = new Map<string, V>()
  constructor(private readonly limit: number = Infinity) {}
  get(key: string): V | undefined {
    return this.map.get(key)
  }
  delete(key: string): void {
    this.map.delete(key)
  }
  clear(): void {
    this.map.clear()
  }
  set(key: string, value: V): void {
    this.map.set(key, value)
    if (this.limit !== Infinity && this.map.size > this.limit) {
      const oldest = this.map.keys().next().value
      if (oldest !== undefined) this.map.delete(oldest)
    }
  }
}

const enc = { keyEncoding: 'utf8', valueEncoding: 'view' } as const

/**
 * The receipts' logs (addresses, topics and data), blooms and addresses a chain keeps are copied
 * into shared slabs: as the engine makes them, each is an array of its own, which gets an
 * ArrayBuffer object too once anything takes a view of it (~130 bytes of heap more per field,
 * ~650 a Transfer log). Data longer than {@link LOG_FIELD_MAX} keeps its array.
 */
const LOG_SLAB = 8192
const LOG_FIELD_MAX = 1024
let logSlab = new Uint8Array(LOG_SLAB)
let logsUsed = 0

function slabCopy(bytes: Uint8Array): Uint8Array {
  const n = bytes.length
  if (n === 0 || n > LOG_FIELD_MAX) return bytes
  if (logsUsed + n > LOG_SLAB) {
    logSlab = new Uint8Array(LOG_SLAB)
    logsUsed = 0
  }
  const out = logSlab.subarray(logsUsed, logsUsed + n)
  out.set(bytes)
  logsUsed += n
  return out
}

/**
 * Gives each receipt's logs, bloom, sender and created address the same bytes in slabs (new
 * arrays: the old ones are not changed; an all-zero bloom is the shared `ZERO_BLOOM`).
 */
function compactReceipts(receipts: StoredReceipt[]): void {
  for (const receipt of receipts) {
    receipt.bloom = receipt.bloom.length === 256 && isZeroBytes(receipt.bloom) ? ZERO_BLOOM : slabCopy(receipt.bloom)
    receipt.from = slabCopy(receipt.from)
    if (receipt.contractAddress !== undefined) receipt.contractAddress = slabCopy(receipt.contractAddress)
    const logs = receipt.logs
    if (logs.length === 0) continue
    const copies: RawLog[] = []
    for (let i = 0; i < logs.length; i++) {
      const [address, topics, data] = logs[i] as RawLog
      const kept: Uint8Array[] = []
      for (let k = 0; k < topics.length; k++) kept.push(slabCopy(topics[k] as Uint8Array))
      copies.push([slabCopy(address), kept, slabCopy(data)])
    }
    receipt.logs = copies
  }
}

/** One block's records, ready for `commit`. */
export interface BlockRecord {
  hash: Uint8Array
  /** `keyOf(hash)`, when the caller has it already. */
  key?: string
  number: bigint
  rlp: Uint8Array
  receipts: StoredReceipt[]
  txHashes: Uint8Array[]
  certificate?: CommitCertificate
  nodes: Map<string, Uint8Array>
  /** Small named values stored with the block (`stateRoot`, `chainId`). */
  meta?: Record<string, Uint8Array>
  /** The parent's state root after test-control writes at it, when they changed it (irregular state). */
  irregular?: { blockHash: Uint8Array; stateRoot: Uint8Array }
}

/** The meta key of the chain id a database's chain was made under. */
const CHAIN_ID = 'chainId'

/**
 * The chain id a database's chain was made under, or undefined for a database without a chain;
 * read before the chain is opened (its blocks decode under that id).
 */
export async function storedChainId(db: Database): Promise<bigint | undefined> {
  const stored = (await db.get(`m${CHAIN_ID}`, enc)) as Uint8Array | undefined
  return stored === undefined ? undefined : BigInt(`0x${Buffer.from(stored).toString('hex') || '0'}`)
}

export class ChainStore {
  private readonly hashes: string[] = []
  private readonly blocks: Recent<Uint8Array>
  private readonly receipts: Recent<StoredReceipt[]>
  private readonly txs: Recent<TxLocation>
  private readonly certificates: Recent<CommitCertificate>
  /** Named values of a store without a database. */
  private readonly metaValues = new Map<string, Uint8Array>()

  /** @param db where the chain is kept; undefined keeps it in memory only. */
  constructor(readonly db: Database | undefined) {
    const bounded = db !== undefined
    this.blocks = new Recent(bounded ? 1024 : Infinity)
    this.receipts = new Recent(bounded ? 1024 : Infinity)
    this.txs = new Recent(bounded ? 16384 : Infinity)
    this.certificates = new Recent(bounded ? 1024 : Infinity)
  }

  /** The number of the first stored block: 0, or a fork's fork block. */
  private first = 0n

  /** Makes `number` the first block's (a fork starts at its fork block); before any block is stored. */
  startAt(number: bigint): void {
    if (this.hashes.length > 0) throw new Error('the chain already has blocks')
    this.first = number
  }

  /** Forgets every block of a chain kept in memory (a reset to another fork). */
  clear(): void {
    if (this.db !== undefined) throw new Error('a chain kept in a database is not cleared')
    this.hashes.length = 0
    this.first = 0n
    for (const recent of [this.blocks, this.receipts, this.txs, this.certificates]) recent.clear()
    this.metaValues.clear()
  }

  /** Height of the newest stored block, or -1 before genesis. */
  get height(): number {
    return Number(this.first) + this.hashes.length - 1
  }

  hashAt(number: bigint): Uint8Array | undefined {
    const i = number - this.first
    if (i < 0n || i >= BigInt(this.hashes.length)) return undefined
    return fromHex(this.hashes[Number(i)] as string)
  }

  async blockRlp(hash: Uint8Array): Promise<Uint8Array | undefined> {
    const key = keyOf(hash)
    return this.blocks.get(key) ?? (await this.load(`b${key}`, (v) => (this.blocks.set(key, v), v)))
  }

  async receiptsOf(hash: Uint8Array): Promise<StoredReceipt[] | undefined> {
    const key = keyOf(hash)
    return this.receipts.get(key) ?? (await this.load(`r${key}`, (v) => {
      const r = decodeReceipts(v)
      this.receipts.set(key, r)
      return r
    }))
  }

  async txLocation(hash: Uint8Array): Promise<TxLocation | undefined> {
    const key = keyOf(hash)
    return this.txs.get(key) ?? (await this.load(`t${key}`, (v) => {
      const [blockHash, index] = RLP.decode(v) as unknown as [Uint8Array, Uint8Array]
      const loc = { blockHash, index: Number(toBigInt(index)) }
      this.txs.set(key, loc)
      return loc
    }))
  }

  /** A transaction's location from memory, without a promise (undefined: not in memory). */
  txLocationNow(key: string): TxLocation | undefined {
    return this.txs.get(key)
  }

  /** A block's receipts from memory, without a promise (undefined: not in memory). */
  receiptsNow(blockKey: string): StoredReceipt[] | undefined {
    return this.receipts.get(blockKey)
  }

  async certificate(hash: Uint8Array): Promise<CommitCertificate | undefined> {
    const key = keyOf(hash)
    return this.certificates.get(key) ?? (await this.load(`c${key}`, (v) => decodeCertificate(v)))
  }

  /** A trie node from the database, for the node store's cache misses. */
  async node(key: string): Promise<Uint8Array | undefined> {
    return this.load(`n${key}`, (v) => v)
  }

  /**
   * Writes one block atomically, then makes it visible in memory. Without a database nothing is
   * written and nothing is awaited: undefined, the block is visible on return.
   */
  commit(record: BlockRecord): Promise<void> | undefined {
    const key = record.key ?? keyOf(record.hash)
    if (this.db !== undefined) return this.writeBlock(key, record).then(() => this.keep(key, record))
    if (record.meta !== undefined) for (const name in record.meta) this.metaValues.set(name, record.meta[name] as Uint8Array)
    this.keep(key, record)
    return undefined
  }

  /** Makes a written block visible in memory. */
  private keep(key: string, record: BlockRecord): void {
    this.hashes.push(key)
    this.blocks.set(key, record.rlp)
    // A block without receipts needs no entry in memory: a miss reads as none (hardhat_mine's
    // thousands of empty blocks keep one map entry less each).
    if (record.receipts.length > 0 || this.db !== undefined) {
      compactReceipts(record.receipts)
      this.receipts.set(key, record.receipts)
    }
    const { txHashes } = record
    for (let index = 0; index < txHashes.length; index++) this.txs.set(keyOf(txHashes[index] as Uint8Array), { blockHash: record.hash, index, blockKey: key })
    if (record.certificate !== undefined) this.certificates.set(key, record.certificate)
  }

  private async writeBlock(key: string, record: BlockRecord): Promise<void> {
    const ops: Array<{ type: 'put'; key: string; value: Uint8Array }> = [
      { type: 'put', key: `b${key}`, value: record.rlp },
      { type: 'put', key: `r${key}`, value: encodeReceipts(record.receipts) },
      { type: 'put', key: `h${record.number.toString(16).padStart(16, '0')}`, value: record.hash },
      { type: 'put', key: 'head', value: record.hash },
    ]
    record.txHashes.forEach((tx, index) =>
      ops.push({ type: 'put', key: `t${keyOf(tx)}`, value: RLP.encode([record.hash, index]) }),
    )
    if (record.certificate !== undefined) {
      ops.push({ type: 'put', key: `c${key}`, value: encodeCertificate(record.certificate) })
    }
    for (const [nodeKey, value] of record.nodes) ops.push({ type: 'put', key: `n${nodeKey}`, value })
    for (const [name, value] of Object.entries(record.meta ?? {})) ops.push({ type: 'put', key: `m${name}`, value })
    if (record.irregular !== undefined) ops.push({ type: 'put', key: `i${keyOf(record.irregular.blockHash)}`, value: record.irregular.stateRoot })
    await (this.db as Database).batch(ops, enc)
  }

  /**
   * Removes the newest blocks (evm_revert), newest first in `blocks` (each with its map key, the
   * commit's `keyOf` of its hash), which must be the chain's top blocks: their records, index entries and irregular roots, and the head pointer moves to
   * `head` (the oldest one's parent). In a database it is one batch, with `meta` (the head
   * state's root goes with the head); in memory, map deletes only.
   */
  async removeNewest(blocks: ReadonlyArray<{ key: string; number: bigint; parentHash: Uint8Array; txHashes: Uint8Array[] }>, head: Uint8Array, meta?: Record<string, Uint8Array>): Promise<void> {
    const oldest = blocks[blocks.length - 1]
    if (oldest === undefined) return
    if (this.db !== undefined) {
      const ops: Array<{ type: 'del'; key: string } | { type: 'put'; key: string; value: Uint8Array }> = []
      for (const block of blocks) {
        const key = block.key
        ops.push({ type: 'del', key: `b${key}` }, { type: 'del', key: `r${key}` }, { type: 'del', key: `c${key}` })
        ops.push({ type: 'del', key: `h${block.number.toString(16).padStart(16, '0')}` })
        ops.push({ type: 'del', key: `i${keyOf(block.parentHash)}` })
        for (const tx of block.txHashes) ops.push({ type: 'del', key: `t${keyOf(tx)}` })
      }
      ops.push({ type: 'put', key: 'head', value: head })
      for (const name in meta) ops.push({ type: 'put', key: `m${name}`, value: meta[name] as Uint8Array })
      await this.db.batch(ops, enc)
    } else if (meta !== undefined) {
      for (const name in meta) this.metaValues.set(name, meta[name] as Uint8Array)
    }
    this.hashes.length = Number(oldest.number - this.first)
    for (const block of blocks) {
      const key = block.key
      this.blocks.delete(key)
      this.receipts.delete(key)
      this.certificates.delete(key)
      for (const tx of block.txHashes) this.txs.delete(keyOf(tx))
    }
  }

  /**
   * Removes every block after the first (genesis, or a fork's fork block) in one step
   * (hardhat_reset): their records, index entries and irregular roots, and the head pointer back to
   * the first block, as {@link removeNewest} of them all would, without reading
   * a block. In a database it is one batch, with `meta` (the head state's root goes with the head):
   * the transaction index's entries are found by its key range (the first block has no
   * transactions of its own: a genesis or a fork block never has).
   */
  async truncateToFirst(meta: Record<string, Uint8Array> = {}): Promise<void> {
    const hashes = this.hashes
    if (hashes.length <= 1) return this.writeNodes(new Map(), meta)
    const firstKey = hashes[0] as string
    if (this.db !== undefined) {
      const ops: Array<{ type: 'del'; key: string } | { type: 'put'; key: string; value: Uint8Array }> = []
      for (let i = 1; i < hashes.length; i++) {
        const key = hashes[i] as string
        ops.push({ type: 'del', key: `b${key}` }, { type: 'del', key: `r${key}` }, { type: 'del', key: `c${key}` })
        ops.push({ type: 'del', key: `h${(this.first + BigInt(i)).toString(16).padStart(16, '0')}` })
        // A block's irregular root is kept under its hash when its child commits: every block but the head may have one.
        ops.push({ type: 'del', key: `i${hashes[i - 1] as string}` })
      }
      for await (const [key, value] of this.db.iterator({ gte: 't', lt: 'u', ...enc })) {
        const [blockHash] = RLP.decode(value as Uint8Array) as unknown as [Uint8Array]
        if (keyOf(blockHash) !== firstKey) ops.push({ type: 'del', key: key as string })
      }
      ops.push({ type: 'put', key: 'head', value: fromHex(firstKey) })
      for (const name in meta) ops.push({ type: 'put', key: `m${name}`, value: meta[name] as Uint8Array })
      await this.db.batch(ops, enc)
    } else {
      for (const name in meta) this.metaValues.set(name, meta[name] as Uint8Array)
    }
    hashes.length = 1
    // A database's caches may hold the first block's records, memory's are the only copy: they stay.
    const rlp = this.blocks.get(firstKey)
    const receipts = this.receipts.get(firstKey)
    const certificate = this.certificates.get(firstKey)
    for (const recent of [this.blocks, this.receipts, this.txs, this.certificates]) recent.clear()
    if (rlp !== undefined) this.blocks.set(firstKey, rlp)
    if (receipts !== undefined) this.receipts.set(firstKey, receipts)
    if (certificate !== undefined) this.certificates.set(firstKey, certificate)
  }

  /** Writes trie nodes made outside a block (state changes by test controls), with meta values. */
  async writeNodes(nodes: Map<string, Uint8Array>, meta: Record<string, Uint8Array> = {}): Promise<void> {
    const ops = [...nodes].map(([k, value]) => ({ type: 'put' as const, key: `n${k}`, value }))
    for (const [name, value] of Object.entries(meta)) ops.push({ type: 'put', key: `m${name}`, value })
    if (this.db === undefined) for (const [name, value] of Object.entries(meta)) this.metaValues.set(name, value)
    else if (ops.length > 0) await this.db.batch(ops, enc)
  }

  /** The irregular state roots of a stored chain: block hash → root after test-control writes. */
  async irregularRoots(): Promise<Map<string, Uint8Array>> {
    const roots = new Map<string, Uint8Array>()
    if (this.db === undefined) return roots
    for await (const [key, value] of this.db.iterator({ gte: 'i', lt: 'j', ...enc })) roots.set((key as string).slice(1), value as Uint8Array)
    return roots
  }

  /** Records the chain id the chain is made under (see {@link storedChainId}). */
  writeChainId(chainId: bigint): Promise<void> {
    return this.writeNodes(new Map(), { [CHAIN_ID]: fromHex(chainId.toString(16)) })
  }

  /** A named value stored with `meta`. */
  async meta(name: string): Promise<Uint8Array | undefined> {
    if (this.db === undefined) return this.metaValues.get(name)
    return this.load(`m${name}`, (v) => v)
  }

  /**
   * Reads a stored chain's height index; returns its head hash, or undefined for an empty
   * database.
   */
  async open(): Promise<Uint8Array | undefined> {
    if (this.db === undefined) return undefined
    const head = (await this.db.get('head', enc)) as Uint8Array | undefined
    if (head === undefined) return undefined
    // `h` + 16 hex digits sort in height order ('head' sorts among them and is skipped).
    for await (const [key, value] of this.db.iterator({ gte: 'h', lt: 'i', ...enc })) {
      if ((key as string).length === 17) this.hashes.push(keyOf(value as Uint8Array))
    }
    return head
  }

  private async load<T>(key: string, decode: (v: Uint8Array) => T): Promise<T | undefined> {
    if (this.db === undefined) return undefined
    const value = (await this.db.get(key, enc)) as Uint8Array | undefined
    return value === undefined ? undefined : decode(value)
  }
}

