/**
 * A revert's state restore keeps its optimised code when it first empties an account's storage
 * (the slots of a contract made after the snapshot): that way shares `apply`'s code for the same
 * rule (flat-state.ts `dropIfEmpty`), which blocks run long before a suite's first such revert.
 * Checked with V8's natives: the function optimised on the usual way, then run on the new one.
 */
import { Account } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { isOptimised, optimisedAfter } from '../helpers/v8-natives.js'
import { FlatState } from '../../src/state/flat-state.js'
import { emptyDiff, type StateDiff } from '../../src/state/types.js'


const A = 'aa'.repeat(20)
const B = 'bb'.repeat(20)
const slot = (n: number) => n.toString(16).padStart(64, '0')

function writes(address: string, slots: Array<[number, number]>): StateDiff {
  const diff = emptyDiff()
  diff.accounts.set(address, new Account(0n, 1n))
  diff.storage.set(address, new Map(slots.map(([s, v]) => [slot(s), v === 0 ? new Uint8Array() : Uint8Array.of(v)])))
  return diff
}

describe('FlatState.restore under optimised code', () => {
  it('behavior: stays optimised when a restore first empties an account it held slots of', () => {
    const flat = new FlatState()
    // Blocks have emptied an account's storage (a slot set, then zeroed) before any revert.
    flat.apply(writes(B, [[1, 1]]))
    flat.apply(writes(B, [[1, 0]]))
    flat.apply(writes(A, [[1, 1], [2, 2]]))
    // The usual revert: slots of an account that keeps storage are put back, and slots it did
    // not have before are taken off.
    let n = 3
    const restoreKept = () => {
      const undo = flat.apply(writes(A, [[1, n], [100 + n, n]]), true)
      n++
      flat.restore(undo!)
    }
    const restore = FlatState.prototype.restore
    expect(optimisedAfter(restore, restoreKept)).toBe(true)
    // A contract made after the snapshot: restoring takes all its slots, and its map goes.
    const undo = flat.apply(writes(B, [[5, 5]]), true)
    flat.restore(undo!)
    expect(flat.storage.has(B)).toBe(false)
    expect(isOptimised(restore)).toBe(true)
  })
})
