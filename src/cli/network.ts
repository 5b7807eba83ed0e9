/**
 * `finality devnet` (N CometBFT validators and their applications on loopback) and `finality app`
 * (one application for a CometBFT node started by hand): the chain behind a real CometBFT
 * network (docs/devnet.md). Both answer a function that stops them.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startDevnet, type Devnet } from '../abci/devnet.js'
import { cometGenesisValidators } from '../abci/genesis-validators.js'
import { createInterface } from 'node:readline'
import { createAbciNode } from '../abci/app-node.js'
import { serveAbci } from '../abci/server.js'
import { MAX_MESSAGE_BYTES_RANGE } from '../abci/framing.js'
import { STOP_GRACE_MS_RANGE } from '../abci/app-process.js'
import { parseDuration } from './config.js'
import { openDatabase } from './database.js'

/** The CometBFT release the application speaks to (its ABCI types are generated from it). */
export const COMETBFT_INSTALL = 'go install github.com/cometbft/cometbft/cmd/cometbft@v0.38.26'

/** `--name value` flags, each of `allowed` at most once; anything else fails naming it. */
function flags(argv: string[], allowed: readonly string[], command: string): Map<string, string> {
  const out = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const eq = arg.indexOf('=')
    const name = arg.startsWith('--') ? arg.slice(2, eq < 0 ? undefined : eq) : undefined
    if (name === undefined || !allowed.includes(name)) throw new Error(`finality ${command}: unknown argument ${arg} (flags: ${allowed.map((a) => `--${a}`).join(', ')})`)
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1)
    if (value === undefined || value === '') throw new Error(`finality ${command}: --${name} needs a value`)
    if (out.has(name)) throw new Error(`finality ${command}: --${name} given twice`)
    out.set(name, value)
  }
  return out
}

function integer(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}, not ${value}`)
  return n
}

/** The cometbft binary: `--cometbft`, else `cometbft` on the PATH. */
function binary(given: string | undefined): string {
  const candidate = given ?? 'cometbft'
  try {
    const version = execFileSync(candidate, ['version'], { encoding: 'utf8' }).trim()
    if (!version.startsWith('0.38.')) throw new Error(`${candidate} is CometBFT ${version}; the application speaks v0.38's ABCI (${COMETBFT_INSTALL})`)
    return candidate
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`no cometbft binary ${given === undefined ? 'on the PATH' : `at ${given}`}: install it with \`${COMETBFT_INSTALL}\` (Go's bin folder on the PATH) or give --cometbft <path>`)
    }
    throw error
  }
}

/** The faults `finality devnet` takes on its standard input, a line each (`pause 2`): CometBFT's e2e words. */
const FAULTS = {
  kill: (net: Devnet, i: number) => net.stop(i, 'SIGKILL'),
  stop: (net: Devnet, i: number) => net.stop(i, 'SIGTERM'),
  start: (net: Devnet, i: number) => net.start(i),
  restart: async (net: Devnet, i: number) => {
    await net.stop(i, 'SIGTERM')
    await net.start(i)
  },
  pause: (net: Devnet, i: number) => net.pause(i),
  resume: (net: Devnet, i: number) => net.resume(i),
} as const

/** The usage of the fault lines. */
const FAULT_USAGE = `${Object.keys(FAULTS).map((f) => `${f} N`).join(', ')}, partition 0,1,2 3 (groups of nodes), heal, status`

/** A line per node: running (with its processes' ids), paused, down (and why) or stopped. */
function status(net: Devnet): string {
  return net.nodes
    .map((n) => {
      const pids = `cometbft pid ${n.pids.cometbft}${n.pids.application === undefined ? '' : `, application pid ${n.pids.application}`}`
      const state = n.down !== undefined ? `down: ${n.down}` : !n.running ? 'stopped' : n.paused ? `paused (${pids})` : `running (${pids})`
      return `node${n.index}: ${state}`
    })
    .join('\n')
}

/** Runs one fault line; answers what was done, throws why not. */
async function fault(net: Devnet, line: string): Promise<string> {
  if (line === 'status') return status(net)
  if (line === 'heal') {
    await net.heal()
    return 'healed: every node peers with every other'
  }
  if (line.startsWith('partition ')) {
    const groups = line.slice('partition '.length).trim().split(/\s+/).map((g) => g.split(',').map((i) => (/^\d+$/.test(i) ? Number(i) : Number.NaN)))
    await net.partition(groups)
    return `partitioned: ${groups.map((g) => g.map((i) => `node${i}`).join(' ')).join(' | ')}`
  }
  const match = /^(\w+) (\d+)$/.exec(line)
  const name = match?.[1] as keyof typeof FAULTS | undefined
  if (match === null || name === undefined || !Object.hasOwn(FAULTS, name)) {
    throw new Error(`unknown fault ${JSON.stringify(line)}: ${FAULT_USAGE}`)
  }
  const i = Number(match[2])
  if (i >= net.nodes.length) throw new Error(`no node${i}: the devnet has node0 to node${net.nodes.length - 1}`)
  await FAULTS[name](net, i)
  return `node${i}: ${name} done`
}

