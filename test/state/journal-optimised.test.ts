/**
 * The execution overlay's journal keeps its optimised code at steps first met late in a suite:
 * the revert of a slot that had no value in the overlay, of code and of a storage wipe (each step
 * carries the function that undoes it, reached through `call`), and the rebase of a pooled call's
 * overlay after a call that wrote into it (the clearing is a function of its own, chosen and
 * reached through `call`). Checked with V8's natives: each function optimised on the common case,
 * then run on the rare one; the overlay's contents checked after.
 */
import { Account, Address } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { isOptimised, optimisedAfter } from '../helpers/v8-natives.js'
import { FlatState } from '../../src/state/flat-state.js'
import { JournaledState } from '../../src/state/journaled-state.js'
import { emptyDiff } from '../../src/state/types.js'

const A = 'aa'.repeat(20)
const B = 'bb'.repeat(20)
const address = (hex: string) => new Address(Uint8Array.from(Buffer.from(hex, 'hex')))
const slot = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : 0))
const SLOT1 = '00'.repeat(31) + '01'
const SLOT5 = '00'.repeat(31) + '05'

function base(): FlatState {
  const flat = new FlatState()
  const diff = emptyDiff()
  diff.accounts.set(A, new Account(3n, 100n))
  diff.storage.set(A, new Map([[SLOT1, Uint8Array.of(7)]]))
  flat.apply(diff)
  return flat
}

describe('JournaledState under optimised code', () => {
  it('behavior: revert stays optimised at its first slot without a value, code and wipe', () => {
    const state = new JournaledState(base().view())
    // The common case: a frame that overwrites what the overlay holds already, then reverts.
    state.setAccount(address(A), new Account(4n, 90n))
    state.setStorage(address(A), slot(1), slot(8))
    let n = 10
    const frame = () => {
      void state.checkpoint()
      state.setAccount(address(A), new Account(5n, BigInt(n)))
      state.setStorage(address(A), slot(1), slot(n++ & 0xff))
      void state.revert()
    }
    // Warm, as a suite's reverts are before V8 compiles them: the undo step is inlined then.
    for (let i = 0; i < 500; i++) frame()
    const revert = JournaledState.prototype.revert
    expect(optimisedAfter(revert, frame)).toBe(true)
    // A frame that writes a new slot, new code and a new account, wipes storage, and reverts.
    void state.checkpoint()
    state.setStorage(address(A), slot(5), slot(3))
    void state.putCode(address(B), Uint8Array.of(0x60, 0x00))
    void state.clearStorage(address(A))
    state.setAccount(address(B), new Account(1n, 1n))
    void state.revert()
    expect(isOptimised(revert)).toBe(true)
    const diff = state.diff()
    expect(diff.accounts.get(A)?.nonce).toBe(4n)
    expect(diff.accounts.has(B)).toBe(false)
    expect(diff.code.has(B)).toBe(false)
    expect(diff.cleared.has(A)).toBe(false)
    expect(diff.storage.get(A)?.get(SLOT1)).toEqual(Uint8Array.of(8))
    expect(diff.storage.get(A)?.has(SLOT5)).toBe(false)
  })

  it('behavior: rebase stays optimised at the first overlay a run wrote into', () => {
    const flat = base()
    const state = new JournaledState(flat.view())
    const rebase = JournaledState.prototype.rebase
    expect(optimisedAfter(rebase, () => state.rebase(flat.view()))).toBe(true)
    state.setAccount(address(B), new Account(1n, 1n))
    state.setStorage(address(A), slot(5), slot(3))
    void state.putCode(address(B), Uint8Array.of(0x60, 0x00))
    void state.clearStorage(address(A))
    state.rebase(flat.view())
    expect(isOptimised(rebase)).toBe(true)
    const diff = state.diff()
    expect([diff.accounts.size, diff.storage.size, diff.cleared.size, diff.code.size]).toEqual([0, 0, 0, 0])
  })
})
