/**
 * debug_getBadBlocks and debug_traceBadBlock: the imported blocks this node refused
 * (`chain/bad-blocks.ts`), listed and replayed as geth does.
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import { ServerError } from '../../errors.js'
import { data } from '../../hex.js'
import { sendersAsReceipts } from '../../execution/simulate.js'
import { hash } from '../codecs.js'
import { formatBlock } from '../format.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { traceConfig } from './trace.js'


/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'tracing'>
const method = methodsOf<keyof Here>()

/** The sender a transaction's signature names; geth's block JSON shows the zero address where none recovers. */
function senderOf(tx: TypedTransaction): Uint8Array {
  try {
    return tx.getSenderAddress().bytes
  } catch {
    return new Uint8Array(20)
  }
}

/** The bad-block methods. */
export const debugBadBlocks: MethodTable = {
  debug_getBadBlocks: method({
    params: [],
    // geth's BadBlockArgs: the hash, the block as eth_getBlockByHash(…, true) shows it, its RLP.
    run: (s) =>
      s.chain.badBlocks.all().map((block) => ({
        hash: data(block.hash()),
        block: formatBlock(block, true, sendersAsReceipts(block.transactions.map(senderOf))),
        rlp: data(block.serialize()),
      })),
  }),
  debug_traceBadBlock: method({
    params: [hash, traceConfig],
    run: (s, [h, config]) => {
      const block = s.chain.badBlocks.get(h)
      if (block === undefined) throw new ServerError(`bad block ${data(h)} not found`)
      return s.tracing.traceBlock(block, undefined, config)
    },
  }),
}
