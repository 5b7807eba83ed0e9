/**
 * A fork's history reader: blocks, transactions, receipts and logs at or below the fork block are
 * the remote's, asked of it through the fork session (answers kept in memory) and answered as it
 * gives them; the fork block itself too (its body is the remote's). Whole blocks there (for
 * replays and raw forms) are the remote's, verified, replayed on their parent's state read from
 * the remote. Everything above the fork block, and everything while no fork is open, is the local
 * reader's. A transaction or block found neither here nor at or below the fork block on the
 * remote is unknown (null), as on any chain.
 */
import { Refused } from '../domain-errors.js'
import { ServerError } from '../errors.js'
import type { LogFilter } from '../filters/log-filter.js'
import type { ForkStatus } from '../fork/fork.js'
import type { RemoteBlock } from '../fork/remote-block.js'
import { data, equalBytes, fromHex, keyOf, quantity } from '../hex.js'
import { verifyProof } from '../fork/proof.js'
import { rewardsOf } from './eth/fees.js'
import type { HistoryPorts } from '../services.js'
import type { BlockSelector, BlockTag } from './codecs.js'
import { indexedLogs, logRange, overLimit } from './eth/logs.js'
import type { History, WholeBlock } from './history-reader.js'

/** What the reader asks of the fork session: the fork open now, if any. */
export interface ForkSource {
  status(): ForkStatus | undefined
}

/**
 * The block number a tag names when it is at or below the fork block, else undefined; `latest`
 * (and `safe`, `finalized`) too while the fork block is still the head.
 */
function historic(s: HistoryPorts, fork: ForkStatus, tag: BlockTag): bigint | undefined {
  const n = tag.kind === 'number' ? tag.number : tag.tag === 'earliest' ? 0n : tag.tag === 'pending' ? undefined : s.chain.height
  return n !== undefined && n <= fork.blockNumber ? n : undefined
}

/** A remote answer that belongs to this chain: its block at or below the fork block. */
function ours(fork: ForkStatus, answer: unknown): unknown {
  if (answer === null || typeof answer !== 'object') return null
  const n = (answer as { blockNumber?: unknown; number?: unknown }).blockNumber ?? (answer as { number?: unknown }).number
  return typeof n === 'string' && BigInt(n) <= fork.blockNumber ? answer : null
}

/** Whether the block with `hash` is this chain's and at or below the fork block. */
async function atFork(s: HistoryPorts, fork: ForkStatus, hash: Uint8Array): Promise<boolean> {
  const block = await s.chain.blockByHash(hash)
  return block !== undefined && block.header.number <= fork.blockNumber
}

/** The remote's block as a whole block: its replays told as the remote's, its refusals said. */
function remoteWhole(fork: ForkStatus, remote: RemoteBlock): WholeBlock {
  const { block, receipts } = remote
  return {
    block,
    receipts,
    // A replay whose transactions do not use the gas (or end as) the receipts say: the remote runs other rules than this node's hardfork (another chain's, an L2's).
    async replay(run) {
      try {
        return await run()
      } catch (error) {
        if (error instanceof Refused && error.message.startsWith('replaying transaction')) {
          throw new Refused(
            `${error.message} (block ${block.header.number} is the remote's, replayed here under hardfork ${block.common.hardfork()} on its parent's state read from the remote: the remote runs other rules)`,
          )
        }
        throw error
      }
    },
    ...(fork.proofs ? {} : { noIntermediateRoots: `the intermediate roots of block ${block.header.number} (the remote's) need its parent's state trie: this fork's remote does not answer eth_getProof, so its state is read without the trie` }),
    // A remote that lists no uncles for a block that has some (it does not serve them) cannot give its bytes.
    ...(block.uncleHashIsValid() ? {} : { noRawForm: `block ${block.header.number} of the remote ${fork.remote} has uncles the remote does not answer: its raw form cannot be made here` }),
  }
}

/** The remote's logs for `range`, with the filter's addresses and topics. */
async function remoteLogs(fork: ForkStatus, range: Record<string, string>, filter: LogFilter): Promise<Record<string, unknown>[]> {
  const query = {
    ...range,
    ...(filter.addresses.length === 0 ? {} : { address: filter.addresses.map((a) => data(a)) }),
    ...(filter.topics.length === 0 ? {} : { topics: filter.topics.map((t) => (t === null ? null : t.map((x) => data(x)))) }),
  }
  const logs = await fork.remoteCall('eth_getLogs', [query])
  if (!Array.isArray(logs)) throw new ServerError(`fork: the remote ${fork.remote} answered eth_getLogs without a list`)
  return logs as Record<string, unknown>[]
}

