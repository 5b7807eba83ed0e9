/**
 * Replays a corpus of JSON-RPC requests on Hardhat Network and on finality, step by step, and
 * reports where the answers differ (after {@link normalise}).
 *
 * Two things keep the two chains comparable:
 *
 * - Time. Both take a new block's timestamp from the wall clock (from the same genesis date), so
 *   the two could fall on either side of a second. Before finality runs a step that made Hardhat
 *   mine, it is told Hardhat's timestamp for the first new block (`evm_setNextBlockTimestamp`);
 *   later blocks of the step (hardhat_mine's interval) are finality's own.
 * - Hashes in parameters. A corpus names blocks and transactions by hashes of the chain it was
 *   recorded on, or by placeholders: `$tx:i` (the i-th transaction sent in the run, `-1` the
 *   last), `$block:N` / `$block:latest` (that block's hash). Each side gets its own hashes.
 */
import { BlockNames, leafDiffs, normalise, TxNames, type LeafDiff } from './normalise.js'
import type { Answer, Side } from './sides.js'

/** One request of a corpus, with what it answered when it was recorded (if it was). */
export interface Step {
  method: string
  params: unknown[]
  result?: unknown
  error?: { transactionHash?: string; [field: string]: unknown }
  /** What a generated step checks. */
  note?: string
}

/** A step whose answers differ. */
export interface StepDiff {
  corpus: string
  index: number
  method: string
  params: unknown[]
  note?: string
  diffs: LeafDiff[]
  /** Both answers, normalised. */
  answers: { hardhat: Answer; finality: Answer }
}

const SENDS = new Set(['eth_sendTransaction', 'eth_sendRawTransaction'])
const HASH = /^0x[0-9a-fA-F]{64}$/

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** A transaction hash a send's answer names: its result, or its error's (a failed automined send). */
function sentHash(answer: Answer | { result?: unknown; error?: unknown }): string | undefined {
  if ('result' in answer && typeof answer.result === 'string' && HASH.test(answer.result)) return answer.result
  if ('error' in answer && isObject(answer.error)) {
    for (const key of ['transactionHash', 'txHash']) {
      const v = answer.error[key]
      if (typeof v === 'string' && HASH.test(v)) return v
    }
    const data = answer.error.data
    if (isObject(data) && typeof data.txHash === 'string') return data.txHash
    if (isObject(data) && typeof data.transactionHash === 'string') return data.transactionHash
  }
  return undefined
}

/** Recorded block hashes with their numbers, from every block, receipt, transaction or log recorded. */
function recordedBlocks(steps: Step[]): Map<string, bigint> {
  const out = new Map<string, bigint>()
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk)
    if (!isObject(v)) return
    if (typeof v.hash === 'string' && typeof v.number === 'string' && 'parentHash' in v) out.set(v.hash.toLowerCase(), BigInt(v.number))
    if (typeof v.blockHash === 'string' && typeof v.blockNumber === 'string') out.set(v.blockHash.toLowerCase(), BigInt(v.blockNumber))
    Object.values(v).forEach(walk)
  }
  for (const s of steps) walk(s.result)
  return out
}

interface SideRun {
  side: Side
  blocks: BlockNames
  txs: TxNames
  sent: string[]
  /** Ids a method handed out (`snap`: evm_snapshot, `filter`: eth_new*Filter, `sub`: eth_subscribe), in order. */
  ids: Record<IdKind, string[]>
}

type IdKind = 'snap' | 'filter' | 'sub'

/** Methods whose result is an id later steps name (`$snap:i`, `$filter:i`); each node numbers its own. */
const ID_METHODS: Record<string, IdKind> = {
  evm_snapshot: 'snap',
  eth_newFilter: 'filter',
  eth_newBlockFilter: 'filter',
  eth_newPendingTransactionFilter: 'filter',
  eth_subscribe: 'sub',
}

async function head(side: Side): Promise<bigint> {
  const a = await side.request('eth_blockNumber', [])
  if (!('result' in a)) throw new Error(`${side.name}: eth_blockNumber failed: ${JSON.stringify(a)}`)
  return BigInt(a.result as string)
}

async function blockHash(side: Side, tag: string): Promise<string> {
  const a = await side.request('eth_getBlockByNumber', [tag, false])
  const hash = 'result' in a && isObject(a.result) ? a.result.hash : undefined
  return typeof hash === 'string' ? hash : `0x${'ee'.repeat(32)}`
}

