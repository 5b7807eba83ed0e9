/** The bad-block list: geth's retention (ten, highest number first, no duplicates). */
import { createBlock } from '@ethereumjs/block'
import { describe, expect, test } from 'vitest'
import { BAD_BLOCKS_KEPT, BadBlocks } from './bad-blocks.js'

const block = (number: bigint, extra = 0) => createBlock({ header: { number, extraData: Uint8Array.of(extra) } })

describe('BadBlocks', () => {
  test('behavior: keeps the ten highest-numbered blocks, highest first; the eleventh drops the lowest', () => {
    const list = new BadBlocks()
    for (const n of [5n, 1n, 9n, 3n, 7n, 2n, 8n, 4n, 10n, 6n]) list.add(block(n))
    expect(BAD_BLOCKS_KEPT).toBe(10)
    expect(list.all().map((b) => b.header.number)).toEqual([10n, 9n, 8n, 7n, 6n, 5n, 4n, 3n, 2n, 1n])
    list.add(block(11n))
    expect(list.all().map((b) => b.header.number)).toEqual([11n, 10n, 9n, 8n, 7n, 6n, 5n, 4n, 3n, 2n])
    // A block lower than all ten kept is dropped at once.
    list.add(block(0n))
    expect(list.all()).toHaveLength(10)
    expect(list.get(block(0n).hash())).toBeUndefined()
    expect(list.get(block(11n).hash())?.header.number).toBe(11n)
  })

  test('behavior: the same block twice is listed once; another block of the same number is listed too', () => {
    const list = new BadBlocks()
    list.add(block(3n))
    list.add(block(3n))
    expect(list.all()).toHaveLength(1)
    list.add(block(3n, 1))
    expect(list.all()).toHaveLength(2)
  })
})
