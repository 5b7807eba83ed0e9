/**
 * debug_getRaw*: the consensus encodings of blocks, headers, receipts and transactions; and
 * geth's older debug_getBlockRlp / debug_getHeaderRlp, which take the block number as a JSON number.
 */
import type { Block } from '@ethereumjs/block'
import { encodeReceipt } from '@ethereumjs/vm'
import { ServerError } from '../../errors.js'
import { data } from '../../hex.js'
import type { Services } from '../../services.js'
import { blockByTag, receiptsOf } from '../blocks.js'
import { blockSelector, hash, jsonUint64, type BlockSelector } from '../codecs.js'
import { method, type MethodTable } from '../method.js'
import { rawTransaction } from '../eth/raw.js'
import { printBlock } from './print-block.js'

async function selected(s: Services, at: BlockSelector): Promise<Block | undefined> {
  return at.kind === 'hash' ? s.chain.blockByHash(at.hash) : blockByTag(s, at)
}

export const debugRaw: MethodTable = {
  debug_getRawBlock: method({
    params: [blockSelector],
    run: async (s, [at]) => {
      const block = await selected(s, at)
      return block === undefined ? null : data(block.serialize())
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
      const block = await selected(s, at)
      if (block === undefined) return null
      const receipts = await receiptsOf(s, block)
      return receipts.map((r, i) => {
        const base = { cumulativeBlockGasUsed: r.cumulativeGasUsed, bitvector: r.bloom, logs: r.logs }
        const receipt = r.root === undefined ? { ...base, status: r.status } : { ...base, stateRoot: r.root }
        return data(encodeReceipt(receipt as never, block.transactions[i]!.type))
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
    run: async (s, [h]) => (await rawTransaction(s, h)) ?? '0x',
  }),
}