/** `--persist all | 0,2`: the nodes whose applications keep their chain in `<home>/app-db`. */
function persistFlag(value: string | undefined, validators: number): true | number[] | undefined {
  if (value === undefined || value === 'all') return value === undefined ? undefined : true
  const nodes = value.split(',').map((v) => (/^\d+$/.test(v) ? Number(v) : Number.NaN))
  if (nodes.some((i) => !(i < validators))) throw new Error(`--persist must be all or node numbers from 0 to ${validators - 1} joined by commas, not ${value}`)
  return nodes
}

/** `--abci-max-message-bytes N`: the largest ABCI message read (default 64 MiB). */
function maxMessageBytes(value: string | undefined): number | undefined {
  const { min, max } = MAX_MESSAGE_BYTES_RANGE
  return value === undefined ? undefined : integer(value, 'abci-max-message-bytes', min, max, 0)
}

/** `--stop-grace 5s`: how long a process asked to stop (SIGTERM) has before it is killed, in milliseconds (default 5 s). */
function stopGraceFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const { min, max } = STOP_GRACE_MS_RANGE
  const wrong = `--stop-grace must be a duration from ${min / 1000}s to ${max / 1000}s such as 5s or 500ms, not ${value}`
  let ms: number
  try {
    ms = parseDuration(value, '--stop-grace')
  } catch {
    throw new Error(wrong)
  }
  if (!Number.isInteger(ms) || ms < min || ms > max) throw new Error(wrong)
  return ms
}

/** `--profile cosmos-evm`: the cosmos option (Cosmos EVM's precompiles; the staking state's power changes go to CometBFT). */
function profileFlag(value: string | undefined, command: string): boolean {
  if (value === undefined) return false
  if (value !== 'cosmos-evm') throw new Error(`finality ${command}: --profile takes cosmos-evm, not ${value}`)
  return true
}

/** `finality devnet --validators N [--dir D] [--cometbft BIN] [--timeout-commit 500ms] [--chain-id ID] [--abci-max-message-bytes N] [--persist all|0,2] [--profile cosmos-evm] [--stop-grace 5s]`. */
export async function devnetCommand(argv: string[], print: (line: string) => void): Promise<() => Promise<void>> {
  const f = flags(argv, ['validators', 'dir', 'cometbft', 'timeout-commit', 'chain-id', 'abci-max-message-bytes', 'persist', 'profile', 'stop-grace'], 'devnet')
  const cosmos = profileFlag(f.get('profile'), 'devnet')
  if (cosmos && f.has('persist')) throw new Error('finality devnet: --profile cosmos-evm and --persist cannot be given together (the staking state starts at a genesis of its own, not over a database)')
  const stopGraceMs = stopGraceFlag(f.get('stop-grace'))
  const validators = integer(f.get('validators'), 'validators', 1, 64, 4)
  const chainId = f.has('chain-id') ? BigInt(integer(f.get('chain-id'), 'chain-id', 1, 2 ** 31, 0)) : undefined
  const timeoutCommit = f.get('timeout-commit') ?? '500ms'
  if (!/^\d+(ms|s)$/.test(timeoutCommit)) throw new Error(`--timeout-commit must be a duration such as 500ms or 1s, not ${timeoutCommit}`)
  const maxBytes = maxMessageBytes(f.get('abci-max-message-bytes'))
  const persist = persistFlag(f.get('persist'), validators)
  const cometbft = binary(f.get('cometbft'))
  // Without --dir the homes are the run's own: removed when it stops.
  const temporary = !f.has('dir')
  const dir = temporary ? mkdtempSync(join(tmpdir(), 'finality-devnet-')) : resolve(f.get('dir') as string)
  const removeTemporary = () => {
    if (temporary) rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
  }
  let net: Awaited<ReturnType<typeof startDevnet>>
  try {
    net = await startDevnet({
      binary: cometbft,
      dir,
      validators,
      timeoutCommit,
      maxMessageBytes: maxBytes,
      persist,
      stopGraceMs,
      // Each application a process of its own: this executable, as it was started, with `app`.
      appCommand: [process.execPath, ...process.execArgv, process.argv[1] as string],
      node: { ...(chainId === undefined ? {} : { chainId }), ...(cosmos ? { cosmos: {} } : {}) },
      onError: (i, e) => print(`node${i}: ${e.message}`),
      onExit: (i, which, how) => print(`node${i}: its ${which === 'cometbft' ? 'CometBFT' : 'application'} process exited on its own (${how}); the node is down until \`start ${i}\``),
      onKilled: (i, which, ms) => print(`node${i}: its ${which === 'cometbft' ? 'CometBFT' : 'application'} process had not exited ${ms} ms after SIGTERM; killed (SIGKILL)`),
    })
  } catch (error) {
    removeTemporary()
    throw error
  }
  // A process that exits without the stop below (a second Ctrl-C) has killed the children by
  // then (the devnet's own exit hook, installed first): the temporary homes go too.
  const removeOnExit = () => {
    try {
      removeTemporary()
    } catch {
      // The process is on its way out: a home it cannot remove stays, and nothing can report it.
    }
  }
  process.once('exit', removeOnExit)
  print(`finality devnet: ${validators} CometBFT validators (homes in ${dir}${temporary ? ', removed on exit' : ''})`)
  for (const n of net.nodes) print(`node${n.index}: JSON-RPC ${n.url}  CometBFT RPC ${n.cometRpc}`)
  print(`faults, a line each: ${FAULT_USAGE}`)
  const lines = createInterface({ input: process.stdin })
  lines.on('line', (line) => {
    void fault(net, line.trim()).then(print, (e: Error) => print(`error: ${e.message}`))
  })
  return async () => {
    lines.close()
    await net.close()
    process.off('exit', removeOnExit)
    removeTemporary()
  }
}

