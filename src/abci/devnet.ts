/**
 * A local CometBFT network of this chain: N CometBFT nodes (child processes of a `cometbft`
 * binary, on loopback) and N nodes of the EVM application, each serving ABCI to its CometBFT node
 * and JSON-RPC to users (in this process, or each a `finality app` process: `appCommand`).
 * Genesis, keys and config are made with `cometbft init` and one shared genesis file listing every
 * validator; each node's ports are free ones picked at start, below the kernel's ephemeral range
 * (ports.ts). Faults in CometBFT's e2e words:
 * kill/stop and start, pause and resume, partition and heal.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { ClassicLevel } from 'classic-level'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NodeOptions } from '../options.js'
import { createAbciNode, type AbciNode } from './app-node.js'
import { appArgs, checkStopGraceMs, DEFAULT_STOP_GRACE_MS, endChild, spawnApp, trackChild } from './app-process.js'
import { checkMaxMessageBytes } from './framing.js'
import { cometGenesisValidators } from './genesis-validators.js'
import { pickPorts } from './ports.js'
import { serveAbci, type AbciServer } from './server.js'

/** Options of {@link startDevnet}. */
export interface DevnetOptions {
  /** The `cometbft` binary (v0.38). */
  binary: string
  /** A folder of its own for the nodes' homes (created; its contents replaced). */
  dir: string
  /** How many validators (CometBFT nodes). Default 4. */
  validators?: number
  /** CometBFT's `timeout_commit` (the pause after each block), e.g. `200ms`. Default `500ms`. */
  timeoutCommit?: string
  /** The options of every EVM node (the same on all: chain id, accounts, hardfork). */
  node?: NodeOptions
  /** CometBFT's output lines, with the node's index. Default: dropped. */
  onOutput?: (index: number, line: string) => void
  /**
   * Keep each application's chain in a LevelDB folder of its node's home (`<home>/app-db`): a node
   * started again resumes from it, answering Info with its last height and state root, so
   * CometBFT replays only the blocks it misses. `true`: every node; a list: those nodes. Default:
   * none, the chains live in memory and a restarted node is rebuilt by CometBFT's replay.
   */
  persist?: boolean | readonly number[]
  /**
   * Run each application as a process of its own: the `finality` executable (with any arguments
   * before its own, e.g. `[process.execPath, '<finality>/dist/cli.js']`), started as
   * `finality app --abci …` beside its CometBFT node, so kill, stop and pause take both. Then
   * `node` may give only `chainId`. Default: the applications run in this process.
   */
  appCommand?: readonly string[]
  /** The largest ABCI message each application reads, in bytes (default 64 MiB). */
  maxMessageBytes?: number
  /** Told of an application error (an ABCI exception). */
  onError?: (index: number, error: Error) => void
  /**
   * Told when a node's CometBFT or application process exits on its own (a crash, a kill from
   * outside), not by {@link Devnet.stop}: `how` is its exit code or signal. The node's other
   * process is then stopped, so the node is down as a whole until {@link Devnet.start}.
   */
  onExit?: (index: number, process: 'cometbft' | 'application', how: string) => void
  /**
   * How long a process asked to stop (SIGTERM: {@link Devnet.stop} with it, {@link Devnet.close},
   * a partition's restart, the stop after a process exited on its own) has to exit before it is
   * killed (SIGKILL), in milliseconds: 0 to 600000, default 5000. CometBFT whose application died
   * mid-block can hang in its stop; this bounds every stop.
   */
  stopGraceMs?: number
  /** Told when a process outlived its grace period after SIGTERM and was killed (SIGKILL). */
  onKilled?: (index: number, process: 'cometbft' | 'application', graceMs: number) => void
}

