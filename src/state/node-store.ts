/**
 * Storage for trie nodes and contract code, shared by every state root ever committed (nothing
 * is pruned, so any block's state stays readable). Recent nodes live in a bounded in-memory map;
 * every node is also written to the node's abstract-level database with the block that made it.
 */
import type { BatchDBOp, DB } from '@ethereumjs/util'
import { type LoadedNode, nodeHash } from './mpt.js'
import { keyOf } from '../hex.js'

/** What the store needs from the database: get by key, and hand pending writes to a batch. */
export interface NodeBackend {
  get(key: string): Promise<Uint8Array | undefined>
}

export class NodeStore implements DB<string, string | Uint8Array> {
  private readonly cache = new Map<string, Uint8Array>()
  private pending = new Map<string, Uint8Array>()
  /**
   * Every committed trie root as a live node (only without a backend: see {@link objects}), by
   * the first four bytes of its hash as a small integer, with the rare roots that share them in an
   * array: a hex key (~90 bytes of heap) for each of the ~3–4 roots a block commits is not kept.
   */
  private readonly roots = new Map<number, LoadedNode | LoadedNode[]>()
  private rootsKept = 0

  /**
   * Without a database the tries are kept as the live, path-copied node objects themselves:
   * each committed root is remembered by hash and reaches every node under it, so no node's
   * bytes are written anywhere (hex-keying and storing ~20 nodes a block were 5–10 % of a transfer).
   */
  readonly objects: boolean

  constructor(
    private readonly backend: NodeBackend | undefined,
    private readonly cacheLimit = 1_000_000,
  ) {
    this.objects = backend === undefined
  }

  /** Roots of prepared, uncommitted states someone reads (the `pending` block's), with a count of holders. */
  private readonly held = new Map<string, { node: LoadedNode; holders: number }>()

  /** A committed root kept as an object (see {@link objects}), or a held one. */
  live(key: string): LoadedNode | undefined {
    return this.keptRoot(key) ?? this.held.get(key)?.node
  }

  private keptRoot(key: string): LoadedNode | undefined {
    const found = this.roots.get(prefixOf(key))
    if (found === undefined) return undefined
    if (!Array.isArray(found)) return keyOf(nodeHash(found)) === key ? found : undefined
    for (const node of found) if (keyOf(nodeHash(node)) === key) return node
    return undefined
  }

  /** Makes an uncommitted root readable by hash until {@link release}; nothing is stored. */
  hold(key: string, node: LoadedNode): void {
    const entry = this.held.get(key)
    if (entry === undefined) this.held.set(key, { node, holders: 1 })
    else entry.holders++
  }

  release(key: string): void {
    const entry = this.held.get(key)
    if (entry === undefined) return
    if (--entry.holders === 0) this.held.delete(key)
  }

  /** How many roots are kept live, and how many held: what a chain without a database remembers per state. */
  get rootCount(): { kept: number; held: number } {
    return { kept: this.rootsKept, held: this.held.size }
  }

  /** Remembers a committed root as an object (see {@link objects}). */
  keepRoot(key: string, node: LoadedNode): void {
    const prefix = prefixOf(key)
    const found = this.roots.get(prefix)
    if (found === undefined) {
      this.roots.set(prefix, node)
      this.rootsKept++
    } else if (!Array.isArray(found)) {
      // The same root again (a later object for the same state) replaces the kept one.
      if (keyOf(nodeHash(found)) === key) this.roots.set(prefix, node)
      else {
        this.roots.set(prefix, [found, node])
        this.rootsKept++
      }
    } else {
      const at = found.findIndex((n) => keyOf(nodeHash(n)) === key)
      if (at >= 0) found[at] = node
      else {
        found.push(node)
        this.rootsKept++
      }
    }
  }

  /**
   * Where a node found nowhere else comes from: a fork fetches the nodes of its remote's state
   * it was not sent yet (see src/fork). Undefined for a chain that is not a fork.
   */
  missing: ((key: string) => Promise<Uint8Array | undefined>) | undefined

  async get(key: string): Promise<Uint8Array | undefined> {
    const hit = this.cache.get(key) ?? this.pending.get(key)
    if (hit !== undefined) return hit
    if (this.backend === undefined) return this.missing?.(key)
    const stored = await this.backend.get(key)
    if (stored !== undefined) this.remember(key, stored)
    return stored
  }

  async put(key: string, value: string | Uint8Array): Promise<void> {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'hex') : value
    this.pending.set(key, bytes)
    this.remember(key, bytes)
  }

  /** Nodes are content-addressed and shared between roots: deleting one could break history. */
  async del(): Promise<void> {}

  async batch(ops: BatchDBOp<string, string | Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') await this.put(op.key, op.value)
  }

  shallowCopy(): DB<string, string | Uint8Array> {
    return this
  }

  async open(): Promise<void> {}

  /** Takes the nodes written since the last call, for the block's database batch. */
  takePending(): Map<string, Uint8Array> {
    const out = this.pending
    this.pending = new Map()
    return out
  }

  private remember(key: string, value: Uint8Array): void {
    this.cache.set(key, value)
    if (this.cache.size > this.cacheLimit) {
      // Oldest first: Map keeps insertion order. Evicted nodes are still in the database.
      const oldest = this.cache.keys().next().value
      if (oldest !== undefined) this.cache.delete(oldest)
    }
  }
}

/** The first four bytes of a hex hash as a 32-bit integer (a small integer on V8's 64-bit heap). */
function prefixOf(key: string): number {
  return parseInt(key.substring(0, 8), 16) | 0
}
