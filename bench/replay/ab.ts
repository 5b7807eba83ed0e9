/**
 * Two builds of finality on one recorded suite, alternating: the figure a change's commit
 * message quotes. Runs EDR once to learn its id-giving answers (as `bench/replay.ts` does, so
 * both builds translate snapshot ids and hashes alike), then `runs` fresh processes of each
 * build, A, B, A, B, …, each pinned to one core with the wall clock frozen at the recorded
 * genesis time (libfaketime, `replay/clock.ts`), and prints each run's CPU time (all threads,
 * provider creation to the last answer), the medians, and the per-method CPU medians that moved.
 *
 *   npx tsx bench/replay/ab.ts <suite> <dist A> <dist B> [runs=5]
 *
 * `<suite>` is part of a scenario's name (`safe`, `openzeppelin`); `<dist …>` a build's `dist/`
 * folder inside this repository (a copy elsewhere loads without the native secp256k1: keep A/B
 * copies in the git-ignored `.scratch/`). `FINALITY_REPLAY_SCENARIOS` as for the replay;
 * `BENCH_CONTESTANTS_DIR` where `@nomicfoundation/edr` is installed (default bench/contestants);
 * `BENCH_AB_CORE` the core to pin to (default 0); `BENCH_REPLAY_CLOCK=wall` runs on the wall clock
 * (no libfaketime needed; the suites' timestamps then follow each run's pace, as in the replay's
 * default). Where Linux's schedstat is readable each run also shows its main thread's share.
 * `BENCH_AB_FLAGS_A` / `BENCH_AB_FLAGS_B`: node flags for that side's processes, space-separated
 * (`--max-inlined-bytecode-size=920`), so one build can be compared with itself under V8 flags;
 * `BENCH_AB_KEEP=<dir>` leaves the bundled runner, the job files, EDR's ids and the frozen clock's
 * environment (`env.json`) there, for runs by hand
 * (`taskset -c 0 node <dir>/runner.mjs <scenario> finality <dir>/A.job.json`).
 * `BENCH_REPLAY_NODES` (default `current`; `current,24`, `22`): the Node versions the processes
 * run under, as for the replay (`replay/nodes.ts`); the whole comparison, EDR's ids included, is
 * made under each in turn.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { runChild } from '../child.js'
import { knownOptions, median, perMethodLines } from './report.js'
import type { Job, ReplayResult } from './runner.js'
import { replayRunner, suiteSetup } from './suite-setup.js'

const [suite, distA, distB, runsArg = '5'] = process.argv.slice(2)
if (suite === undefined || distA === undefined || distB === undefined) throw new Error('usage: ab.ts <suite> <dist A> <dist B> [runs=5]')
const runs = Number(runsArg)
if (!Number.isInteger(runs) || runs < 1) throw new Error(`bad runs ${runsArg}: a positive integer`)
const setup = suiteSetup('ab.ts', suite, 'frozen')
const { root: ROOT, core, contestantsDir, scenario, clock } = setup

const flags = (name: string): string[] => (process.env[name] ?? '').split(' ').filter((f) => f !== '')
const nodeFlags = { A: flags('BENCH_AB_FLAGS_A'), B: flags('BENCH_AB_FLAGS_B'), edr: [] as string[] }
const keep = process.env.BENCH_AB_KEEP
const tmp = keep === undefined || keep === '' ? mkdtempSync(path.join(os.tmpdir(), 'finality-ab-')) : path.resolve(keep)
mkdirSync(tmp, { recursive: true })
try {
  const { bundle, clockEnv, wanted } = await replayRunner(setup, tmp)
  if (keep !== undefined && keep !== '') writeFileSync(path.join(tmp, 'env.json'), JSON.stringify(clockEnv))
  const urlA = pathToFileURL(path.resolve(distA, 'index.js')).href
  const urlB = pathToFileURL(path.resolve(distB, 'index.js')).href
  const knownA = await knownOptions(urlA, wanted)
  const knownB = await knownOptions(urlB, wanted)
  for (const node of setup.nodes) {
    const run = (contestant: 'finality' | 'edr', job: Job, label: 'A' | 'B' | 'edr'): Promise<ReplayResult> => {
      const jobFile = path.join(tmp, `${label}.job.json`)
      writeFileSync(jobFile, JSON.stringify(job))
      return runChild<ReplayResult>({
        argv: ['taskset', '-c', core, node.bin, ...nodeFlags[label], bundle, scenario.file, contestant, jobFile],
        resultPrefix: 'REPLAY_RESULT',
        timeoutMs: 30 * 60_000,
        label: `${scenario.name} on ${label} (node ${node.version})`,
        env: clockEnv,
      })
    }
    if (setup.nodes.length > 1) console.log(`node ${node.version} (${node.from}):`)
    const idsFile = path.join(tmp, 'edr-ids.json')
    await run('edr', { root: ROOT, finalityUrl: urlA, contestantsDir, knownOptions: knownA, writeIdsTo: idsFile, clock }, 'edr')
    const edrIds = JSON.parse(readFileSync(idsFile, 'utf8')) as Record<string, string>
    const sides = { A: { url: urlA, known: knownA, results: [] as ReplayResult[] }, B: { url: urlB, known: knownB, results: [] as ReplayResult[] } }
    for (let i = 0; i < runs; i++) {
      for (const name of ['A', 'B'] as const) {
        const side = sides[name]
        const r = await run('finality', { root: ROOT, finalityUrl: side.url, contestantsDir, knownOptions: side.known, edrIds, clock }, name)
        side.results.push(r)
        const main = r.mainCpuMs === undefined ? '' : ` (main thread ${r.mainCpuMs.toFixed(0)}, other threads ${(r.cpuMs - r.mainCpuMs).toFixed(0)})`
        console.log(`${name} run ${i + 1}: CPU ${r.cpuMs.toFixed(0)} ms${main}, wall ${r.wallMs.toFixed(0)} ms, create ${r.createMs.toFixed(0)} ms (CPU ${r.createCpuMs?.toFixed(0)}, main thread ${r.createMainCpuMs?.toFixed(0)}), ${r.failures.length} failing`)
      }
    }
    const cpu = (side: { results: ReplayResult[] }) => median(side.results.map((r) => r.cpuMs))
    const a = cpu(sides.A)
    const b = cpu(sides.B)
    console.log(`${scenario.name}, ${runs} runs each, core ${core}, node ${node.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(', ')}`)
    console.log(`CPU median: A ${a.toFixed(0)} ms, B ${b.toFixed(0)} ms (B/A ${(b / a).toFixed(3)})`)
    const mains = (side: { results: ReplayResult[] }) => side.results.flatMap((r) => (r.mainCpuMs === undefined ? [] : [r.mainCpuMs]))
    if (mains(sides.A).length === runs && mains(sides.B).length === runs) {
      console.log(`main thread median: A ${median(mains(sides.A)).toFixed(0)} ms, B ${median(mains(sides.B)).toFixed(0)} ms`)
    }
    for (const line of perMethodLines(sides.A.results.map((r) => r.perMethod), sides.B.results.map((r) => r.perMethod))) console.log(line)
  }
} finally {
  if (keep === undefined || keep === '') rmSync(tmp, { recursive: true, force: true })
}
