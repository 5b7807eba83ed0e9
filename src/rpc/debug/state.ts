/**
 * debug_storageRangeAt and debug_getModifiedAccountsBy{Number,Hash}: walks over the state trie
 * of old blocks (`state/mpt-walk.ts`), with geth's params, shapes and error texts. Hashed keys are
 * named by the preimages the trie records as keys are written (`StateTrie.preimageOf`), which
 * debug_preimage serves.
 */
import type { Block } from '@ethereumjs/block'
import { ServerError } from '../../errors.js'
import { data, keyOf, quantity } from '../../hex.js'
import { blockByTag, receiptsOf } from '../blocks.js'
import { address, blockSelector, bytes, hash, jsonInt, jsonUint64, optional, type BlockSelector } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'

import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'tracing'> & HistoryPorts
const method = methodsOf<keyof Here>()

/** A 32-byte word of unpadded bytes (geth's `common.BytesToHash`). */
function word32(value: Uint8Array): string {
  return `0x${keyOf(value).padStart(64, '0')}`
}

/** The block debug_storageRangeAt names (the pending block included, as geth's `BlockByNumberOrHash`). */
async function rangeBlock(s: Here, at: BlockSelector): Promise<Block> {
  const block = at.kind === 'hash' ? await s.chain.blockByHash(at.hash) : await blockByTag(s, at)
  if (block !== undefined) return block
  // geth prints the selector: a hash, a number in hex, or a tag.
  const named = at.kind === 'hash' ? data(at.hash) : at.kind === 'number' ? quantity(at.number) : at.tag
  throw new ServerError(`block ${named} not found`)
}

/** The addresses whose accounts differ between the states after `from` and after `to`. */
async function modifiedAccounts(s: Here, from: Block, to: Block): Promise<string[]> {
  if (from.header.number >= to.header.number) {
    throw new ServerError(`start block height (${from.header.number}) must be less than end block height (${to.header.number})`)
  }
  const changed = await s.chain.modifiedAccounts(s.chain.stateRootOf(from), s.chain.stateRootOf(to))
  return changed.map(({ hashed, address }) => {
    if (address === undefined) throw new ServerError(`no preimage found for hash ${keyOf(hashed)}`)
    return data(address)
  })
}

/** geth's answer for the one-param form: the block and its parent. */
async function withParent(s: Here, block: Block): Promise<Block> {
  const parent = block.header.number === 0n ? undefined : await s.chain.blockByHash(block.header.parentHash)
  if (parent === undefined) throw new ServerError(`block ${block.header.number.toString(16)} has no parent`)
  return parent
}

/** The debug state-walking methods, and debug_preimage. */
export const debugState: MethodTable = {
  debug_preimage: method({
    params: [hash],
    run: async (s, [h]) => {
      // The preimages are those of the trie's hashed keys (addresses and storage slots), as geth's.
      const preimage = await s.chain.preimageOf(h)
      if (preimage === undefined) throw new ServerError('unknown preimage')
      return data(preimage)
    },
  }),
  debug_storageRangeAt: method({
    params: [blockSelector, jsonInt, address, bytes, jsonInt],
    run: async (s, [at, txIndex, contract, start, max]) => {
      const block = await rangeBlock(s, at)
      return s.tracing.atTransaction(block, await receiptsOf(s, block), Number(txIndex), async ({ state, baseRoot }) => {
        const { node, written } = await s.chain.storageTrie(baseRoot, contract, state.diff())
        // geth: an account without storage answers the empty result, `storage` null.
        if (node === null) return { storage: null, nextKey: null }
        const { slots, next } = await s.chain.storageRange(node, start, max < 0n ? 0 : Number(max), written)
        const storage: Record<string, { key: string | null; value: string }> = {}
        for (const slot of slots) storage[data(slot.hashed)] = { key: slot.key === undefined ? null : word32(slot.key), value: word32(slot.value) }
        return { storage, nextKey: next === undefined ? null : data(next) }
      })
    },
  }),
  debug_getModifiedAccountsByNumber: method({
    params: [jsonUint64, optional(jsonUint64, undefined)],
    run: async (s, [startNumber, endNumber]) => {
      const start = await s.chain.blockByNumber(startNumber)
      if (start === undefined) throw new ServerError(`start block ${startNumber.toString(16)} not found`)
      if (endNumber === undefined) return modifiedAccounts(s, await withParent(s, start), start)
      const end = await s.chain.blockByNumber(endNumber)
      if (end === undefined) throw new ServerError(`end block ${endNumber} not found`)
      return modifiedAccounts(s, start, end)
    },
  }),
  debug_getModifiedAccountsByHash: method({
    params: [hash, optional(hash, undefined)],
    run: async (s, [startHash, endHash]) => {
      const start = await s.chain.blockByHash(startHash)
      if (start === undefined) throw new ServerError(`start block ${keyOf(startHash)} not found`)
      if (endHash === undefined) return modifiedAccounts(s, await withParent(s, start), start)
      const end = await s.chain.blockByHash(endHash)
      if (end === undefined) throw new ServerError(`end block ${keyOf(endHash)} not found`)
      return modifiedAccounts(s, start, end)
    },
  }),
}
