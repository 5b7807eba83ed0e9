/** eth methods that submit transactions and read them and their receipts (through the history reader, rpc/history.ts). */
import { data } from '../../hex.js'
import { blockTag, bytes, hash, quantity as qty } from '../codecs.js'
import { formatLogs } from '../format.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { callRequest } from '../objects.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'history' | 'transactions'> & HistoryPorts
const method = methodsOf<keyof Here>()

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
    run: (s, [h]) => s.history.transaction(s, h),
  }),
  eth_getTransactionByBlockHashAndIndex: method({
    params: [hash, qty],
    run: (s, [h, index]) => s.history.transactionByHashAndIndex(s, h, index),
  }),
  eth_getTransactionByBlockNumberAndIndex: method({
    params: [blockTag, qty],
    run: (s, [tag, index]) => s.history.transactionByTagAndIndex(s, tag, index),
  }),
  eth_getTransactionReceipt: method({
    params: [hash],
    run: (s, [h]) => s.history.receipt(s, h),
  }),
  eth_getTransactionLogs: method({
    params: [hash],
    run: async (s, [h]) => {
      const found = await s.chain.transaction(h)
      return found === undefined ? null : formatLogs(found.block, found.index, found.receipts)
    },
  }),
}
