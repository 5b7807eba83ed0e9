/**
 * One replay in a fresh process: `node runner.mjs <scenario file> <finality|edr|hardhat> <job.json>`.
 * `edr` is `@nomicfoundation/edr` (the version bench/contestants pins) through its own N-API
 * provider, no Hardhat layer; `hardhat` is Hardhat 2's in-process network (the EDR it ships,
 * behind Hardhat's JavaScript provider), as EDR's own benchmark replays them.
 * Loads the stream (untimed), creates the provider and sends every request in order, awaiting
 * each; prints `REPLAY_RESULT {...}`: wall and CPU time from provider creation to the last answer
 * (EDR's benchmark times the same span), the failing request indexes, time per method.
 *
 * Run by `bench/replay.ts`, bundled to plain JavaScript so no TypeScript loader sits in the
 * measured process.
 *
 * Identities the two chains give out differently are translated, as a test would use what its
 * own chain answered: the recorded stream holds EDR's snapshot ids and transaction hashes, so the
 * job file may carry EDR's answers to the id-giving requests (evm_snapshot, eth_sendTransaction,
 * eth_sendRawTransaction, by index, from an earlier EDR run); where finality answers another
 * value, later requests naming EDR's value are sent finality's instead. That needs EDR's run to
 * give the recording's ids: on `edr`, hardhat_reset (a Hardhat 2 method the streams hold, which
 * EDR's own provider does not know) is answered as Hardhat 2 does, with a new provider from the
 * same config; without it EDR's chain goes on, later transactions fail on their nonces and
 * snapshot ids drift from the recorded ones, for EDR and, through the translation, finality.
 *
 * `BENCH_REPLAY_PROFILE_PASS=<n>` (with `Job.passes` ≥ n) runs V8's CPU profiler over pass n alone
 * and writes it to `BENCH_PROFILE` (default /tmp/replay-pass.cpuprofile), for
 * `bench/cpuprofile-top.ts`: a warm pass's profile, without the first pass's compiles.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { assertFrozenAt, type ReplayClock } from './clock.js'
import { edrProviderConfig, finalityOptions, genesisTimeMs, hardhatConfig, loadScenario, type RecordedConfig } from './scenario.js'

export interface Job {
  /** The repository root (Hardhat and viem are resolved from its node_modules). */
  root: string
  /** file: URL of finality's dist/index.js. */
  finalityUrl: string
  /** bench/contestants, where `@nomicfoundation/edr` is installed. */
  contestantsDir: string
  /** createNode option names the measured build knows (the rest of the mapping is dropped). */
  knownOptions: string[]
  /** EDR's answers to the id-giving requests, by request index; finality's runs translate with them. */
  edrIds?: Record<string, string>
  /** Where an EDR run writes its id-giving answers. */
  writeIdsTo?: string
  /**
   * The chains' clock (bench/replay/clock.ts): `wall` (default) runs from the recorded genesis
   * time at the wall clock's pace; `frozen`: the process runs under libfaketime stopped at the
   * genesis time (the runner checks it), so a chain's time moves only by its own block steps and
   * time requests, whatever the replay's speed.
   */
  clock?: ReplayClock
  /**
   * Passes over the stream in this one process (default 1): each later pass creates a fresh
   * provider of the same contestant and sends the stream again, so it runs on code the first pass
   * already compiled (and optimised): the suite's warm cost. The result's figures are the first
   * pass's; each later pass's are in `laterPasses`.
   */
  passes?: number
}

/** One later pass over the stream in the same process (`Job.passes`), timed as the first. */
export interface PassResult {
  wallMs: number
  cpuMs: number
  /** The main thread's share of `cpuMs` (Linux schedstat). */
  mainCpuMs?: number
  createCpuMs: number
  failures: number[]
  /** Wall and CPU (all threads) ms summed per method, as the first pass's. */
  perMethod: Record<string, { n: number; ms: number; cpuMs: number }>
}

export interface ReplayResult {
  wallMs: number
  cpuMs: number
  createMs: number
  /** CPU (all threads) of the import and provider creation, part of `cpuMs`. */
  createCpuMs: number
  /** The main thread's share of `createCpuMs` (as `mainCpuMs`). */
  createMainCpuMs?: number
  requests: number
  failures: number[]
  /** The first line of each failing request's message, by index (200 characters at most). */
  failureMessages: Record<string, string>
  /** Wall and CPU (all threads) ms summed per method. */
  perMethod: Record<string, { n: number; ms: number; cpuMs: number }>
  /** Requests sent with a translated id. */
  translated: number
  /** Id-giving answers that differed from EDR's, by method. */
  idsDiffering: Record<string, number>
  /**
   * The main thread's share of `cpuMs` (Linux schedstat; undefined elsewhere); the rest is the
   * runtime's other threads: V8's optimising compiles and GC helpers, the contestant's own threads.
   */
  mainCpuMs?: number
  /** The passes after the first (`Job.passes`), in order; absent for one pass. */
  laterPasses?: PassResult[]
}

