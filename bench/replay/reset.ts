/**
 * One `hardhat_reset` of a recorded suite, measured on the chain the suite had built when it sent
 * it: replays the requests since the reset before it (the suite starts a fresh chain after each
 * reset, so the same requests build the same chain again), then the reset, `rounds` times in one
 * process, and prints the reset's process CPU and main-thread CPU (Linux schedstat) per round,
 * their medians over the rounds after the first `warm` ones, and the head after the last round.
 * The segment's snapshot ids are translated: after a reset the recording's ids start at 1 again
 * (Hardhat 2 made a new provider).
 *
 *   npx tsup && taskset -c 0 npx tsx bench/replay/reset.ts <seaport.jsonl.gz> 11 [rounds=12] [warm=2]
 *
 * `BENCH_DIST=<dir>` loads another build (inside the repository: `.scratch/`). `BENCH_PROFILE=<dir>`
 * profiles the resets alone (the profiler runs only around each reset, sampling every 50 µs) and
 * writes each measured round's profile there, which `bench/cpuprofile-top.ts <dir>` adds up.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Session } from 'node:inspector/promises'
import { scenarioNode } from './scenario-node.js'

const [file, nthArg = '1', roundsArg = '12', warmArg = '2'] = process.argv.slice(2)
if (file === undefined) throw new Error('usage: reset.ts <scenario.jsonl.gz> [nth reset=1] [rounds=12] [warm=2]')
const nth = Number(nthArg)
const rounds = Number(roundsArg)
const warm = Number(warmArg)
const { node, requests } = await scenarioNode(file)
const resets = requests.flatMap((r, i) => (r.method === 'hardhat_reset' ? [i] : []))
const at = resets[nth - 1]
if (at === undefined) throw new Error(`the scenario has ${resets.length} hardhat_reset requests, not ${nth}`)
const from = nth === 1 ? 0 : (resets[nth - 2] as number) + 1
const segment = requests.slice(from, at)
const reset = requests[at] as { method: string; params?: unknown[] }

const mainNs = (): number => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0])
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

const profile = process.env.BENCH_PROFILE
const session = profile === undefined ? undefined : new Session()
if (session !== undefined) {
  mkdirSync(profile as string, { recursive: true })
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 50 })
}

async function replaySegment(): Promise<bigint> {
  const ids = new Map<string, unknown>()
  let snapshots = 0
  for (const r of segment) {
    if (r.method === 'evm_snapshot') {
      ids.set(`0x${(++snapshots).toString(16)}`, await node.request(r).catch(() => undefined))
      continue
    }
    if (r.method === 'evm_revert') {
      const id = ids.get(String(r.params?.[0]))
      await node.request({ method: r.method, params: [id ?? r.params?.[0]] }).catch(() => {})
      continue
    }
    await node.request(r).catch(() => {})
  }
  return BigInt((await node.request({ method: 'eth_blockNumber', params: [] })) as string)
}

const cpu: number[] = []
const main: number[] = []
let height = 0n
for (let round = 0; round < rounds; round++) {
  height = await replaySegment()
  if (session !== undefined) await session.post('Profiler.start')
  const c0 = process.cpuUsage()
  const m0 = mainNs()
  await node.request(reset)
  const m = (mainNs() - m0) / 1e6
  const c = process.cpuUsage(c0)
  if (session !== undefined) {
    const { profile: p } = await session.post('Profiler.stop')
    if (round >= warm) writeFileSync(path.join(profile as string, `reset-${round}.cpuprofile`), JSON.stringify(p))
  }
  cpu.push((c.user + c.system) / 1000)
  main.push(m)
}
const head = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { number: string; hash: string; stateRoot: string }
await node.close()
const kept = (xs: number[]) => xs.slice(warm)
console.log(`hardhat_reset #${nth} after ${height} blocks (${segment.length} requests): process CPU ms ${cpu.map((x) => x.toFixed(2)).join(' ')}`)
console.log(`  main thread ms ${main.map((x) => x.toFixed(2)).join(' ')}`)
console.log(`  medians after ${warm} rounds: process ${median(kept(cpu)).toFixed(3)} ms, main thread ${median(kept(main)).toFixed(3)} ms; head ${BigInt(head.number)} ${head.hash} root ${head.stateRoot}`)