/** `finality app --abci tcp://127.0.0.1:26658 --genesis <CometBFT genesis.json> [--comet-rpc URL] [--port N] [--host H] [--chain-id ID] [--abci-max-message-bytes N] [--db DIR] [--profile cosmos-evm]`. */
export async function appCommand(argv: string[], print: (line: string) => void): Promise<() => Promise<void>> {
  const f = flags(argv, ['abci', 'genesis', 'comet-rpc', 'port', 'host', 'chain-id', 'abci-max-message-bytes', 'db', 'profile'], 'app')
  const cosmos = profileFlag(f.get('profile'), 'app')
  if (cosmos && f.has('db')) throw new Error('finality app: --profile cosmos-evm and --db cannot be given together (the staking state starts at a genesis of its own, not over a database)')
  const maxBytes = maxMessageBytes(f.get('abci-max-message-bytes'))
  const abci = f.get('abci')
  if (abci === undefined) throw new Error('finality app: --abci <tcp://host:port | unix:///path> is required (the proxy_app address of the CometBFT node)')
  const genesisFile = f.get('genesis')
  if (genesisFile === undefined) throw new Error("finality app: --genesis <path> is required (the CometBFT node's config/genesis.json: its genesis time starts the EVM chain)")
  const genesis = JSON.parse(readFileSync(genesisFile, 'utf8')) as { genesis_time?: string }
  const ms = Date.parse(genesis.genesis_time ?? '')
  if (Number.isNaN(ms)) throw new Error(`${genesisFile}: no genesis_time`)
  const chainId = f.has('chain-id') ? BigInt(integer(f.get('chain-id'), 'chain-id', 1, 2 ** 31, 0)) : undefined
  const port = integer(f.get('port'), 'port', 0, 65535, 8545)
  const cometRpc = f.get('comet-rpc') ?? 'http://127.0.0.1:26657'
  // A chain kept in --db resumes: Info answers its height, and CometBFT replays only what it misses.
  const db = f.has('db') ? await openDatabase(resolve(f.get('db') as string)) : undefined
  const { node, app } = await createAbciNode({
    node: { ...(chainId === undefined ? {} : { chainId }), ...(db === undefined ? {} : { db }), ...(cosmos ? { cosmos: {} } : {}) },
    genesisTime: BigInt(Math.floor(ms / 1000)),
    cometRpc,
    // With the cosmos option its staking state bonds the genesis file's validators.
    ...(cosmos ? { validators: cometGenesisValidators(genesis) } : {}),
  })
  const server = await serveAbci(app, abci, (e) => print(`ABCI: ${e.message}`), { maxMessageBytes: maxBytes })
  const listening = await node.listen({ port, host: f.get('host') ?? '127.0.0.1', api: ['eth', 'web3', 'net', 'rpc', 'txpool', 'debug', 'trace', 'finality', 'miner', 'evm', 'hardhat', 'anvil', 'testing'] })
  print(`finality app: ABCI on ${server.address}, sends to CometBFT at ${cometRpc}`)
  print(`HTTP listening on ${listening.http}`)
  return async () => {
    await listening.close()
    await server.close()
    await node.close()
    await db?.close()
  }
}
