/**
 * A devnet node's application as a process of its own (`finality app --abci …`), so that a
 * node's fault takes its application with it, as on a real machine: kill, stop, pause; and the
 * bounded stop of the devnet's child processes (SIGTERM, SIGKILL after a grace period).
 */
import { spawn, type ChildProcess } from 'node:child_process'

/** The children started here that have not exited yet: killed if this process exits first. */
const live = new Set<ChildProcess>()

function killLive(): void {
  for (const child of live) child.kill('SIGKILL')
  live.clear()
}

/**
 * Counts `child` among the devnet's live processes until it exits. A process that exits with
 * children still running (a second Ctrl-C, `process.exit` in the host) SIGKILLs them on its way
 * out, so no CometBFT or application process outlives the devnet that started it.
 */
export function trackChild(child: ChildProcess): ChildProcess {
  if (live.size === 0) process.on('exit', killLive)
  live.add(child)
  child.once('exit', () => {
    live.delete(child)
    if (live.size === 0) process.off('exit', killLive)
  })
  return child
}

/** The `finality app` arguments of one node. */
export interface AppProcessArgs {
  abci: string
  genesis: string
  cometRpc: string
  port: number
  chainId?: bigint
  maxMessageBytes?: number
  db?: string
  /** The cosmos option with its defaults (`--profile cosmos-evm`). */
  cosmos?: boolean
}

/** `finality app` flags for `a`. */
export function appArgs(a: AppProcessArgs): string[] {
  const args = ['app', '--abci', a.abci, '--genesis', a.genesis, '--comet-rpc', a.cometRpc, '--port', String(a.port), '--host', '127.0.0.1']
  if (a.chainId !== undefined) args.push('--chain-id', a.chainId.toString())
  if (a.maxMessageBytes !== undefined) args.push('--abci-max-message-bytes', String(a.maxMessageBytes))
  if (a.db !== undefined) args.push('--db', a.db)
  if (a.cosmos === true) args.push('--profile', 'cosmos-evm')
  return args
}

/**
 * Starts `command` (the `finality` executable, with any arguments before its own) with `args`,
 * and answers once it serves JSON-RPC (its `HTTP listening on` line); throws with its output when
 * it exits first. Every output line goes to `onLine`.
 */
export function spawnApp(command: readonly string[], args: string[], onLine: (line: string) => void): Promise<ChildProcess> {
  const [file, ...before] = command
  if (file === undefined) throw new Error('appCommand is empty: give the finality executable, e.g. [process.execPath, "/path/to/finality/dist/cli.js"]')
  const child = trackChild(spawn(file, [...before, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }))
  return new Promise((resolve, reject) => {
    let output = ''
    let ready = false
    const take = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line === '') continue
        onLine(line)
        if (!ready) output += `${line}\n`
        if (!ready && line.startsWith('HTTP listening on ')) {
          ready = true
          resolve(child)
        }
      }
    }
    child.stdout?.on('data', take)
    child.stderr?.on('data', take)
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      if (!ready) reject(new Error(`the application (${file} ${[...before, ...args].join(' ')}) exited (${signal ?? code}) before serving:\n${output.trim()}`))
    })
  })
}

/** The bounds of a stop's grace period (`stopGraceMs`, milliseconds): 0 kills at once after SIGTERM; past 10 minutes a stop is a hang. */
export const STOP_GRACE_MS_RANGE = { min: 0, max: 600_000 } as const

/**
 * The default grace period: how long a child asked to stop (SIGTERM) has before it is killed
 * (SIGKILL). CometBFT closes its stores well within it (docs/devnet.md); docker's stop gives 10 s.
 */
export const DEFAULT_STOP_GRACE_MS = 5_000

/** Throws, naming `name` and the bounds, unless `value` is an integer within {@link STOP_GRACE_MS_RANGE}. */
export function checkStopGraceMs(value: unknown, name = 'stopGraceMs'): number {
  const { min, max } = STOP_GRACE_MS_RANGE
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max} (milliseconds), not ${String(value)}`)
  }
  return value
}

/** How a child ended: it exited (or was gone already), or it outlived SIGTERM's grace period and was killed. */
export type Ended = 'exited' | 'killed'

/** The stop under way of each child, so a second stop of the same child waits for the first. */
const ending = new WeakMap<ChildProcess, { ended: Promise<Ended>; kill: (graceOver: boolean) => void }>()

/**
 * Ends `child` and waits for its exit. SIGKILL ends it at once; SIGTERM asks it to stop, and a
 * child still running `graceMs` later is killed (SIGKILL), so every stop is bounded: CometBFT
 * whose application died mid-block can hang in its own stop, with its RPC still up. A paused
 * child is let go on (SIGCONT) so it takes SIGTERM. A child already being ended is not signalled
 * again (a SIGKILL asked for meanwhile is sent at once): the caller waits for the same exit.
 */
export async function endChild(child: ChildProcess | undefined, signal: 'SIGKILL' | 'SIGTERM', paused: boolean, graceMs: number): Promise<Ended> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return 'exited'
  const under = ending.get(child)
  if (under !== undefined) {
    if (signal === 'SIGKILL') under.kill(false)
    return under.ended
  }
  let killed = false
  const kill = (graceOver: boolean) => {
    if (graceOver) killed = true
    child.kill('SIGKILL')
  }
  let timer: NodeJS.Timeout | undefined
  const ended = new Promise<Ended>((resolve) =>
    child.once('exit', () => {
      clearTimeout(timer)
      ending.delete(child)
      resolve(killed ? 'killed' : 'exited')
    }),
  )
  ending.set(child, { ended, kill })
  if (signal === 'SIGKILL') {
    child.kill('SIGKILL')
  } else {
    child.kill('SIGTERM')
    if (paused) child.kill('SIGCONT')
    timer = setTimeout(() => kill(true), graceMs)
  }
  return ended
}
