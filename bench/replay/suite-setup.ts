/**
 * What `ab.ts`, `compiles.ts` and `warm.ts` (replays of one suite in processes pinned to a core)
 * set up alike from their arguments and environment: the repository, the core (`BENCH_AB_CORE`,
 * default 0), where EDR is installed (`BENCH_CONTESTANTS_DIR`), the scenario named like `suite`,
 * the clock (`BENCH_REPLAY_CLOCK`, else `defaultClock`) with libfaketime found for a frozen
 * one, and the Node versions their processes run under (`BENCH_REPLAY_NODES`, default the
 * running one; `replay/nodes.ts`); then the runner they start ({@link replayRunner}).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleChildren } from '../child.js'
import { findLibfaketime, frozenClockEnv, parseReplayClock, type ReplayClock } from './clock.js'
import { replayNodes, type ReplayNode } from './nodes.js'
import { finalityOptions, genesisTimeMs, listScenarios, loadScenario, scenariosDir } from './scenario.js'

export interface SuiteSetup {
  root: string
  core: string
  contestantsDir: string
  scenario: { name: string; file: string }
  clock: ReplayClock
  /** libfaketime's path, for a frozen clock. */
  faketime: string | undefined
  /** The Nodes to run the replay's processes under, in order (`BENCH_REPLAY_NODES`, default `current`). */
  nodes: ReplayNode[]
}

/**
 * Throws, naming `tool`, when no scenario matches or a frozen clock has no libfaketime, and
 * naming the entry when `BENCH_REPLAY_NODES` names no Node the bench pins; installs the pinned
 * Nodes it names when needed.
 */
export function suiteSetup(tool: string, suite: string, defaultClock: ReplayClock): SuiteSetup {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const scenario = listScenarios(scenariosDir(root)).scenarios.find((s) => s.name.includes(suite))
  if (scenario === undefined) throw new Error(`no scenario named like ${suite} in ${scenariosDir(root)}`)
  const clock = parseReplayClock(process.env.BENCH_REPLAY_CLOCK ?? defaultClock)
  const faketime = clock === 'frozen' ? findLibfaketime() : undefined
  if (clock === 'frozen' && faketime === undefined) {
    throw new Error(`${tool} with the clock frozen needs libfaketime (Debian: apt-get install libfaketime), or BENCH_REPLAY_CLOCK=wall`)
  }
  return {
    root,
    core: process.env.BENCH_AB_CORE ?? '0',
    contestantsDir: path.resolve(process.env.BENCH_CONTESTANTS_DIR ?? path.join(root, 'bench', 'contestants')),
    scenario,
    clock,
    faketime,
    nodes: replayNodes('current', (message) => process.stderr.write(`[${tool}] ${message}\n`)),
  }
}

/** The replay runner of a suite, ready to start (see {@link replayRunner}). */
export interface ReplayRunner {
  /** The runner bundled to plain JavaScript. */
  bundle: string
  /** The environment of its processes: the frozen clock's, or none. */
  clockEnv: Record<string, string>
  /** The createNode options the recorded config line maps to (before a build's known names). */
  wanted: Record<string, unknown>
}

/** Bundles the runner into `dir` and reads the suite's config line: its clock and options. */
export async function replayRunner(setup: SuiteSetup, dir: string): Promise<ReplayRunner> {
  await bundleChildren({ runner: path.join(setup.root, 'bench/replay/runner.ts') }, dir)
  const config = loadScenario(setup.scenario.file).config
  const clockEnv = setup.faketime === undefined ? {} : frozenClockEnv(setup.faketime, genesisTimeMs(config) ?? Date.now())
  const { privateKeyToAddress } = await import('viem/accounts')
  return { bundle: path.join(dir, 'runner.mjs'), clockEnv, wanted: finalityOptions(config, privateKeyToAddress) }
}
