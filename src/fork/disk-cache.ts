/**
 * The fork's cache on disk (opt-in): the remote's answers that cannot change at a pinned fork
 * block, kept between runs so a second run starts warm and works with the remote unreachable for
 * what it already fetched. Layout: `<dir>/<chainId>/<blockNumber>/<method>/<aa>/<sha256>.json`,
 * one file per answer holding `{ method, params, result }`, where the hash is of the method and
 * its canonical params (hex in lower case) and `aa` its first byte (so no folder grows past a few
 * thousand files). Files are written to a unique temporary name and renamed into place, so a
 * reader never sees half a file and two processes sharing the folder at most write the same
 * answer twice. Nothing is read before it is asked for.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { checkOptions, describe, integer } from '../option-rules.js'
import type { RemoteClient } from './remote/index.js'

/** Where a cache belongs: the remote's chain and the fork block. */
export interface ForkCacheKey {
  chainId: bigint
  blockNumber: bigint
}

/** Limits of a cache. */
export interface ForkCacheOptions {
  /** Answers stored for one fork point; past it nothing more is written (what is there is still read). Default 1 000 000. */
  maxEntries?: number
  /** Bytes of one stored answer (its JSON); a larger answer is used but not stored. Default 16 MiB. */
  maxEntryBytes?: number
}

/** The defaults of {@link ForkCacheOptions}. */
export const FORK_CACHE_DEFAULTS = Object.freeze({ maxEntries: 1_000_000, maxEntryBytes: 16 * 1024 * 1024 })

/** Counts since the cache was opened. */
export interface ForkCacheStats {
  hits: number
  misses: number
  /** Answers written. */
  writes: number
  /** Answers not written: over `maxEntryBytes`, past `maxEntries`, or a write that failed (full disk, no permission). */
  skipped: number
}

/** An open cache for one fork point. */
export interface ForkCache {
  /** The fork point's folder: `<dir>/<chainId>/<blockNumber>`. */
  readonly dir: string
  /** The stored answer to `method(params)`, or undefined when there is none (or it is unreadable). */
  get(method: string, params: readonly unknown[]): Promise<{ result: unknown } | undefined>
  /** Stores the answer to `method(params)`; never throws (a failed write counts as skipped). */
  put(method: string, params: readonly unknown[], result: unknown): Promise<void>
  stats(): ForkCacheStats
}

// Method names become folder names: only plain JSON-RPC names are cached.
const METHOD = /^[A-Za-z][A-Za-z0-9_]{0,99}$/

/** Params with 0x-hex strings in lower case, so `0xAbC…` and `0xabc…` are one entry. */
function canonical(value: unknown): unknown {
  if (typeof value === 'string') return /^0x[0-9a-fA-F]*$/.test(value) ? value.toLowerCase() : value
  if (Array.isArray(value)) return value.map(canonical)
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    )
  }
  return value
}

/**
 * Opens (lazily: nothing is read or created until used) the cache of `key` under `dir`; throws an
 * `InvalidOptionError` for bad options.
 */
export function openForkCache(dir: string, key: ForkCacheKey, options: ForkCacheOptions = {}): ForkCache {
  if (typeof dir !== 'string' || dir === '') throw new TypeError(`openForkCache: dir must be a non-empty path, got ${describe(dir)}`)
  if (typeof key?.chainId !== 'bigint' || key.chainId < 0n || typeof key.blockNumber !== 'bigint' || key.blockNumber < 0n) {
    throw new TypeError('openForkCache: key must be { chainId: bigint, blockNumber: bigint }, both 0 or more')
  }
  checkOptions('openForkCache', { maxEntries: integer(0), maxEntryBytes: integer(0) }, options)
  const maxEntries = options.maxEntries ?? FORK_CACHE_DEFAULTS.maxEntries
  const maxEntryBytes = options.maxEntryBytes ?? FORK_CACHE_DEFAULTS.maxEntryBytes
  const root = path.join(path.resolve(dir), key.chainId.toString(), key.blockNumber.toString())
  const stats: ForkCacheStats = { hits: 0, misses: 0, writes: 0, skipped: 0 }
  // Entries on disk, counted on the first write (other processes' later writes are not seen).
  let counted: Promise<void> | undefined
  let entries = 0

  const locate = (method: string, params: readonly unknown[]) => {
    const canon = JSON.stringify(canonical(params))
    const hash = createHash('sha256').update(method).update('\n').update(canon).digest('hex')
    return { file: path.join(root, method, hash.slice(0, 2), `${hash}.json`), canon }
  }

  return {
    dir: root,
    async get(method, params) {
      if (!METHOD.test(method)) return undefined
      const { file, canon } = locate(method, params)
      try {
        const stored = JSON.parse(await readFile(file, 'utf8')) as { method?: unknown; params?: unknown; result?: unknown }
        if (stored.method === method && JSON.stringify(stored.params) === canon && 'result' in stored) {
          stats.hits++
          return { result: stored.result }
        }
      } catch {
        // Absent or unreadable: a miss.
      }
      stats.misses++
      return undefined
    },
    async put(method, params, result) {
      if (!METHOD.test(method) || result === undefined) return void stats.skipped++
      const { file, canon } = locate(method, params)
      const text = `{"method":${JSON.stringify(method)},"params":${canon},"result":${JSON.stringify(result)}}\n`
      if (Buffer.byteLength(text) > maxEntryBytes) return void stats.skipped++
      counted ??= countEntries(root).then((n) => void (entries += n))
      await counted
      // Checked and taken in one step, so concurrent writes cannot pass the limit together.
      if (entries >= maxEntries) return void stats.skipped++
      entries++
      const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
      try {
        await mkdir(path.dirname(file), { recursive: true })
        await writeFile(tmp, text)
        await rename(tmp, file)
        stats.writes++
      } catch {
        entries--
        stats.skipped++
        await rm(tmp, { force: true }).catch(() => {})
      }
    },
    stats: () => ({ ...stats }),
  }
}

