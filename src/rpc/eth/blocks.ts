/** eth methods that read blocks and headers. */
import type { Block } from '@ethereumjs/block'
import { quantity } from '../../hex.js'
import type { Services } from '../../services.js'
import { blockByTag, receiptsOf } from '../blocks.js'
import { blockSelector, blockTag, boolean, hash, optional } from '../codecs.js'
import { formatBlock, formatHeader, formatReceipt } from '../format.js'
import { method, type MethodTable } from '../method.js'

async function full(services: Services, block: Block | undefined, txs: boolean) {
  if (block === undefined) return null
  const json = formatBlock(block, txs, txs ? await receiptsOf(services, block) : [])
  // Hardhat still writes the pre-merge total difficulty (0 on its post-merge chains); geth dropped it.
  if (services.hardhatCompat) (json as Record<string, unknown>).totalDifficulty = '0x0'
  return json
}

/**
 * The pending block as Hardhat Network answers it: no number, mixHash or nonce yet, and its
 * transactions in no block (`blockHash`, `blockNumber`, `transactionIndex` null), as a pending
 * transaction reads.
 */
function hardhatPending(json: Record<string, unknown>): Record<string, unknown> {
  Object.assign(json, { number: null, mixHash: null, nonce: null })
  const txs = json.transactions as unknown[]
  for (const tx of txs) {
    if (typeof tx === 'object' && tx !== null) Object.assign(tx, { blockHash: null, blockNumber: null, blockTimestamp: null, transactionIndex: null })
  }
  return json
}

export const blocks: MethodTable = {
  eth_getBlockByNumber: method({
    params: [blockTag, optional(boolean, false)],
    run: async (s, [tag, txs]) => {
      const json = await full(s, await blockByTag(s, tag), txs)
      return s.hardhatCompat && tag.kind === 'tag' && tag.tag === 'pending' && json !== null ? hardhatPending(json as Record<string, unknown>) : json
    },
  }),
  eth_getBlockByHash: method({
    params: [hash, optional(boolean, false)],
    run: async (s, [h, txs]) => full(s, await s.chain.blockByHash(h), txs),
  }),
  eth_getHeaderByNumber: method({
    params: [blockTag],
    run: async (s, [tag]) => {
      const block = await blockByTag(s, tag)
      return block === undefined ? null : formatHeader(block.header)
    },
  }),
  eth_getHeaderByHash: method({
    params: [hash],
    run: async (s, [h]) => {
      const block = await s.chain.blockByHash(h)
      return block === undefined ? null : formatHeader(block.header)
    },
  }),
  eth_getBlockTransactionCountByNumber: method({
    params: [blockTag],
    run: async (s, [tag]) => {
      const block = await blockByTag(s, tag)
      return block === undefined ? null : quantity(block.transactions.length)
    },
  }),
  eth_getBlockTransactionCountByHash: method({
    params: [hash],
    run: async (s, [h]) => {
      const block = await s.chain.blockByHash(h)
      return block === undefined ? null : quantity(block.transactions.length)
    },
  }),
  eth_getBlockReceipts: method({
    params: [blockSelector],
    run: async (s, [selector]) => {
      const block = selector.kind === 'hash' ? await s.chain.blockByHash(selector.hash) : await blockByTag(s, selector)
      if (block === undefined) return null
      const receipts = await receiptsOf(s, block)
      return receipts.map((_r, i) => formatReceipt(block, i, receipts))
    },
  }),
}
