/**
 * debug_getRaw*: the consensus encodings of blocks, headers, receipts and transactions; and
 * geth's older debug_getBlockRlp / debug_getHeaderRlp, which take the block number as a JSON number.
 */
import { encodeConsensusReceipt } from '../../chain/receipts.js'
import { Refused } from '../../domain-errors.js'
import { ServerError } from '../../errors.js'
import { data } from '../../hex.js'
import { receiptsOf } from '../blocks.js'
import { blockSelector, hash, jsonUint64 } from '../codecs.js'
import { selected } from '../history.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { rawTransaction } from '../eth/raw.js'
import { printBlock } from './print-block.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'common' | 'history'> & HistoryPorts
const method = methodsOf<keyof Here>()

export const debugRaw: MethodTable = {
  debug_getRawBlock: method({
    params: [blockSelector],
    run: async (s, [at]) => {
      const whole = await s.history.wholeBlock(s, at)
      if (whole === undefined) return null
      if (whole.noRawForm !== undefined) throw new Refused(whole.noRawForm)
      return data(whole.block.serialize())
    },
  }),
  debug_getRawHeader: method({
    params: [blockSelector],
    run: async (s, [at]) => {
      const block = await selected(s, at)
      return block === undefined ? null : data(block.header.serialize())
    },
  }),
  debug_getRawReceipts: method({
    params: [blockSelector],
    run: async (s, [at]) => {
      const whole = await s.history.wholeBlock(s, at)
      if (whole === undefined) return null
      const { block, receipts } = whole
      return receipts.map((r, i) => {
        const base = { cumulativeBlockGasUsed: r.cumulativeGasUsed, bitvector: r.bloom, logs: r.logs }
        return data(encodeConsensusReceipt(r.root === undefined ? { ...base, status: r.status } : { ...base, stateRoot: r.root }, block.transactions[i]!.type))
      })
    },
  }),
  debug_getBlockRlp: method({
    params: [jsonUint64],
    run: async (s, [number]) => {
      const block = await s.chain.blockByNumber(number)
      if (block === undefined) throw new ServerError(`block #${number} not found`)
      return data(block.serialize())
    },
  }),
  debug_printBlock: method({
    params: [jsonUint64],
    run: async (s, [number]) => {
      const block = await s.chain.blockByNumber(number)
      if (block === undefined) throw new ServerError(`block #${number} not found`)
      return printBlock(block, await receiptsOf(s, block))
    },
  }),
  debug_getHeaderRlp: method({
    params: [jsonUint64],
    run: async (s, [number]) => {
      const block = await s.chain.blockByNumber(number)
      if (block === undefined) throw new ServerError(`header #${number} not found`)
      return data(block.header.serialize())
    },
  }),
  debug_getRawTransaction: method({
    params: [hash],
    // geth answers an unknown transaction with empty bytes.
    run: async (s, [h]) => {
      const mined = await s.history.minedTransaction(s, h)
      return mined === undefined ? ((await rawTransaction(s, h)) ?? '0x') : data(mined.tx.serialize())
    },
  }),
}
