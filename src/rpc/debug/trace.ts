/**
 * debug_traceTransaction, debug_traceBlockByNumber, debug_traceBlockByHash, debug_traceBlock
 * (an RLP block), debug_traceBlockFromFile (an RLP block in a file of the profiling directory) and debug_traceCall, with geth's trace config (tracer, tracerConfig, timeout and
 * the struct logger's options) and, for debug_traceCall, its state overrides, block overrides and
 * `txIndex`; and debug_intermediateRoots, which replays a block as they do.
 */
import { open } from 'node:fs/promises'
import type { Block } from '@ethereumjs/block'
import { blockNumberAndTime, decodeBlock } from '../../chain/decode.js'
import type { StoredReceipt } from '../../chain/receipts.js'
import { ServerError } from '../../errors.js'
import { NotFound, Refused } from '../../domain-errors.js'
import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from '../../crypto/keccak.js'
import type { WholeBlock } from '../history-reader.js'
import { data } from '../../hex.js'
import type { TraceConfig } from '../../execution/tracers/config.js'
import { isTracerObject } from '../../execution/tracers/object-tracer.js'
import type { TraceCallOptions } from '../../execution/tracers/replay.js'
import { blockByTag } from '../blocks.js'
import { CodecError, blockSelector, blockTag, bytes, hash, objectParam, optional, parseQuantity, text, type BlockSelector, type Codec } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { callRequest } from '../objects.js'
import { decodeBlockOverrides, decodeStateOverrides } from '../overrides.js'

import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'history' | 'limits' | 'profiling' | 'tracing'> & HistoryPorts
const method = methodsOf<keyof Here>()

function goKind(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'object') return 'object'
  return typeof v === 'boolean' ? 'bool' : typeof v
}

/** Go's `json.Unmarshal` message for a field of the wrong JSON type. */
function wrongType(v: unknown, struct: string, name: string, type: string): never {
  const kind = typeof v === 'number' ? `number ${v}` : goKind(v)
  throw new CodecError(`json: cannot unmarshal ${kind} into Go struct field ${struct}.${name} of type ${type}`)
}

function decodeTraceConfig(o: Record<string, unknown>, struct: string): TraceConfig {
  const present = (name: string) => Object.hasOwn(o, name) && o[name] !== null
  const text = (name: string): string | undefined => {
    if (!present(name)) return undefined
    const v = o[name]
    return typeof v === 'string' ? v : wrongType(v, struct, name, 'string')
  }
  const flag = (name: string): boolean | undefined => {
    if (!present(name)) return undefined
    const v = o[name]
    return typeof v === 'boolean' ? v : wrongType(v, struct, name, 'bool')
  }
  // In process (node.request), `tracer` may be a tracer object with real functions.
  const tracer = present('tracer') && isTracerObject(o.tracer) ? o.tracer : text('tracer')
  const config: TraceConfig = { tracer, timeout: text('timeout') }
  if (present('tracerConfig')) {
    const v = o.tracerConfig
    if (typeof v !== 'object' || Array.isArray(v)) wrongType(v, struct, 'tracerConfig', 'json.RawMessage')
    config.tracerConfig = v as Record<string, unknown>
  }
  let limit: number | undefined
  if (present('limit')) {
    const v = o.limit
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) wrongType(v, struct, 'limit', 'int')
    limit = v
  }
  const logger = {
    enableMemory: flag('enableMemory'),
    disableStack: flag('disableStack'),
    disableStorage: flag('disableStorage'),
    enableReturnData: flag('enableReturnData'),
    disableMemory: flag('disableMemory'),
    limit,
  }
  flag('debug')
  config.logger = logger
  return config
}

/** The optional trace config param (geth's `TraceConfig`). */
export const traceConfig: Codec<TraceConfig> = optional(
  {
    name: 'TraceConfig',
    optional: false,
    decode: (v) => decodeTraceConfig(objectParam(v, 'tracers.TraceConfig'), 'TraceConfig'),
  },
  {},
)

/** debug_traceCall's config: a trace config with overrides and `txIndex` (geth's `TraceCallConfig`). */
export const traceCallConfig: Codec<{ config: TraceConfig; options: TraceCallOptions }> = optional(
  {
    name: 'TraceCallConfig',
    optional: false,
    decode: (v) => {
      const o = objectParam(v, 'tracers.TraceCallConfig')
      const options: TraceCallOptions = {}
      if (Object.hasOwn(o, 'stateOverrides') && o.stateOverrides !== null) options.state = decodeStateOverrides(o.stateOverrides)
      if (Object.hasOwn(o, 'blockOverrides') && o.blockOverrides !== null) options.block = decodeBlockOverrides(o.blockOverrides)
      if (Object.hasOwn(o, 'txIndex') && o.txIndex !== null) options.txIndex = Number(parseQuantity(o.txIndex, 64))
      return { config: decodeTraceConfig(o, 'TraceCallConfig'), options }
    },
  },
  { config: {}, options: {} },
)

/** The block debug_traceBlockByNumber names; geth's `block #N not found` past the head. */
async function blockAt(s: Here, tag: Parameters<typeof blockByTag>[1]): Promise<Block> {
  const block = await blockByTag(s, tag)
  if (block !== undefined) return block
  const number = tag.kind === 'number' ? tag.number : s.chain.height
  throw new ServerError(`block #${number} not found`)
}

async function blockWithHash(s: Here, h: Uint8Array): Promise<Block> {
  const block = await s.chain.blockByHash(h)
  if (block === undefined) throw new ServerError(`block ${data(h)} not found`)
  return block
}

