/**
 * One request of a recorded suite, repeated under the profiler: replays the scenario up to the
 * `nth` request of `method` (on the build in dist/), runs it 30 times to warm up, then `times`
 * times profiled, and prints its mean time. The profile goes to `BENCH_PROFILE` (default
 * /tmp/replay-repeat.cpuprofile); read it with `npx tsx bench/cpuprofile-top.ts <file> 40`.
 *
 *   npx tsup && npx tsx bench/replay/repeat.ts <scenario.jsonl.gz> eth_estimateGas 3 100
 *
 * A repeated send is sent again as recorded (the next nonce), so it measures the same work on a
 * slightly later state. On a loaded machine the sampler's intervals stretch and a few samples can
 * carry most of the time: compare sample counts, or measure at a quiet moment.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { privateKeyToAddress } from 'viem/accounts'
import { finalityOptions, loadScenario } from './scenario.js'

const [file, method, nth = '1', times = '200'] = process.argv.slice(2)
if (file === undefined || method === undefined) throw new Error('usage: repeat.ts <scenario.jsonl.gz> <method> [nth=1] [times=200]')
const dist = pathToFileURL(path.join(fileURLToPath(new URL('../..', import.meta.url)), 'dist', 'index.js')).href
const { createNode } = (await import(dist)) as { createNode(o: unknown): Promise<{ request(r: unknown): Promise<unknown>; close(): Promise<void> }> }
const { config, requests } = loadScenario(file)
const node = await createNode(finalityOptions(config, privateKeyToAddress))
let seen = 0
let done = false
for (const r of requests) {
  if (r.method === method && ++seen === Number(nth)) {
    for (let i = 0; i < 30; i++) await node.request(r).catch(() => {})
    const session = new Session()
    session.connect()
    await session.post('Profiler.enable')
    await session.post('Profiler.start')
    const t = performance.now()
    for (let i = 0; i < Number(times); i++) await node.request(r).catch(() => {})
    const ms = (performance.now() - t) / Number(times)
    const { profile } = await session.post('Profiler.stop')
    const out = process.env.BENCH_PROFILE ?? '/tmp/replay-repeat.cpuprofile'
    writeFileSync(out, JSON.stringify(profile))
    console.log(`${method} #${nth}: ${ms.toFixed(3)} ms each over ${times} (profile: ${out})`)
    done = true
    break
  }
  await node.request(r).catch(() => {})
}
await node.close()
if (!done) throw new Error(`the scenario has ${seen} ${method} requests, not ${nth}`)
