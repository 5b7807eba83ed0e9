/** eth methods that submit transactions and read them and their receipts. */
import { data } from '../../hex.js'
import type { Services } from '../../services.js'
import { blockByTag, receiptsOf } from '../blocks.js'
import { blockTag, bytes, hash, quantity as qty } from '../codecs.js'
import { formatLogs, formatReceipt, formatTransaction } from '../format.js'
import { method, type MethodTable } from '../method.js'
import { callRequest } from '../objects.js'
import type { Block } from '@ethereumjs/block'

async function atIndex(s: Services, block: Block | undefined, index: bigint) {
  if (block === undefined || index >= BigInt(block.transactions.length)) return null
  const i = Number(index)
  const receipts = await receiptsOf(s, block)
  const receipt = receipts[i]
  const tx = block.transactions[i]
  if (receipt === undefined || tx === undefined) return null
  return formatTransaction(tx, receipt.from, { block, index: i })
}

export const transactions: MethodTable = {
  eth_sendRawTransaction: method({
    params: [bytes],
    run: async (s, [raw]) => data(await s.transactions.submitRaw(raw)),
  }),
  eth_sendTransaction: method({
    params: [callRequest],
    run: async (s, [req]) => data(await s.transactions.submit(req)),
  }),
  eth_getTransactionByHash: method({
    params: [hash],
    run: async (s, [h]) => {
      const found = await s.chain.transaction(h)
      if (found !== undefined) return formatTransaction(found.tx, found.receipt.from, found)
      const pending = s.pool.get(h)
      if (pending === undefined) return null
      return formatTransaction(pending.tx, Buffer.from(pending.sender, 'hex'))
    },
  }),
  eth_getTransactionByBlockHashAndIndex: method({
    params: [hash, qty],
    run: async (s, [h, index]) => atIndex(s, await s.chain.blockByHash(h), index),
  }),
  eth_getTransactionByBlockNumberAndIndex: method({
    params: [blockTag, qty],
    run: async (s, [tag, index]) => atIndex(s, await blockByTag(s, tag), index),
  }),
  eth_getTransactionReceipt: method({
    params: [hash],
    run: async (s, [h]) => {
      const found = await s.chain.transaction(h)
      return found === undefined ? null : formatReceipt(found.block, found.index, found.receipts)
    },
  }),
  eth_getTransactionLogs: method({
    params: [hash],
    run: async (s, [h]) => {
      const found = await s.chain.transaction(h)
      return found === undefined ? null : formatLogs(found.block, found.index, found.receipts)
    },
  }),
}
