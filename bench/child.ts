/**
 * Measured runs in fresh child processes, as the contest (`contest.ts`) and the replay
 * (`replay.ts`) make them. The child's code is bundled to plain JavaScript first, so no
 * TypeScript loader sits in the measured process; it prints one `<PREFIX> <json>` line with its
 * figures. It runs in a process group of its own, killed whole when it ends, when it overruns its
 * time and when the bench is interrupted, so nothing it started (the contest's Anvil) outlives it.
 */
import { spawn } from 'node:child_process'
import { build } from 'tsup'

/** One child run. */
export interface ChildRun {
  /** The program and its arguments (for a pinned run, `taskset -c 1 node ...`). */
  argv: readonly string[]
  /** Extra environment; `NODE_OPTIONS` is cleared so no loader sits in the measured process. */
  env?: Record<string, string>
  /** The line the child prints its result on starts with this and a space (`CONTEST_RESULT`). */
  resultPrefix: string
  /** Killed with its group after this long. */
  timeoutMs: number
  /** What the run is, for the error (`token on edr`). */
  label: string
}

/** The running child's process group, killed too when the bench is interrupted. */
let runningGroup: number | undefined
let interruptHandled = false

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // the group is already gone
  }
}

function onInterrupt(): void {
  if (runningGroup !== undefined) killGroup(runningGroup)
  process.exit(130)
}

/**
 * Runs the child to its end and parses its result line; rejects with its output when it exits
 * non-zero, prints no result line, or is killed.
 */
export function runChild<T>(run: ChildRun): Promise<T> {
  if (!interruptHandled) {
    interruptHandled = true
    process.once('SIGINT', onInterrupt)
  }
  const [cmd, ...args] = run.argv
  if (cmd === undefined) throw new Error('runChild: empty argv')
  const prefix = `${run.resultPrefix} `
  return new Promise((resolve, reject) => {
    // detached: its own process group (the terminal's Ctrl-C reaches the bench alone, which kills the group).
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...run.env, NODE_OPTIONS: '' }, detached: true })
    runningGroup = child.pid
    const timer = setTimeout(() => {
      if (child.pid !== undefined) killGroup(child.pid)
    }, run.timeoutMs)
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    child.once('error', (e) => {
      clearTimeout(timer)
      runningGroup = undefined
      reject(e)
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      // Whatever the child leaves behind (an Anvil after a failure) goes with its group.
      if (child.pid !== undefined) killGroup(child.pid)
      runningGroup = undefined
      const line = out.split('\n').find((l) => l.startsWith(prefix))
      if (code !== 0 || line === undefined) reject(new Error(`${run.label} exited with ${code ?? signal}:\n${out}${err}`))
      else resolve(JSON.parse(line.slice(prefix.length)) as T)
    })
  })
}

/**
 * Bundles the children's entry points (name → source file) into `outDir` as `<name>.mjs`, plain
 * ESM JavaScript for Node 20 with their imports inlined.
 */
export async function bundleChildren(entry: Record<string, string>, outDir: string): Promise<void> {
  await build({
    config: false,
    entry,
    outDir,
    format: ['esm'],
    outExtension: () => ({ js: '.mjs' }),
    platform: 'node',
    target: 'node20',
    splitting: false,
    silent: true,
  })
}
