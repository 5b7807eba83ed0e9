/**
 * The local history reader (the interface: history-reader.ts): the chain's blocks, the pending
 * block and the pool's transactions, formatted here. Handlers read history only through
 * `Services.history`; the node makes one reader, a fork's (history-forked.ts) over this one,
 * which answers at and below the fork block from the remote and hands the rest here (all of it
 * while no fork is open).
 */
import type { Block } from '@ethereumjs/block'
import { quantity } from '../hex.js'
import type { HistoryPorts } from '../services.js'
import { blockByTag, receiptsOf } from './blocks.js'
import type { BlockSelector } from './codecs.js'
import type { History } from './history-reader.js'
import { formatBlock, formatHeader, formatReceipt, formatTransaction } from './format.js'
import { getLogs } from './eth/logs.js'
import { localProof } from './eth/proof.js'
import { rewardsOf } from './eth/fees.js'

async function full(s: HistoryPorts, block: Block | undefined, txs: boolean) {
  if (block === undefined) return null
  const json = formatBlock(block, txs, txs ? await receiptsOf(s, block) : [])
  // Hardhat still writes the pre-merge total difficulty (0 on its post-merge chains); geth dropped it.
  if (s.hardhatCompat) (json as Record<string, unknown>).totalDifficulty = '0x0'
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

async function atIndex(s: HistoryPorts, block: Block | undefined, index: bigint) {
  if (block === undefined || index >= BigInt(block.transactions.length)) return null
  const i = Number(index)
  const receipts = await receiptsOf(s, block)
  const receipt = receipts[i]
  const tx = block.transactions[i]
  if (receipt === undefined || tx === undefined) return null
  return formatTransaction(tx, receipt.from, { block, index: i })
}

const count = (block: Block | undefined) => (block === undefined ? null : quantity(block.transactions.length))
const header = (block: Block | undefined) => (block === undefined ? null : formatHeader(block.header))

/** The block of a selector: by hash, or by tag (the pending block included). */
export function selected(s: HistoryPorts, at: BlockSelector | Uint8Array): Promise<Block | undefined> {
  if (at instanceof Uint8Array) return s.chain.blockByHash(at)
  return at.kind === 'hash' ? s.chain.blockByHash(at.hash) : blockByTag(s, at)
}

const replayHere = <T>(run: () => Promise<T>): Promise<T> => run()

/** The local reader: the chain's blocks, the pending block and the pool. */
export const localHistory: History<HistoryPorts> = {
  async blockByTag(s, tag, txs) {
    const json = await full(s, await blockByTag(s, tag), txs)
    return s.hardhatCompat && tag.kind === 'tag' && tag.tag === 'pending' && json !== null ? hardhatPending(json as Record<string, unknown>) : json
  },
  blockByHash: async (s, hash, txs) => full(s, await s.chain.blockByHash(hash), txs),
  headerByTag: async (s, tag) => header(await blockByTag(s, tag)),
  headerByHash: async (s, hash) => header(await s.chain.blockByHash(hash)),
  transactionCountByTag: async (s, tag) => count(await blockByTag(s, tag)),
  transactionCountByHash: async (s, hash) => count(await s.chain.blockByHash(hash)),
  transactionByTagAndIndex: async (s, tag, index) => atIndex(s, await blockByTag(s, tag), index),
  transactionByHashAndIndex: async (s, hash, index) => atIndex(s, await s.chain.blockByHash(hash), index),
  async blockReceipts(s, at) {
    const block = await selected(s, at)
    if (block === undefined) return null
    const receipts = await receiptsOf(s, block)
    return receipts.map((_r, i) => formatReceipt(block, i, receipts))
  },
  async transaction(s, hash) {
    const found = await s.chain.transaction(hash)
    if (found !== undefined) return formatTransaction(found.tx, found.receipt.from, found)
    const pending = s.pool.get(hash)
    if (pending === undefined) return null
    return formatTransaction(pending.tx, Buffer.from(pending.sender, 'hex'))
  },
  async receipt(s, hash) {
    const found = await s.chain.transaction(hash)
    return found === undefined ? null : formatReceipt(found.block, found.index, found.receipts)
  },
  logs: (s, filter) => getLogs(s, filter),
  async wholeBlock(s, at) {
    const block = await selected(s, at)
    return block === undefined ? undefined : { block, receipts: await receiptsOf(s, block), replay: replayHere }
  },
  givenBlockCopy: async () => undefined,
  proof: localProof,
  feeRewards: (s, _first, _last, percentiles) => async (block) => rewardsOf(block, await s.chain.receipts(block.hash()), percentiles),
  async minedTransaction(s, hash) {
    const found = await s.chain.transaction(hash)
    return found === undefined ? undefined : { whole: { block: found.block, receipts: found.receipts, replay: replayHere }, index: found.index, tx: found.tx }
  },
}
