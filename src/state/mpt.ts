/**
 * A Merkle Patricia trie of immutable, path-copied nodes (Yellow Paper, appendix D).
 *
 * Why not @ethereumjs/mpt: committing a block through it cost ~5 ms (an async walk and a
 * database round trip per node, every node re-hashed on every put). Here an update copies only
 * the path it changes, hashes are computed once per node and cached, and `persist` writes only
 * the nodes a commit created. Old roots stay valid: nodes are never mutated in meaning, and
 * everything persisted is kept, so any committed root can be read back by hash.
 */
import { RLP } from '@ethereumjs/rlp'
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import { keyOf } from '../hex.js'
import { headerLength, stringLength, writeHeader, writeString } from '../rlp.js'

type Raw = Uint8Array | Raw[]

/**
 * What a node caches once computed. Every node is made with all of these fields, each holding a
 * `Uint8Array` from the start ({@link NONE} for "not computed"): a field first `undefined` and
 * later given an array changed the field's type in V8's hidden class, which threw away the
 * optimised code of every function that had read it (once per process, at the first commit
 * after those functions were optimised).
 */
interface Cached {
  /**
   * The node's RLP, kept only when shorter than 32 bytes (it is embedded in its parent as it is),
   * when read from the store, or when a commit writes nodes (see {@link persist}); else NONE.
   */
  enc: Uint8Array
  /**
   * keccak256 of the RLP, once computed (always for a node of 32 bytes or more): the 32 bytes at
   * {@link ho} of this array, a slab shared by many nodes' hashes (see {@link setHash}); else NONE.
   * A view of its own would cost each node a typed-array object (~90 bytes of heap).
   */
  hs: Uint8Array
  /** Where the hash starts in {@link hs}. */
  ho: number
  /** Already in the node store (or embedded in a stored parent). */
  stored: boolean
}
interface Leaf extends Cached { t: 0; path: Uint8Array; value: Uint8Array }
interface Ext extends Cached { t: 1; path: Uint8Array; child: TrieNode }
interface Branch extends Cached { t: 2; children: Array<TrieNode | null>; value: Uint8Array | null }
/** A node known only by hash (the 32 bytes at `ho` of `hs`), loaded from the store on first use. */
interface Ref { t: 3; hs: Uint8Array; ho: number }

/** A trie node. */
export type TrieNode = Leaf | Ext | Branch | Ref
/** A node with its contents at hand (leaf, extension or branch). */
export type LoadedNode = Leaf | Ext | Branch
type Loaded = LoadedNode

/** "Not computed" in a node's `enc` and `hash` (compared by identity). */
const NONE = new Uint8Array(0)

function leaf(path: Uint8Array, value: Uint8Array, stored = false): Leaf {
  return { t: 0, path, value, enc: NONE, hs: NONE, ho: 0, stored }
}

function ext(path: Uint8Array, child: TrieNode, stored = false): Ext {
  return { t: 1, path, child, enc: NONE, hs: NONE, ho: 0, stored }
}

function branch(children: Array<TrieNode | null>, value: Uint8Array | null, stored = false): Branch {
  return { t: 2, children, value, enc: NONE, hs: NONE, ho: 0, stored }
}

/** Sixteen empty children, as a packed array (what `slice` and `map` make too: one elements kind for every branch). */
function noChildren(): Array<TrieNode | null> {
  return [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null]
}

/** Where persisted nodes live: keyed by the node hash as unprefixed hex. */
export interface NodeSource {
  get(key: string): Promise<Uint8Array | undefined>
  /**
   * A root kept as a live node (a chain without a database keeps its roots as objects instead
   * of storing every node's bytes), by the same key.
   */
  live?(key: string): LoadedNode | undefined
}

const EMPTY = new Uint8Array(0)

/** keccak256 of the RLP of an empty string: the root of an empty trie. */
export const EMPTY_ROOT = keccak_256(RLP.encode(EMPTY))

