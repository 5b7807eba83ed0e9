import { describe, expect, test } from 'vitest'
import { NodeStore } from './node-store.js'
import { refNode, rootHash, trieGet, trieSetNow, type LoadedNode } from './mpt.js'
import { keyOf } from '../hex.js'

const KEY = new Uint8Array([1, 2, 3])
const source = { get: async () => undefined }

/** A one-leaf trie holding `root ${i}`, and its root hash as a hex key. */
function trie(i: number): { node: LoadedNode; key: string } {
  const node = trieSetNow(null, KEY, new TextEncoder().encode(`root ${i}`), source) as LoadedNode
  return { node, key: keyOf(rootHash(node)) }
}

describe('node store', () => {
  test('behavior: roots whose hashes share their first four bytes are each found by their own hash', async () => {
    // Found by search: these two roots' hashes begin with the same four bytes.
    const a = trie(2818)
    const b = trie(8741)
    expect(a.key.slice(0, 8)).toBe(b.key.slice(0, 8))
    expect(a.key).not.toBe(b.key)
    const store = new NodeStore(undefined)
    store.keepRoot(a.key, a.node)
    expect(store.live(b.key)).toBeUndefined()
    store.keepRoot(b.key, b.node)
    expect(store.live(a.key)).toBe(a.node)
    expect(store.live(b.key)).toBe(b.node)
    expect(store.rootCount.kept).toBe(2)
    // The same root again replaces the kept object; a root never kept is not found.
    const again = trie(8741)
    store.keepRoot(again.key, again.node)
    expect(store.live(b.key)).toBe(again.node)
    expect(store.live(a.key)).toBe(a.node)
    expect(store.rootCount.kept).toBe(2)
    expect(store.live(trie(1).key)).toBeUndefined()
    // Reads by hash reach the value through the kept roots.
    expect(new TextDecoder().decode(await trieGet(refNode(Buffer.from(a.key, 'hex')), KEY, store))).toBe('root 2818')
    expect(new TextDecoder().decode(await trieGet(refNode(Buffer.from(b.key, 'hex')), KEY, store))).toBe('root 8741')
  })

  test('behavior: a root kept once is counted once; one kept again replaces it', () => {
    const store = new NodeStore(undefined)
    const a = trie(5)
    store.keepRoot(a.key, a.node)
    const again = trie(5)
    store.keepRoot(again.key, again.node)
    expect(store.rootCount.kept).toBe(1)
    expect(store.live(a.key)).toBe(again.node)
  })
})
