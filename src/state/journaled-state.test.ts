/**
 * The execution overlay (src/state/journaled-state.ts) over the flat state: reads go through the
 * flat state's synchronous readers when it has them and through its promises when it has not,
 * with the same answers; storage comes back as 32-byte words (empty for zero) wherever it lives.
 */
import { describe, expect, test } from 'vitest'
import { Account, Address } from '@ethereumjs/util'
import { FlatState } from './flat-state.js'
import { JournaledState, NOT_AT_HAND, addressKey } from './journaled-state.js'
import { fromHex, keyOf } from '../hex.js'
import { emptyDiff, type StateReader } from './types.js'

const A = 'aa'.repeat(20)
const ADDRESS = new Address(Uint8Array.from(Buffer.from(A, 'hex')))
const slot = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : 0))
const SLOT1 = '00'.repeat(31) + '01'
const word = (n: number) => slot(n)

function flatState(): FlatState {
  const flat = new FlatState()
  const diff = emptyDiff()
  diff.accounts.set(A, new Account(3n, 100n))
  diff.storage.set(A, new Map([[SLOT1, Uint8Array.of(7)]]))
  flat.apply(diff)
  return flat
}

/** The flat state as a reader without synchronous reads (as a historical trie reader is). */
function asyncOnly(reader: StateReader): StateReader {
  return { getAccount: (a) => reader.getAccount(a), getStorage: (a, s) => reader.getStorage(a, s), getCode: (a) => reader.getCode(a) }
}

describe('JournaledState', () => {
  for (const [name, base] of [['synchronous reads', (f: FlatState) => f.view()], ['promises only', (f: FlatState) => asyncOnly(f.view())]] as const) {
    test(`behavior: reads the base through ${name}; storage as 32-byte words, empty for zero`, async () => {
      const state = new JournaledState(base(flatState()))
      expect((await state.getAccount(ADDRESS))?.nonce).toBe(3n)
      expect(await state.getStorage(ADDRESS, slot(1))).toEqual(word(7))
      expect(await state.getStorage(ADDRESS, slot(2))).toEqual(new Uint8Array(0))
      await state.putStorage(ADDRESS, slot(2), word(9))
      expect(await state.getStorage(ADDRESS, slot(2))).toEqual(word(9))
      await state.putStorage(ADDRESS, slot(1), new Uint8Array(32))
      expect(await state.getStorage(ADDRESS, slot(1))).toEqual(new Uint8Array(0))
      // The diff handed to the commit keeps values unpadded (the trie's RLP strips leading zeros).
      expect(state.diff().storage.get(A)?.get('00'.repeat(31) + '02')).toEqual(Uint8Array.of(9))
    })
  }

  test('behavior: an account read from the base is a copy: changing it changes nothing until put', async () => {
    const flat = flatState()
    const state = new JournaledState(flat.view())
    const account = await state.getAccount(ADDRESS)
    account!.balance = 1n
    expect((await state.getAccount(ADDRESS))?.balance).toBe(100n)
    expect(flat.accounts.get(A)?.balance).toBe(100n)
  })

  test('behavior: synchronous access answers like the promises where the base reads synchronously, and steps aside where it cannot', async () => {
    const sync = new JournaledState(flatState().view())
    const account = sync.accountNow(ADDRESS)
    expect(account).not.toBe(NOT_AT_HAND)
    expect((account as Account).balance).toBe(100n)
    ;(account as Account).balance = 5n
    sync.setAccount(ADDRESS, account as Account)
    expect((await sync.getAccount(ADDRESS))?.balance).toBe(5n)
    expect(sync.storageNow(ADDRESS, slot(1))).toEqual(word(7))
    const promisesOnly = new JournaledState(asyncOnly(flatState().view()))
    expect(promisesOnly.accountNow(ADDRESS)).toBe(NOT_AT_HAND)
    expect(promisesOnly.storageNow(ADDRESS, slot(1))).toBeUndefined()
    expect((await promisesOnly.getAccount(ADDRESS))?.balance).toBe(100n)
  })
})

describe('addressKey', () => {
  test('behavior: answers keyOf of the bytes for every address, interleaved past what it remembers, and for another array of the same bytes', () => {
    const addresses = Array.from({ length: 9 }, (_, i) => new Address(fromHex((i + 1).toString(16).padStart(40, 'a'))))
    for (let round = 0; round < 3; round++) {
      for (const [i, a] of addresses.entries()) {
        expect(addressKey(a)).toBe(keyOf(a.bytes))
        // The same address again at once, and an earlier one, remembered or not.
        expect(addressKey(a)).toBe(keyOf(a.bytes))
        const earlier = addresses[(i * 5) % addresses.length]!
        expect(addressKey(earlier)).toBe(keyOf(earlier.bytes))
      }
    }
    const copy = new Address(fromHex(keyOf(addresses[0]!.bytes)))
    expect(addressKey(copy)).toBe(keyOf(addresses[0]!.bytes))
  })
})