/** One validator: its CometBFT node and its application. */
export interface DevnetNode {
  readonly index: number
  readonly home: string
  /** CometBFT's RPC URL. */
  readonly cometRpc: string
  /** The application's JSON-RPC URL (HTTP; WebSocket on the same port). */
  readonly url: string
  /** The running application in this process (undefined while stopped, and when it runs as a process: `appCommand`). */
  readonly app: AbciNode | undefined
  /** True while both processes run. */
  readonly running: boolean
  /** True while its CometBFT process is paused ({@link Devnet.pause}). */
  readonly paused: boolean
  /** Why the node is down when one of its processes exited on its own (`the application process exited (SIGKILL)`); undefined once started again. */
  readonly down: string | undefined
  /** The process ids of its CometBFT process and (with `appCommand`) its application, while they run. */
  readonly pids: { readonly cometbft: number | undefined; readonly application: number | undefined }
}

/** A running devnet. */
export interface Devnet {
  readonly nodes: readonly DevnetNode[]
  readonly genesisTime: bigint
  /**
   * Stops node `i`: its CometBFT process killed (SIGKILL, a crash) or asked to stop (SIGTERM, and
   * killed if it has not exited after `stopGraceMs`), then its application the same way.
   */
  stop(i: number, signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>
  /** Starts node `i` again: a fresh application, which CometBFT replays its blocks into and block sync brings up to date. */
  start(i: number): Promise<void>
  /**
   * Pauses node `i` as CometBFT's e2e `pause` does: its CometBFT process is stopped (SIGSTOP), so it
   * neither votes nor gossips, with its connections left open; so is its application's process
   * when it runs as one (`appCommand`); one in this process still answers reads of what it has.
   * More than a third of the power paused halts the chain.
   */
  pause(i: number): Promise<void>
  /** Lets a paused node `i` go on (SIGCONT): it catches up with the others. */
  resume(i: number): Promise<void>
  /**
   * Splits the network into `groups` (every node in exactly one): each node's `persistent_peers`
   * names only its group's nodes, and every node restarts (SIGTERM, then start), so no connection
   * crosses between groups. A group with more than two thirds of the power goes on; the others halt.
   */
  partition(groups: readonly (readonly number[])[]): Promise<void>
  /** Ends a partition: every node's peers are all the others again, and every node restarts. */
  heal(): Promise<void>
  /** Stops every node (SIGTERM: CometBFT closes its stores; killed after `stopGraceMs`). */
  close(): Promise<void>
}

/** `config.toml` with `key = value` set in `[section]` (the top, for ''). */
function setToml(text: string, section: string, key: string, value: string): string {
  const start = section === '' ? 0 : text.indexOf(`\n[${section}]\n`)
  if (start < 0) throw new Error(`config.toml has no [${section}] section`)
  const next = text.indexOf('\n[', start + 1)
  const end = next < 0 ? text.length : next
  const body = text.slice(start, end)
  const line = new RegExp(`^${key} = .*$`, 'm')
  if (!line.test(body)) throw new Error(`config.toml has no ${key} in [${section}]`)
  return text.slice(0, start) + body.replace(line, `${key} = ${value}`) + text.slice(end)
}

interface Slot {
  index: number
  home: string
  ports: { p2p: number; rpc: number; abci: number; http: number }
  id: string
  comet: ChildProcess | undefined
  abci: AbciServer | undefined
  app: AbciNode | undefined
  url: string
  listening: { close(): Promise<void> } | undefined
  paused: boolean
  db: ClassicLevel<string, Uint8Array> | undefined
  /** The application's process, when it runs as one. */
  appProcess: ChildProcess | undefined
  /** True while {@link Devnet.stop} ends the processes (their exits are expected). */
  ending: boolean
  /** The stop that follows a process's own exit, which a start waits for. */
  settling: Promise<void> | undefined
  /** Why the node went down on its own. */
  down: string | undefined
}

/** Makes the homes (keys, one genesis, config) and starts every node. */
export async function startDevnet(options: DevnetOptions): Promise<Devnet> {
  const n = options.validators ?? 4
  if (options.maxMessageBytes !== undefined) checkMaxMessageBytes(options.maxMessageBytes)
  const graceMs = options.stopGraceMs === undefined ? DEFAULT_STOP_GRACE_MS : checkStopGraceMs(options.stopGraceMs)
  const persist = options.persist ?? false
  if (Array.isArray(persist) && persist.some((i) => !Number.isInteger(i) || i < 0 || i >= n)) throw new Error(`persist names nodes 0 to ${n - 1}, not ${persist.join(', ')}`)
  if (options.node?.db !== undefined) throw new Error('option node.db: each node has a database of its own; give persist instead')
  if (options.appCommand !== undefined) {
    const others = Object.keys(options.node ?? {}).filter((k) => k !== 'chainId' && k !== 'cosmos')
    if (others.length > 0) throw new Error(`option node.${others[0]}: applications run as processes (appCommand) take only chainId and cosmos`)
    const cosmosSettings = Object.keys(options.node?.cosmos ?? {})
    if (cosmosSettings.length > 0) throw new Error(`option node.cosmos.${cosmosSettings[0]}: applications run as processes (appCommand) take the cosmos option with its defaults ({})`)
  }
  if (options.node?.cosmos !== undefined && persist !== false) throw new Error("options node.cosmos and persist cannot be given together: the cosmos option's staking state starts at a genesis of the node's own, not over a database")
  const persisted = (i: number) => persist === true || (Array.isArray(persist) && persist.includes(i))
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`validators must be an integer from 1 to 64, not ${n}`)
  const slots: Slot[] = []
  const picked = await pickPorts(4 * n)
  for (let i = 0; i < n; i++) {
    const home = join(options.dir, `node${i}`)
    mkdirSync(home, { recursive: true })
    execFileSync(options.binary, ['init', '--home', home], { stdio: 'ignore' })
    const id = execFileSync(options.binary, ['show-node-id', '--home', home], { encoding: 'utf8' }).trim()
    const [p2p, rpc, abci, http] = picked.slice(4 * i, 4 * i + 4) as [number, number, number, number]
    const ports = { p2p, rpc, abci, http }
    slots.push({ index: i, home, ports, id, comet: undefined, abci: undefined, app: undefined, url: `http://127.0.0.1:${ports.http}`, listening: undefined, paused: false, db: undefined, appProcess: undefined, ending: false, settling: undefined, down: undefined })
  }
  // One genesis: every node's validator key, whole seconds (the EVM genesis block's timestamp).
  const now = Math.floor(Date.now() / 1000)
  const genesisTime = BigInt(now)
  const genesis = JSON.parse(readFileSync(join(slots[0]!.home, 'config', 'genesis.json'), 'utf8'))
  genesis.genesis_time = new Date(now * 1000).toISOString()
  genesis.chain_id = 'finality-devnet'
  genesis.validators = slots.map((s) => {
    const key = JSON.parse(readFileSync(join(s.home, 'config', 'priv_validator_key.json'), 'utf8'))
    return { address: key.address, pub_key: key.pub_key, power: '10', name: `node${s.index}` }
  })
  const timeoutCommit = JSON.stringify(options.timeoutCommit ?? '500ms')
  for (const s of slots) {
    writeFileSync(join(s.home, 'config', 'genesis.json'), JSON.stringify(genesis, null, 2))
    const file = join(s.home, 'config', 'config.toml')
    let toml = readFileSync(file, 'utf8')
    const peers = slots.filter((p) => p !== s).map((p) => `${p.id}@127.0.0.1:${p.ports.p2p}`).join(',')
    toml = setToml(toml, '', 'proxy_app', `"tcp://127.0.0.1:${s.ports.abci}"`)
    toml = setToml(toml, '', 'moniker', `"node${s.index}"`)
    toml = setToml(toml, 'rpc', 'laddr', `"tcp://127.0.0.1:${s.ports.rpc}"`)
    toml = setToml(toml, 'p2p', 'laddr', `"tcp://127.0.0.1:${s.ports.p2p}"`)
    toml = setToml(toml, 'p2p', 'persistent_peers', JSON.stringify(peers))
    // Peers only from persistent_peers (no peer exchange): a partition's sides never learn of each other.
    toml = setToml(toml, 'p2p', 'pex', 'false')
    toml = setToml(toml, 'p2p', 'addr_book_strict', 'false')
    toml = setToml(toml, 'p2p', 'allow_duplicate_ip', 'true')
    toml = setToml(toml, 'consensus', 'timeout_commit', timeoutCommit)
    toml = setToml(toml, 'consensus', 'timeout_propose', '"1s"')
    toml = setToml(toml, 'consensus', 'timeout_prevote', '"500ms"')
    toml = setToml(toml, 'consensus', 'timeout_precommit', '"500ms"')
    writeFileSync(file, toml)
  }

