/**
 * eth_getLogs: a range is answered from the log index (filters/log-index.ts); a single block
 * (blockHash) from its receipts, when its header bloom may match. A fork's history reader
 * (rpc/history-forked.ts) puts the remote's logs in front of these.
 */
import type { Block } from '@ethereumjs/block'
import { InvalidParamsError, ServerError } from '../../errors.js'
import { bloomMayMatch, matchingLogs } from '../../filters/log-filter.js'
import { heightOf } from '../blocks.js'
import { formatLogHit, formatLogs } from '../format.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { logFilter, type LogFilter } from '../objects.js'
import type { Codec } from '../codecs.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'filters' | 'hardhatCompat' | 'history' | 'limits'> & HistoryPorts
const method = methodsOf<keyof Here>()

/** The logs of one block that match, formatted. */
export async function blockLogs(s: HistoryPorts, block: Block, filter: LogFilter): Promise<Record<string, unknown>[]> {
  if (!bloomMayMatch(block, filter)) return []
  return matchingLogs(block, await s.chain.receipts(block.hash()), filter, formatLogs) as Record<string, unknown>[]
}

/**
 * The block range of a filter (geth's answers for a range past the head or reversed), or
 * undefined when Hardhat mode answers no logs for it.
 */
export function logRange(s: HistoryPorts, filter: LogFilter): { from: bigint; to: bigint } | undefined {
  const from = heightOf(s, filter.fromBlock ?? { kind: 'tag', tag: 'latest' })
  let to = heightOf(s, filter.toBlock ?? { kind: 'tag', tag: 'latest' })
  if (s.hardhatCompat) {
    // Hardhat answers what it has: a range reaching past the head ends there, and one that starts
    // after its end (or after the head) has no logs.
    if (to > s.chain.height) to = s.chain.height
    if (from > to) return undefined
  }
  // geth's answers for a range past the head and for a reversed range.
  if (from > s.chain.height || to > s.chain.height) throw new InvalidParamsError('block range extends beyond current head block')
  if (from > to) throw new InvalidParamsError('invalid block range params')
  const span = to - from + 1n
  if (span > BigInt(s.limits.logsBlockRange)) {
    throw new InvalidParamsError(`block range too large: ${span} blocks, the limit is ${s.limits.logsBlockRange}`)
  }
  return { from, to }
}

/** The error of a range whose logs pass the result limit at block `height`, naming a range that fits. */
export function overLimit(s: HistoryPorts, from: bigint): (height: number) => never {
  return (height) => {
    const h = BigInt(height)
    throw new InvalidParamsError(
      `query returned more than ${s.limits.logsResults} results; try the range 0x${from.toString(16)}-0x${(h - 1n > from ? h - 1n : from).toString(16)}`,
    )
  }
}

/**
 * The matching logs of this chain's blocks `from` … `to` (the log index), at most `limit`; past
 * it, the error names a range from `start` (where the query's range began).
 */
export async function indexedLogs(s: HistoryPorts, filter: LogFilter, from: bigint, to: bigint, limit: number, start = from): Promise<Record<string, unknown>[]> {
  const hits = await s.filters.logIndex.query(filter, Number(from), Number(to), limit, overLimit(s, start))
  return hits.map(formatLogHit)
}

/** All matching logs of a filter's block or range, from this chain's blocks. */
export async function getLogs(s: HistoryPorts, filter: LogFilter): Promise<Record<string, unknown>[]> {
  if (filter.blockHash !== undefined) {
    const block = await s.chain.blockByHash(filter.blockHash)
    if (block === undefined) throw new ServerError('unknown block')
    return blockLogs(s, block, filter)
  }
  const range = logRange(s, filter)
  return range === undefined ? [] : indexedLogs(s, filter, range.from, range.to, s.limits.logsResults)
}

/** The filter codec bound to the node's limits, built once per node. */
export function logs(filter: Codec<LogFilter>): MethodTable {
  return {
    eth_getLogs: method({ params: [filter], run: (s, [f]) => s.history.logs(s, f) }),
  }
}

export { logFilter }
