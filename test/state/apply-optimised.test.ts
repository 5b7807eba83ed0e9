/**
 * A block's apply to the flat state keeps its optimised code when a block first removes an
 * account (self-destructed, or emptied under EIP-161) or first takes an account's code off: each
 * removal and its write are two functions reached through `call` (flat-state.ts `dropAccount`,
 * `dropCode`), so the first removal is no branch the compiled code had never taken. Checked with
 * V8's natives: the function optimised on blocks that write accounts and code, then run on ones
 * that remove them.
 */
import { Account } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { isOptimised, optimisedAfter } from '../helpers/v8-natives.js'
import { FlatState } from '../../src/state/flat-state.js'
import { emptyDiff, type StateDiff } from '../../src/state/types.js'


const A = 'aa'.repeat(20)
const B = 'bb'.repeat(20)

function writes(nonce: bigint): StateDiff {
  const diff = emptyDiff()
  diff.accounts.set(A, new Account(nonce, 1n))
  diff.storage.set(A, new Map([['01'.padStart(64, '0'), Uint8Array.of(Number(nonce & 0xffn) | 1)]]))
  // A deployment: blocks with a snapshot open have kept code before any removal.
  diff.code.set(`${nonce}`.padStart(40, 'c'), Uint8Array.of(0x60, Number(nonce & 0xffn)))
  return diff
}

/** B: an account with storage and code, which a later block removes. */
function made(): StateDiff {
  const diff = emptyDiff()
  diff.accounts.set(B, new Account(1n, 5n))
  diff.storage.set(B, new Map([['02'.padStart(64, '0'), Uint8Array.of(7)]]))
  diff.code.set(B, Uint8Array.of(0x60, 0x00))
  return diff
}

describe('FlatState.apply under optimised code', () => {
  it('behavior: stays optimised when a block first removes an account, with a snapshot open or not', () => {
    // A storage cleared under a snapshot once before, on another state: the first time marks
    // code compiled before as stale (V8 throws it away lazily, on return), which is not this
    // test's case; OpenZeppelin's traced replay showed no such throw of `apply`.
    const before = new FlatState()
    before.apply(made())
    const clear = emptyDiff()
    clear.cleared.add(B)
    before.apply(clear, true)
    const flat = new FlatState()
    flat.apply(made())
    let n = 1n
    const apply = FlatState.prototype.apply
    expect(optimisedAfter(apply, () => {
      flat.apply(writes(n), n % 2n === 0n)
      n++
    })).toBe(true)
    // A block removes B while a snapshot is open: its account, storage and code go, and the undo
    // record brings them back.
    const removal = emptyDiff()
    removal.accounts.set(B, null)
    const undo = flat.apply(removal, true)
    expect(flat.accounts.has(B)).toBe(false)
    expect(flat.storage.has(B)).toBe(false)
    expect(flat.code.has(B)).toBe(false)
    expect(isOptimised(apply)).toBe(true)
    flat.restore(undo!)
    expect(flat.accounts.get(B)?.balance).toBe(5n)
    expect(flat.storage.get(B)?.get('02'.padStart(64, '0'))).toEqual(Uint8Array.of(7))
    expect(flat.code.get(B)).toEqual(Uint8Array.of(0x60, 0x00))
    // And with none open.
    flat.apply(removal)
    expect(flat.accounts.has(B)).toBe(false)
    expect(isOptimised(apply)).toBe(true)
    // Code taken off an account (hardhat_setCode with none).
    const codeOff = emptyDiff()
    codeOff.code.set(`${1n}`.padStart(40, 'c'), new Uint8Array())
    flat.apply(codeOff, true)
    expect(flat.code.has(`${1n}`.padStart(40, 'c'))).toBe(false)
    expect(isOptimised(apply)).toBe(true)
  })
})