/** The history reader of a node that forks (or may fork, after a reset) a remote. */
export function forkedHistory(local: History<HistoryPorts>, session: ForkSource): History<HistoryPorts> {
  /** By tag: the remote's answer of `method` for a block at or below the fork block, else the local one. */
  const byTag = (method: string, tag: BlockTag, s: HistoryPorts, rest: unknown[], answer: () => Promise<unknown>): Promise<unknown> => {
    const fork = session.status()
    const n = fork === undefined ? undefined : historic(s, fork, tag)
    return n === undefined ? answer() : fork!.remoteCall(method, [quantity(n), ...rest])
  }
  /**
   * By hash: the local answer unless it is null (or names a block at or below the fork); then the
   * remote's, if it is ours. `ofBlock`: the hash is a block's, whose fork-block answer is the
   * remote's though the chain knows the hash. Without a fork the local answer is handed on as it
   * is (eth_getTransactionReceipt after each send: no async step of its own).
   */
  const byHash = (method: string, hash: Uint8Array, s: HistoryPorts, rest: unknown[], ofBlock: boolean, answer: () => Promise<unknown>): Promise<unknown> => {
    const fork = session.status()
    if (fork === undefined) return answer()
    return (async () => {
      const historicBlock = ofBlock && (await atFork(s, fork, hash))
      if (!historicBlock) {
        const found = await answer()
        if (found !== null) return found
      }
      const remote = await fork.remoteCall(method, [data(hash), ...rest])
      if (method === 'eth_getBlockTransactionCountByHash' || method === 'eth_getTransactionByBlockHashAndIndex') return historicBlock ? remote : null
      return ours(fork, remote)
    })()
  }
  /** The number of the block `at` names when it is at or below the fork block. */
  const historicNumber = async (s: HistoryPorts, fork: ForkStatus, at: BlockSelector | Uint8Array): Promise<bigint | undefined> => {
    const number = at instanceof Uint8Array ? (await s.chain.blockByHash(at))?.header.number : at.kind === 'hash' ? (await s.chain.blockByHash(at.hash))?.header.number : historic(s, fork, at)
    return number !== undefined && number <= fork.blockNumber ? number : undefined
  }

  return {
    blockByTag: (s, tag, txs) => byTag('eth_getBlockByNumber', tag, s, [txs], () => local.blockByTag(s, tag, txs)),
    blockByHash: (s, hash, txs) => byHash('eth_getBlockByHash', hash, s, [txs], true, () => local.blockByHash(s, hash, txs)),
    // Headers below the fork block are the chain's (read from the remote by fork/history.ts, hash-checked).
    headerByTag: (s, tag) => local.headerByTag(s, tag),
    headerByHash: (s, hash) => local.headerByHash(s, hash),
    transactionCountByTag: (s, tag) => byTag('eth_getBlockTransactionCountByNumber', tag, s, [], () => local.transactionCountByTag(s, tag)),
    transactionCountByHash: (s, hash) => byHash('eth_getBlockTransactionCountByHash', hash, s, [], true, () => local.transactionCountByHash(s, hash)),
    transactionByTagAndIndex: (s, tag, index) => byTag('eth_getTransactionByBlockNumberAndIndex', tag, s, [quantity(index)], () => local.transactionByTagAndIndex(s, tag, index)),
    transactionByHashAndIndex: (s, hash, index) =>
      byHash('eth_getTransactionByBlockHashAndIndex', hash, s, [quantity(index)], true, () => local.transactionByHashAndIndex(s, hash, index)),
    transaction: (s, hash) => byHash('eth_getTransactionByHash', hash, s, [], false, () => local.transaction(s, hash)),
    receipt: (s, hash) => byHash('eth_getTransactionReceipt', hash, s, [], false, () => local.receipt(s, hash)),
    async blockReceipts(s, at) {
      const fork = session.status()
      if (fork === undefined) return local.blockReceipts(s, at)
      if (at.kind !== 'hash') return byTag('eth_getBlockReceipts', at, s, [], () => local.blockReceipts(s, at))
      const found = await local.blockReceipts(s, at)
      if (found !== null && !(await atFork(s, fork, at.hash))) return found
      const receipts = await fork.remoteCall('eth_getBlockReceipts', [data(at.hash)])
      return Array.isArray(receipts) && (receipts.length === 0 || ours(fork, receipts[0]) !== null) ? receipts : found
    },
    async logs(s, filter) {
      const fork = session.status()
      if (fork === undefined) return local.logs(s, filter)
      if (filter.blockHash !== undefined) {
        const block = await s.chain.blockByHash(filter.blockHash)
        if (block !== undefined && block.header.number > fork.blockNumber) return local.logs(s, filter)
        if (block === undefined) throw new ServerError('unknown block')
        return remoteLogs(fork, { blockHash: data(filter.blockHash) }, filter)
      }
      const range = logRange(s, filter)
      if (range === undefined) return []
      const { from, to } = range
      if (from > fork.blockNumber) return local.logs(s, filter)
      // Stitched: the remote's logs up to the fork block (its logs included), then this chain's.
      const limit = s.limits.logsResults
      const split = to < fork.blockNumber ? to : fork.blockNumber
      const older = await remoteLogs(fork, { fromBlock: quantity(from), toBlock: quantity(split) }, filter)
      if (older.length > limit) overLimit(s, from)(Number(BigInt(String(older[limit]?.blockNumber ?? quantity(split)))))
      if (to <= fork.blockNumber) return older
      return [...older, ...(await indexedLogs(s, filter, fork.blockNumber + 1n, to, limit - older.length, from))]
    },
    async wholeBlock(s, at) {
      const fork = session.status()
      if (fork === undefined) return local.wholeBlock(s, at)
      const number = await historicNumber(s, fork, at)
      if (number === undefined) return local.wholeBlock(s, at)
      const remote = await fork.remoteBlock(number)
      if (remote === undefined) throw new ServerError(`block #${number} not found on the remote ${fork.remote}`)
      return remoteWhole(fork, remote)
    },
    async proof(s, block, address, keys) {
      const fork = session.status()
      if (fork === undefined || block.header.number >= fork.blockNumber) return local.proof(s, block, address, keys)
      // A block below the fork block: the remote's proof, answered once it verifies against that block's root.
      const answer = await fork.remoteCall('eth_getProof', [data(address), keys.map((k) => data(k.key)), quantity(block.header.number)])
      await verifyProof(answer, block.header.stateRoot, keyOf(address), keys.map((k) => keyOf(k.key)))
      return answer
    },
    feeRewards(s, first, last, percentiles) {
      const fork = session.status()
      const here = local.feeRewards(s, first, last, percentiles)
      if (fork === undefined) return here
      // The remote's eth_feeHistory for the remote part of the range, asked once per request.
      let answer: Promise<unknown> | undefined
      return async (block) => {
        const h = block.header.number
        if (h > fork.blockNumber) return here(block)
        const end = last < fork.blockNumber ? last : fork.blockNumber
        // A remote without eth_feeHistory (an error answer) gets its blocks read instead.
        answer ??= fork.remoteCall('eth_feeHistory', [quantity(end - first + 1n), quantity(end), percentiles]).catch(() => null)
        const got = (await answer) as { oldestBlock?: unknown; reward?: unknown } | null
        if (got !== null && typeof got === 'object' && typeof got.oldestBlock === 'string' && Array.isArray(got.reward)) {
          const entry = got.reward[Number(h - BigInt(got.oldestBlock))] as unknown
          if (Array.isArray(entry) && entry.length === percentiles.length && entry.every((v) => typeof v === 'string')) return entry as string[]
        }
        // Where the remote's answer does not cover the block (a remote with a smaller block limit): computed from the remote's block and receipts.
        const remote = await fork.remoteBlock(h)
        if (remote === undefined) throw new ServerError(`block #${h} not found on the remote ${fork.remote}`)
        return rewardsOf(remote.block, remote.receipts, percentiles)
      }
    },
    async givenBlockCopy(s, header) {
      const fork = session.status()
      if (fork === undefined || header.number > fork.blockNumber) return local.givenBlockCopy(s, header)
      const remote = await fork.remoteBlock(header.number)
      return remote === undefined || !equalBytes(remote.block.hash(), header.hash) ? local.givenBlockCopy(s, header) : remoteWhole(fork, remote)
    },
    async minedTransaction(s, hash) {
      const fork = session.status()
      const mined = await local.minedTransaction(s, hash)
      if (fork === undefined || mined !== undefined) return mined
      // A transaction the remote mined at or below the fork block: its block fetched whole.
      const found = ours(fork, await fork.remoteCall('eth_getTransactionByHash', [data(hash)])) as { blockHash?: string; transactionIndex?: string } | null
      if (found === null || typeof found.blockHash !== 'string' || typeof found.transactionIndex !== 'string') return undefined
      const remote = await fork.remoteBlock(fromHex(found.blockHash))
      const index = Number(BigInt(found.transactionIndex))
      const tx = remote?.block.transactions[index]
      if (remote === undefined || tx === undefined || !equalBytes(tx.hash(), hash)) {
        throw new ServerError(`fork: the remote ${fork.remote} names block ${found.blockHash} index ${index} for transaction ${data(hash)}, which does not hold it`)
      }
      return { whole: remoteWhole(fork, remote), index, tx }
    },
  }
}