  const start = async (i: number): Promise<void> => {
    const s = slots[i]
    if (s === undefined) throw new Error(`no node ${i}: the devnet has ${n}`)
    await s.settling
    if (s.comet !== undefined) return
    s.down = undefined
    const cometRpc = `http://127.0.0.1:${s.ports.rpc}`
    if (options.appCommand !== undefined) {
      const args = appArgs({
        abci: `tcp://127.0.0.1:${s.ports.abci}`,
        genesis: join(s.home, 'config', 'genesis.json'),
        cometRpc,
        port: s.ports.http,
        chainId: options.node?.chainId === undefined ? undefined : BigInt(options.node.chainId),
        maxMessageBytes: options.maxMessageBytes,
        db: persisted(i) ? join(s.home, 'app-db') : undefined,
        cosmos: options.node?.cosmos !== undefined,
      })
      const app = await spawnApp(options.appCommand, args, (line) => {
        if (/^(ABCI: |finality: )/.test(line)) options.onError?.(i, new Error(line))
      })
      s.appProcess = app
      app.once('exit', (code, signal) => exitedOnItsOwn(s, 'application', signal ?? code))
    } else await startInProcess(s, cometRpc)
    spawnComet(s)
  }

  const startInProcess = async (s: Slot, cometRpc: string): Promise<void> => {
    const i = s.index
    if (persisted(i)) {
      s.db = new ClassicLevel<string, Uint8Array>(join(s.home, 'app-db'), { keyEncoding: 'utf8', valueEncoding: 'view' })
      await s.db.open()
    }
    // With the cosmos option the staking state bonds CometBFT's genesis validators, every node the same.
    const validators = options.node?.cosmos === undefined ? undefined : cometGenesisValidators(JSON.parse(readFileSync(join(s.home, 'config', 'genesis.json'), 'utf8')))
    s.app = await createAbciNode({ node: { ...options.node, db: s.db }, genesisTime, cometRpc, validators })
    s.abci = await serveAbci(s.app.app, `tcp://127.0.0.1:${s.ports.abci}`, (e) => options.onError?.(i, e), { maxMessageBytes: options.maxMessageBytes })
    s.listening = await s.app.node.listen({ port: s.ports.http, api: ['eth', 'web3', 'net', 'rpc', 'txpool', 'debug', 'trace', 'finality', 'miner', 'evm', 'hardhat', 'anvil', 'testing'] })
  }

