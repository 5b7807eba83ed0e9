import { describe, expect, test } from 'vitest'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { EMPTY_ROOT, nibbles, persist, refNode, rootHash, trieGet, trieGetAtNow, trieEntries, trieProof, trieSet, trieSetAtNow, type TrieNode } from './mpt.js'
import { verifyMerkleProof } from '@ethereumjs/mpt'

/** A deterministic byte stream for test data. */
function stream(seed: string) {
  let counter = 0
  return (n: number) => {
    const out = new Uint8Array(n)
    let filled = 0
    while (filled < n) {
      const block = keccak_256(new TextEncoder().encode(`${seed}/${counter++}`))
      out.set(block.subarray(0, Math.min(32, n - filled)), filled)
      filled += 32
    }
    return out
  }
}

function memoryStore() {
  const map = new Map<string, Uint8Array>()
  return {
    map,
    source: { get: async (key: string) => map.get(key) },
    write: (key: string, value: Uint8Array) => void map.set(key, value),
  }
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

describe('mpt', () => {
  test('default: the empty trie has the well-known empty root', () => {
    expect(hex(rootHash(null))).toBe('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421')
    expect(hex(EMPTY_ROOT)).toBe(hex(rootHash(null)))
  })

  test('behavior: roots equal @ethereumjs/mpt for inserts, updates and deletes (hashed and short keys)', async () => {
    for (const [label, keyLength] of [['hashed', 32], ['short', 3], ['mixed-small-values', 32]] as const) {
      const rand = stream(label)
      const reference = new MerklePatriciaTrie()
      const { source, write } = memoryStore()
      let root: TrieNode | null = null
      const keys: Uint8Array[] = []
      for (let i = 0; i < 300; i++) {
        const key = rand(keyLength)
        const value = label === 'mixed-small-values' ? rand(1 + (i % 3)) : rand(1 + (i % 40))
        keys.push(key)
        await reference.put(key, value)
        root = await trieSet(root, key, value, source)
        if (i % 37 === 0) {
          expect(hex(persist(root, write))).toBe(hex(reference.root()))
        }
      }
      for (let i = 0; i < keys.length; i += 3) {
        await reference.del(keys[i] as Uint8Array)
        root = await trieSet(root, keys[i] as Uint8Array, new Uint8Array(), source)
      }
      for (let i = 1; i < keys.length; i += 5) {
        const value = rand(7)
        await reference.put(keys[i] as Uint8Array, value)
        root = await trieSet(root, keys[i] as Uint8Array, value, source)
      }
      expect(hex(persist(root, write))).toBe(hex(reference.root()))
    }
  })

  test('behavior: hashes kept in shared slabs stay each node\'s own across many slabs (live nodes, no encodings kept)', async () => {
    const rand = stream('slabs')
    const reference = new MerklePatriciaTrie()
    const { source } = memoryStore()
    let root: TrieNode | null = null
    const seen: Array<[TrieNode | null, string]> = []
    // Thousands of hashed nodes: many 8 KB slabs of 256 hashes each.
    for (let i = 0; i < 1200; i++) {
      const key = rand(32)
      const value = rand(1 + (i % 50))
      await reference.put(key, value)
      root = await trieSet(root, key, value, source)
      if (i % 97 === 0) {
        const hash = hex(rootHash(root))
        expect(hash).toBe(hex(reference.root()))
        seen.push([root, hash])
      }
    }
    for (const [old, hash] of seen) expect(hex(rootHash(old))).toBe(hash)
    // A root given by hash (a view of a larger array) reads like any other.
    const bytes = new Uint8Array(40)
    bytes.set(rootHash(root), 5)
    expect(hex(rootHash(refNode(bytes.subarray(5, 37))))).toBe(hex(reference.root()))
  })

  test('behavior: deleting every key returns to the empty root', async () => {
    const rand = stream('all')
    const { source } = memoryStore()
    let root: TrieNode | null = null
    const keys = Array.from({ length: 50 }, () => rand(32))
    for (const k of keys) root = await trieSet(root, k, rand(20), source)
    for (const k of keys) root = await trieSet(root, k, new Uint8Array(), source)
    expect(root).toBeNull()
  })

  test('behavior: an old root stays readable after later writes, through the store alone', async () => {
    const rand = stream('history')
    const { source, write } = memoryStore()
    let root: TrieNode | null = null
    const key = rand(32)
    root = await trieSet(root, key, RLP.encode(1), source)
    for (let i = 0; i < 20; i++) root = await trieSet(root, rand(32), rand(10), source)
    const old = persist(root, write)
    root = await trieSet(root, key, RLP.encode(2), source)
    const fresh = persist(root, write)
    expect(await trieGet(refNode(old), key, source)).toEqual(RLP.encode(1))
    expect(await trieGet(refNode(fresh), key, source)).toEqual(RLP.encode(2))
    expect(await trieGet(refNode(fresh), rand(32), source)).toBeUndefined()
  })

  test('behavior: proofs verify with @ethereumjs/mpt, for present and absent keys', async () => {
    const rand = stream('proof')
    const { source, write } = memoryStore()
    let root: TrieNode | null = null
    const keys = Array.from({ length: 100 }, () => keccak_256(rand(20)))
    for (const k of keys) root = await trieSet(root, k, rand(40), source)
    const hash = persist(root, write)
    for (const k of keys.slice(0, 10)) {
      const proof = await trieProof(refNode(hash), k, source)
      const value = await verifyMerkleProof(k, proof, { root: hash })
      expect(value).toEqual(await trieGet(refNode(hash), k, source))
    }
    const absent = keccak_256(rand(20))
    const proof = await trieProof(refNode(hash), absent, source)
    expect(await verifyMerkleProof(absent, proof, { root: hash })).toBeNull()
  })

  test('behavior: a trie hashed without keeping encodings writes the same nodes as one hashed by persist, and proves from live nodes', async () => {
    // rootHash hashes large nodes in a scratch buffer and keeps only their hash; a later persist
    // with a writer must write each node's exact encoding anyway (a chain in a database), and a
    // proof of a trie never written anywhere encodes its nodes again.
    const rand = stream('keep')
    const a = memoryStore()
    const b = memoryStore()
    let root: TrieNode | null = null
    const keys = Array.from({ length: 60 }, () => keccak_256(rand(20)))
    const values = keys.map((_, i) => rand(1 + (i % 50)))
    const reference = new MerklePatriciaTrie()
    for (const [i, k] of keys.entries()) {
      root = await trieSet(root, k, values[i] as Uint8Array, a.source)
      await reference.put(k, values[i] as Uint8Array)
    }
    const early = rootHash(root)
    expect(hex(early)).toBe(hex(reference.root()))
    expect(hex(persist(root, a.write))).toBe(hex(early))
    let again: TrieNode | null = null
    for (const [i, k] of keys.entries()) again = await trieSet(again, k, values[i] as Uint8Array, b.source)
    expect(hex(persist(again, b.write))).toBe(hex(early))
    expect([...a.map.keys()].sort()).toEqual([...b.map.keys()].sort())
    for (const [key, value] of a.map) expect(hex(value)).toBe(hex(b.map.get(key) as Uint8Array))
    const live: TrieNode | null = again
    for (const k of keys.slice(0, 5)) {
      const proof = await trieProof(live, k, { get: async () => undefined })
      expect(await verifyMerkleProof(k, proof, { root: early })).toEqual(values[keys.indexOf(k)])
    }
  })

  test('behavior: writes and reads at a key given as its nibbles equal those at the key', async () => {
    const rand = stream('paths')
    const { source } = memoryStore()
    let byKey: TrieNode | null = null
    let byPath: TrieNode | null = null
    const keys = Array.from({ length: 40 }, () => keccak_256(rand(20)))
    for (const k of keys) {
      const value = rand(33)
      byKey = await trieSet(byKey, k, value, source)
      byPath = (await trieSetAtNow(byPath, nibbles(k), value, source)) as TrieNode | null
    }
    for (const k of keys.filter((_, i) => i % 4 === 0)) byPath = (await trieSetAtNow(byPath, nibbles(k), new Uint8Array(), source)) as TrieNode | null
    for (const k of keys.filter((_, i) => i % 4 === 0)) byKey = await trieSet(byKey, k, new Uint8Array(), source)
    expect(hex(rootHash(byPath))).toBe(hex(rootHash(byKey)))
    for (const k of keys) expect(await trieGetAtNow(byPath, nibbles(k), source)).toEqual(await trieGet(byKey, k, source))
  })

  test('behavior: owned writes (unhashed nodes changed in place) give the roots of copying writes and leave every hashed root as it was', async () => {
    // As a block's state write makes them: batches of writes on top of the last hashed root,
    // overwrites and deletes inside a batch, short values (embedded nodes), a hash per batch.
    for (const [label, stored] of [['live', false], ['stored', true]] as const) {
      const rand = stream(`owned-${label}`)
      const reference = new MerklePatriciaTrie()
      const { source, write } = memoryStore()
      const keys = Array.from({ length: 120 }, () => keccak_256(rand(20)))
      const current = new Map<string, Uint8Array>()
      const kept: Array<{ root: TrieNode | null; hash: string; values: Map<string, Uint8Array> }> = []
      let root: TrieNode | null = null
      for (let batch = 0; batch < 40; batch++) {
        // A stored chain starts each block from its root known by hash: walks load nodes (and retry).
        if (stored && root !== null) root = refNode(persist(root, write))
        for (let w = 0; w < 1 + (batch % 7); w++) {
          const key = keys[(batch * 13 + w * 29) % keys.length] as Uint8Array
          const value = w % 5 === 4 && batch > 3 ? new Uint8Array() : rand(1 + ((batch + w) % 3 === 0 ? 2 : 40))
          if (value.length === 0) await reference.del(key)
          else await reference.put(key, value)
          if (value.length === 0) current.delete(hex(key))
          else current.set(hex(key), value)
          const next = trieSetAtNow(root, nibbles(key), value, source, true)
          root = next instanceof Promise ? await next : next
        }
        const hash = hex(rootHash(root))
        expect(hash).toBe(hex(reference.root()))
        kept.push({ root, hash, values: new Map(current) })
      }
      for (const { root: old, hash, values } of kept) {
        expect(hex(rootHash(old))).toBe(hash)
        for (const key of keys) {
          const value = await trieGet(old, key, source)
          expect(value === undefined ? undefined : hex(value)).toBe(values.has(hex(key)) ? hex(values.get(hex(key)) as Uint8Array) : undefined)
        }
      }
    }
  })

  test('behavior: a value at a branch (a key that is a prefix of others) is set, read, stored, listed and deleted as @ethereumjs/mpt does', async () => {
    const { source, write } = memoryStore()
    const reference = new MerklePatriciaTrie()
    const keys = [[0x12], [0x12, 0x34], [0x12, 0x35], [0x12, 0x34, 0x56], [0x98]].map((k) => Uint8Array.from(k))
    let root: TrieNode | null = null
    for (const [i, key] of keys.entries()) {
      const value = new Uint8Array(i % 2 === 0 ? 2 : 40).fill(i + 1)
      root = await trieSet(root, key, value, source)
      await reference.put(key, value)
      expect(hex(rootHash(root))).toBe(hex(reference.root()))
    }
    const stored = refNode(persist(root, write))
    for (const key of keys) expect(hex((await trieGet(stored, key, source)) as Uint8Array)).toBe(hex((await reference.get(key)) as Uint8Array))
    expect(await trieGet(stored, Uint8Array.of(0x12, 0x3f), source)).toBeUndefined()
    const listed: string[] = []
    for await (const [key] of trieEntries(stored, source)) listed.push(hex(key))
    expect(listed).toEqual(keys.map(hex).sort())
    // Deleting the branch's value, then the values under it: the branch folds into what is left.
    let after: TrieNode | null = stored
    for (const key of [keys[0], keys[1], keys[3]] as Uint8Array[]) {
      after = await trieSet(after, key, new Uint8Array(), source)
      await reference.del(key)
      expect(hex(rootHash(after))).toBe(hex(reference.root()))
      expect(await trieGet(after, key, source)).toBeUndefined()
    }
  })

  test('error: a missing node is reported, not treated as absent', async () => {
    const { source } = memoryStore()
    await expect(trieGet(refNode(keccak_256(new Uint8Array([1]))), new Uint8Array(32), source)).rejects.toThrow(/missing trie node/)
  })
})
