/**
 * The state root's write keeps its optimised code at the first block that deletes an account: the
 * removals are a step of their own, chosen against the root as it is and reached through `call`
 * on every write (state-trie.ts `removeAccounts` / `sameRoot`), so the first deletion is no branch
 * the compiled code had never taken. Checked with V8's natives: `write` optimised on blocks that
 * only write accounts and storage, then run on one that deletes an account; its root checked
 * against the same state written into a new trie.
 */
import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { isOptimised, optimisedAfter } from '../helpers/v8-natives.js'
import { keyOf } from '../../src/hex.js'
import { EMPTY_ROOT } from '../../src/state/mpt.js'
import { NodeStore } from '../../src/state/node-store.js'
import { StateTrie } from '../../src/state/state-trie.js'
import { emptyDiff, type StateDiff, type StateReader } from '../../src/state/types.js'

const A = 'aa'.repeat(20)
const B = 'bb'.repeat(20)
const SLOT = '01'.padStart(64, '0')

const NOTHING: StateReader = {
  getAccount: async () => undefined,
  getStorage: async () => new Uint8Array(0),
  getCode: async () => new Uint8Array(0),
  now: { account: () => undefined, storage: () => new Uint8Array(0), code: () => new Uint8Array(0) },
}

function writes(nonce: bigint): StateDiff {
  const diff = emptyDiff()
  diff.accounts.set(A, new Account(nonce, 1n, EMPTY_ROOT, KECCAK256_NULL))
  diff.storage.set(A, new Map([[SLOT, Uint8Array.of(Number(nonce & 0xffn) | 1)]]))
  return diff
}

describe('StateTrie write under optimised code', () => {
  it('behavior: stays optimised at the first block that deletes an account, with the same root', async () => {
    const trie = new StateTrie(new NodeStore(undefined))
    const made = emptyDiff()
    made.accounts.set(B, new Account(1n, 5n, EMPTY_ROOT, KECCAK256_NULL))
    const head = await trie.commit(EMPTY_ROOT, made, NOTHING)
    const write = StateTrie.prototype['write']
    let n = 1n
    // In memory and with every account in the diff, a write runs to its end without waiting.
    expect(optimisedAfter(write, () => {
      void trie['write'](head, writes(n), NOTHING, [])
      n++
    })).toBe(true)
    const removal = writes(n + 1n)
    removal.accounts.set(B, null)
    const root = await trie.rootOf(head, removal, NOTHING)
    expect(isOptimised(write)).toBe(true)
    // The same state (A alone) from nothing.
    const fresh = new StateTrie(new NodeStore(undefined))
    expect(keyOf(root)).toBe(keyOf(await fresh.commit(EMPTY_ROOT, writes(n + 1n), NOTHING)))
  })
})
