/**
 * The trace_* namespace (OpenEthereum's, as reth and Anvil serve it): flat call traces of mined
 * transactions and blocks (trace_transaction, trace_get, trace_block, trace_filter), and
 * replays and calls with trace types (trace_replayTransaction, trace_replayBlockTransactions,
 * trace_call, trace_callMany, trace_rawTransaction). Every answer comes from re-executing the
 * block on the tracing VMs (docs/tracing.md); nothing is stored at mining. Where Anvil answers
 * an unknown transaction or a block past the head with an empty list, so does this.
 */
import type { Block } from '@ethereumjs/block'
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import { InvalidParamsError, ServerError } from '../errors.js'
import { data } from '../hex.js'
import { ParityTracer, type ParityTrace } from '../execution/tracers/parity-tracer.js'
import { ReplayTracer, TRACE_TYPES, type TraceResults, type TraceType } from '../execution/tracers/parity-results.js'
import type { CallRequest } from '../execution/call-request.js'
import type { BlockOverrides, StateOverrides } from '../execution/overrides.js'
import type { TraceCallOptions } from '../execution/tracers/replay.js'
import type { StoredReceipt } from '../chain/receipts.js'
import type { BlockTag } from '../chain/block-tag.js'
import { blockByTag } from './blocks.js'
import type { WholeBlock } from './history-reader.js'
import { CodecError, blockSelector, blockTag, bytes, hash, optional, parseQuantity, type BlockSelector, type Codec } from './codecs.js'
import { type MethodTable, methodsOf, type Ports } from './method.js'
import { callRequest } from './objects.js'
import { decodeBlockOverrides, decodeStateOverrides } from './overrides.js'
import { traceFilter, matches, type TraceFilter } from './trace-filter.js'

import type { HistoryPorts } from '../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'history' | 'limits' | 'tracing'> & HistoryPorts
const method = methodsOf<keyof Here>()

/** A trace with its block and transaction, fields in the order reth and Anvil write them. */
function localized(t: ParityTrace, block: Block, txHash: Uint8Array, position: number): Record<string, unknown> {
  // reth and Anvil write the block number and position as JSON numbers, not hex.
  const out: Record<string, unknown> = { action: t.action, blockHash: data(block.hash()), blockNumber: Number(block.header.number) }
  if (t.error !== undefined) out.error = t.error
  out.result = t.result
  out.subtraces = t.subtraces
  out.traceAddress = t.traceAddress
  out.transactionHash = data(txHash)
  out.transactionPosition = position
  out.type = t.type
  return out
}

/** Transaction `index` of `block`'s flat traces, localized (Anvil keeps precompile calls here). */
export async function transactionTraces(s: Here, block: Block, receipts: StoredReceipt[], index: number): Promise<Record<string, unknown>[]> {
  const tracer = new ParityTracer()
  await s.tracing.replayWith(block, receipts, index + 1, (i) => (i === index ? tracer : undefined))
  const hash = (block.transactions[index] as TypedTransaction).hash()
  return tracer.result().map((t) => localized(t, block, hash, index))
}

/** Every transaction's flat traces of `block`, localized. */
export async function blockTraces(s: Here, block: Block, receipts: StoredReceipt[]): Promise<Record<string, unknown>[]> {
  const txs = block.transactions
  if (txs.length === 0) return []
  const tracers = txs.map(() => new ParityTracer())
  await s.tracing.replayWith(block, receipts, txs.length, (i) => tracers[i])
  return tracers.flatMap((tracer, i) => tracer.result().map((t) => localized(t, block, (txs[i] as TypedTransaction).hash(), i)))
}

/** Transaction `index` of `block` replayed with `types` (trace_replayTransaction). */
export async function replayTransaction(s: Here, block: Block, receipts: StoredReceipt[], index: number, types: Set<TraceType>): Promise<TraceResults> {
  const tracer = new ReplayTracer(types)
  await s.tracing.replayWith(block, receipts, index + 1, (i) => (i === index ? tracer : undefined))
  return tracer.result()
}