/** The block a traced call runs on; geth refuses `pending`. */
async function callBlock(s: Here, at: BlockSelector): Promise<Block> {
  if (at.kind === 'hash') return blockWithHash(s, at.hash)
  if (at.kind === 'tag' && at.tag === 'pending') throw new ServerError('tracing on top of pending is not supported')
  return blockAt(s, at)
}

/**
 * The history's copy of the block an RLP holds (a fork's remote block: it may not decode under
 * this chain's rules), found by its header's number and hash; none for bytes with no header.
 */
async function givenBlockCopy(s: Here, rlp: Uint8Array): Promise<WholeBlock | undefined> {
  let header: { number: bigint; hash: Uint8Array }
  try {
    // The hash of the header as given, whatever hardfork it is of.
    header = { number: blockNumberAndTime(rlp).number, hash: keccak256(RLP.encode((RLP.decode(rlp) as Uint8Array[][])[0] as Uint8Array[])) }
  } catch {
    return undefined
  }
  return s.history.givenBlockCopy(s, header)
}

/**
 * A block from its RLP (debug_traceBlock), under the fork of its number and time; the chain's own
 * copy when it holds the block, with its receipts (the senders of impersonated transactions).
 */
async function rlpBlock(s: Here, rlp: Uint8Array): Promise<{ block: Block; receipts: StoredReceipt[] | undefined }> {
  let block: Block
  try {
    const { number, timestamp } = blockNumberAndTime(rlp)
    block = decodeBlock(rlp, s.chain.forks.at(number, timestamp))
  } catch (error) {
    throw new ServerError(`could not decode block: ${(error as Error).message}`)
  }
  const ours = await s.chain.blockByHash(block.hash())
  return ours === undefined ? { block, receipts: undefined } : { block: ours, receipts: await s.chain.receipts(ours.hash()) }
}

/**
 * The bytes of `file` in the profiling directory for debug_traceBlockFromFile: at most
 * `limits.httpBodyBytes` (what a debug_traceBlock request could carry); geth's `could not read
 * file` when it cannot be read.
 */
async function readBlockFile(s: Here, file: string): Promise<Uint8Array> {
  const path = s.profiling.path(file, 'read')
  const max = s.limits.httpBodyBytes
  let handle
  try {
    handle = await open(path, 'r')
  } catch (error) {
    throw new ServerError(`could not read file: ${(error as Error).message}`)
  }
  try {
    const { size } = await handle.stat()
    if (size > max) throw new ServerError(`could not read file: ${file} is ${size} bytes, more than limits.httpBodyBytes (${max})`)
    const buffer = new Uint8Array(size)
    await handle.read(buffer, 0, size, 0)
    return buffer
  } catch (error) {
    if (error instanceof ServerError) throw error
    throw new ServerError(`could not read file: ${(error as Error).message}`)
  } finally {
    await handle.close()
  }
}

/** The debug_trace* methods. */
export const debugTrace: MethodTable = {
  debug_traceTransaction: method({
    params: [hash, traceConfig],
    run: async (s, [h, config]) => {
      const mined = await s.history.minedTransaction(s, h)
      // Hardhat's words for a transaction it has not mined; geth's otherwise.
      if (mined === undefined) throw s.hardhatCompat ? new ServerError(`Unable to find a block containing transaction ${data(h)}`) : new NotFound('transaction not found')
      const { whole, index } = mined
      return whole.replay(() => s.tracing.traceInBlock(whole.block, whole.receipts, index, config))
    },
  }),
  debug_traceBlockByNumber: method({
    params: [blockTag, traceConfig],
    run: async (s, [tag, config]) => {
      const whole = await s.history.wholeBlock(s, tag)
      if (whole === undefined) throw new ServerError(`block #${tag.kind === 'number' ? tag.number : s.chain.height} not found`)
      return whole.replay(() => s.tracing.traceBlock(whole.block, whole.receipts, config))
    },
  }),
  debug_traceBlockByHash: method({
    params: [hash, traceConfig],
    run: async (s, [h, config]) => {
      const whole = await s.history.wholeBlock(s, h)
      if (whole === undefined) throw new ServerError(`block ${data(h)} not found`)
      return whole.replay(() => s.tracing.traceBlock(whole.block, whole.receipts, config))
    },
  }),
  debug_traceBlock: method({
    params: [bytes, traceConfig],
    run: async (s, [rlp, config]) => {
      const copy = await givenBlockCopy(s, rlp)
      if (copy !== undefined) return copy.replay(() => s.tracing.traceBlock(copy.block, copy.receipts, config))
      const { block, receipts } = await rlpBlock(s, rlp)
      return s.tracing.traceBlock(block, receipts, config)
    },
  }),
  debug_traceBlockFromFile: method({
    params: [text, traceConfig],
    run: async (s, [file, config]) => {
      const { block, receipts } = await rlpBlock(s, await readBlockFile(s, file))
      return s.tracing.traceBlock(block, receipts, config)
    },
  }),
  debug_intermediateRoots: method({
    params: [hash, traceConfig],
    run: async (s, [h]) => {
      const whole = await s.history.wholeBlock(s, h)
      if (whole?.noIntermediateRoots !== undefined) throw new Refused(whole.noIntermediateRoots)
      // geth looks among the bad blocks for a hash the chain does not hold.
      const block = whole?.block ?? s.chain.badBlocks.get(h)
      if (block === undefined) throw new ServerError(`block ${data(h)} not found`)
      const roots = whole === undefined ? s.tracing.intermediateRoots(block, undefined) : whole.replay(() => s.tracing.intermediateRoots(block, whole.receipts))
      return (await roots).map(data)
    },
  }),
  debug_traceCall: method({
    params: [callRequest, blockSelector, traceCallConfig],
    run: async (s, [req, at, { config, options }]) => s.tracing.traceCall(req, await callBlock(s, at), options, config),
  }),
}
