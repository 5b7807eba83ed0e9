/** The `finality` command line as a child process (through tsx, from the sources) on ephemeral ports. */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
// The CLI runs under `node --import tsx`, not tsx's wrapper: the wrapper relays a signal only if
// the child reports it within 30 ms, else signals it again or kills it and exits 130, which a
// loaded machine turned into failed clean stops.
const BIN = path.join(ROOT, 'src', 'cli', 'bin.ts')

/** Binds both servers to free loopback ports. */
export const EPHEMERAL = ['--json-rpc.address', '127.0.0.1:0', '--json-rpc.ws-address', '127.0.0.1:0'] as const

/** A running CLI: its output so far, its endpoints, and a clean stop (SIGINT, resolves to the exit code). */
export interface RunningCli {
  child: ChildProcess
  out: () => string
  http: string
  ws: string
  stop: () => Promise<number | null>
}

/** Spawns the CLI and waits until it prints its endpoints (bounded by the caller's time-out). */
export async function startCli(args: readonly string[]): Promise<RunningCli> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.on('data', (d) => (out += d))
  child.stderr?.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', () => /WebSocket listening on/.test(out) && resolve())
    void exited.then((code) => reject(new Error(`the CLI exited (${code}) before listening:\n${out}`)))
  })
  return {
    child,
    out: () => out,
    http: /HTTP listening on (\S+)/.exec(out)?.[1] as string,
    ws: /WebSocket listening on (\S+)/.exec(out)?.[1] as string,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGINT')
      return exited
    },
  }
}
