/**
 * A fork's history over JSON-RPC: blocks, transactions and receipts at or below the fork block
 * are the remote's, asked of it (answers kept in memory by the fork) and answered as it gives
 * them; the fork block itself too (its body is the remote's). A transaction or block found
 * neither here nor at or below the fork block on the remote is unknown (null), as on any chain.
 * eth_getLogs stitches its ranges in src/rpc/eth/logs.ts.
 */
import { RLP } from '@ethereumjs/rlp'
import { blockNumberAndTime } from '../../chain/decode.js'
import { keccak256 } from '../../crypto/keccak.js'
import { encodeConsensusReceipt } from '../../chain/receipts.js'
import { Refused } from '../../domain-errors.js'
import { ServerError } from '../../errors.js'
import type { TraceConfig } from '../../execution/tracers/config.js'
import type { RemoteBlock } from '../../fork/remote-block.js'
import { data, equalBytes, fromHex, quantity } from '../../hex.js'
import type { Services } from '../../services.js'
import type { BlockSelector, BlockTag } from '../codecs.js'
import type { Method } from '../method.js'
import type { TraceType } from '../../execution/tracers/parity-results.js'
import { blockTraces, replayBlock, replayTransaction, transactionTraces } from '../trace.js'

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
  debug_traceBlockByNumber: historicBlock(false, (s, remote, params) => traced(s, remote, () => s.tracing.traceBlock(remote.block, remote.receipts, params[1] as TraceConfig))),
  debug_traceBlockByHash: historicBlock(true, (s, remote, params) => traced(s, remote, () => s.tracing.traceBlock(remote.block, remote.receipts, params[1] as TraceConfig))),
  debug_intermediateRoots: historicBlock(true, (s, remote) => {
    if (s.fork?.proofs === false) {
      throw new Refused(`the intermediate roots of block ${remote.block.header.number} (the remote's) need its parent's state trie: this fork's remote does not answer eth_getProof, so its state is read without the trie`)
    }
    return traced(s, remote, async () => (await s.tracing.intermediateRoots(remote.block, remote.receipts)).map(data))
  }),
  debug_getRawBlock: historicBlock(false, async (s, { block }) => {
    // A remote that lists no uncles for a block that has some (it does not serve them) cannot give its bytes.
    if (!block.uncleHashIsValid()) throw new Refused(`block ${block.header.number} of the remote ${s.fork?.remote} has uncles the remote does not answer: its raw form cannot be made here`)
    return data(block.serialize())
  }),
  debug_getRawReceipts: historicBlock(false, async (_s, { block, receipts }) =>
    receipts.map((r, i) => {
      const base = { cumulativeBlockGasUsed: r.cumulativeGasUsed, bitvector: r.bloom, logs: r.logs }
      return data(encodeConsensusReceipt(r.root === undefined ? { ...base, status: r.status } : { ...base, stateRoot: r.root }, block.transactions[i]!.type))
    }),
  ),
  debug_traceBlock: (local) => async (s, params, scope) => {
    const fork = s.fork
    const rlp = params[0] as Uint8Array
    let decoded: { number: bigint; hash: Uint8Array } | undefined
    try {
      // The hash of the header as given, whatever hardfork it is of (a remote block's may be older than this chain's).
      const { number } = blockNumberAndTime(rlp)
      const header = (RLP.decode(rlp) as Uint8Array[][])[0] as Uint8Array[]
      decoded = { number, hash: keccak256(RLP.encode(header)) }
    } catch {
      decoded = undefined
    }
    if (fork === undefined || decoded === undefined || decoded.number > fork.blockNumber) return local(s, params, scope)
    const remote = await fork.remoteBlock(decoded.number)
    if (remote === undefined || !equalBytes(remote.block.hash(), decoded.hash)) return local(s, params, scope)
    return traced(s, remote, () => s.tracing.traceBlock(remote.block, remote.receipts, params[1] as TraceConfig))
  },
  debug_traceTransaction: remoteTransaction((s, remote, index, params) => traced(s, remote, () => s.tracing.traceInBlock(remote.block, remote.receipts, index, params[1] as TraceConfig))),
  debug_getRawTransaction: remoteTransaction(async (_s, remote, index) => data(remote.block.transactions[index]!.serialize())),
  // trace_*: the remote's blocks replayed here, as Anvil answers them for a fork's history.
  trace_transaction: remoteTransaction((s, remote, index) => traced(s, remote, () => transactionTraces(s, remote.block, remote.receipts, index))),
  trace_get: remoteTransaction(async (s, remote, index, params) => {
    const at = params[1] as bigint[]
    if (at.length !== 1) return null
    return (await traced(s, remote, () => transactionTraces(s, remote.block, remote.receipts, index)))[Number(at[0])] ?? null
  }),
  trace_replayTransaction: remoteTransaction((s, remote, index, params) => traced(s, remote, () => replayTransaction(s, remote.block, remote.receipts, index, params[1] as Set<TraceType>))),
  trace_block: historicBlock(false, (s, remote) => traced(s, remote, () => blockTraces(s, remote.block, remote.receipts))),
  trace_replayBlockTransactions: historicBlock(false, (s, remote, params) => traced(s, remote, () => replayBlock(s, remote.block, remote.receipts, params[1] as Set<TraceType>))),
}

