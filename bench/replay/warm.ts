/**
 * A suite's warm cost: each process replays the recorded stream `passes` times, each later pass
 * on a fresh provider of the same contestant in the same process (runner's `passes`), so it runs
 * on code the passes before compiled and optimised. Alternates finality and EDR processes
 * (`runs` of each), pinned to one core with the clock frozen at the recorded genesis time (as
 * `ab.ts`), and prints each pass's CPU (all threads) and main thread, their medians,
 * finality's ratio to EDR's same pass, and per pass the methods whose CPU medians are furthest
 * from EDR's (the same table as `ab.ts`'s).
 *
 *   npx tsx bench/replay/warm.ts <suite> [dist=dist] [runs=3] [passes=3]
 *
 * `<suite>` is part of a scenario's name (`safe`); `<dist>` a build's `dist/` inside this
 * repository. `BENCH_AB_CORE`, `BENCH_CONTESTANTS_DIR`, `BENCH_REPLAY_CLOCK` and
 * `BENCH_REPLAY_NODES` (default `current`; each Node in turn) as for `ab.ts`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { runChild } from '../child.js'
import { knownOptions, median, type PerMethod, perMethodLines } from './report.js'
import type { Job, ReplayResult } from './runner.js'
import { replayRunner, suiteSetup } from './suite-setup.js'

const [suite, dist = 'dist', runsArg = '3', passesArg = '3'] = process.argv.slice(2)
if (suite === undefined) throw new Error('usage: warm.ts <suite> [dist=dist] [runs=3] [passes=3]')
const runs = Number(runsArg)
if (!Number.isInteger(runs) || runs < 1) throw new Error(`bad runs ${runsArg}: a positive integer`)
const passes = Number(passesArg)
if (!Number.isInteger(passes) || passes < 2) throw new Error(`bad passes ${passesArg}: an integer of 2 or more`)
const setup = suiteSetup('warm.ts', suite, 'frozen')
const { root: ROOT, core, contestantsDir, scenario, clock } = setup

/** One process's passes in order: CPU (all threads), main thread and per-method CPU of each. */
type Passes = Array<{ cpu: number; main: number | undefined; perMethod: PerMethod }>

function passesOf(r: ReplayResult): Passes {
  const later = r.laterPasses ?? []
  if (later.length !== passes - 1) throw new Error(`the runner answered ${later.length + 1} passes, not ${passes}: a runner without \`passes\`?`)
  for (const p of later) if (p.failures.length !== r.failures.length) throw new Error(`a later pass failed ${p.failures.length} requests, the first ${r.failures.length}`)
  return [{ cpu: r.cpuMs, main: r.mainCpuMs, perMethod: r.perMethod }, ...later.map((p) => ({ cpu: p.cpuMs, main: p.mainCpuMs, perMethod: p.perMethod }))]
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'finality-warm-'))
try {
  const { bundle, clockEnv, wanted } = await replayRunner(setup, tmp)
  const url = pathToFileURL(path.resolve(dist, 'index.js')).href
  const known = await knownOptions(url, wanted)
  for (const node of setup.nodes) {
    const run = (contestant: 'finality' | 'edr', job: Job): Promise<ReplayResult> => {
      const jobFile = path.join(tmp, `${contestant}.job.json`)
      writeFileSync(jobFile, JSON.stringify(job))
      return runChild<ReplayResult>({
        argv: ['taskset', '-c', core, node.bin, bundle, scenario.file, contestant, jobFile],
        resultPrefix: 'REPLAY_RESULT',
        timeoutMs: 30 * 60_000,
        label: `${scenario.name} on ${contestant} (node ${node.version})`,
        env: clockEnv,
      })
    }
    if (setup.nodes.length > 1) console.log(`node ${node.version} (${node.from}):`)
    const base = { root: ROOT, finalityUrl: url, contestantsDir, knownOptions: known, clock, passes } satisfies Job
    const idsFile = path.join(tmp, 'edr-ids.json')
    // EDR's first process also gives the ids finality's runs translate with; it counts as a run.
    const results = { finality: [] as Passes[], edr: [passesOf(await run('edr', { ...base, writeIdsTo: idsFile }))] }
    const edrIds = JSON.parse(readFileSync(idsFile, 'utf8')) as Record<string, string>
    const show = (name: string, i: number, p: Passes) => {
      const main = (x: { cpu: number; main: number | undefined }) => (x.main === undefined ? '' : ` (main ${x.main.toFixed(0)})`)
      console.log(`${name} run ${i + 1}: ${p.map((x, n) => `pass ${n + 1} ${x.cpu.toFixed(0)} ms${main(x)}`).join(', ')}`)
    }
    show('edr', 0, results.edr[0]!)
    for (let i = 0; i < runs; i++) {
      const f = passesOf(await run('finality', { ...base, edrIds }))
      results.finality.push(f)
      show('finality', i, f)
      if (i + 1 < runs) {
        const e = passesOf(await run('edr', base))
        results.edr.push(e)
        show('edr', i + 1, e)
      }
    }
    const med = (ps: Passes[], pass: number, what: 'cpu' | 'main'): number => median(ps.map((p) => p[pass]![what] ?? Number.NaN))
    console.log(`${scenario.name}, ${runs} processes each, core ${core}, node ${node.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(', ')}; CPU medians, ms (main thread):`)
    for (let pass = 0; pass < passes; pass++) {
      const f = med(results.finality, pass, 'cpu')
      const e = med(results.edr, pass, 'cpu')
      console.log(`  pass ${pass + 1}: finality ${f.toFixed(0)} (${med(results.finality, pass, 'main').toFixed(0)}), EDR ${e.toFixed(0)} (${med(results.edr, pass, 'main').toFixed(0)}), finality/EDR ${(f / e).toFixed(2)}x`)
    }
    for (let pass = 0; pass < passes; pass++) {
      console.log(`pass ${pass + 1}, the methods furthest from EDR's (CPU medians, all threads):`)
      const of = (ps: Passes[]) => ps.map((p) => p[pass]!.perMethod)
      for (const line of perMethodLines(of(results.edr), of(results.finality), ['EDR', 'finality'], 6)) console.log(line)
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