const ID_GIVING = new Set(['evm_snapshot', 'eth_sendTransaction', 'eth_sendRawTransaction'])
/** Methods whose first parameter is a snapshot id or a transaction hash. */
const ID_TAKING = new Set(['evm_revert', 'eth_getTransactionByHash', 'eth_getTransactionReceipt', 'debug_traceTransaction', 'trace_transaction'])

interface Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
}

/** The transaction hash a failed send carries (Hardhat's `{ data: { txHash } }`, finality's too). */
function hashOfFailure(e: unknown): string | undefined {
  const data = (e as { data?: { txHash?: unknown } } | null)?.data
  return typeof data?.txHash === 'string' ? data.txHash : undefined
}

async function createFinality(job: Job, config: RecordedConfig, addressOf: (k: `0x${string}`) => string): Promise<Provider> {
  const mod = (await import(job.finalityUrl)) as { createNode(o: Record<string, unknown>): Promise<Provider> }
  const wanted = finalityOptions(config, addressOf)
  const options = Object.fromEntries(Object.entries(wanted).filter(([k]) => job.knownOptions.includes(k)))
  const genesis = genesisTimeMs(config)
  if (genesis !== undefined && !job.knownOptions.includes('initialDate')) {
    // Hardhat's initialDate without the option: the node's clock runs from the recorded genesis time.
    const shift = Date.now() - genesis
    options.clock = {
      now: () => Date.now() - shift,
      setTimer: (fn: () => void, ms: number) => {
        const t = setTimeout(fn, ms)
        t.unref()
        return () => clearTimeout(t)
      },
    }
  }
  return mod.createNode(options)
}

/** The part of `@nomicfoundation/edr`'s index.d.ts used here. */
interface EdrModule {
  EdrContext: new () => {
    registerProviderFactory(chainType: string, factory: unknown): Promise<void>
    createProvider(chainType: string, config: unknown, logger: unknown, subscriptions: unknown, decoder: unknown): Promise<{ handleRequest(request: string): Promise<{ data: string | object }> }>
  }
  ContractDecoder: new () => unknown
  L1_CHAIN_TYPE: string
  l1ProviderFactory(): unknown
  l1GenesisState(hardfork: unknown): Array<{ address: Uint8Array }>
  l1HardforkFromString(name: string): unknown
  MineOrdering: Record<string, unknown>
}

/** An error as EDR's JSON-RPC answer carries it (message, code, data with the failed send's txHash). */
class EdrError extends Error {
  constructor(message: string, readonly code: number, readonly data: unknown) {
    super(message)
  }
}

async function createEdr(job: Job, config: RecordedConfig): Promise<Provider> {
  const require = createRequire(path.join(job.contestantsDir, 'package.json'))
  const edr = require('@nomicfoundation/edr') as EdrModule
  const context = new edr.EdrContext()
  await context.registerProviderFactory(edr.L1_CHAIN_TYPE, edr.l1ProviderFactory())
  const providerConfig = edrProviderConfig(config, (order) => edr.MineOrdering[order])
  const recorded = providerConfig.genesisState as Array<{ address: Uint8Array }>
  const key = (a: Uint8Array): string => Buffer.from(a).toString('hex')
  const overridden = new Set(recorded.map((a) => key(a.address)))
  const system = edr.l1GenesisState(edr.l1HardforkFromString(providerConfig.hardfork as string)).filter((a) => !overridden.has(key(a.address)))
  providerConfig.genesisState = [...system, ...recorded]
  const logger = { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} }
  const create = () => context.createProvider(edr.L1_CHAIN_TYPE, providerConfig, logger, { subscriptionCallback: () => {} }, new edr.ContractDecoder())
  let provider = await create()
  let id = 0
  return {
    async request({ method, params = [] }) {
      // The streams were recorded through Hardhat 2, whose JavaScript layer answers hardhat_reset
      // (EDR's own provider does not know it) by creating a new provider from the same config.
      if (method === 'hardhat_reset') {
        if ((params[0] as { forking?: unknown } | null | undefined)?.forking != null) {
          throw new EdrError('hardhat_reset to a fork is not replayed on EDR alone', -32602, undefined)
        }
        provider = await create()
        return true
      }
      const response = await provider.handleRequest(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }))
      const body = (typeof response.data === 'string' ? JSON.parse(response.data) : response.data) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
      if (body.error !== undefined) throw new EdrError(body.error.message, body.error.code, body.error.data)
      return body.result
    },
  }
}