/**
 * A replay of the remote's block whose transactions do not use the gas (or end as) its receipts
 * say: the remote runs other rules than this node's hardfork (another chain's, an L2's).
 */
async function traced<T>(s: Services, remote: RemoteBlock, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof Refused && error.message.startsWith('replaying transaction')) {
      throw new Refused(
        `${error.message} (block ${remote.block.header.number} is the remote's, replayed here under hardfork ${remote.block.common.hardfork()} on its parent's state read from the remote: the remote runs other rules)`,
      )
    }
    throw error
  }
}

type RemoteRun = (s: Services, remote: RemoteBlock, params: unknown[]) => Promise<unknown>

/** The number of the block a block param names when it is at or below the fork block. */
async function historicNumber(s: Services, fork: Fork, at: Uint8Array | BlockSelector, byHash: boolean): Promise<bigint | undefined> {
  const number = byHash || at instanceof Uint8Array
    ? (await s.chain.blockByHash(at as Uint8Array))?.header.number
    : (at as BlockSelector).kind === 'hash'
      ? (await s.chain.blockByHash((at as { hash: Uint8Array }).hash))?.header.number
      : historic(s, fork, at as BlockTag)
  return number !== undefined && number <= fork.blockNumber ? number : undefined
}

/**
 * A method on a block at or below the fork block: run on the remote's block, whole (its
 * transactions and receipts, verified against its header), replayed on its parent's state read
 * from the remote.
 */
function historicBlock(byHash: boolean, run: RemoteRun): (local: Run) => Run {
  return (local) => async (s, params, scope) => {
    const fork = s.fork
    const number = fork === undefined ? undefined : await historicNumber(s, fork, params[0] as Uint8Array | BlockSelector, byHash)
    if (fork === undefined || number === undefined) return local(s, params, scope)
    const remote = await fork.remoteBlock(number)
    if (remote === undefined) throw new ServerError(`block #${number} not found on the remote ${fork.remote}`)
    return run(s, remote, params)
  }
}

/** debug_traceTransaction and the raw transaction of a transaction the remote mined at or below the fork block: its block fetched whole. */
function remoteTransaction(run: (s: Services, remote: RemoteBlock, index: number, params: unknown[]) => Promise<unknown>): (local: Run) => Run {
  return (local) => async (s, params, scope) => {
    const fork = s.fork
    if (fork === undefined || (await s.chain.transaction(params[0] as Uint8Array)) !== undefined) return local(s, params, scope)
    const found = ours(fork, await fork.remoteCall('eth_getTransactionByHash', [data(params[0] as Uint8Array)])) as { blockHash?: string; transactionIndex?: string } | null
    if (found === null || typeof found.blockHash !== 'string' || typeof found.transactionIndex !== 'string') return local(s, params, scope)
    const remote = await fork.remoteBlock(fromHex(found.blockHash))
    const index = Number(BigInt(found.transactionIndex))
    const tx = remote?.block.transactions[index]
    if (remote === undefined || tx === undefined || !equalBytes(tx.hash(), params[0] as Uint8Array)) {
      throw new ServerError(`fork: the remote ${fork.remote} names block ${found.blockHash} index ${index} for transaction ${data(params[0] as Uint8Array)}, which does not hold it`)
    }
    return run(s, remote, index, params)
  }
}

async function atFork(s: Services, hash: Uint8Array): Promise<boolean> {
  const block = s.fork === undefined ? undefined : await s.chain.blockByHash(hash)
  return block !== undefined && s.fork !== undefined && block.header.number <= s.fork.blockNumber
}

/** A method by hash: the local answer unless it is null (or names a block at or below the fork); then the remote's, if it is ours. */
function byHash(name: string, encode: (params: unknown[]) => unknown[], blockHash: boolean): (local: Run) => Run {
  // Without a fork the local method's answer is handed on as it is (eth_getTransactionReceipt
  // after each send: no async wrapper of its own).
  return (local) => (s, params, scope) => {
    const fork = s.fork
    return fork === undefined ? local(s, params, scope) : forked(local, s, params, scope, fork)
  }
  async function forked(local: Run, s: Services, params: unknown[], scope: Parameters<Run>[2], fork: Fork): Promise<unknown> {
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