/** Every transaction of `block` replayed with `types` (trace_replayBlockTransactions). */
export async function replayBlock(s: Here, block: Block, receipts: StoredReceipt[], types: Set<TraceType>): Promise<Array<TraceResults & { transactionHash: string }>> {
  if (block.transactions.length === 0) return []
  const tracers = block.transactions.map(() => new ReplayTracer(types))
  await s.tracing.replayWith(block, receipts, tracers.length, (i) => tracers[i])
  return tracers.map((t, i) => ({ ...t.result(), transactionHash: data((block.transactions[i] as TypedTransaction).hash()) }))
}

async function tracesOfTransaction(s: Here, h: Uint8Array): Promise<Record<string, unknown>[] | undefined> {
  const mined = await s.history.minedTransaction(s, h)
  if (mined === undefined) return undefined
  const { whole, index } = mined
  return whole.replay(() => transactionTraces(s, whole.block, whole.receipts, index))
}

/** The block trace_block and trace_replayBlockTransactions name, whole; none past the head or for `pending` (Anvil's `[]`). */
async function minedBlock(s: Here, tag: BlockTag): Promise<WholeBlock | undefined> {
  return tag.kind === 'tag' && tag.tag === 'pending' ? undefined : s.history.wholeBlock(s, tag)
}

/** The trace types param: a list of `trace`, `vmTrace`, `stateDiff` (serde's words for others). */
const traceTypes: Codec<Set<TraceType>> = {
  name: 'trace types',
  optional: false,
  decode(v) {
    if (!Array.isArray(v)) throw new CodecError('invalid type: expected a sequence of trace types')
    const out = new Set<TraceType>()
    for (const item of v) {
      if (typeof item !== 'string' || !(TRACE_TYPES as readonly string[]).includes(item)) {
        throw new CodecError(`unknown variant \`${String(item)}\`, expected one of \`trace\`, \`vmTrace\`, \`stateDiff\``)
      }
      out.add(item as TraceType)
    }
    return out
  },
}

/**
 * trace_rawTransaction's bytes: hex, or an array of byte values, which reth and Anvil also take
 * (alloy's `Bytes`) and which `cast trace --raw` sends.
 */
const rawTransactionBytes: Codec<Uint8Array> = {
  name: 'DATA',
  optional: false,
  decode(v, index) {
    if (!Array.isArray(v)) return bytes.decode(v, index)
    if (!v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) throw new CodecError('invalid type: expected hex or an array of bytes (integers 0 to 255)')
    return Uint8Array.from(v as number[])
  },
}

/** trace_callMany's list of `[call, traceTypes]` pairs. */
const callList: Codec<Array<{ call: CallRequest; types: Set<TraceType> }>> = {
  name: 'call list',
  optional: false,
  decode(v, index) {
    if (!Array.isArray(v)) throw new CodecError('invalid type: expected a sequence of [call, trace types]')
    return v.map((pair) => {
      if (!Array.isArray(pair) || pair.length !== 2) throw new CodecError('invalid type: expected [call, trace types]')
      return { call: callRequest.decode(pair[0], index), types: traceTypes.decode(pair[1], index) }
    })
  },
}

/** The block a traced call runs on: the latest by default; `pending` is refused as debug_traceCall does. */
async function callBlock(s: Here, at: BlockSelector): Promise<Block> {
  if (at.kind === 'tag' && at.tag === 'pending') throw new ServerError('tracing on top of pending is not supported')
  const block = at.kind === 'hash' ? await s.chain.blockByHash(at.hash) : await blockByTag(s, at)
  if (block === undefined) throw new ServerError(at.kind === 'hash' ? `block ${data(at.hash)} not found` : 'header not found')
  return block
}

const stateOverrides: Codec<StateOverrides> = { name: 'state overrides', optional: false, decode: (v) => decodeStateOverrides(v) }
const blockOverrides: Codec<BlockOverrides> = { name: 'block overrides', optional: false, decode: (v) => decodeBlockOverrides(v) }

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

/** Runs calls (or signed transactions) in sequence on the state after `block`, each with its trace types. */
async function traceCalls(
  s: Here,
  runs: Array<{ call: CallRequest | TypedTransaction; types: Set<TraceType> }>,
  at: BlockSelector,
  options: TraceCallOptions = {},
): Promise<TraceResults[]> {
  const block = await callBlock(s, at)
  const tracers = runs.map((run) => new ReplayTracer(run.types))
  await s.tracing.traceCallsWith(runs.map((run, i) => ({ call: run.call, tracer: tracers[i] as ReplayTracer })), block, options)
  return tracers.map((t) => t.result())
}

