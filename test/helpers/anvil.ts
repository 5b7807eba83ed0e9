/**
 * Anvil, from the `@foundry-rs/anvil` npm package, as a child process on a free loopback port:
 * a JSON-RPC node nobody here wrote, for the fork tests.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from './loopback.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The Anvil binary inside its platform package. */
export const ANVIL_BIN = path.join(ROOT, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil')

/** A running Anvil: HTTP and WebSocket on the same port. */
export interface RunningAnvil {
  http: string
  ws: string
  /** Stops it (SIGTERM) and resolves when it has exited. */
  stop(): Promise<void>
}

/** Starts Anvil with `args` and waits until it answers eth_chainId (bounded by the caller's time-out). */
export async function startAnvil(args: readonly string[] = []): Promise<RunningAnvil> {
  const port = await freePort()
  // Anvil writes older states to disk (~80 MB per 1,000 blocks) under ~/.foundry/anvil/tmp and
  // leaves them there when it exits: a folder of ours instead, removed when it stops.
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'finality-anvil-'))
  const child = spawn(ANVIL_BIN, ['--host', '127.0.0.1', '--port', String(port), '--quiet', '--cache-path', cacheDir, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  let exited = false
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true
      rmSync(cacheDir, { recursive: true, force: true })
      resolve()
    }),
  )
  const http = `http://127.0.0.1:${port}`
  for (;;) {
    if (exited) throw new Error(`anvil exited before answering: ${stderr.trim()}`)
    try {
      const res = await fetch(http, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
      if (res.ok) {
        await res.text()
        break
      }
    } catch {
      // Not up yet.
    }
    await new Promise((r) => setTimeout(r, 20))
  }
  return {
    http,
    ws: `ws://127.0.0.1:${port}`,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM')
        await exit
      }
    },
  }
}
