import { describe, expect, test } from 'vitest'
import { ChainStore } from './store.js'
import type { RawLog, StoredReceipt } from './receipts.js'
import { keyOf } from '../hex.js'

const bytes = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 255)

function receipt(logs: RawLog[], bloom: Uint8Array): StoredReceipt {
  return { status: 1, cumulativeGasUsed: 21000n, gasUsed: 21000n, logs, bloom, from: bytes(20, 7), contractAddress: bytes(20, 9) }
}

describe('chain store without a database', () => {
  test('behavior: kept receipts hold the same bytes (logs, bloom, sender, created address); the arrays handed in are not changed', () => {
    const big = bytes(2000, 5)
    const log: RawLog = [bytes(20, 1), [bytes(32, 2), bytes(32, 3)], bytes(64, 4)]
    const withLogs = receipt([log, [bytes(20, 6), [], new Uint8Array(0)], [bytes(20, 8), [], big]], bytes(256, 11))
    const without = receipt([], new Uint8Array(256))
    const copy = (r: StoredReceipt) => structuredClone(r)
    const expected = [copy(withLogs), copy(without)]
    const handedLog = withLogs.logs[0]
    const store = new ChainStore(undefined)
    const hash = bytes(32, 12)
    store.commit({ hash, number: 0n, rlp: bytes(10, 13), receipts: [withLogs, without], txHashes: [bytes(32, 14), bytes(32, 15)], nodes: new Map() })
    const kept = store.receiptsNow(keyOf(hash)) as StoredReceipt[]
    expect(kept.map(copy)).toEqual(expected)
    // The log arrays handed in still hold what they held.
    expect(handedLog).toEqual(expected[0]?.logs[0])
    // Data past the slab field limit keeps its own array.
    expect(kept[0]?.logs[2]?.[2]).toBe(big)
  })
})