/** A signed transaction from its bytes, under the fork of the block it runs on. */
function signedTransaction(raw: Uint8Array, block: Block): TypedTransaction {
  if (raw.length === 0) throw new InvalidParamsError('empty transaction data')
  try {
    return createTxFromRLP(raw, { common: block.common })
  } catch {
    throw new InvalidParamsError('failed to decode signed transaction')
  }
}

/** trace_filter: the matching traces of a block range (Anvil's rules: at most `limits.traceFilterBlocks` past `fromBlock`). */
async function filterTraces(s: Here, f: TraceFilter): Promise<Record<string, unknown>[]> {
  const start = f.fromBlock ?? 0n
  const end = f.toBlock ?? s.chain.height
  if (start > end) throw new InvalidParamsError('invalid block range, ensure that to block is greater than from block')
  if (end - start > BigInt(s.limits.traceFilterBlocks)) {
    throw new InvalidParamsError(`block range too large, currently limited to ${s.limits.traceFilterBlocks}`)
  }
  const out: Record<string, unknown>[] = []
  for (let n = start; n <= end && n <= s.chain.height; n++) {
    const block = await s.chain.blockByNumber(n)
    if (block === undefined) continue
    for (const t of await blockTraces(s, block, await s.chain.receipts(block.hash()))) if (matches(f, t)) out.push(t)
  }
  const after = Number(f.after ?? 0n)
  return f.count === undefined ? out.slice(after) : out.slice(after, after + Number(f.count))
}

/** The trace_* methods. */
export const trace: MethodTable = {
  trace_transaction: method({
    params: [hash],
    run: async (s, [h]) => (await tracesOfTransaction(s, h)) ?? [],
  }),
  trace_get: method({
    params: [hash, { name: 'indices', optional: false, decode: (v) => indices(v) }],
    run: async (s, [h, at]) => {
      // reth and Anvil answer one index only: the position in the flat list.
      if (at.length !== 1) return null
      return (await tracesOfTransaction(s, h))?.[Number(at[0])] ?? null
    },
  }),
  trace_block: method({
    params: [blockTag],
    run: async (s, [tag]) => {
      const whole = await minedBlock(s, tag)
      return whole === undefined ? [] : whole.replay(() => blockTraces(s, whole.block, whole.receipts))
    },
  }),
  trace_filter: method({
    params: [traceFilter],
    run: (s, [f]) => filterTraces(s, f),
  }),
  trace_replayTransaction: method({
    params: [hash, traceTypes],
    run: async (s, [h, types]) => {
      const mined = await s.history.minedTransaction(s, h)
      if (mined === undefined) throw new ServerError('transaction not found')
      const { whole, index } = mined
      return whole.replay(() => replayTransaction(s, whole.block, whole.receipts, index, types))
    },
  }),
  trace_replayBlockTransactions: method({
    params: [blockTag, traceTypes],
    run: async (s, [tag, types]) => {
      const whole = await minedBlock(s, tag)
      return whole === undefined ? [] : whole.replay(() => replayBlock(s, whole.block, whole.receipts, types))
    },
  }),
  trace_call: method({
    params: [callRequest, traceTypes, optional(blockSelector, LATEST), optional(stateOverrides, undefined), optional(blockOverrides, undefined)],
    run: async (s, [call, types, at, state, block]) => {
      const [result] = await traceCalls(s, [{ call, types }], at, { state, block })
      return result
    },
  }),
  trace_callMany: method({
    params: [callList, optional(blockSelector, LATEST)],
    run: (s, [calls, at]) => traceCalls(s, calls, at),
  }),
  trace_rawTransaction: method({
    params: [rawTransactionBytes, traceTypes, optional(blockSelector, LATEST)],
    run: async (s, [raw, types, at]) => {
      const tx = signedTransaction(raw, await callBlock(s, at))
      const [result] = await traceCalls(s, [{ call: tx, types }], at)
      return result
    },
  }),
}

/** trace_get's indices: a list of quantities. */
function indices(v: unknown): bigint[] {
  if (!Array.isArray(v)) throw new CodecError('invalid type: expected a sequence of indices')
  return v.map((i) => parseQuantity(i, 64))
}
