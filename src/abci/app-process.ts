/**
 * A devnet node's application as a process of its own (`finality app --abci …`), so that a
 * node's fault takes its application with it, as on a real machine: kill, stop, pause.
 */
import { spawn, type ChildProcess } from 'node:child_process'

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
  const child = spawn(file, [...before, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
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

/** Ends `child` with `signal` and waits for it; a paused one is let go on so it takes the signal. */
export async function endChild(child: ChildProcess | undefined, signal: 'SIGKILL' | 'SIGTERM', paused: boolean): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill(signal)
  if (paused) child.kill('SIGCONT')
  await exited
}
