/**
 * finality instances for prool (`finality-evm/prool`), the pool of test chains viem's ecosystem uses:
 * one chain per test worker, each behind its own URL. prool is an optional peer dependency: only
 * this entry imports it.
 *
 * - {@link finality}: a node in the process that runs prool's server (a vitest global setup, say),
 *   listening on the port prool gives it, HTTP and WebSocket on one server. No child process: an
 *   instance starts in tens of milliseconds.
 * - {@link finalityCli}: the `finality` command as a child process, for a node with the command
 *   line's own behaviour (its request log, `--hardhat`, a config file).
 *
 * @example
 * ```ts
 * import { Server } from 'prool'
 * import { finality } from 'finality-evm/prool'
 *
 * const server = Server.create({ instance: finality({ hardhatCompat: true }) })
 * await server.start()
 * // http://localhost:8545/1, http://localhost:8545/2, …: one node each
 * ```
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Instance } from 'prool'
import { loopbackApi } from './adapters/namespaces.js'
import { createNode, type FinalityNode, type Listening, type NodeOptions } from './index.js'

/** Parameters of {@link finality}: `createNode` options, and where and what to serve. */
export type FinalityParameters = NodeOptions & {
  /**
   * Namespaces served over HTTP and WebSocket. Default: what the command line serves on loopback,
   * the test controls included (`eth,web3,net,rpc,evm,hardhat,anvil,txpool,finality`, and
   * `debug,personal` with `hardhatCompat`).
   */
  serve?: string[] | undefined
  /** Bind host. Default `127.0.0.1`. */
  host?: string | undefined
  /** Port when prool gives none. Default 8545; 0 = a free port. */
  port?: number | undefined
}

/** Parameters of {@link finalityCli}. */
export interface FinalityCliParameters {
  /** Flags for the command, as typed after `finality` (`['--hardhat', '--chain-id', '1337']`); not `--port`. */
  args?: readonly string[] | undefined
  /** The command's script. Default: this package's own `finality` command. */
  binary?: string | undefined
  /** Bind host (`--host`). Default `127.0.0.1`. */
  host?: string | undefined
  /** Port when prool gives none. Default 8545; 0 = a free port. */
  port?: number | undefined
}

/** A prool instance of an in-process finality node; `_internal.node` is the running node. */
export const finality = Instance.define((parameters?: FinalityParameters) => {
  const { host = '127.0.0.1', port = 8545, serve, ...options } = parameters ?? {}
  checkPort(port)
  const api = serve ?? loopbackApi(options.hardhatCompat === true)
  let node: FinalityNode | undefined
  let served: Listening | undefined
  return {
    _internal: {
      get node(): FinalityNode | undefined {
        return node
      },
    },
    host,
    name: 'finality',
    port,
    async start({ port: given }, { emitter, setEndpoint }) {
      const made = await createNode(options)
      try {
        served = await made.listen({ host, port: given ?? port, api })
      } catch (error) {
        await made.close()
        throw error
      }
      node = made
      setEndpoint?.({ port: Number(new URL(served.http ?? '').port) })
      emitter.emit('message', `finality listening on ${served.http}`)
      emitter.emit('listening')
    },
    async stop() {
      const [s, n] = [served, node]
      served = undefined
      node = undefined
      await s?.close()
      await n?.close()
    },
  }
})

/** A prool instance of the `finality` command in a child process. */
export const finalityCli = Instance.define((parameters?: FinalityCliParameters) => {
  const { args = [], binary = defaultBinary(), host = '127.0.0.1', port = 8545 } = parameters ?? {}
  checkPort(port)
  for (const flag of args) {
    if (/^(-p|--port|--host)(=|$)/.test(flag)) throw new TypeError(`finalityCli: ${flag.split('=')[0]} is set by the instance (its host and port parameters), not in args`)
  }
  let child: ChildProcess | undefined
  return {
    _internal: {
      get process(): ChildProcess | undefined {
        return child
      },
    },
    host,
    name: 'finality',
    port,
    async start({ port: given }, { emitter, setEndpoint }) {
      const proc = spawn(process.execPath, [binary, '--host', host, '--port', String(given ?? port), ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      child = proc
      await new Promise<void>((resolve, reject) => {
        let out = ''
        let err = ''
        proc.stdout?.on('data', (chunk: Buffer) => {
          const text = chunk.toString()
          emitter.emit('stdout', text)
          emitter.emit('message', text)
          out += text
          const at = /HTTP listening on (http:\/\/\S+)/.exec(out)
          if (at !== null) {
            setEndpoint?.({ port: Number(new URL(at[1] as string).port) })
            emitter.emit('listening')
            resolve()
          }
        })
        proc.stderr?.on('data', (chunk: Buffer) => {
          const text = chunk.toString()
          emitter.emit('stderr', text)
          emitter.emit('message', text)
          err += text
        })
        proc.once('error', reject)
        proc.once('exit', (code, signal) => {
          emitter.emit('exit', code, signal)
          reject(new Error(`finality exited (${signal ?? `code ${code}`}) before listening: ${err.trim() || out.trim()}`))
        })
      })
    },
    async stop() {
      const proc = child
      child = undefined
      if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve())
        proc.kill('SIGTERM')
      })
    },
  }
})

function checkPort(port: unknown): void {
  if (!Number.isInteger(port) || (port as number) < 0 || (port as number) > 65535) throw new TypeError(`finality: port must be an integer from 0 to 65535, got ${String(port)}`)
}

/** dist/cli.js beside this entry. */
function defaultBinary(): string {
  return fileURLToPath(new URL('./cli.js', import.meta.url))
}
