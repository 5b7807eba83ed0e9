/**
 * A short A/B timing of the default node (one validator, no `cosmos` option) between two source
 * trees: the ETH transfer loop of bench/eth-transfers.ts, run from each tree's sources in its own
 * process, alternating A, B, A, B… so that the machine's load falls on both alike. It is not a
 * benchmark run (the lead runs those): it answers whether a change to code the default node
 * shares with the `cosmos` option (the block builder's hooks, the chain's write hook, the
 * genesis) moved the default node.
 *
 *   npx tsx bench/ab-default-node.ts [treeA=.] [treeB=/work/main] [rounds=4] [n=500]
 *
 * Prints each round and the median of each tree: transfers per second and the main thread's
 * CPU per transfer (the steadier of the two on a shared machine).
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'

const [a = '.', b = '/work/main', roundsArg = '4', nArg = '500'] = process.argv.slice(2)
const rounds = Number(roundsArg)
const n = Number(nArg)
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(n) || n < 1) throw new Error('usage: ab-default-node.ts [treeA] [treeB] [rounds] [n]')

interface Round { txPerSec: number; mainUsPerTx: number }

function run(tree: string): Round {
  const root = path.resolve(tree)
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/eth-transfers.ts')], {
    cwd: root,
    env: { ...process.env, BENCH_SOURCE: 'src', BENCH_N: String(n), BENCH_PROFILE: '' },
    encoding: 'utf8',
  })
  const tx = /([\d.]+) tx\/s/.exec(out)
  const main = /main thread (\d+) µs\/tx/.exec(out)
  if (tx === null || main === null) throw new Error(`unexpected output from ${root}: ${out}`)
  return { txPerSec: Number(tx[1]), mainUsPerTx: Number(main[1]) }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((x, y) => x - y)
  const m = s.length >> 1
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const results: Record<'A' | 'B', Round[]> = { A: [], B: [] }
for (let i = 0; i < rounds; i++) {
  // Alternate which goes first, so neither always runs on a warmer (or busier) machine.
  const order: Array<['A' | 'B', string]> = i % 2 === 0 ? [['A', a], ['B', b]] : [['B', b], ['A', a]]
  for (const [label, tree] of order) {
    const r = run(tree)
    results[label].push(r)
    console.log(`round ${i + 1} ${label}: ${r.txPerSec.toFixed(1)} tx/s, main thread ${r.mainUsPerTx} µs/tx`)
  }
}
for (const label of ['A', 'B'] as const) {
  const rs = results[label]
  console.log(`${label} (${label === 'A' ? a : b}): median ${median(rs.map((r) => r.txPerSec)).toFixed(1)} tx/s, main thread ${median(rs.map((r) => r.mainUsPerTx))} µs/tx`)
}
