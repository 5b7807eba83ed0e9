/** The ordered trie walks (difference and range) against brute force over the same key sets. */
import { describe, expect, test } from 'vitest'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { persist, trieSet, type TrieNode } from './mpt.js'
import { trieDiff, trieEntriesFrom } from './mpt-walk.js'

/** A deterministic byte stream for test data. */
function stream(seed: string) {
  let counter = 0
  return (n: number) => {
    const out = new Uint8Array(n)
    for (let filled = 0; filled < n; filled += 32) {
      const block = keccak_256(new TextEncoder().encode(`${seed}/${counter++}`))
      out.set(block.subarray(0, Math.min(32, n - filled)), filled)
    }
    return out
  }
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

/** A trie built from a map, its nodes persisted in `nodes` (so roots are read back by hash too). */
async function build(entries: Map<string, Uint8Array>, nodes: Map<string, Uint8Array>, base: TrieNode | null = null, removed: string[] = []) {
  const source = { get: async (key: string) => nodes.get(key) }
  let root = base
  for (const [key, value] of entries) root = await trieSet(root, Buffer.from(key, 'hex'), value, source)
  for (const key of removed) root = await trieSet(root, Buffer.from(key, 'hex'), new Uint8Array(0), source)
  persist(root, (k, v) => void nodes.set(k, v))
  return { root, source }
}

async function all<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of gen) out.push(x)
  return out
}

describe('trieDiff', () => {
  test('behavior: the keys added, changed and removed between two versions of a trie, in key order', async () => {
    for (const keyLength of [32, 3]) {
      const rand = stream(`diff/${keyLength}`)
      const nodes = new Map<string, Uint8Array>()
      const before = new Map<string, Uint8Array>()
      for (let i = 0; i < 400; i++) before.set(hex(rand(keyLength)), rand(1 + (i % 40)))
      const a = await build(before, nodes)
      const keys = [...before.keys()]
      const changes = new Map<string, Uint8Array>()
      for (let i = 0; i < 40; i++) changes.set(keys[(i * 7) % keys.length] as string, rand(5))
      for (let i = 0; i < 20; i++) changes.set(hex(rand(keyLength)), rand(3))
      // An unchanged value written again is no difference.
      changes.set(keys[1] as string, before.get(keys[1] as string) as Uint8Array)
      const removed = keys.slice(100, 130)
      const b = await build(changes, nodes, a.root, removed)
      const after = new Map(before)
      for (const [k, v] of changes) after.set(k, v)
      for (const k of removed) after.delete(k)

      const expected = [...new Set([...before.keys(), ...after.keys()])]
        .filter((k) => hex(before.get(k) ?? new Uint8Array()) !== hex(after.get(k) ?? new Uint8Array()) || before.has(k) !== after.has(k))
        .sort()
        .map((k) => ({ key: k, before: before.has(k) ? hex(before.get(k) as Uint8Array) : undefined, after: after.has(k) ? hex(after.get(k) as Uint8Array) : undefined }))
      const found = (await all(trieDiff(a.root, b.root, a.source))).map((c) => ({
        key: hex(c.key),
        before: c.before === undefined ? undefined : hex(c.before),
        after: c.after === undefined ? undefined : hex(c.after),
      }))
      expect(found).toEqual(expected)
      // From nothing: every key, as added; identical roots: nothing.
      expect((await all(trieDiff(null, b.root, a.source))).map((c) => hex(c.key))).toEqual([...after.keys()].sort())
      expect(await all(trieDiff(b.root, b.root, a.source))).toEqual([])
    }
  })
})

describe('trieEntriesFrom', () => {
  test('behavior: the entries from a start key on, in key order, for starts on, between and shorter than keys', async () => {
    const rand = stream('range')
    const nodes = new Map<string, Uint8Array>()
    const entries = new Map<string, Uint8Array>()
    for (let i = 0; i < 300; i++) entries.set(hex(rand(32)), rand(4))
    const { root, source } = await build(entries, nodes)
    const sorted = [...entries.keys()].sort()
    const starts = ['', sorted[0] as string, sorted[17] as string, (sorted[40] as string).slice(0, 3) + '0', (sorted[90] as string).slice(0, 2), 'ff'.repeat(32), '00']
    for (const start of starts) {
      const found = (await all(trieEntriesFrom(root, Buffer.from(start, 'hex'), source))).map(([k]) => hex(k))
      expect(found).toEqual(sorted.filter((k) => k >= start))
    }
    expect(await all(trieEntriesFrom(null, new Uint8Array(0), source))).toEqual([])
  })
})