async function createHardhat(job: Job, config: RecordedConfig, addressOf: (k: `0x${string}`) => string): Promise<Provider> {
  const require = createRequire(path.join(job.root, 'package.json'))
  const { createHardhatNetworkProvider } = require('hardhat/internal/hardhat-network/provider/provider.js') as {
    createHardhatNetworkProvider(config: unknown, logger: { enabled: boolean }): Promise<Provider>
  }
  return createHardhatNetworkProvider(hardhatConfig(config, addressOf), { enabled: false })
}

/** The calling thread's on-CPU time in µs (Linux schedstat; Node 20 has no per-thread CPU clock). */
function mainThreadMicros(): number {
  return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1000
}

/** {@link mainThreadMicros}, or undefined where there is no schedstat. */
function mainThreadMicrosIfAny(): number | undefined {
  try {
    return mainThreadMicros()
  } catch {
    return undefined
  }
}

type Request = ReturnType<typeof loadScenario>['requests'][number]

/**
 * One pass over the stream on a provider `create` makes, timed from its creation to the last
 * answer; per-request figures (BENCH_REPLAY_PER_REQUEST) on the first pass only.
 */
async function replayPass(
  job: Job,
  requests: Request[],
  create: () => Promise<Provider>,
  first: boolean,
): Promise<ReplayResult & { ids: Record<string, string>; perRequest?: number[]; mainThread?: number[] }> {
  const edrIds = job.edrIds ?? {}
  const translate = new Map<string, string>()
  const ids: Record<string, string> = {}
  const failures: number[] = []
  const failureMessages: Record<string, string> = {}
  const perMethod: Record<string, { n: number; ms: number; cpuMs: number }> = {}
  let translated = 0
  const idsDiffering: Record<string, number> = {}

  const main0 = mainThreadMicrosIfAny()
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const provider = await create()
  const createMs = performance.now() - t0
  const createCpu = process.cpuUsage(cpu0)
  const createMain = mainThreadMicrosIfAny()
  const perRequest = !first || process.env.BENCH_REPLAY_PER_REQUEST === undefined ? undefined : new Array<number>(requests.length).fill(0)
  // The main thread's share (Linux schedstat, µs): the rest of a request's CPU is V8's background
  // threads (concurrent compiles, GC helpers), which on one core land in whatever request runs.
  const mainThread = perRequest !== undefined && process.env.BENCH_REPLAY_MAIN_THREAD === '1' ? new Array<number>(requests.length).fill(0) : undefined
  for (let i = 0; i < requests.length; i++) {
    const req = requests[i]!
    let params = req.params
    if (ID_TAKING.has(req.method) && params !== undefined && typeof params[0] === 'string') {
      const ours = translate.get(params[0])
      if (ours !== undefined) {
        params = [ours, ...params.slice(1)]
        translated++
      }
    }
    const t = performance.now()
    const m0 = mainThread === undefined ? 0 : mainThreadMicros()
    const c = process.cpuUsage()
    let answer: string | undefined
    try {
      const result = await provider.request({ method: req.method, params })
      if (typeof result === 'string') answer = result
    } catch (e) {
      failures.push(i)
      failureMessages[i] = ((e as Error).message?.split('\n')[0] ?? String(e)).slice(0, 200)
      answer = hashOfFailure(e)
    }
    const m = (perMethod[req.method] ??= { n: 0, ms: 0, cpuMs: 0 })
    const dc = process.cpuUsage(c)
    if (perRequest !== undefined) perRequest[i] = dc.user + dc.system
    if (mainThread !== undefined) mainThread[i] = mainThreadMicros() - m0
    m.n++
    m.ms += performance.now() - t
    m.cpuMs += (dc.user + dc.system) / 1000
    if (answer !== undefined && ID_GIVING.has(req.method)) {
      ids[i] = answer
      const theirs = edrIds[i]
      if (theirs !== undefined && theirs !== answer) {
        translate.set(theirs, answer)
        idsDiffering[req.method] = (idsDiffering[req.method] ?? 0) + 1
      }
    }
  }
  const wallMs = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  const main1 = mainThreadMicrosIfAny()
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    createMs,
    createCpuMs: (createCpu.user + createCpu.system) / 1000,
    createMainCpuMs: main0 === undefined || createMain === undefined ? undefined : (createMain - main0) / 1000,
    requests: requests.length,
    failures,
    failureMessages,
    perMethod,
    translated,
    idsDiffering,
    mainCpuMs: main0 === undefined || main1 === undefined ? undefined : (main1 - main0) / 1000,
    ids,
    perRequest,
    mainThread,
  }
}

