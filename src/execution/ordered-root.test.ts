import { describe, expect, test } from 'vitest'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { orderedRoot } from './builder.js'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

/** Values of varied lengths: 1 byte (nodes embedded in their parents), tens and hundreds of bytes. */
function values(count: number, seed: string): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => {
    const length = [1, 5, 40, 300][i % 4] as number
    const out = new Uint8Array(length)
    for (let at = 0; at < length; at += 32) out.set(keccak_256(new TextEncoder().encode(`${seed}/${i}/${at}`)).subarray(0, Math.min(32, length - at)), at)
    return out
  })
}

describe('orderedRoot', () => {
  test('behavior: the root of the index-keyed trie equals @ethereumjs/mpt for 0 to 200 values (keys RLP(0) to RLP(199))', async () => {
    // 128 and more: keys of two bytes (0x81 0x80 …) next to the one-byte keys.
    for (const count of [0, 1, 2, 3, 16, 17, 128, 129, 200]) {
      const list = values(count, `ordered-${count}`)
      const reference = new MerklePatriciaTrie()
      for (const [i, value] of list.entries()) await reference.put(RLP.encode(i), value)
      expect(hex(orderedRoot(list)), `${count} values`).toBe(hex(reference.root()))
    }
  })

  test('behavior: the same values give the same root again (nothing of one trie is kept into the next)', () => {
    const list = values(40, 'again')
    const first = hex(orderedRoot(list))
    orderedRoot(values(40, 'other'))
    expect(hex(orderedRoot(list))).toBe(first)
  })
})
