/**
 * The index tries' root keeps its optimised code at the first block of two or more transactions:
 * a one-entry trie and a trie of several are two functions, one chosen and reached through `call`
 * (builder.ts `soleLeafRoot` / `trieRoot`), so a caller optimised on automined blocks meets no
 * loop it had never run. Checked with V8's natives: `orderedRoot` optimised on one-entry lists,
 * then run on longer ones; the roots checked against @ethereumjs/mpt's.
 */
import { createMPT } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { describe, expect, it } from 'vitest'
import { isOptimised, optimisedAfter } from '../helpers/v8-natives.js'
import { orderedRoot } from '../../src/execution/builder.js'
import { keyOf } from '../../src/hex.js'

async function libraryRoot(values: Uint8Array[]): Promise<string> {
  const trie = await createMPT()
  for (let i = 0; i < values.length; i++) await trie.put(RLP.encode(i), values[i]!)
  return keyOf(trie.root())
}

describe('orderedRoot under optimised code', () => {
  it('behavior: stays optimised at the first list of several entries, with the library\'s roots', async () => {
    let n = 1
    const one = () => [Uint8Array.of(n, 2, 3)]
    expect(optimisedAfter(orderedRoot, () => {
      orderedRoot(one())
      n++
    })).toBe(true)
    const lists = [one(), [Uint8Array.of(1), Uint8Array.of(2, 3)], Array.from({ length: 130 }, (_, i) => Uint8Array.of(i, i + 1, 9))]
    const roots = lists.map((values) => keyOf(orderedRoot(values)))
    expect(isOptimised(orderedRoot)).toBe(true)
    for (let i = 0; i < lists.length; i++) expect(roots[i]).toBe(await libraryRoot(lists[i]!))
  })
})