async function main(): Promise<void> {
  const [file, contestant, jobFile] = process.argv.slice(2)
  if (file === undefined || (contestant !== 'finality' && contestant !== 'edr' && contestant !== 'hardhat') || jobFile === undefined) {
    throw new Error('usage: runner.mjs <scenario.jsonl.gz> <finality|edr|hardhat> <job.json>')
  }
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as Job
  const { config, requests } = loadScenario(file)
  const require = createRequire(path.join(job.root, 'package.json'))
  const { privateKeyToAddress } = require('viem/accounts') as { privateKeyToAddress(k: `0x${string}`): string }
  // The owned accounts' addresses, derived before the clock starts: viem's first derivation builds
  // its curve tables (~30 ms on one core), the harness's work, not the contestant's.
  const addresses = new Map(config.ownedAccounts.map((k) => [k, privateKeyToAddress(k)]))
  const addressOf = (k: `0x${string}`): string => addresses.get(k) ?? privateKeyToAddress(k)
  const passes = job.passes ?? 1
  if (!Number.isInteger(passes) || passes < 1) throw new Error(`bad passes ${String(job.passes)}: a positive integer`)
  if (job.clock === 'frozen') await assertFrozenAt(genesisTimeMs(config))
  const create = (): Promise<Provider> =>
    contestant === 'finality' ? createFinality(job, config, addressOf) : contestant === 'edr' ? createEdr(job, config) : createHardhat(job, config, addressOf)
  const profilePass = Number(process.env.BENCH_REPLAY_PROFILE_PASS ?? 0)
  if (profilePass > passes) throw new Error(`BENCH_REPLAY_PROFILE_PASS=${profilePass} with ${passes} passes`)
  const profiled = async <T>(pass: number, run: () => Promise<T>): Promise<T> => {
    if (pass !== profilePass) return run()
    const session = new Session()
    session.connect()
    await session.post('Profiler.enable')
    await session.post('Profiler.start')
    const r = await run()
    const { profile } = await session.post('Profiler.stop')
    writeFileSync(process.env.BENCH_PROFILE ?? '/tmp/replay-pass.cpuprofile', JSON.stringify(profile))
    session.disconnect()
    return r
  }
  const { perRequest, mainThread, ids, ...result } = await profiled(1, () => replayPass(job, requests, create, true))
  const laterPasses: PassResult[] = []
  for (let p = 1; p < passes; p++) {
    // A line between passes in what a traced run prints (`--trace-opt`), to count each pass's compiles.
    if (process.env.BENCH_REPLAY_PASS_MARK === '1') process.stdout.write(`REPLAY_PASS ${p + 1}\n`)
    const r = await profiled(p + 1, () => replayPass(job, requests, create, false))
    laterPasses.push({ wallMs: r.wallMs, cpuMs: r.cpuMs, mainCpuMs: r.mainCpuMs, createCpuMs: r.createCpuMs, failures: r.failures, perMethod: r.perMethod })
  }
  if (passes > 1) result.laterPasses = laterPasses
  // Each request's CPU µs, for comparing the two contestants request by request (BENCH_REPLAY_PER_REQUEST).
  if (perRequest !== undefined) writeFileSync(`${process.env.BENCH_REPLAY_PER_REQUEST}-${contestant}-${process.pid}.json`, JSON.stringify(perRequest))
  if (mainThread !== undefined) writeFileSync(`${process.env.BENCH_REPLAY_PER_REQUEST}-${contestant}-${process.pid}.main.json`, JSON.stringify(mainThread))
  if (job.writeIdsTo !== undefined) writeFileSync(job.writeIdsTo, JSON.stringify(ids))
  // Hardhat's provider keeps handles open: exit once the (large, piped) line is written.
  process.stdout.write(`REPLAY_RESULT ${JSON.stringify(result)}\n`, () => process.exit(0))
}

await main()
