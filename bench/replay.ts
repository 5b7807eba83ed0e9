/**
 * Real suites: EDR's recorded request streams replayed against finality and EDR.
 *
 *   npm run bench:replay                          every scenario found, 2 cores and 1 core
 *   BENCH_KINDS=replay npm run bench              the same, as a group of `npm run bench`
 *   FINALITY_REPLAY_SCENARIOS=<dir>               where the scenario files are (default bench/.scenarios)
 *   BENCH_REPLAY=safe,seaport                     only scenarios whose name contains one of these
 *   BENCH_REPLAY_CORES=2                          2 (both cores), 1 (`taskset -c 1`) or 2,1 (default)
 *   BENCH_REPS=5                                  repetitions (default 3; BENCH_QUICK=1: 1)
 *   BENCH_REPLAY_EDR=hardhat                      EDR as Hardhat 2's in-process network instead of
 *                                                 `@nomicfoundation/edr` alone (the default, `edr`)
 *   BENCH_REPLAY_PER_REQUEST=/tmp/r               each run writes its requests' CPU µs to
 *                                                 /tmp/r-<contestant>-<pid>.json (bench/replay/per-request.ts compares them)
 *   BENCH_REPLAY_CLOCK=frozen                     both processes' wall clock stopped at the recorded
 *                                                 genesis time by libfaketime (replay/clock.ts), so
 *                                                 the chains' times do not depend on the replay's
 *                                                 speed; default `wall`
 *   BENCH_REPLAY_NODES=current,24                 the Node versions the replay's processes run under
 *                                                 (default `current,24`: the running one and the
 *                                                 active LTS; `20,22,24`): `current` and the majors
 *                                                 bench/nodes pins, each installed there from the npm
 *                                                 registry on first use (replay/nodes.ts); a table each
 *
 * The scenario files are EDR's `js/benchmark/scenarios` (MIT-licensed, not in this repository):
 * `<suite>.jsonl.gz` files and `snapshot.json`. Each run is a fresh process (`replay/runner.ts`),
 * EDR and finality alternating; the table shows medians of wall and CPU time from provider
 * creation to the last answer, and whether finality fails exactly the requests EDR's snapshot
 * says fail. EDR is `@nomicfoundation/edr` (the version bench/contestants pins, installed by the
 * contest's `ensureContestants`) through its own N-API provider, the recorded config line passed
 * as its provider config; or, with `BENCH_REPLAY_EDR=hardhat`, Hardhat 2's in-process network
 * (`createHardhatNetworkProvider`, the EDR Hardhat 2 ships), as EDR's own benchmark replays them.
 * Each Node version replays every suite, EDR and finality under the same one, the versions
 * alternating within a repetition; the report has a section per version. Under Node 20 the
 * default's second version (24) doubles the replay's time, plus its install the first time
 * (docs/performance.md, "Under several Node versions").
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Job, ReplayResult } from './replay/runner.js'
import { finalityOptions, genesisTimeMs, listScenarios, loadScenario, loadSnapshot, scenariosDir, type ScenarioFile } from './replay/scenario.js'
import { findLibfaketime, frozenClockEnv, parseReplayClock } from './replay/clock.js'
import { knownOptions, renderReport, type Runs } from './replay/report.js'
import { ensureContestants } from './contest/install.js'
import { choiceName, DEFAULT_NODES, ensureReplayNodes, parseReplayNodes, pinnedMajors, type ReplayNode } from './replay/nodes.js'
import { bundleChildren, runChild } from './child.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = path.join(ROOT, 'dist', 'index.js')
const CHILD_TIMEOUT_MS = 30 * 60_000

const log = (message: string): void => {
  process.stderr.write(`[replay] ${message}\n`)
}

function runScenario(node: ReplayNode, bundle: string, scenario: ScenarioFile, contestant: 'finality' | 'edr' | 'hardhat', jobFile: string, pinned: boolean, clockEnv: Record<string, string>): Promise<ReplayResult> {
  const argv = [node.bin, bundle, scenario.file, contestant, jobFile]
  return runChild<ReplayResult>({
    argv: pinned ? ['taskset', '-c', '1', ...argv] : argv,
    resultPrefix: 'REPLAY_RESULT',
    timeoutMs: CHILD_TIMEOUT_MS,
    label: `${scenario.name} on ${contestant} (node ${node.version})`,
    env: clockEnv,
  })
}

/** Runs the replay group and prints its report; false when there is nothing to replay. */
export async function runReplay(): Promise<boolean> {
  const dir = scenariosDir(ROOT)
  const { scenarios: all, skipped } = listScenarios(dir)
  if (all.length === 0) {
    log(`skipped: no scenarios in ${dir}; put EDR's js/benchmark/scenarios files there (*.jsonl.gz and snapshot.json, MIT-licensed) or point FINALITY_REPLAY_SCENARIOS at them`)
    return false
  }
  if (skipped.length > 0) log(`not gzip (Git LFS pointers?), left out: ${skipped.join(', ')}`)
  const filter = (process.env.BENCH_REPLAY ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')
  const scenarios = filter.length === 0 ? all : all.filter((s) => filter.some((f) => s.name.includes(f)))
  if (scenarios.length === 0) throw new Error(`BENCH_REPLAY=${process.env.BENCH_REPLAY} matches none of ${all.map((s) => s.name).join(', ')}`)
  const quick = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true'
  const reps = process.env.BENCH_REPS !== undefined ? Number(process.env.BENCH_REPS) : quick ? 1 : 3
  if (!Number.isInteger(reps) || reps < 1) throw new Error(`bad BENCH_REPS ${process.env.BENCH_REPS}`)
  const cores = (process.env.BENCH_REPLAY_CORES ?? '2,1').split(',').map((c) => c.trim())
  for (const c of cores) if (c !== '1' && c !== '2') throw new Error(`bad BENCH_REPLAY_CORES entry ${c}: 2 or 1`)
  if (cores.includes('1') && spawnSync('taskset', ['-c', '1', 'true']).status !== 0) throw new Error('BENCH_REPLAY_CORES=1 needs taskset (util-linux)')
  const nodeChoices = parseReplayNodes(process.env.BENCH_REPLAY_NODES, DEFAULT_NODES, process.version, pinnedMajors())
  if (!existsSync(DIST)) throw new Error('dist/index.js not found: run `npm run build` first (`npm run bench:replay` builds)')
  const snapshot = loadSnapshot(dir)
  const which = process.env.BENCH_REPLAY_EDR ?? 'edr'
  if (which !== 'edr' && which !== 'hardhat') throw new Error(`bad BENCH_REPLAY_EDR ${which}: edr or hardhat`)
  const clock = parseReplayClock(process.env.BENCH_REPLAY_CLOCK)
  const faketime = clock === 'frozen' ? findLibfaketime() : undefined
  if (clock === 'frozen' && faketime === undefined) throw new Error('BENCH_REPLAY_CLOCK=frozen needs libfaketime (Debian: apt-get install libfaketime; or FINALITY_LIBFAKETIME=<path of libfaketimeMT.so.1>)')
  const installed = ensureContestants(log)
  if ('unavailable' in installed) throw new Error(`the replay needs EDR: ${installed.unavailable}`)
  log(`under ${nodeChoices.map(choiceName).join(', ')} (BENCH_REPLAY_NODES, default ${DEFAULT_NODES})`)
  const nodes = ensureReplayNodes(nodeChoices, log)
  const reference = which === 'edr' ? `@nomicfoundation/edr ${installed.edrVersion} (its own provider, no Hardhat layer)` : "EDR as Hardhat 2's in-process network"

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'finality-replay-'))
  try {
    await bundleChildren({ runner: path.join(ROOT, 'bench/replay/runner.ts') }, tmp)
    const bundle = path.join(tmp, 'runner.mjs')
    const finalityUrl = pathToFileURL(DIST).href
    const { privateKeyToAddress } = await import('viem/accounts')
    const configs = new Map(scenarios.map((s) => [s.name, loadScenario(s.file).config]))
    const wanted = Object.fromEntries(scenarios.flatMap((s) => Object.entries(finalityOptions(configs.get(s.name)!, privateKeyToAddress))))
    const known = await knownOptions(finalityUrl, wanted)
    const runs: Runs = {}
    for (let rep = 1; rep <= reps; rep++) {
      for (const s of scenarios) {
        for (const core of cores) {
          // Without a recorded genesis time, frozen where the replay began.
          const clockEnv = faketime === undefined ? {} : frozenClockEnv(faketime, genesisTimeMs(configs.get(s.name)!) ?? Date.now())
          const where = core === '1' ? '1 core' : '2 cores'
          for (const node of nodes) {
            const key = `${node.version}|${s.name}|${core}`
            const entry = (runs[key] ??= { node: node.version, scenario: s.name, cores: core, edr: [], finality: [] })
            const idsFile = path.join(tmp, `${s.name}.${node.version}.edr-ids.json`)
            const edrJob: Job = { root: ROOT, finalityUrl, contestantsDir: installed.contestantsDir, knownOptions: known, writeIdsTo: idsFile, clock }
            const edrJobFile = path.join(tmp, `${s.name}.edr-job.json`)
            writeFileSync(edrJobFile, JSON.stringify(edrJob))
            log(`repetition ${rep}/${reps}, ${where}, node ${node.version}: ${s.name} on EDR`)
            entry.edr.push(await runScenario(node, bundle, s, which, edrJobFile, core === '1', clockEnv))
            const finJob: Job = { root: ROOT, finalityUrl, contestantsDir: installed.contestantsDir, knownOptions: known, edrIds: JSON.parse(readFileSync(idsFile, 'utf8')) as Record<string, string>, clock }
            const finJobFile = path.join(tmp, `${s.name}.finality-job.json`)
            writeFileSync(finJobFile, JSON.stringify(finJob))
            log(`repetition ${rep}/${reps}, ${where}, node ${node.version}: ${s.name} on finality`)
            entry.finality.push(await runScenario(node, bundle, s, 'finality', finJobFile, core === '1', clockEnv))
          }
        }
      }
    }
    const load = os.loadavg().map((l) => l.toFixed(1)).join(', ')
    console.log()
    console.log(renderReport({ runs, snapshot, reps, known, load, scenarios: scenarios.map((s) => s.name), dir, reference, clock, nodes }))
    return true
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await runReplay()