/** Answer files under a fork point's folder (`<method>/<aa>/*.json`). */
async function countEntries(root: string): Promise<number> {
  let n = 0
  const list = (p: string) => readdir(p).catch(() => [] as string[])
  for (const method of await list(root)) {
    for (const fan of await list(path.join(root, method))) {
      n += (await list(path.join(root, method, fan))).filter((f) => f.endsWith('.json')).length
    }
  }
  return n
}

/**
 * `remote` answered from `cache` first: a request `isCacheable` accepts is looked up on disk,
 * and on a miss sent to the remote and its answer stored (a `null` answer is not: it means "not
 * known", which may change). Only the caller knows which answers cannot change at its fork
 * block: state read at the fork block or below by number (eth_getProof, eth_getBalance,
 * eth_getCode, eth_getStorageAt, eth_getTransactionCount), blocks by number at or below it, by
 * hash, transactions and receipts that exist, eth_chainId; never a tag such as `latest`.
 * The same request asked again while it is on its way is sent once. `stats()` are the remote's.
 */
export function cachedRemote(remote: RemoteClient, cache: ForkCache, isCacheable: (method: string, params: readonly unknown[]) => boolean): RemoteClient {
  const inFlight = new Map<string, Promise<unknown>>()
  return {
    async request(args) {
      const params = args.params ?? []
      if (!isCacheable(args.method, params)) return remote.request(args)
      const key = `${args.method}\n${JSON.stringify(canonical(params))}`
      const already = inFlight.get(key)
      if (already !== undefined) return already
      const asked = (async () => {
        const hit = await cache.get(args.method, params)
        if (hit !== undefined) return hit.result
        const result = await remote.request(args)
        if (result !== null) await cache.put(args.method, params, result)
        return result
      })()
      inFlight.set(key, asked)
      try {
        return await asked
      } finally {
        inFlight.delete(key)
      }
    },
    stats: () => remote.stats(),
    close: () => remote.close(),
  }
}

const QUANTITY = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]{0,15})$/
const HASH = /^0x[0-9a-fA-F]{64}$/

/** True when `block` is a block number (hex quantity, not a tag) at or below `forkBlock`. */
function atOrBelow(block: unknown, forkBlock: bigint): boolean {
  return typeof block === 'string' && QUANTITY.test(block) && BigInt(block) <= forkBlock
}

/**
 * A ready `isCacheable` for {@link cachedRemote}: the requests whose answer cannot change once
 * the remote has passed `forkBlock` (short of a reorg deeper than the fork block, which is why a
 * fork should be pinned some blocks behind the remote's head before its answers are kept):
 * `eth_chainId`; state read at a block number at or below the fork (`eth_getBalance`,
 * `eth_getCode`, `eth_getTransactionCount`, `eth_getStorageAt`, `eth_getProof`, `eth_call`);
 * blocks and their receipts by such a number or by hash; transactions and receipts by hash (a
 * `null`, not yet known, is never stored); `eth_getLogs` with both ends numbers at or below the
 * fork and no `blockHash`. Never a tag (`latest`, `safe`…) or a block above the fork.
 */
export function immutableAt(forkBlock: bigint): (method: string, params: readonly unknown[]) => boolean {
  return (method, params) => {
    switch (method) {
      case 'eth_chainId':
        return true
      case 'eth_getBalance':
      case 'eth_getCode':
      case 'eth_getTransactionCount':
      case 'eth_call':
        return params.length === 2 && atOrBelow(params[1], forkBlock)
      case 'eth_getStorageAt':
      case 'eth_getProof':
        return params.length === 3 && atOrBelow(params[2], forkBlock)
      case 'eth_getBlockByNumber':
      case 'eth_getBlockReceipts':
        return atOrBelow(params[0], forkBlock)
      case 'eth_getBlockByHash':
      case 'eth_getTransactionByHash':
      case 'eth_getTransactionReceipt':
        return typeof params[0] === 'string' && HASH.test(params[0])
      case 'eth_getLogs': {
        const filter = params[0] as { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown } | undefined
        return params.length === 1 && typeof filter === 'object' && filter !== null && filter.blockHash === undefined && atOrBelow(filter.fromBlock, forkBlock) && atOrBelow(filter.toBlock, forkBlock)
      }
      default:
        return false
    }
  }
}
