/**
 * The RLP writers of src/rlp.ts produce what @ethereumjs/rlp produces: integers of every byte
 * length (zero, single bytes, the 0x7f / 0x80 boundary, up to 2^256-1), strings and lists of
 * every header size.
 */
import { RLP } from '@ethereumjs/rlp'
import { describe, expect, it } from 'vitest'
import { encodeStrings, uintLength, writeUint } from './rlp.js'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

describe('src/rlp.ts', () => {
  it('writeUint / uintLength equal RLP.encode of the integer', () => {
    const values = [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n, 31337n, 2n ** 32n - 1n, 2n ** 64n, 2n ** 255n, 2n ** 256n - 1n]
    for (let bits = 2n; bits <= 256n; bits += 5n) values.push(2n ** bits - 3n)
    for (const value of values) {
      const out = new Uint8Array(uintLength(value))
      expect(writeUint(out, 0, value)).toBe(out.length)
      expect(hex(out)).toBe(hex(RLP.encode(value)))
    }
  })

  it('encodeStrings equals RLP.encode for strings of every header size', () => {
    for (const length of [0, 1, 55, 56, 255, 256, 70_000]) {
      const items = [new Uint8Array(length).fill(0xab), Uint8Array.of(0x05), Uint8Array.of(0x80), new Uint8Array(0)]
      expect(hex(encodeStrings(items))).toBe(hex(RLP.encode(items)))
    }
  })
})