  const spawnComet = (s: Slot): void => {
    const i = s.index
    const child = trackChild(spawn(options.binary, ['start', '--home', s.home], { stdio: ['ignore', 'pipe', 'pipe'] }))
    s.comet = child
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') options.onOutput?.(i, line)
    }
    child.stdout?.on('data', onLine)
    child.stderr?.on('data', onLine)
    child.once('exit', (code, signal) => {
      if (s.comet !== child) return
      s.comet = undefined
      exitedOnItsOwn(s, 'cometbft', signal ?? code)
    })
  }

  /** A process of node `s` that exited without a stop: said, and the node's other process stopped. */
  const exitedOnItsOwn = (s: Slot, which: 'cometbft' | 'application', how: string | number | null): void => {
    if (s.ending || s.down !== undefined) return
    const what = `${which === 'cometbft' ? 'the CometBFT process' : 'the application process'} exited (${how ?? 'unknown'})`
    s.down = what
    options.onExit?.(s.index, which, String(how ?? 'unknown'))
    s.settling = stop(s.index, 'SIGTERM')
      .catch((e: Error) => options.onError?.(s.index, e))
      .finally(() => {
        s.settling = undefined
      })
  }

  const stop = async (i: number, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> => {
    const s = slots[i]
    if (s === undefined) throw new Error(`no node ${i}: the devnet has ${n}`)
    // A paused process takes SIGTERM only once it runs again: endChild lets it go on.
    // CometBFT first: an application gone under a running CometBFT is a crash to it.
    s.ending = true
    try {
      if ((await endChild(s.comet, signal, s.paused, graceMs)) === 'killed') options.onKilled?.(i, 'cometbft', graceMs)
      if ((await endChild(s.appProcess, signal, s.paused, graceMs)) === 'killed') options.onKilled?.(i, 'application', graceMs)
    } finally {
      s.ending = false
    }
    s.comet = undefined
    s.appProcess = undefined
    s.paused = false
    await s.listening?.close()
    await s.abci?.close()
    await s.app?.node.close()
    await s.db?.close()
    s.db = undefined
    s.listening = undefined
    s.abci = undefined
    s.app = undefined
  }

  const slot = (i: number): Slot => {
    const s = slots[i]
    if (s === undefined) throw new Error(`no node ${i}: the devnet has ${n}`)
    return s
  }
  const signal = (i: number, to: 'SIGSTOP' | 'SIGCONT'): void => {
    const s = slot(i)
    if (s.comet === undefined || s.comet.exitCode !== null) throw new Error(`node ${i} is not running`)
    if (s.paused === (to === 'SIGSTOP')) throw new Error(`node ${i} is ${s.paused ? 'already paused' : 'not paused'}`)
    s.comet.kill(to)
    s.appProcess?.kill(to)
    s.paused = to === 'SIGSTOP'
  }

  // All at once: each CometBFT node dials its peers until they answer. On a failure every start is
  // waited for before the stops, so no process started after them outlives the devnet.
  const started = await Promise.allSettled(slots.map((s) => start(s.index)))
  const failed = started.find((r) => r.status === 'rejected')
  if (failed !== undefined) {
    for (let i = 0; i < n; i++) await stop(i).catch(() => {})
    throw failed.reason
  }
  const nodes: DevnetNode[] = slots.map((s) => ({
    index: s.index,
    home: s.home,
    cometRpc: `http://127.0.0.1:${s.ports.rpc}`,
    url: s.url,
    get app() {
      return s.app
    },
    get running() {
      return s.comet !== undefined
    },
    get paused() {
      return s.paused
    },
    get down() {
      return s.down
    },
    get pids() {
      return { cometbft: s.comet?.pid, application: s.appProcess?.pid }
    },
  }))
  const regroup = async (groups: readonly (readonly number[])[]): Promise<void> => {
    const seen = groups.flat()
    if (seen.length !== n || new Set(seen).size !== n || seen.some((i) => !Number.isInteger(i) || i < 0 || i >= n)) {
      throw new Error(`a partition puts every node (0 to ${n - 1}) in exactly one group, not ${JSON.stringify(groups)}`)
    }
    await Promise.all(slots.map((s) => stop(s.index, 'SIGTERM')))
    for (const group of groups) {
      for (const i of group) {
        const s = slot(i)
        const file = join(s.home, 'config', 'config.toml')
        const peers = group.filter((j) => j !== i).map((j) => `${slot(j).id}@127.0.0.1:${slot(j).ports.p2p}`).join(',')
        writeFileSync(file, setToml(readFileSync(file, 'utf8'), 'p2p', 'persistent_peers', JSON.stringify(peers)))
      }
    }
    await Promise.all(slots.map((s) => start(s.index)))
  }

  return {
    nodes,
    genesisTime,
    partition: regroup,
    heal: () => regroup([slots.map((s) => s.index)]),
    start,
    stop,
    pause: async (i) => signal(i, 'SIGSTOP'),
    resume: async (i) => signal(i, 'SIGCONT'),
    close: async () => {
      await Promise.all(slots.map((s) => stop(s.index, 'SIGTERM')))
    },
  }
}
