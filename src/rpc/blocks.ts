/** Resolving block params to blocks, with geth's answers for blocks that do not exist. */
import type { Block } from '@ethereumjs/block'
import type { StoredReceipt } from '../chain/receipts.js'
import { ServerError } from '../errors.js'
import { data, equalBytes } from '../hex.js'
import type { HistoryPorts } from '../services.js'
import type { BlockSelector, BlockTag } from './codecs.js'

/**
 * The height a tag names in a range of stored blocks (logs, fee history): `pending` counts as
 * the head there, since the pending block is never stored; `safe` and `finalized` are the head
 * (blocks are final when committed).
 */
export function heightOf({ chain }: HistoryPorts, tag: BlockTag): bigint {
  if (tag.kind === 'number') return tag.number
  return tag.tag === 'earliest' ? 0n : chain.height
}

/**
 * The block a tag names, or undefined past the head (block lookups answer null). `pending` is
 * the next block, as the pool would make it now (empty when nothing is pending), as geth's and
 * Hardhat's.
 */
export async function blockByTag(services: HistoryPorts, tag: BlockTag): Promise<Block | undefined> {
  if (tag.kind === 'tag' && tag.tag === 'pending') return (await services.producer.pending()).block
  return services.chain.blockByNumber(heightOf(services, tag))
}

/** A block's receipts, the pending block's included. */
export async function receiptsOf(services: HistoryPorts, block: Block): Promise<StoredReceipt[]> {
  return services.producer.pendingReceipts(block) ?? services.chain.receipts(block.hash())
}

/** Hardhat's words for a block a state method cannot find: the tag as given (a number in decimal) and the head. */
function hardhatUnknownBlock(services: HistoryPorts, tag: string): ServerError {
  return new ServerError(`Received invalid block tag ${tag}. Latest block number is ${services.chain.height}`)
}

/**
 * The block a call or an estimate runs on: {@link stateBlock}'s, but `pending` as the producer's
 * execution context of it (its header and state, without the state root no execution reads).
 */
export function callBlock(services: HistoryPorts, selector: BlockSelector): Promise<Block> {
  if (selector.kind === 'tag' && selector.tag === 'pending') return services.producer.pendingContext()
  return stateBlock(services, selector)
}

/** The block whose state a state method reads; unknown → geth's `header not found` (Hardhat's words in Hardhat mode). */
export async function stateBlock(services: HistoryPorts, selector: BlockSelector): Promise<Block> {
  if (selector.kind === 'hash') {
    const block = await services.chain.blockByHash(selector.hash)
    if (block === undefined) throw services.hardhatCompat ? hardhatUnknownBlock(services, data(selector.hash)) : new ServerError(`header for hash not found`)
    if (selector.requireCanonical) {
      const canonical = services.chain.hashAt(block.header.number)
      if (canonical === undefined || !equalBytes(canonical, selector.hash)) throw new ServerError('hash is not currently canonical')
    }
    return block
  }
  const block = await blockByTag(services, selector)
  if (block === undefined) throw services.hardhatCompat && selector.kind === 'number' ? hardhatUnknownBlock(services, selector.number.toString()) : new ServerError('header not found')
  return block
}
