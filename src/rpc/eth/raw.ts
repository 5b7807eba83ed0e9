/**
 * Raw accessors: a transaction's EIP-2718 encoding by hash or by block and index, and the blob
 * base fee. Unknown transactions answer `null`, as Nethermind, Reth and Besu do and as the
 * execution-apis spec settles it (geth's `"0x"` is an artifact of its Go types).
 */
import type { Block } from '@ethereumjs/block'
import { ServerError } from '../../errors.js'
import { data, quantity, type Hex } from '../../hex.js'
import { blockByTag } from '../blocks.js'
import { blockTag, hash, quantity as qty } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'

import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'common' | 'pool'> & HistoryPorts
const method = methodsOf<keyof Here>()

function rawAt(block: Block | undefined, index: bigint) {
  if (block === undefined || index >= BigInt(block.transactions.length)) return null
  const tx = block.transactions[Number(index)]
  return tx === undefined ? null : data(tx.serialize())
}

/** A mined or pending transaction's EIP-2718 encoding, or undefined when neither holds it. */
export async function rawTransaction(s: Here, h: Uint8Array): Promise<Hex | undefined> {
  const found = await s.chain.transaction(h)
  if (found !== undefined) return data(found.tx.serialize())
  const pending = s.pool.get(h)
  return pending === undefined ? undefined : data(pending.tx.serialize())
}

export const raw: MethodTable = {
  eth_getRawTransactionByHash: method({
    params: [hash],
    run: async (s, [h]) => (await rawTransaction(s, h)) ?? null,
  }),
  eth_getRawTransactionByBlockHashAndIndex: method({
    params: [hash, qty],
    run: async (s, [h, index]) => rawAt(await s.chain.blockByHash(h), index),
  }),
  eth_getRawTransactionByBlockNumberAndIndex: method({
    params: [blockTag, qty],
    run: async (s, [tag, index]) => rawAt(await blockByTag(s, tag), index),
  }),
  eth_blobBaseFee: method({
    params: [],
    run: ({ chain, common }) => {
      const head = chain.head.header
      if (!common.isActivatedEIP(4844) || head.excessBlobGas === undefined) {
        throw new ServerError(`eth_blobBaseFee is not available: the chain's hardfork (${common.hardfork()}) has no blobs`)
      }
      return quantity(head.calcNextBlobGasPrice(common))
    },
  }),
}
