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
  return formatBlock(block, txs, txs ? await receiptsOf(services, block) : [])
}

export const blocks: MethodTable = {
  eth_getBlockByNumber: method({
    params: [blockTag, optional(boolean, false)],
    run: async (s, [tag, txs]) => full(s, await blockByTag(s, tag), txs),
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
