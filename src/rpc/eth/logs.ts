/**
 * eth_getLogs: a range is answered from the log index (filters/log-index.ts); a single block
 * (blockHash) from its receipts, when its header bloom may match.
 */
import type { Block } from '@ethereumjs/block'
import { InvalidParamsError, ServerError } from '../../errors.js'
import { data, quantity } from '../../hex.js'
import { bloomMayMatch, matchingLogs } from '../../filters/log-filter.js'
import type { Services } from '../../services.js'
import { heightOf } from '../blocks.js'
import { formatLogHit, formatLogs } from '../format.js'
import { method, type MethodTable } from '../method.js'
import { logFilter, type LogFilter } from '../objects.js'
import type { Codec } from '../codecs.js'

/** The logs of one block that match, formatted. */
export async function blockLogs(s: Services, block: Block, filter: LogFilter): Promise<Record<string, unknown>[]> {
  if (!bloomMayMatch(block, filter)) return []
  return matchingLogs(block, await s.chain.receipts(block.hash()), filter, formatLogs) as Record<string, unknown>[]
}

/** All matching logs of a filter's range, within the node's range and result limits. */
export async function getLogs(s: Services, filter: LogFilter): Promise<Record<string, unknown>[]> {
  if (filter.blockHash !== undefined) {
    const block = await s.chain.blockByHash(filter.blockHash)
    // A fork's blocks at or below its fork block are the remote's, logs included.
    if (s.fork !== undefined && (block === undefined || block.header.number <= s.fork.blockNumber)) {
      if (block === undefined) throw new ServerError('unknown block')
      return remoteLogs(s.fork, { blockHash: data(filter.blockHash) }, filter)
    }
    if (block === undefined) throw new ServerError('unknown block')
    return blockLogs(s, block, filter)
  }
  const from = heightOf(s, filter.fromBlock ?? { kind: 'tag', tag: 'latest' })
  let to = heightOf(s, filter.toBlock ?? { kind: 'tag', tag: 'latest' })
  if (s.hardhatCompat) {
    // Hardhat answers what it has: a range reaching past the head ends there, and one that starts
    // after its end (or after the head) has no logs.
    if (to > s.chain.height) to = s.chain.height
    if (from > to) return []
  }
  // geth's answers for a range past the head and for a reversed range.
  if (from > s.chain.height || to > s.chain.height) throw new InvalidParamsError('block range extends beyond current head block')
  if (from > to) throw new InvalidParamsError('invalid block range params')
  const span = to - from + 1n
  if (span > BigInt(s.limits.logsBlockRange)) {
    throw new InvalidParamsError(`block range too large: ${span} blocks, the limit is ${s.limits.logsBlockRange}`)
  }
  const limit = s.limits.logsResults
  const overLimit = (height: number): never => {
    const h = BigInt(height)
    throw new InvalidParamsError(
      `query returned more than ${limit} results; try the range 0x${from.toString(16)}-0x${(h - 1n > from ? h - 1n : from).toString(16)}`,
    )
  }
  const fork = s.fork
  if (fork !== undefined && from <= fork.blockNumber) {
    // Stitched: the remote's logs up to the fork block (its logs included), then this chain's.
    const split = to < fork.blockNumber ? to : fork.blockNumber
    const older = await remoteLogs(fork, { fromBlock: quantity(from), toBlock: quantity(split) }, filter)
    if (older.length > limit) overLimit(Number(BigInt(String(older[limit]?.blockNumber ?? quantity(split)))))
    if (to <= fork.blockNumber) return older
    const hits = await s.filters.logIndex.query(filter, Number(fork.blockNumber + 1n), Number(to), limit - older.length, overLimit)
    return [...older, ...hits.map(formatLogHit)]
  }
  const hits = await s.filters.logIndex.query(filter, Number(from), Number(to), limit, overLimit)
  return hits.map(formatLogHit)
}

/** The remote's logs for `range`, with the filter's addresses and topics. */
async function remoteLogs(fork: NonNullable<Services['fork']>, range: Record<string, string>, filter: LogFilter): Promise<Record<string, unknown>[]> {
  const query = {
    ...range,
    ...(filter.addresses.length === 0 ? {} : { address: filter.addresses.map((a) => data(a)) }),
    ...(filter.topics.length === 0 ? {} : { topics: filter.topics.map((t) => (t === null ? null : t.map((x) => data(x)))) }),
  }
  const logs = await fork.remoteCall('eth_getLogs', [query])
  if (!Array.isArray(logs)) throw new ServerError(`fork: the remote ${fork.remote} answered eth_getLogs without a list`)
  return logs as Record<string, unknown>[]
}

/** The filter codec bound to the node's limits, built once per node. */
export function logs(filter: Codec<LogFilter>): MethodTable {
  return {
    eth_getLogs: method({ params: [filter], run: (s, [f]) => getLogs(s, f) }),
  }
}

export { logFilter }
