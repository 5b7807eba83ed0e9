/**
 * debug_standardTraceBlockToFile and debug_standardTraceBadBlockToFile: a block's transactions
 * traced by the struct logger and written, one file per transaction, as EIP-3155 JSON lines (geth's
 * `logger.NewJSONLogger`): one line per opcode, then a summary line. Files go into the profiling
 * directory (`enableProfiling`, `profilingDir`), named as geth names them; the answer is their paths.
 */
import { randomInt } from 'node:crypto'
import { open } from 'node:fs/promises'
import type { Block } from '@ethereumjs/block'
import type { StoredReceipt } from '../../chain/receipts.js'
import { ServerError } from '../../errors.js'
import { opName } from '../../execution/tracers/opcodes.js'
import type { StructLogEntry } from '../../execution/tracers/struct-log-forms.js'
import { data, quantity } from '../../hex.js'
import { CodecError, hash, objectParam, optional, parseData, type Codec } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'profiling' | 'tracing'>
const method = methodsOf<keyof Here>()

/** geth's `StdTraceConfig`: the struct logger's options and `txHash`, the one transaction to trace. */
interface StdTraceConfig {
  enableMemory: boolean
  disableStack: boolean
  enableReturnData: boolean
  txHash: Uint8Array | undefined
}

const BOOLS = ['enableMemory', 'disableStack', 'disableStorage', 'enableReturnData', 'debug'] as const

const stdTraceConfig: Codec<StdTraceConfig> = optional(
  {
    name: 'StdTraceConfig',
    optional: false,
    decode: (v) => {
      const o = objectParam(v, 'tracers.StdTraceConfig')
      for (const k of BOOLS) {
        if (o[k] !== undefined && o[k] !== null && typeof o[k] !== 'boolean') throw new CodecError(`json: cannot unmarshal ${typeof o[k]} into Go struct field StdTraceConfig.${k} of type bool`)
      }
      if (o.reexec !== undefined && o.reexec !== null && (typeof o.reexec !== 'number' || !Number.isInteger(o.reexec) || o.reexec < 0)) {
        throw new CodecError('json: cannot unmarshal into Go struct field StdTraceConfig.reexec of type uint64')
      }
      let txHash: Uint8Array | undefined
      if (o.txHash !== undefined && o.txHash !== null) {
        txHash = parseData(o.txHash)
        if (txHash.length !== 32) throw new CodecError('hex string has length ' + (txHash.length * 2) + ', want 64 for common.Hash')
      }
      return { enableMemory: o.enableMemory === true, disableStack: o.disableStack === true, enableReturnData: o.enableReturnData === true, txHash }
    },
  },
  { enableMemory: false, disableStack: false, enableReturnData: false, txHash: undefined },
)

const OPCODES = new Map<string, number>()
for (let op = 0; op < 256; op++) OPCODES.set(opName(op), op)

/** One struct-logger entry as an EIP-3155 line (geth's `JSONLogger.OnOpcode`). */
function line(e: StructLogEntry, memSize: number | undefined, config: StdTraceConfig): string {
  const out: Record<string, unknown> = {
    pc: e.pc,
    op: OPCODES.get(e.op) ?? 0,
    gas: quantity(e.gas),
    gasCost: quantity(e.gasCost),
    memSize: memSize ?? 0,
  }
  if (config.enableMemory && e.memory !== undefined) out.memory = `0x${e.memory.map((w) => w.slice(2)).join('')}`
  if (!config.disableStack) out.stack = e.stack ?? []
  if (config.enableReturnData && e.returnData !== undefined) out.returnData = e.returnData
  out.depth = e.depth
  out.refund = e.refund ?? 0
  out.opName = e.op
  if (e.error !== undefined) out.error = e.error
  return JSON.stringify(out)
}

interface StructResult {
  gas: number
  failed: boolean
  returnValue: string
  structLogs: StructLogEntry[]
}

/** geth's file name prefix (`block_0x<4 bytes>-<index>-0x<4 bytes>-`) and Go's CreateTemp suffix. */
function fileName(block: Block, index: number, txHash: Uint8Array): string {
  return `block_${data(block.hash().subarray(0, 4))}-${index}-${data(txHash.subarray(0, 4))}-${randomInt(0, 2 ** 32)}`
}

async function traceToFiles(s: Here, block: Block, receipts: StoredReceipt[] | undefined, config: StdTraceConfig): Promise<string[]> {
  s.profiling.check()
  const txs = block.transactions
  let indexes = txs.map((_, i) => i)
  if (config.txHash !== undefined) {
    const wanted = data(config.txHash)
    indexes = indexes.filter((i) => data(txs[i]!.hash()) === wanted)
    if (indexes.length === 0) throw new ServerError(`transaction ${wanted} not found in block`)
  }
  // Memory is recorded to know each step's size (memSize); it is written only with enableMemory.
  const traces = await s.tracing.traceBlock(block, receipts, { logger: { enableMemory: true, disableStack: config.disableStack, disableStorage: true, enableReturnData: config.enableReturnData } })
  const files: string[] = []
  for (const i of indexes) {
    const result = traces[i]!.result as StructResult
    const path = s.profiling.path(fileName(block, i, txs[i]!.hash()))
    const lines = result.structLogs.map((e) => line(e, (e.memory?.length ?? 0) * 32, config))
    const summary: Record<string, unknown> = { output: result.failed && result.returnValue === '0x' ? '' : result.returnValue.slice(2), gasUsed: quantity(result.gas) }
    // The top frame's error: the step that failed in it, else a revert (which fails no step).
    const failure = [...result.structLogs].reverse().find((e) => e.error !== undefined && e.depth === 1)?.error
    if (result.failed) summary.error = failure ?? 'execution reverted'
    lines.push(JSON.stringify(summary))
    try {
      const handle = await open(path, 'wx', 0o644)
      try {
        await handle.writeFile(`${lines.join('\n')}\n`)
      } finally {
        await handle.close()
      }
    } catch (error) {
      throw new ServerError(`could not write ${path}: ${(error as Error).message}`)
    }
    files.push(path)
  }
  return files
}

export const debugTraceToFile: MethodTable = {
  debug_standardTraceBlockToFile: method({
    params: [hash, stdTraceConfig],
    run: async (s, [h, config]) => {
      s.profiling.check()
      const block = await s.chain.blockByHash(h)
      if (block === undefined) throw new ServerError(`block ${data(h)} not found`)
      return traceToFiles(s, block, await s.chain.receipts(h), config)
    },
  }),
  debug_standardTraceBadBlockToFile: method({
    params: [hash, stdTraceConfig],
    run: async (s, [h, config]) => {
      s.profiling.check()
      const block = s.chain.badBlocks.get(h)
      if (block === undefined) throw new ServerError(`bad block ${data(h)} not found`)
      return traceToFiles(s, block, undefined, config)
    },
  }),
}
