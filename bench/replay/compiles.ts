/**
 * V8's optimising compiles and deoptimisations in one replay of a recorded suite on one build:
 * runs EDR once for its id-giving answers (as `ab.ts` does), then one fresh finality process
 * pinned to one core under `--trace-opt --trace-deopt`, and prints the functions compiled more
 * than once (a deopt or an invalidation each time), by summed compile time, and the deopts by
 * function and reason. The tracing itself slows the run: its CPU figure is not the suite's.
 *
 *   npx tsx bench/replay/compiles.ts <suite> [dist=dist] [top=30]
 *
 * `<suite>` is part of a scenario's name (`safe`, `openzeppelin`); `<dist>` a build's `dist/`
 * inside this repository. `BENCH_AB_CORE` the core to pin to (default 0); the clock is the wall
 * clock (`BENCH_REPLAY_CLOCK=frozen` with libfaketime as in `ab.ts`). `BENCH_TRACE_OUT=<file>`
 * keeps the raw trace; `BENCH_TRACE_FLAGS` adds node flags (e.g. `--trace-deopt-verbose`).
 * `BENCH_REPLAY_PASSES=<n>` replays the stream n times in the one process, each on a fresh node
 * (the runner's `passes`), and prints each pass's counts too: what a warm process still compiles.
 * `BENCH_REPLAY_NODES` (default `current`) as for `ab.ts`: each Node in turn (with several,
 * `BENCH_TRACE_OUT` gains the version: `<file>.v24.22.3`); from Node 22 on, Maglev's compiles
 * are counted apart from TurboFan's (`replay/v8-trace.ts`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { spawnSync } from 'node:child_process'
import { runChild } from '../child.js'
import { knownOptions } from './report.js'
import type { Job } from './runner.js'
import { replayRunner, suiteSetup } from './suite-setup.js'
import { parseV8Trace } from './v8-trace.js'

const [suite, dist = 'dist', topArg = '30'] = process.argv.slice(2)
if (suite === undefined) throw new Error('usage: compiles.ts <suite> [dist=dist] [top=30]')
const top = Number(topArg)
const passes = Number(process.env.BENCH_REPLAY_PASSES ?? '1')
if (!Number.isInteger(passes) || passes < 1) throw new Error(`bad BENCH_REPLAY_PASSES ${process.env.BENCH_REPLAY_PASSES}: a positive integer`)
const setup = suiteSetup('compiles.ts', suite, 'wall')
const { root: ROOT, core, contestantsDir, scenario, clock } = setup

const tmp = mkdtempSync(path.join(os.tmpdir(), 'finality-compiles-'))
try {
  const { bundle, clockEnv, wanted } = await replayRunner(setup, tmp)
  const url = pathToFileURL(path.resolve(dist, 'index.js')).href
  const known = await knownOptions(url, wanted)
  for (const node of setup.nodes) {
    const idsFile = path.join(tmp, 'edr-ids.json')
    const edrJob = path.join(tmp, 'edr.job.json')
    writeFileSync(edrJob, JSON.stringify({ root: ROOT, finalityUrl: url, contestantsDir, knownOptions: known, writeIdsTo: idsFile, clock } satisfies Job))
    await runChild({ argv: ['taskset', '-c', core, node.bin, bundle, scenario.file, 'edr', edrJob], resultPrefix: 'REPLAY_RESULT', timeoutMs: 30 * 60_000, label: `${scenario.name} on EDR (node ${node.version})`, env: clockEnv })
    const job = path.join(tmp, 'finality.job.json')
    writeFileSync(job, JSON.stringify({ root: ROOT, finalityUrl: url, contestantsDir, knownOptions: known, edrIds: JSON.parse(readFileSync(idsFile, 'utf8')), clock, passes } satisfies Job))
    const run = spawnSync('taskset', ['-c', core, node.bin, '--trace-opt', '--trace-deopt', ...(process.env.BENCH_TRACE_FLAGS ?? '').split(' ').filter(Boolean), bundle, scenario.file, 'finality', job], {
      env: { ...process.env, ...clockEnv, NODE_OPTIONS: '', BENCH_REPLAY_PASS_MARK: '1' },
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    })
    if (run.status !== 0) throw new Error(`the traced replay exited with ${run.status ?? run.signal}:\n${run.stderr.slice(-4000)}`)
    if (process.env.BENCH_TRACE_OUT !== undefined) writeFileSync(setup.nodes.length > 1 ? `${process.env.BENCH_TRACE_OUT}.${node.version}` : process.env.BENCH_TRACE_OUT, run.stdout)
    const trace = parseV8Trace(run.stdout)
    console.log(`${scenario.name} on ${path.relative(ROOT, path.resolve(dist)) || dist}, node ${node.version}: ${trace.totalCompiles} optimising compiles (${trace.totalCompileMs.toFixed(0)} ms of compile jobs, wall), ${trace.totalDeopts} deopts`)
    console.log(`  by tier: ${Object.entries(trace.byTier).map(([tier, t]) => `${tier} ${t.compiles} (${t.ms.toFixed(0)} ms)`).join(', ')}`)
    if (passes > 1) {
      run.stdout.split(/^REPLAY_PASS \d+$/m).forEach((part, i) => {
        const t = parseV8Trace(part)
        console.log(`  pass ${i + 1}: ${t.totalCompiles} optimising compiles (${t.totalCompileMs.toFixed(0)} ms), ${t.totalDeopts} deopts${i === 0 ? '' : `: ${t.deopts.map((d) => `${d.name} (${d.reason})`).join('; ')}`}`)
      })
    }
    console.log(`\nfunctions compiled more than once, by summed compile time:`)
    for (const f of trace.compiles.filter((f) => f.compiles > 1).slice(0, top)) console.log(`  ${f.compiles}x ${f.ms.toFixed(1).padStart(7)} ms  ${f.name}${f.tier === 'Maglev' ? ' (Maglev)' : ''}${f.osr ? ' (OSR)' : ''}`)
    console.log(`\ndeopts by function and reason:`)
    for (const d of trace.deopts.slice(0, top)) console.log(`  ${String(d.count).padStart(3)}  ${d.name}: ${d.kind}, ${d.reason}`)
  }
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
