/**
 * The state root's share of a block, measured inside the node: the wall time of each
 * `StateTrie.prepare` (the block's diff written into path copies of the tries and hashed) and
 * `StateTrie.adopt` (the result kept as the head), for the first ETH transfers of a fresh
 * process (one block each), then for `hardhat_mine` of 10,000 empty blocks on a fresh node.
 * Medians per block: the median stays put on a loaded machine where a whole-process figure
 * swings by tens of microseconds. Runs the sources (it wraps a class the build does not export).
 *
 *   BENCH_SOURCE=src npx tsx bench/state-root.ts     (BENCH_N: transfers, default 1000; BENCH_MINE: blocks, default 10000)
 */
import { benchEthTransfers } from './cases.js'
import { MEASURED, createNode } from './finality.js'
import { median } from './util.js'
import { StateTrie } from '../src/state/state-trie.js'

if (MEASURED !== 'src') throw new Error('bench/state-root.ts wraps the sources\' StateTrie: run it with BENCH_SOURCE=src')

const n = Number(process.env.BENCH_N ?? 1000)
const blocks = Number(process.env.BENCH_MINE ?? 10_000)
if (!Number.isInteger(n) || n < 1 || !Number.isInteger(blocks) || blocks < 1) throw new Error('bad BENCH_N or BENCH_MINE')

const prepares: number[] = []
const adopts: number[] = []
const { prepare, adopt } = StateTrie.prototype
StateTrie.prototype.prepare = async function (this: StateTrie, ...args: Parameters<StateTrie['prepare']>) {
  const t = performance.now()
  const out = await prepare.apply(this, args)
  prepares.push(performance.now() - t)
  return out
}
StateTrie.prototype.adopt = function (this: StateTrie, ...args: Parameters<StateTrie['adopt']>) {
  const t = performance.now()
  adopt.apply(this, args)
  adopts.push(performance.now() - t)
}

/** Median µs of the calls recorded since `from`. */
const since = (from: { p: number; a: number }) => ({
  prepare: median(prepares.slice(from.p)) * 1000,
  adopt: median(adopts.slice(from.a)) * 1000,
  count: prepares.length - from.p,
})
const mark = () => ({ p: prepares.length, a: adopts.length })

const eth = await createNode()
let from = mark()
try {
  await benchEthTransfers(eth, n)
} finally {
  await eth.close()
}
const transfers = since(from)
console.log(`first ${n} ETH transfers: prepare ${transfers.prepare.toFixed(1)} µs, adopt ${transfers.adopt.toFixed(1)} µs a block (medians of ${transfers.count} blocks)`)

const mine = await createNode()
try {
  await mine.request({ method: 'hardhat_mine', params: ['0x10'] })
  from = mark()
  await mine.request({ method: 'hardhat_mine', params: [`0x${blocks.toString(16)}`] })
} finally {
  await mine.close()
}
const empty = since(from)
console.log(`hardhat_mine ${blocks}: prepare ${empty.prepare.toFixed(1)} µs, adopt ${empty.adopt.toFixed(1)} µs a block (medians of ${empty.count} blocks)`)