/** Runs `steps` on both sides (in this order: Hardhat, then finality); the steps that differ. */
export async function replay(corpus: string, steps: Step[], hardhat: Side, finality: Side): Promise<StepDiff[]> {
  const run = (side: Side): SideRun => ({ side, blocks: new BlockNames(side), txs: new TxNames(), sent: [], ids: { snap: [], filter: [], sub: [] } })
  const runs: [SideRun, SideRun] = [run(hardhat), run(finality)]
  const recordedNumbers = recordedBlocks(steps)
  const recordedSent = new Map<string, number>()
  const recordedIds = new Map<string, number>()
  const idCount: Record<IdKind, number> = { snap: 0, filter: 0, sub: 0 }
  let sends = 0

  /** evm_revert's recorded snapshot id, as this side numbered the same snapshot. */
  function snapshotId(method: string, params: unknown[], run: SideRun): unknown[] {
    if (method !== 'evm_revert' || typeof params[0] !== 'string') return params
    const i = recordedIds.get(`snap ${params[0]}`)
    return i === undefined ? params : [run.ids.snap[i] ?? '0xffff', ...params.slice(1)]
  }

  async function translate(value: unknown, run: SideRun): Promise<unknown> {
    if (Array.isArray(value)) return Promise.all(value.map((v) => translate(v, run)))
    if (isObject(value)) {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(value)) out[k] = await translate(v, run)
      return out
    }
    if (typeof value !== 'string') return value
    const id = /^\$(snap|filter|sub):(-?\d+)$/.exec(value)
    if (id !== null) return run.ids[id[1] as IdKind].at(Number(id[2])) ?? '0xffff'
    const tx = /^\$tx:(-?\d+)$/.exec(value)
    if (tx !== null) {
      const i = Number(tx[1])
      return run.sent.at(i) ?? `0x${'dd'.repeat(32)}`
    }
    const block = /^\$block:(latest|\d+)$/.exec(value)
    if (block !== null) return blockHash(run.side, block[1] === 'latest' ? 'latest' : `0x${BigInt(block[1]!).toString(16)}`)
    if (HASH.test(value)) {
      const sentIndex = recordedSent.get(value.toLowerCase())
      if (sentIndex !== undefined) return run.sent[sentIndex] ?? value
      const number = recordedNumbers.get(value.toLowerCase())
      if (number !== undefined) return blockHash(run.side, `0x${number.toString(16)}`)
    }
    return value
  }

  const out: StepDiff[] = []
  let hardhatHead = await head(hardhat)
  for (const [index, step] of steps.entries()) {
    const params = step.params ?? []
    const hh = await hardhat.request(step.method, snapshotId(step.method, (await translate(params, runs[0])) as unknown[], runs[0]))
    const hardhatAfter = await head(hardhat)
    const finalityParams = snapshotId(step.method, (await translate(params, runs[1])) as unknown[], runs[1])
    if (hardhatAfter > hardhatHead) {
      const mined = await hardhat.request('eth_getBlockByNumber', [`0x${(hardhatHead + 1n).toString(16)}`, false])
      const timestamp = 'result' in mined && isObject(mined.result) ? mined.result.timestamp : undefined
      if (typeof timestamp === 'string') await finality.request('evm_setNextBlockTimestamp', [timestamp])
    }
    hardhatHead = hardhatAfter
    const fi = await finality.request(step.method, finalityParams)

    if (SENDS.has(step.method)) {
      const hashes = [sentHash(hh), sentHash(fi)]
      if (hashes.some((h) => h !== undefined)) {
        runs.forEach((r, i) => {
          const h = hashes[i]
          r.sent[sends] = h ?? ''
          if (h !== undefined) r.txs.set(h, sends)
        })
        const recorded = sentHash(step)
        if (recorded !== undefined) recordedSent.set(recorded.toLowerCase(), sends)
        sends++
      }
    }

    const kind = ID_METHODS[step.method]
    const named: [Answer, Answer] = [hh, fi]
    if (kind !== undefined) {
      const i = idCount[kind]++
      runs.forEach((r, side) => {
        const a = named[side]!
        r.ids[kind][i] = 'result' in a ? String(a.result) : ''
        // Ids are each node's own: compared as the i-th of their kind.
        if ('result' in a) named[side] = { result: `<${kind} ${i}>` }
      })
      if (typeof step.result === 'string') recordedIds.set(`${kind} ${step.result}`, i)
    }

    const [a, b] = [await normalise(named[0], runs[0].blocks, runs[0].txs), await normalise(named[1], runs[1].blocks, runs[1].txs)]
    const diffs = leafDiffs(a, b)
    if (diffs.length > 0) out.push({ corpus, index, method: step.method, params, ...(step.note === undefined ? {} : { note: step.note }), diffs, answers: { hardhat: a as Answer, finality: b as Answer } })
  }
  return out
}
