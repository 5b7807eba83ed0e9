/**
 * The state trie's roots stay exact whatever way its head moves: blocks adopted on the head,
 * blocks prepared and dropped, blocks written on an older state and adopted, the head moved back
 * (evm_revert), accounts deleted and made again, storage written with and without the account,
 * storage cleared. Each root is compared with the root of the same state written from nothing
 * into a new trie. (Guards the trie's per-block shortcuts: its kept storage tries and key paths.)
 */
import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { keyOf } from '../hex.js'
import { EMPTY_ROOT } from './mpt.js'
import { NodeStore } from './node-store.js'
import { StateTrie } from './state-trie.js'
import { emptyDiff, type StateDiff, type StateReader } from './types.js'

interface ModelAccount {
  nonce: bigint
  balance: bigint
  slots: Map<string, Uint8Array>
}
type Model = Map<string, ModelAccount>

const ADDRESSES = Array.from({ length: 8 }, (_, i) => (i + 1).toString(16).padStart(40, '0'))
const SLOTS = Array.from({ length: 6 }, (_, i) => (i * 7 + 1).toString(16).padStart(64, '0'))

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function copyModel(model: Model): Model {
  return new Map([...model].map(([k, a]) => [k, { nonce: a.nonce, balance: a.balance, slots: new Map(a.slots) }]))
}

function account(a: ModelAccount): Account {
  return new Account(a.nonce, a.balance, EMPTY_ROOT, KECCAK256_NULL)
}

/** The head state as the trie's base reader: the accounts a diff names only through storage. */
function reader(model: Model): StateReader {
  const get = (address: string) => {
    const a = model.get(address)
    return a === undefined ? undefined : account(a)
  }
  return {
    getAccount: async (address) => get(address),
    getStorage: async (address, slot) => model.get(address)?.slots.get(slot) ?? new Uint8Array(0),
    getCode: async () => new Uint8Array(0),
    now: { account: get, storage: (address, slot) => model.get(address)?.slots.get(slot) ?? new Uint8Array(0), code: () => new Uint8Array(0) },
  }
}

/** The whole state as a diff from nothing. */
function fullDiff(model: Model): StateDiff {
  const diff = emptyDiff()
  for (const [address, a] of model) {
    diff.accounts.set(address, account(a))
    if (a.slots.size > 0) diff.storage.set(address, new Map(a.slots))
  }
  return diff
}

/** A random block's diff over `model`, and the model after it. */
function randomBlock(model: Model, next: () => number): { diff: StateDiff; after: Model } {
  const diff = emptyDiff()
  const after = copyModel(model)
  for (const address of ADDRESSES) {
    const roll = next()
    const current = after.get(address)
    if (roll < 0.1 && current !== undefined) {
      diff.accounts.set(address, null)
      after.delete(address)
      continue
    }
    if (roll > 0.6) continue
    const a = current ?? { nonce: 0n, balance: 0n, slots: new Map<string, Uint8Array>() }
    if (current === undefined) after.set(address, a)
    // Storage alone (the account read from the base), the account alone, or both.
    const kind = next()
    if (kind < 0.6 || current === undefined) {
      a.balance += BigInt(Math.floor(next() * 1000) + 1)
      diff.accounts.set(address, account(a))
    }
    if (kind > 0.3) {
      if (next() < 0.1 && a.slots.size > 0) {
        diff.cleared.add(address)
        a.slots.clear()
      }
      const slots = new Map<string, Uint8Array>()
      for (const slot of SLOTS) {
        const r = next()
        if (r < 0.25) {
          slots.set(slot, new Uint8Array(0))
          a.slots.delete(slot)
        } else if (r < 0.5) {
          const value = Uint8Array.of(Math.floor(next() * 255) + 1, 7)
          slots.set(slot, value)
          a.slots.set(slot, value)
        }
      }
      diff.storage.set(address, slots)
    }
  }
  return { diff, after }
}

async function rootFromNothing(model: Model): Promise<string> {
  const trie = new StateTrie(new NodeStore(undefined))
  return keyOf(await trie.commit(EMPTY_ROOT, fullDiff(model), reader(new Map())))
}

describe.each([
  ['kept as objects', () => new NodeStore(undefined)],
  ['with a database', () => {
    const db = new Map<string, Uint8Array>()
    return new NodeStore({ get: async (key) => db.get(key) })
  }],
])('StateTrie (%s)', (_name, makeStore) => {
  it.each([1, 2, 3])('random blocks, dropped candidates and reverts keep exact roots (seed %i)', async (seed) => {
    const next = random(seed)
    const trie = new StateTrie(makeStore())
    let model: Model = new Map()
    let head = EMPTY_ROOT
    const history: Array<{ root: Uint8Array; model: Model }> = [{ root: head, model }]
    for (let step = 0; step < 120; step++) {
      const roll = next()
      if (roll < 0.1 && history.length > 1) {
        // evm_revert: back to an older head.
        const back = history[Math.floor(next() * history.length)]!
        trie.resetHead(back.root)
        head = back.root
        model = copyModel(back.model)
        continue
      }
      if (roll < 0.15 && history.length > 1) {
        // A block written on an older state and adopted (an imported chain's block): the head moves there.
        const back = history[Math.floor(next() * history.length)]!
        const { diff, after } = randomBlock(back.model, next)
        const prepared = await trie.prepare(back.root, diff, reader(back.model))
        expect(keyOf(prepared.root)).toBe(await rootFromNothing(after))
        trie.adopt(prepared)
        head = prepared.root
        model = after
        history.push({ root: head, model: copyModel(model) })
        continue
      }
      const { diff, after } = randomBlock(model, next)
      const prepared = await trie.prepare(head, diff, reader(model))
      expect(keyOf(prepared.root)).toBe(await rootFromNothing(after))
      // A candidate the round did not decide (or the pending block): prepared, never adopted.
      if (roll > 0.85) continue
      trie.adopt(prepared)
      head = prepared.root
      model = after
      history.push({ root: head, model: copyModel(model) })
    }
  })
})
