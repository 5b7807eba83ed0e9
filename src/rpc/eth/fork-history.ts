/**
 * A fork's history over JSON-RPC: blocks, transactions and receipts at or below the fork block
 * are the remote's, asked of it (answers kept in memory by the fork) and answered as it gives
 * them; the fork block itself too (its body is the remote's). A transaction or block found
 * neither here nor at or below the fork block on the remote is unknown (null), as on any chain.
 * eth_getLogs stitches its ranges in src/rpc/eth/logs.ts.
 */
import { ServerError } from '../../errors.js'
import { data, quantity } from '../../hex.js'
import type { Services } from '../../services.js'
import type { BlockSelector, BlockTag } from '../codecs.js'
import type { Method } from '../method.js'

type Fork = NonNullable<Services['fork']>

/**
 * The block number a tag names when it is at or below the fork block, else undefined; `latest`
 * (and `safe`, `finalized`) too while the fork block is still the head.
 */
function historic(s: Services, fork: Fork, tag: BlockTag): bigint | undefined {
  const n = tag.kind === 'number' ? tag.number : tag.tag === 'earliest' ? 0n : tag.tag === 'pending' ? undefined : s.chain.height
  return n !== undefined && n <= fork.blockNumber ? n : undefined
}

/** A remote answer that belongs to this chain: its block at or below the fork block. */
function ours(fork: Fork, answer: unknown): unknown {
  if (answer === null || typeof answer !== 'object') return null
  const n = (answer as { blockNumber?: unknown; number?: unknown }).blockNumber ?? (answer as { number?: unknown }).number
  return typeof n === 'string' && BigInt(n) <= fork.blockNumber ? answer : null
}

type Run = Method['run']

/** How each history method is answered on a fork, given the local method. */
const FORWARD: Record<string, (local: Run) => Run> = {
  eth_getBlockByNumber: (local) => async (s, params, scope) => {
    const [tag, txs] = params as [BlockTag, boolean]
    const n = s.fork === undefined ? undefined : historic(s, s.fork, tag)
    return n === undefined ? local(s, params, scope) : s.fork!.remoteCall('eth_getBlockByNumber', [quantity(n), txs])
  },
  eth_getBlockTransactionCountByNumber: (local) => async (s, params, scope) => {
    const n = s.fork === undefined ? undefined : historic(s, s.fork, (params as [BlockTag])[0])
    return n === undefined ? local(s, params, scope) : s.fork!.remoteCall('eth_getBlockTransactionCountByNumber', [quantity(n)])
  },
  eth_getTransactionByBlockNumberAndIndex: (local) => async (s, params, scope) => {
    const [tag, index] = params as [BlockTag, bigint]
    const n = s.fork === undefined ? undefined : historic(s, s.fork, tag)
    return n === undefined ? local(s, params, scope) : s.fork!.remoteCall('eth_getTransactionByBlockNumberAndIndex', [quantity(n), quantity(index)])
  },
  eth_getBlockReceipts: (local) => async (s, params, scope) => {
    const [selector] = params as [BlockSelector]
    const fork = s.fork
    if (fork === undefined) return local(s, params, scope)
    if (selector.kind !== 'hash') {
      const n = historic(s, fork, selector)
      return n === undefined ? local(s, params, scope) : fork.remoteCall('eth_getBlockReceipts', [quantity(n)])
    }
    const found = await local(s, params, scope)
    if (found !== null && !(await atFork(s, selector.hash))) return found
    const receipts = await fork.remoteCall('eth_getBlockReceipts', [data(selector.hash)])
    return Array.isArray(receipts) && (receipts.length === 0 || ours(fork, receipts[0]) !== null) ? receipts : found
  },
  // By hash: the local chain first (the fork block's hash is known locally but its body is the remote's).
  eth_getBlockByHash: byHash('eth_getBlockByHash', (p) => [data(p[0] as Uint8Array), p[1]], true),
  eth_getBlockTransactionCountByHash: byHash('eth_getBlockTransactionCountByHash', (p) => [data(p[0] as Uint8Array)], true),
  eth_getTransactionByBlockHashAndIndex: byHash('eth_getTransactionByBlockHashAndIndex', (p) => [data(p[0] as Uint8Array), quantity(p[1] as bigint)], true),
  eth_getTransactionByHash: byHash('eth_getTransactionByHash', (p) => [data(p[0] as Uint8Array)], false),
  eth_getTransactionReceipt: byHash('eth_getTransactionReceipt', (p) => [data(p[0] as Uint8Array)], false),
  debug_traceBlockByNumber: refuseHistoric(false),
  debug_traceBlockByHash: refuseHistoric(true),
  debug_intermediateRoots: refuseHistoric(true),
  debug_getRawBlock: refuseHistoric(false),
  debug_getRawReceipts: refuseHistoric(false),
  debug_traceTransaction: refuseRemoteTransaction,
  debug_getRawTransaction: refuseRemoteTransaction,
}

