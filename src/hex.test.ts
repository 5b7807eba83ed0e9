/** The wire and key encoders of src/hex.ts agree with the plain definitions on edge values. */
import { describe, expect, it } from 'vitest'
import { fromHex, keyOf, toBigInt, unpadded, word } from './hex.js'

const values = [0n, 1n, 255n, 256n, 8190n, 1_700_000_000n, 0xffffffffffffn, 0x1000000000000n, 2n ** 64n, 2n ** 256n - 1n]

describe('hex', () => {
  it.each(values)('word(%s) is the 32-byte big-endian value', (v) => {
    expect(keyOf(word(v))).toBe(v.toString(16).padStart(64, '0'))
    expect(toBigInt(word(v))).toBe(v)
  })

  it.each(values)('unpadded(%s) has no leading zero byte and reads back', (v) => {
    const bytes = unpadded(v)
    expect(bytes.length === 0 || bytes[0] !== 0).toBe(true)
    expect(toBigInt(bytes)).toBe(v)
    expect(bytes.length).toBe(v === 0n ? 0 : Math.ceil(v.toString(16).length / 2))
  })
})

describe('toBigInt of a 32-byte word', () => {
  it('reads every position of the first non-zero byte, views included, as the hex definition does', () => {
    for (let first = 0; first <= 32; first++) {
      for (const fill of [0x01, 0x80, 0xff, 0x5a]) {
        const bytes = Uint8Array.from({ length: 32 }, (_, i) => (i < first ? 0 : (fill ^ (i * 29)) & 0xff || 1))
        const expected = BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
        expect(toBigInt(bytes)).toBe(expected)
        // A view into a larger buffer, at an odd offset.
        const big = new Uint8Array(70)
        big.set(bytes, 7)
        expect(toBigInt(big.subarray(7, 39))).toBe(expected)
      }
    }
  })
})

describe('word of every width', () => {
  it('writes values of 1 to 256 bits as the hex definition does', () => {
    for (let bits = 1; bits <= 256; bits++) {
      for (const v of [(1n << BigInt(bits)) - 1n, 1n << BigInt(bits - 1), ((1n << BigInt(bits)) - 1n) / 3n]) {
        expect(Buffer.from(word(v)).toString('hex')).toBe(v.toString(16).padStart(64, '0'))
      }
    }
  })
})

describe('keyOf', () => {
  it('is the lower-case hex of inputs short and long, views included', () => {
    for (const length of [0, 1, 20, 32, 255, 256, 257, 1000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + 11) & 0xff)
      expect(keyOf(bytes)).toBe(Buffer.from(bytes).toString('hex'))
      const view = bytes.subarray(Math.min(3, length))
      expect(keyOf(view)).toBe(Buffer.from(view).toString('hex'))
    }
  })
})

describe('fromHex', () => {
  it('reads short and long hex, with or without 0x, odd lengths padded', () => {
    for (const length of [0, 1, 20, 64, 65, 200, 5000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 29 + 3) & 0xff)
      const hex = Buffer.from(bytes).toString('hex')
      expect(keyOf(fromHex(hex))).toBe(hex)
      expect(keyOf(fromHex(`0x${hex}`))).toBe(hex)
      expect(fromHex(hex)).toBeInstanceOf(Uint8Array)
    }
    expect(keyOf(fromHex('0x' + 'f'.repeat(201)))).toBe('0' + 'f'.repeat(201))
  })

  it('refuses what is not hex, long or short', () => {
    expect(() => fromHex('0xzz')).toThrow()
    expect(() => fromHex(`0x${'ab'.repeat(100)}zz`)).toThrow()
  })
})
