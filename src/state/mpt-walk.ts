/**
 * Ordered walks over tries: the keys whose values differ between two roots
 * (debug_getModifiedAccounts*), and the entries from a start key on (debug_storageRangeAt).
 * Both yield in key order, as geth's node iterators do. The difference walk skips every subtree
 * the two tries share (same position, same hash) without loading it, so comparing two states a
 * block apart reads only the paths the block changed.
 */
import { loadNode, nibbles, nibblesToBytes, nodeHash, type LoadedNode, type NodeSource, type TrieNode } from './mpt.js'

/** A subtree seen from a nibble position: `node`, of whose own path `skip` nibbles are already walked. */
interface At {
  node: TrieNode
  skip: number
}

/** A key whose value differs between two tries; `before` / `after` is undefined where the key is absent. */
export interface TrieChange {
  key: Uint8Array
  before: Uint8Array | undefined
  after: Uint8Array | undefined
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function join(path: number[], more: ArrayLike<number>): number[] {
  const out = path.slice()
  for (let i = 0; i < more.length; i++) out.push(more[i] as number)
  return out
}

/** The value at this position and the subtree under each next nibble. */
function step(n: LoadedNode, skip: number): { value: Uint8Array | null; children: Array<At | null> } {
  const children = new Array<At | null>(16).fill(null)
  if (n.t === 2) {
    n.children.forEach((c, i) => {
      if (c !== null) children[i] = { node: c, skip: 0 }
    })
    return { value: n.value, children }
  }
  // An extension: one way on, through the next nibble of its path.
  const rest = (n.path as Uint8Array).subarray(skip)
  children[rest[0] as number] = rest.length > 1 ? { node: n, skip: skip + 1 } : { node: (n as { child: TrieNode }).child, skip: 0 }
  return { value: null, children }
}

/** Every entry under `at` (whose position is `path`), in key order. */
async function* entriesUnder(at: At, path: number[], source: NodeSource): AsyncGenerator<[Uint8Array, Uint8Array]> {
  const n = await loadNode(at.node, source)
  if (n.t === 0) {
    yield [nibblesToBytes(join(path, n.path.subarray(at.skip))), n.value]
    return
  }
  const { value, children } = step(n, at.skip)
  if (value !== null) yield [nibblesToBytes(path), value]
  for (const [i, c] of children.entries()) if (c !== null) yield* entriesUnder(c, [...path, i], source)
}

async function collect(at: At, path: number[], source: NodeSource): Promise<Array<[Uint8Array, Uint8Array]>> {
  const out: Array<[Uint8Array, Uint8Array]> = []
  for await (const entry of entriesUnder(at, path, source)) out.push(entry)
  return out
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number)
  return a.length - b.length
}

async function* diffAt(a: At | null, b: At | null, path: number[], source: NodeSource): AsyncGenerator<TrieChange> {
  if (a === null && b === null) return
  if (a !== null && b !== null && a.skip === 0 && b.skip === 0 && sameBytes(nodeHash(a.node), nodeHash(b.node))) return
  if (a === null || b === null) {
    for await (const [key, value] of entriesUnder((a ?? b) as At, path, source)) {
      yield a === null ? { key, before: undefined, after: value } : { key, before: value, after: undefined }
    }
    return
  }
  const na = await loadNode(a.node, source)
  const nb = await loadNode(b.node, source)
  if (na.t === 0 || nb.t === 0) {
    // One side holds a single key here: compare the two sides' entries one by one.
    const ea = await collect({ node: na, skip: a.skip }, path, source)
    const eb = await collect({ node: nb, skip: b.skip }, path, source)
    let i = 0
    let j = 0
    while (i < ea.length || j < eb.length) {
      const x = ea[i]
      const y = eb[j]
      const order = x === undefined ? 1 : y === undefined ? -1 : compareBytes(x[0], y[0])
      if (order < 0) {
        yield { key: (x as [Uint8Array, Uint8Array])[0], before: (x as [Uint8Array, Uint8Array])[1], after: undefined }
        i++
      } else if (order > 0) {
        yield { key: (y as [Uint8Array, Uint8Array])[0], before: undefined, after: (y as [Uint8Array, Uint8Array])[1] }
        j++
      } else {
        const [key, before] = x as [Uint8Array, Uint8Array]
        const after = (y as [Uint8Array, Uint8Array])[1]
        if (!sameBytes(before, after)) yield { key, before, after }
        i++
        j++
      }
    }
    return
  }
  const sa = step(na, a.skip)
  const sb = step(nb, b.skip)
  const va = sa.value ?? undefined
  const vb = sb.value ?? undefined
  if (va !== vb && (va === undefined || vb === undefined || !sameBytes(va, vb))) yield { key: nibblesToBytes(path), before: va, after: vb }
  for (let i = 0; i < 16; i++) yield* diffAt(sa.children[i] ?? null, sb.children[i] ?? null, [...path, i], source)
}

/** The keys whose values differ between the tries under `before` and `after`, in key order. */
export async function* trieDiff(before: TrieNode | null, after: TrieNode | null, source: NodeSource): AsyncGenerator<TrieChange> {
  yield* diffAt(before === null ? null : { node: before, skip: 0 }, after === null ? null : { node: after, skip: 0 }, [], source)
}

/**
 * How the keys under `path` compare with `start`: -1 all smaller, 1 all at least `start`
 * (`start` is a prefix of `path`, or `path` is greater), 0 some may be either (`path` is a
 * proper prefix of `start`).
 */
function against(path: number[], start: Uint8Array): -1 | 0 | 1 {
  const n = Math.min(path.length, start.length)
  for (let i = 0; i < n; i++) if (path[i] !== start[i]) return (path[i] as number) < (start[i] as number) ? -1 : 1
  return path.length >= start.length ? 1 : 0
}

async function* fromAt(at: At, path: number[], start: Uint8Array, source: NodeSource): AsyncGenerator<[Uint8Array, Uint8Array]> {
  const n = await loadNode(at.node, source)
  if (n.t === 0) {
    const full = join(path, n.path.subarray(at.skip))
    if (against(full, start) === 1) yield [nibblesToBytes(full), n.value]
    return
  }
  const { children } = step(n, at.skip)
  // A value at a proper prefix of `start` is smaller than it.
  for (const [i, c] of children.entries()) {
    if (c === null) continue
    const next = [...path, i]
    const order = against(next, start)
    if (order === 1) yield* entriesUnder(c, next, source)
    else if (order === 0) yield* fromAt(c, next, start, source)
  }
}

/**
 * The entries whose key is `start` or after it (bytewise; a shorter key before its extensions), in
 * key order: geth's `NodeIterator(start)`.
 */
export async function* trieEntriesFrom(root: TrieNode | null, start: Uint8Array, source: NodeSource): AsyncGenerator<[Uint8Array, Uint8Array]> {
  if (root === null) return
  const startNibbles = nibbles(start)
  if (startNibbles.length === 0) {
    yield* entriesUnder({ node: root, skip: 0 }, [], source)
    return
  }
  yield* fromAt({ node: root, skip: 0 }, [], startNibbles, source)
}
