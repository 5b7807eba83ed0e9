/** eth methods that read blocks and headers, through the history reader (rpc/history.ts). */
import { blockSelector, blockTag, boolean, hash, optional } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'history'> & HistoryPorts
const method = methodsOf<keyof Here>()

export const blocks: MethodTable = {
  eth_getBlockByNumber: method({
    params: [blockTag, optional(boolean, false)],
    run: (s, [tag, txs]) => s.history.blockByTag(s, tag, txs),
  }),
  eth_getBlockByHash: method({
    params: [hash, optional(boolean, false)],
    run: (s, [h, txs]) => s.history.blockByHash(s, h, txs),
  }),
  eth_getHeaderByNumber: method({
    params: [blockTag],
    run: (s, [tag]) => s.history.headerByTag(s, tag),
  }),
  eth_getHeaderByHash: method({
    params: [hash],
    run: (s, [h]) => s.history.headerByHash(s, h),
  }),
  eth_getBlockTransactionCountByNumber: method({
    params: [blockTag],
    run: (s, [tag]) => s.history.transactionCountByTag(s, tag),
  }),
  eth_getBlockTransactionCountByHash: method({
    params: [hash],
    run: (s, [h]) => s.history.transactionCountByHash(s, h),
  }),
  eth_getBlockReceipts: method({
    params: [blockSelector],
    run: (s, [selector]) => s.history.blockReceipts(s, selector),
  }),
}
