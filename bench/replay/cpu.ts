/**
 * One request of a recorded suite, repeated without a profiler: replays the scenario up to the
 * `nth` request of `method` on a build, repeats it 300 times to warm up, then `times` times, and
 * prints the process CPU a request and the head block's state root and hash afterwards. Two
 * builds that make the same blocks print the same head, so alternated runs of two builds (A, B,
 * A, B, …) compare both the cost and the blocks.
 *
 *   npx tsx bench/replay/cpu.ts <scenario.jsonl.gz> hardhat_mine 200 3000
 *
 * `BENCH_DIST=<dir>` loads another build (inside the repository: `.scratch/`, see
 * docs/performance.md "Measuring traps"). Pin it to a core (`taskset -c 1`). A repeated send goes
 * again as recorded (the next nonce); the first error is printed after the figure.
 */
import path from 'node:path'
import { scenarioNode } from './scenario-node.js'

const [file, method, nth = '1', times = '1000'] = process.argv.slice(2)
if (file === undefined || method === undefined) throw new Error('usage: cpu.ts <scenario.jsonl.gz> <method> [nth=1] [times=1000]')
const { root, distDir, node, requests } = await scenarioNode(file)
let seen = 0
let target: unknown
for (const r of requests) {
  if (r.method === method && ++seen === Number(nth)) {
    target = r
    break
  }
  await node.request(r).catch(() => {})
}
if (target === undefined) throw new Error(`the scenario has ${seen} ${method} requests, not ${nth}`)
let failure: unknown
const once = () => node.request(target).catch((e: unknown) => void (failure ??= e))
for (let i = 0; i < 300; i++) await once()
const n = Number(times)
const cpu0 = process.cpuUsage()
for (let i = 0; i < n; i++) await once()
const cpu = process.cpuUsage(cpu0)
const head = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { number: string; hash: string; stateRoot: string }
console.log(
  `${method} #${nth} (${path.relative(root, distDir)}): ${((cpu.user + cpu.system) / n).toFixed(1)} µs CPU a request (${n}); ` +
    `head ${BigInt(head.number)} ${head.hash}, state root ${head.stateRoot}`,
)
if (failure !== undefined) console.log(`  the request failed: ${String((failure as Error).message ?? failure).slice(0, 200)}`)
await node.close()