/** A node referenced by hash. */
export function refNode(hash: Uint8Array): TrieNode | null {
  return equal(hash, EMPTY_ROOT) ? null : { t: 3, hs: hash, ho: 0 }
}

/**
 * Node hashes are copied into shared slabs (off V8's heap), each node keeping the slab and an
 * offset; a slab is freed once no node refers to it.
 */
const HASH_SLAB = 8192
let hashSlab = new Uint8Array(HASH_SLAB)
let hashesUsed = 0

/** Hashes `data` (a node's RLP) into the next place of the hash slab and gives it to `node`. */
function setHash(node: Loaded, data: Uint8Array): void {
  const digest = keccak_256(data)
  if (hashesUsed + 32 > HASH_SLAB) {
    hashSlab = new Uint8Array(HASH_SLAB)
    hashesUsed = 0
  }
  hashSlab.set(digest, hashesUsed)
  node.hs = hashSlab
  node.ho = hashesUsed
  hashesUsed += 32
}

/** A node's hash as an array of its own length (a view of its slab). */
function hashView(node: Cached | Ref): Uint8Array {
  const hs = node.hs
  return node.ho === 0 && hs.length === 32 ? hs : hs.subarray(node.ho, node.ho + 32)
}

/**
 * Nibble arrays are cut out of shared slabs. A small typed array lives on V8's heap, and the
 * first `subarray` of it (a leaf keeps the rest of its key's path as one) moves its bytes to a
 * buffer of their own (~0.3 µs); a view of a slab has its buffer already.
 */
const NIBBLE_SLAB = 8192
let nibbleSlab = new Uint8Array(NIBBLE_SLAB)
let nibblesUsed = 0

/** The nibbles of a key. */
export function nibbles(key: Uint8Array): Uint8Array {
  const length = key.length * 2
  if (length > NIBBLE_SLAB) return spread(key, new Uint8Array(length))
  if (nibblesUsed + length > NIBBLE_SLAB) {
    nibbleSlab = new Uint8Array(NIBBLE_SLAB)
    nibblesUsed = 0
  }
  const out = nibbleSlab.subarray(nibblesUsed, nibblesUsed + length)
  nibblesUsed += length
  return spread(key, out)
}

function spread(key: Uint8Array, out: Uint8Array): Uint8Array {
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = (key[i] as number) >> 4
    out[2 * i + 1] = (key[i] as number) & 15
  }
  return out
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a[i] === b[i]) i++
  return i
}

