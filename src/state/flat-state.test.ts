import { describe, expect, test } from 'vitest'
import { Account } from '@ethereumjs/util'
import { FlatState } from './flat-state.js'
import { emptyDiff } from './types.js'

const A = 'aa'.repeat(20)
const SLOT = '00'.repeat(31) + '01'
const v = (n: number) => Uint8Array.of(n)

function write(balance: bigint, slot?: number, code?: number) {
  const diff = emptyDiff()
  diff.accounts.set(A, new Account(0n, balance))
  if (slot !== undefined) diff.storage.set(A, new Map([[SLOT, slot === 0 ? new Uint8Array() : v(slot)]]))
  if (code !== undefined) diff.code.set(A, v(code))
  return diff
}

describe('FlatState', () => {
  test('behavior: a pinned view keeps reading its version while later blocks apply', async () => {
    const flat = new FlatState()
    flat.apply(write(1n, 7, 1))
    const view = flat.view()
    flat.apply(write(2n, 8, 2))
    flat.apply(write(3n, 0))
    expect((await view.getAccount(A))?.balance).toBe(1n)
    expect(await view.getStorage(A, SLOT)).toEqual(v(7))
    expect(await view.getCode(A)).toEqual(v(1))
    expect((await flat.getAccount(A))?.balance).toBe(3n)
    expect((await flat.getStorage(A, SLOT)).length).toBe(0)
    view.close()
  })

  test('behavior: a cleared storage map stays whole for a view pinned before the clear', async () => {
    const flat = new FlatState()
    flat.apply(write(1n, 5))
    const view = flat.view()
    const diff = emptyDiff()
    diff.accounts.set(A, new Account(0n, 1n))
    diff.cleared.add(A)
    diff.storage.set(A, new Map([['00'.repeat(32), v(9)]]))
    flat.apply(diff)
    expect(await view.getStorage(A, SLOT)).toEqual(v(5))
    expect(await view.getStorage(A, '00'.repeat(32))).toEqual(new Uint8Array())
    expect((await flat.getStorage(A, SLOT)).length).toBe(0)
    expect(await flat.getStorage(A, '00'.repeat(32))).toEqual(v(9))
    view.close()
  })

  test('behavior: a deleted account reads as absent for the head and present for an older view', async () => {
    const flat = new FlatState()
    flat.apply(write(4n, 1, 1))
    const view = flat.view()
    const diff = emptyDiff()
    diff.accounts.set(A, null)
    flat.apply(diff)
    expect(await flat.getAccount(A)).toBeUndefined()
    expect((await view.getAccount(A))?.balance).toBe(4n)
    expect(await view.getStorage(A, SLOT)).toEqual(v(1))
    view.close()
  })

  test('behavior: restore undoes an apply exactly (evm_revert)', async () => {
    const flat = new FlatState()
    flat.apply(write(1n, 7, 1))
    const undo = flat.apply(write(2n, 8, 2), true)
    flat.restore(undo!)
    expect((await flat.getAccount(A))?.balance).toBe(1n)
    expect(await flat.getStorage(A, SLOT)).toEqual(v(7))
    expect(await flat.getCode(A)).toEqual(v(1))
  })

  test('behavior: records of blocks that each change one kind (storage, account, code) restore exactly, newest first', async () => {
    const flat = new FlatState()
    flat.apply(write(1n, 7, 1))
    const only = (kind: 'storage' | 'account' | 'code', n: number) => {
      const diff = emptyDiff()
      if (kind === 'storage') diff.storage.set(A, new Map([[SLOT, v(n)]]))
      if (kind === 'account') diff.accounts.set(A, new Account(0n, BigInt(n)))
      if (kind === 'code') diff.code.set(A, v(n))
      return flat.apply(diff, true)!
    }
    const undos = [only('storage', 8), only('account', 2), only('code', 2), only('account', 3)]
    const state = async () => [(await flat.getAccount(A))?.balance, (await flat.getStorage(A, SLOT))[0], (await flat.getCode(A))[0]]
    expect(await state()).toEqual([3n, 8, 2])
    const expected = [[2n, 8, 2], [2n, 8, 1], [1n, 8, 1], [1n, 7, 1]]
    for (const [i, undo] of undos.reverse().entries()) {
      flat.restore(undo)
      expect(await state()).toEqual(expected[i])
    }
  })

  test('behavior: with no view open, apply keeps nothing and returns nothing', () => {
    const flat = new FlatState()
    expect(flat.apply(write(1n, 1))).toBeUndefined()
  })
})
