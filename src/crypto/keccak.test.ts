/**
 * keccak256 (src/crypto/keccak.ts): the WebAssembly hasher agrees with @noble/hashes on every
 * length around the rate (136 bytes), and kept hashes (views into shared slabs) are the same
 * bytes, each its own 32 bytes, across slab boundaries.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, test } from 'vitest'
import { initKeccak, keccak256, keccak256Code, keccak256Kept, keccak256OfHex, keccak256Word, keccakBackend } from './keccak.js'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const input = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff)

describe('keccak256', () => {
  test('behavior: keccak256Code remembers code by content: the same hash for equal bytes in new arrays, a new one for changed bytes', async () => {
    await initKeccak()
    for (const length of [0, 511, 512, 513, 4096, 24_576]) {
      const a = input(length)
      expect(hex(keccak256Code(a)), `${length} bytes`).toBe(hex(keccak_256(a)))
      expect(hex(keccak256Code(input(length))), `${length} bytes again`).toBe(hex(keccak_256(a)))
      // The caller's array changed in place after it was remembered: hashed afresh.
      a[length >> 1] = (a[length >> 1]! + 1) & 0xff
      expect(hex(keccak256Code(a)), `${length} bytes changed`).toBe(hex(keccak_256(a)))
    }
    // An answer written into by its caller does not change the next answer.
    const code = input(2000)
    keccak256Code(code).fill(0)
    expect(hex(keccak256Code(code))).toBe(hex(keccak_256(code)))
    // Past the memo's bound (1 MB of inputs) the oldest are dropped and still hashed right.
    const many = Array.from({ length: 40 }, (_, i) => new Uint8Array(32 * 1024).fill(i + 1))
    for (const m of many) keccak256Code(m)
    for (const m of many) expect(hex(keccak256Code(m))).toBe(hex(keccak_256(m)))
  })

  test('behavior: the WebAssembly hasher equals noble for lengths 0-600', async () => {
    await initKeccak()
    expect(keccakBackend()).toBe('wasm')
    for (let length = 0; length <= 600; length++) expect(hex(keccak256(input(length)))).toBe(hex(keccak_256(input(length))))
  })

  test('behavior: keccak256Word is the hash of a range of an array as a bigint', async () => {
    await initKeccak()
    for (const length of [0, 1, 31, 32, 64, 128, 129, 300]) {
      const bytes = new Uint8Array([9, 9, ...input(length), 9])
      expect(keccak256Word(bytes, 2, length), `${length} bytes`).toBe(BigInt(`0x${hex(keccak_256(input(length)))}`))
    }
  })

  test('behavior: kept hashes are the same bytes and stay apart across many slabs', async () => {
    await initKeccak()
    const kept = Array.from({ length: 1000 }, (_, i) => keccak256Kept(input(i % 300)))
    for (const [i, h] of kept.entries()) {
      expect(h.length).toBe(32)
      expect(hex(h)).toBe(hex(keccak_256(input(i % 300))))
    }
    // Writing into one kept hash leaves its neighbours alone.
    kept[10]!.fill(0)
    expect(hex(kept[9]!)).toBe(hex(keccak_256(input(9))))
    expect(hex(kept[11]!)).toBe(hex(keccak_256(input(11))))
  })

  test('behavior: keccak256OfHex hashes the bytes its hex spells, kept or not, whatever the case or length', async () => {
    await initKeccak()
    const cases = ['', '00', 'ab', 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'F39FD6E51AAD88F6F4CE6AB8827279CFFFB92266', '0'.repeat(63) + '1', 'ff'.repeat(64), 'ee'.repeat(65), 'abc']
    for (const h of cases) {
      const expected = hex(keccak_256(Uint8Array.from(Buffer.from(h.length % 2 === 1 ? `0${h}` : h, 'hex'))))
      expect(hex(keccak256OfHex(h, false))).toBe(expected)
      expect(hex(keccak256OfHex(h, true))).toBe(expected)
    }
    // Not hex: the same error as any other decoding of it, not a hash of whatever was decoded.
    expect(() => keccak256OfHex('zz', false)).toThrow()
    expect(() => keccak256OfHex('0g'.repeat(20), true)).toThrow()
  })
})