function concatNibbles(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

function fromHexPrefix(bytes: Uint8Array): { path: Uint8Array; leaf: boolean } {
  const flag = (bytes[0] as number) >> 4
  const all = nibbles(bytes)
  return { path: all.subarray(flag & 1 ? 1 : 2), leaf: (flag & 2) !== 0 }
}

/**
 * Where a node of 32 bytes or more is encoded to be hashed: its encoding is not kept (its parent
 * refers to it by hash), so it need not have an array of its own. More than 64 bytes, so its
 * bytes live outside V8's heap from the start and the hasher reads them where they are (see
 * src/crypto/keccak.ts); a plain Uint8Array, whose `subarray` takes V8's fast path (a Buffer's
 * looks up its species constructor). Grown when a node does not fit.
 */
let scratch = new Uint8Array(1024)
/** {@link scratch} as a DataView: child hashes are copied into it four bytes at a time. */
let scratchView = new DataView(scratch.buffer)

/** Length of the RLP string of a nibble path in hex-prefix form. */
function hexPrefixLength(path: Uint8Array): number {
  const bytes = (path.length >> 1) + 1
  // One byte under 0x80 (the flags are at most 0x3f) is its own string.
  return bytes === 1 ? 1 : headerLength(bytes) + bytes
}

/** Writes the RLP string of a nibble path in hex-prefix form; returns the next position. */
function writeHexPrefix(out: Uint8Array, pos: number, path: Uint8Array, isLeaf: boolean): number {
  const bytes = (path.length >> 1) + 1
  if (bytes > 1) pos = writeHeader(out, pos, 0x80, bytes)
  const odd = path.length & 1
  let i = 0
  if (odd === 1) {
    out[pos] = (((isLeaf ? 2 : 0) + 1) << 4) | (path[0] as number)
    i = 1
  } else out[pos] = (isLeaf ? 2 : 0) << 4
  pos++
  for (; i < path.length; i += 2) out[pos++] = ((path[i] as number) << 4) | (path[i + 1] as number)
  return pos
}

/**
 * Computes a node's reference in its parent, once: its encoding when shorter than 32 bytes (kept
 * on the node), else its hash (the encoding is written into {@link scratch}, hashed there and
 * dropped, unless `keep`: a commit that writes its nodes keeps them). Children first: a node's
 * encoding holds theirs.
 */
function settle(node: Loaded, keep: boolean): void {
  if (node.hs !== NONE || node.enc !== NONE) return
  const payload = payloadOf(node, keep)
  const length = headerLength(payload) + payload
  if (length < 32 || keep) {
    const out = new Uint8Array(length)
    writeNode(out, node, payload, undefined)
    node.enc = out
    if (length >= 32) setHash(node, out)
    return
  }
  if (length > scratch.length) {
    scratch = new Uint8Array(Math.max(length, 2 * scratch.length))
    scratchView = new DataView(scratch.buffer)
  }
  const out = scratch.subarray(0, length)
  writeNode(out, node, payload, scratchView)
  setHash(node, out)
}

/** The length of a node's RLP list payload; settles its children (see {@link settle}). */
function payloadOf(node: Loaded, keep: boolean): number {
  if (node.t === 2) {
    let payload = node.value === null ? 1 : stringLength(node.value)
    const children = node.children
    for (let i = 0; i < 16; i++) {
      const c = children[i] as TrieNode | null
      payload += c === null ? 1 : refLength(c, keep)
    }
    return payload
  }
  return hexPrefixLength(node.path) + (node.t === 0 ? stringLength(node.value) : refLength(node.child, keep))
}

/** How many bytes a child reference takes: a 32-byte string, or the child's short encoding. */
function refLength(child: TrieNode, keep: boolean): number {
  if (child.t === 3) return 33
  settle(child, keep)
  const enc = child.enc
  return enc !== NONE && enc.length < 32 ? enc.length : 33
}

/**
 * Writes a node's RLP (its children settled, `payload` from {@link payloadOf}) into `out`;
 * `view`, when given, is a DataView of `out`'s bytes from the same start.
 */
function writeNode(out: Uint8Array, node: Loaded, payload: number, view: DataView | undefined): void {
  let pos = writeHeader(out, 0, 0xc0, payload)
  if (node.t === 2) {
    const children = node.children
    for (let i = 0; i < 16; i++) {
      const c = children[i] as TrieNode | null
      if (c === null) out[pos++] = 0x80
      else pos = writeRef(out, pos, c, view)
    }
    if (node.value === null) out[pos] = 0x80
    else writeString(out, pos, node.value)
    return
  }
  pos = writeHexPrefix(out, pos, node.path, node.t === 0)
  if (node.t === 0) writeString(out, pos, node.value)
  else writeRef(out, pos, node.child, view)
}

/** Writes a settled child's reference (see {@link refLength}); returns the next position. */
function writeRef(out: Uint8Array, pos: number, child: TrieNode, view: DataView | undefined): number {
  if (child.t !== 3) {
    const enc = child.enc
    if (enc !== NONE && enc.length < 32) {
      out.set(enc, pos)
      return pos + enc.length
    }
  }
  out[pos] = 0xa0
  const hs = child.hs
  const ho = child.ho
  if (view !== undefined) {
    // Four bytes a store: as fast as `set` of a view, without making the view.
    for (let k = 0; k < 32; k += 4) {
      const i = ho + k
      view.setUint32(pos + 1 + k, ((hs[i] as number) << 24) | ((hs[i + 1] as number) << 16) | ((hs[i + 2] as number) << 8) | (hs[i + 3] as number))
    }
  } else for (let k = 0; k < 32; k++) out[pos + 1 + k] = hs[ho + k] as number
  return pos + 33
}

/** A node's RLP: the kept one, or written anew (a proof, a node written to the store). */
function encoded(node: Loaded): Uint8Array {
  if (node.enc !== NONE) return node.enc
  const payload = payloadOf(node, false)
  const out = new Uint8Array(headerLength(payload) + payload)
  writeNode(out, node, payload, undefined)
  return out
}

/** The hash of a node (its reference in the parent when 32 bytes or more). */
export function nodeHash(node: TrieNode): Uint8Array {
  return hashOf(node, false)
}

function hashOf(node: TrieNode, keep: boolean): Uint8Array {
  if (node.t === 3) return hashView(node)
  settle(node, keep)
  // A node shorter than 32 bytes has a hash only as a root.
  if (node.hs === NONE) setHash(node, node.enc)
  return hashView(node)
}

/**
 * The root hash of a trie. `keep` keeps the encodings of the new nodes for a {@link persist}
 * that writes them (a chain in a database), so that they are not written twice.
 */
export function rootHash(root: TrieNode | null, keep = false): Uint8Array {
  return root === null ? EMPTY_ROOT : hashOf(root, keep)
}

function fromRaw(r: Raw, stored: boolean): Loaded {
  if (!Array.isArray(r)) throw new Error('invalid trie node')
  if (r.length === 17) {
    const children = r.slice(0, 16).map((c) => child(c))
    const value = r[16] as Uint8Array
    return branch(children, value.length === 0 ? null : value, stored)
  }
  if (r.length !== 2) throw new Error('invalid trie node')
  const { path, leaf: isLeaf } = fromHexPrefix(r[0] as Uint8Array)
  if (isLeaf) return leaf(path, r[1] as Uint8Array, stored)
  const c = child(r[1] as Raw)
  if (c === null) throw new Error('invalid extension node')
  return ext(path, c, stored)
}

function child(r: Raw): TrieNode | null {
  if (Array.isArray(r)) return fromRaw(r, true)
  if (r.length === 0) return null
  if (r.length === 32) return { t: 3, hs: r, ho: 0 }
  throw new Error('invalid trie reference')
}

/** Loads a node known by hash; a loaded node is returned as it is. */
export async function loadNode(node: TrieNode, source: NodeSource): Promise<LoadedNode> {
  return load(node, source)
}

async function load(node: TrieNode, source: NodeSource): Promise<Loaded> {
  if (node.t !== 3) return node
  const key = keyOf(hashView(node))
  const live = source.live?.(key)
  if (live !== undefined) return live
  const bytes = await source.get(key)
  if (bytes === undefined) throw new Error(`missing trie node ${key}`)
  const loaded = fromRaw(RLP.decode(bytes) as Raw, true)
  loaded.enc = bytes
  loaded.hs = node.hs
  loaded.ho = node.ho
  return loaded
}

/**
 * What the synchronous walks below need to resolve a node known only by hash: the source (for a
 * root kept live) and the nodes loaded by earlier attempts. A node found in neither is
 * {@link Missing}: the walk stops, the node is loaded, and the walk runs again. A chain kept as
 * objects never stores nodes, so its walks finish in one attempt, without a promise per level;
 * a chain in a database loads each missing node once (walks only build new nodes, so a failed
 * attempt leaves nothing behind).
 */
interface Lookup {
  source: NodeSource
  loaded: Map<TrieNode, Loaded> | undefined
}

/** Thrown by a walk that needs a stored node. */
class Missing {
  constructor(readonly node: Ref) {}
}

function resolve(node: TrieNode, lookup: Lookup): Loaded {
  if (node.t !== 3) return node
  const known = lookup.loaded?.get(node) ?? lookup.source.live?.(keyOf(hashView(node)))
  if (known === undefined) throw new Missing(node)
  return known
}

/** After a walk stopped at a stored node: loads it for the next attempt (rethrows anything else). */
async function loadMissing(error: unknown, lookup: Lookup): Promise<void> {
  if (!(error instanceof Missing)) throw error
  lookup.loaded ??= new Map()
  lookup.loaded.set(error.node, await load(error.node, lookup.source))
}

/** Whether `path` from position `i` on is exactly `nodePath`. */
function equalAt(nodePath: Uint8Array, path: Uint8Array, i: number): boolean {
  if (nodePath.length !== path.length - i) return false
  for (let k = 0; k < nodePath.length; k++) if (nodePath[k] !== path[i + k]) return false
  return true
}

/** How many nibbles `nodePath` shares with `path` from position `i` on. */
function commonAt(nodePath: Uint8Array, path: Uint8Array, i: number): number {
  const n = Math.min(nodePath.length, path.length - i)
  let k = 0
  while (k < n && nodePath[k] === path[i + k]) k++
  return k
}

function getIn(root: TrieNode | null, path: Uint8Array, lookup: Lookup): Uint8Array | undefined {
  let node = root
  let i = 0
  while (node !== null) {
    const n = resolve(node, lookup)
    if (n.t === 0) return equalAt(n.path, path, i) ? n.value : undefined
    if (n.t === 1) {
      if (commonAt(n.path, path, i) !== n.path.length) return undefined
      i += n.path.length
      node = n.child
    } else {
      if (i === path.length) return n.value ?? undefined
      node = n.children[path[i] as number] ?? null
      i++
    }
  }
  return undefined
}

/** The value at `key`, or undefined. */
export async function trieGet(root: TrieNode | null, key: Uint8Array, source: NodeSource): Promise<Uint8Array | undefined> {
  return trieGetNow(root, key, source)
}

/**
 * {@link trieGet} without a promise when every node on the path is at hand (always, for a
 * chain kept as live objects); a promise when one must be loaded from the store first.
 */
export function trieGetNow(root: TrieNode | null, key: Uint8Array, source: NodeSource): Uint8Array | undefined | Promise<Uint8Array | undefined> {
  return trieGetAtNow(root, nibbles(key), source)
}

/** {@link trieGetNow} at a key given as its nibbles. */
export function trieGetAtNow(root: TrieNode | null, path: Uint8Array, source: NodeSource): Uint8Array | undefined | Promise<Uint8Array | undefined> {
  const lookup: Lookup = { source, loaded: undefined }
  try {
    return getIn(root, path, lookup)
  } catch (error) {
    return retry(error, lookup, () => getIn(root, path, lookup))
  }
}

/** Loads the node a walk stopped at and walks again, until the walk completes. */
async function retry<T>(error: unknown, lookup: Lookup, walk: () => T): Promise<T> {
  for (;;) {
    await loadMissing(error, lookup)
    try {
      return walk()
    } catch (next) {
      error = next
    }
  }
}

/** The encoded nodes on the path to `key` (a Merkle proof; embedded nodes are inside their parents). */
export async function trieProof(root: TrieNode | null, key: Uint8Array, source: NodeSource): Promise<Uint8Array[]> {
  const path = nibbles(key)
  const out: Uint8Array[] = []
  let node = root
  let i = 0
  while (node !== null) {
    const n = await load(node, source)
    const enc = encoded(n)
    if (out.length === 0 || enc.length >= 32) out.push(enc)
    if (n.t === 0) break
    if (n.t === 1) {
      if (commonPrefix(n.path, path.subarray(i)) !== n.path.length) break
      i += n.path.length
      node = n.child
    } else {
      if (i === path.length) break
      node = n.children[path[i] as number] ?? null
      i++
    }
  }
  return out
}

function leafOrExt(prefix: Uint8Array, node: Loaded): Loaded {
  if (node.t === 0) return leaf(concatNibbles(prefix, node.path), node.value)
  if (node.t === 1) return ext(concatNibbles(prefix, node.path), node.child)
  return prefix.length === 0 ? node : ext(prefix, node)
}

/**
 * Whether `node` may be changed in place by a write that owns its unhashed nodes (see
 * {@link trieSetAtNow}'s `owned`): made by that write's earlier puts, never hashed, never stored,
 * not embedded in a stored parent. A hashed node may be under a committed root; nothing below an
 * unhashed node is, since a node is hashed only after its children.
 */
function ownedBy(n: Loaded, owned: boolean): boolean {
  return owned && n.hs === NONE && n.enc === NONE && !n.stored
}

function put(node: TrieNode | null, path: Uint8Array, i: number, value: Uint8Array, lookup: Lookup, owned: boolean): Loaded {
  if (node === null) return leaf(path.subarray(i), value)
  const n = resolve(node, lookup)
  // Changed only after the call below returns: a walk that stops at a stored node (Missing)
  // throws before anything is changed, and its retry finds the trie as it was.
  if (n.t === 2) {
    const copy = ownedBy(n, owned) ? n : branch(n.children.slice(), n.value)
    if (i === path.length) copy.value = value
    else {
      const k = path[i] as number
      copy.children[k] = put(n.children[k] ?? null, path, i + 1, value, lookup, owned)
    }
    return copy
  }
  if (n.t === 0 && equalAt(n.path, path, i)) {
    if (!ownedBy(n, owned)) return leaf(n.path, value)
    n.value = value
    return n
  }
  const common = commonAt(n.path, path, i)
  if (n.t === 1 && common === n.path.length) {
    const child = put(n.child, path, i + common, value, lookup, owned)
    if (!ownedBy(n, owned)) return ext(n.path, child)
    n.child = child
    return n
  }
  const rest = path.subarray(i)
  const split = branch(noChildren(), null)
  if (n.t === 0) {
    if (common === n.path.length) split.value = n.value
    else split.children[n.path[common] as number] = leaf(n.path.subarray(common + 1), n.value)
  } else {
    split.children[n.path[common] as number] =
      common + 1 === n.path.length ? n.child : ext(n.path.subarray(common + 1), n.child)
  }
  if (common === rest.length) split.value = value
  else split.children[rest[common] as number] = leaf(rest.subarray(common + 1), value)
  return common > 0 ? ext(rest.subarray(0, common), split) : split
}

function del(node: TrieNode | null, path: Uint8Array, i: number, lookup: Lookup): TrieNode | null {
  if (node === null) return null
  const n = resolve(node, lookup)
  if (n.t === 0) return equalAt(n.path, path, i) ? null : node
  if (n.t === 1) {
    if (commonAt(n.path, path, i) !== n.path.length) return node
    const c = del(n.child, path, i + n.path.length, lookup)
    if (c === n.child) return node
    if (c === null) return null
    return leafOrExt(n.path, resolve(c, lookup))
  }
  // Copied only once something under it changed: deleting an absent key (the EIP-4788 ring
  // zeroing a slot that holds nothing, every block) allocates nothing.
  let copy: Branch
  if (i === path.length) {
    if (n.value === null) return node
    copy = branch(n.children.slice(), null)
  } else {
    const index = path[i] as number
    const before = n.children[index] ?? null
    const after = del(before, path, i + 1, lookup)
    if (after === before) return node
    copy = branch(n.children.slice(), n.value)
    copy.children[index] = after
  }
  let only = -1
  let count = 0
  for (let k = 0; k < 16; k++) {
    if (copy.children[k] !== null) {
      count++
      only = k
    }
  }
  if (count === 0) return copy.value === null ? null : leaf(EMPTY, copy.value)
  if (count === 1 && copy.value === null) {
    const c = resolve(copy.children[only] as TrieNode, lookup)
    return leafOrExt(Uint8Array.of(only), c)
  }
  return copy
}

/** The trie with `key` set to `value` (an empty value deletes). */
export async function trieSet(root: TrieNode | null, key: Uint8Array, value: Uint8Array, source: NodeSource): Promise<TrieNode | null> {
  return trieSetNow(root, key, value, source)
}

/** {@link trieSet} without a promise when every node it passes is at hand (see {@link trieGetNow}). */
export function trieSetNow(root: TrieNode | null, key: Uint8Array, value: Uint8Array, source: NodeSource): TrieNode | null | Promise<TrieNode | null> {
  return trieSetAtNow(root, nibbles(key), value, source)
}

/**
 * {@link trieSetNow} at a key given as its nibbles (a caller that keeps them for keys it writes
 * again and again). New leaves keep views of `path`: it must never change.
 *
 * `owned`: the caller made every node under `root` that is not hashed yet (in its earlier calls)
 * and keeps no other root that reaches them, so a put changes those in place instead of copying
 * them: a block's writes share the top of each trie, which was copied once per write. Any root
 * that was hashed stays as it was. A delete always copies (its retry after a stored node is
 * loaded needs the trie unchanged).
 */
export function trieSetAtNow(root: TrieNode | null, path: Uint8Array, value: Uint8Array, source: NodeSource, owned = false): TrieNode | null | Promise<TrieNode | null> {
  const lookup: Lookup = { source, loaded: undefined }
  try {
    return value.length === 0 ? del(root, path, 0, lookup) : put(root, path, 0, value, lookup, owned)
  } catch (error) {
    return retry(error, lookup, () => (value.length === 0 ? del(root, path, 0, lookup) : put(root, path, 0, value, lookup, owned)))
  }
}

/**
 * Hashes the nodes created since the last persist and, given `write`, writes those of 32 bytes
 * or more, and the root, and marks them stored (the next persist stops at them). Without `write`
 * nothing is written and a node of 32 bytes or more drops any encoding it kept (its parents need
 * only its hash, and a proof encodes it again). A chain kept as live objects needs only
 * {@link rootHash}: no node it hashes keeps a large encoding.
 */
export function persist(root: TrieNode | null, write?: (key: string, value: Uint8Array) => void): Uint8Array {
  if (root === null) return EMPTY_ROOT
  const hash = hashOf(root, write !== undefined)
  persistNode(root, true, write)
  return hash
}

function persistNode(node: TrieNode, isRoot: boolean, write: ((key: string, value: Uint8Array) => void) | undefined): void {
  if (node.t === 3 || node.stored) return
  if (node.t === 1) persistNode(node.child, false, write)
  else if (node.t === 2) {
    const children = node.children
    for (let i = 0; i < 16; i++) {
      const c = children[i] as TrieNode | null
      if (c !== null) persistNode(c, false, write)
    }
  }
  // Settled by `hashOf` above: a node of 32 bytes or more has its hash, a shorter one its encoding.
  if (write !== undefined && (isRoot || node.enc === NONE || node.enc.length >= 32)) {
    write(keyOf(hashView(node)), encoded(node))
  } else if (write === undefined && node.enc.length >= 32) node.enc = NONE
  node.stored = true
}

/** Bytes from an even number of nibbles. */
export function nibblesToBytes(path: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(path.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = ((path[2 * i] as number) << 4) | (path[2 * i + 1] as number)
  return out
}

/** Every key and value of a trie, in key order (reopening a stored chain walks its state). */
export async function* trieEntries(root: TrieNode | null, source: NodeSource): AsyncGenerator<[Uint8Array, Uint8Array]> {
  if (root === null) return
  const stack: Array<{ node: TrieNode; path: number[] }> = [{ node: root, path: [] }]
  while (stack.length > 0) {
    const { node, path } = stack.pop() as { node: TrieNode; path: number[] }
    const n = await load(node, source)
    if (n.t === 0) {
      yield [nibblesToBytes([...path, ...n.path]), n.value]
    } else if (n.t === 1) {
      stack.push({ node: n.child, path: [...path, ...n.path] })
    } else {
      if (n.value !== null) yield [nibblesToBytes(path), n.value]
      for (let i = 15; i >= 0; i--) {
        const c = n.children[i]
        if (c !== null && c !== undefined) stack.push({ node: c, path: [...path, i] })
      }
    }
  }
}