/** The refusal of a replay or raw form of the remote's history (its blocks are kept as headers). */
function notHere(what: string, number: bigint): ServerError {
  return new ServerError(`${what} is the remote's (block ${number}, at or below the fork block): its transactions are not replayed or re-encoded here; ask the remote`)
}

/** Refuses, for a block at or below the fork block, the methods that replay or re-encode a block. */
function refuseHistoric(byHash: boolean): (local: Run) => Run {
  return (local) => async (s, params, scope) => {
    const fork = s.fork
    if (fork !== undefined) {
      const at = params[0] as Uint8Array | BlockSelector
      const number = byHash || at instanceof Uint8Array
        ? (await s.chain.blockByHash(at as Uint8Array))?.header.number
        : (at as BlockSelector).kind === 'hash'
          ? (await s.chain.blockByHash((at as { hash: Uint8Array }).hash))?.header.number
          : historic(s, fork, at as BlockTag)
      if (number !== undefined && number <= fork.blockNumber) throw notHere('the block', number)
    }
    return local(s, params, scope)
  }
}

/** debug_traceTransaction and the raw transaction of a transaction the remote mined at or below the fork block: refused, saying so. */
function refuseRemoteTransaction(local: Run): Run {
  return async (s, params, scope) => {
    const fork = s.fork
    if (fork === undefined || (await s.chain.transaction(params[0] as Uint8Array)) !== undefined) return local(s, params, scope)
    const remote = ours(fork, await fork.remoteCall('eth_getTransactionByHash', [data(params[0] as Uint8Array)])) as { blockNumber?: string } | null
    if (remote !== null) throw notHere(`transaction ${data(params[0] as Uint8Array)}`, BigInt(remote.blockNumber as string))
    return local(s, params, scope)
  }
}

async function atFork(s: Services, hash: Uint8Array): Promise<boolean> {
  const block = s.fork === undefined ? undefined : await s.chain.blockByHash(hash)
  return block !== undefined && s.fork !== undefined && block.header.number <= s.fork.blockNumber
}

/** A method by hash: the local answer unless it is null (or names a block at or below the fork); then the remote's, if it is ours. */
function byHash(name: string, encode: (params: unknown[]) => unknown[], blockHash: boolean): (local: Run) => Run {
  return (local) => async (s, params, scope) => {
    const fork = s.fork
    if (fork === undefined) return local(s, params, scope)
    const historicBlock = blockHash && (await atFork(s, params[0] as Uint8Array))
    if (!historicBlock) {
      const found = await local(s, params, scope)
      if (found !== null) return found
    }
    const answer = await fork.remoteCall(name, encode(params))
    if (name === 'eth_getBlockTransactionCountByHash') return historicBlock ? answer : null
    if (name === 'eth_getTransactionByBlockHashAndIndex') return historicBlock ? answer : null
    return ours(fork, answer)
  }
}

/** Wraps the history methods of `methods` so that a fork answers them from its remote at or below the fork block. */
export function withForkHistory(methods: Map<string, Method>): void {
  for (const [name, wrap] of Object.entries(FORWARD)) {
    const m = methods.get(name)
    if (m !== undefined) methods.set(name, { ...m, run: wrap(m.run) })
  }
}
