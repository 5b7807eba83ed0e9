/**
 * finality against EDR (Hardhat 3's engine, through its own N-API provider) and Anvil in one run.
 *
 *   npm run bench                       the finality suite (index.ts), then this comparison
 *   npm run bench:contest               this comparison alone (builds dist/ first)
 *   BENCH_QUICK=1 npm run bench:contest smaller workloads, 2 repetitions (smoke run)
 *   BENCH_REPS=7 npm run bench:contest  repetitions (default 5)
 *   BENCH_DIST=<worktree>/dist          measure another commit's build (an A/B)
 *   BENCH_SKIP=anvil npm run bench:contest  leave contestants out (comma-separated; Anvil's
 *                                        10,000-block mine takes minutes a repetition)
 *   BENCH_CONTEST_CORES=2,1             both cores, then pinned to one with `taskset -c 1`
 *                                        (default: both settings, a table each); `2` or `1` alone
 *
 * The contestants are installed by the bench into bench/contestants (`install.ts`). Every
 * workload runs in a fresh child process per contestant (`runner.ts`, bundled to plain
 * JavaScript so no TypeScript loader sits in the measured process), repetitions interleaved
 * (finality, EDR, Anvil, finality, ...); the table shows the medians and the ratios. All three
 * are sent the same raw transactions, signed once here (`sign.ts`); the snapshot row uses
 * eth_sendTransaction from the default accounts, which every contestant has unlocked.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Abi, Hex } from 'viem'
import { compileFixtures } from '../test/helpers/compile.js'
import { bundleChildren, runChild } from './child.js'
import type { ChainSetup, Paths } from './contest/chains.js'
import { ensureContestants } from './contest/install.js'
import { CONTESTANTS, KINDS, type Contestant, type Figures, type Kind } from './contest/plan.js'
import { makePlan, sizes } from './contest/sign.js'
import { median, renderSpread, renderTable, type Row, type Samples } from './contest/table.js'
import { prepareVitest, runVitest, type Variant } from './contest/vitest-row.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** The build measured: this checkout's `dist/`, or another's (`BENCH_DIST=<other worktree>/dist`, for an A/B of two commits). */
const DIST = path.join(path.resolve(process.env.BENCH_DIST ?? path.join(ROOT, 'dist')), 'index.js')

const log = (message: string): void => {
  process.stderr.write(`[contest] ${message}\n`)
}

/** Which finality was measured: the build's path and time, and the commit it was built from. */
function describeBuild(): string {
  const built = statSync(DIST).mtime.toISOString().replace(/\.\d+Z$/, 'Z')
  let commit = 'unknown commit'
  try {
    const checkout = path.dirname(path.dirname(DIST))
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: checkout, encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: checkout, encoding: 'utf8' }).trim() !== ''
    commit = `${head}${dirty ? ' with uncommitted changes in src/' : ''}`
  } catch {
    // not a git checkout
  }
  return `${path.relative(ROOT, DIST) || DIST} built ${built} from ${commit}`
}

/** A child that has not finished by then is killed with its process group (an Anvil it spawned too). */
const CHILD_TIMEOUT_MS = 10 * 60_000

/** A core setting: `2` runs on the machine's cores, `1` pinned to one (`taskset -c 1`, inherited by an Anvil the child spawns). */
type Cores = '2' | '1'

const pin = (cores: Cores, argv: readonly string[]): string[] => (cores === '1' ? ['taskset', '-c', '1', ...argv] : [...argv])

function runWorkload(bundle: string, kind: Kind, contestant: Contestant, planPath: string, paths: Paths, cores: Cores): Promise<Figures> {
  return runChild<Figures>({
    argv: pin(cores, [process.execPath, '--expose-gc', bundle, kind, contestant, planPath]),
    env: { CONTEST_PATHS: JSON.stringify(paths) },
    resultPrefix: 'CONTEST_RESULT',
    timeoutMs: CHILD_TIMEOUT_MS,
    label: `${kind} on ${contestant}${cores === '1' ? ', one core' : ''}`,
  })
}

/** `BENCH_CONTEST_CORES`: which core settings to run, checked. */
function parseCores(value: string | undefined): Cores[] {
  const cores = (value ?? '2,1').split(',').map((c) => c.trim())
  for (const c of cores) if (c !== '1' && c !== '2') throw new Error(`bad BENCH_CONTEST_CORES entry ${c}: 2 or 1`)
  if (cores.length === 0 || new Set(cores).size !== cores.length) throw new Error(`bad BENCH_CONTEST_CORES ${value}: 2, 1 or 2,1`)
  if (cores.includes('1') && spawnSync('taskset', ['-c', '1', 'true']).status !== 0) throw new Error('BENCH_CONTEST_CORES=1 needs taskset (util-linux)')
  return cores as Cores[]
}

/** Runs the comparison and prints its table; false when the contestants are unavailable here. */
export async function runContest(): Promise<boolean> {
  const quick = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true'
  const reps = process.env.BENCH_REPS !== undefined ? Number(process.env.BENCH_REPS) : quick ? 2 : 5
  if (!Number.isInteger(reps) || reps < 1) throw new Error(`bad BENCH_REPS ${process.env.BENCH_REPS}`)
  const vitestFiles = quick ? 3 : 7
  const skipped = (process.env.BENCH_SKIP ?? '').split(',').map((c) => c.trim()).filter((c) => c !== '')
  for (const c of skipped) if (c === 'finality' || !(CONTESTANTS as readonly string[]).includes(c)) throw new Error(`bad BENCH_SKIP entry ${c}: edr or anvil`)
  const running = CONTESTANTS.filter((c) => !skipped.includes(c))
  // A subset of the workload groups (and `vitest`), to repeat one row more often; the rest print `—`.
  const groups = (process.env.BENCH_KINDS ?? '').split(',').map((k) => k.trim()).filter((k) => k !== '')
  // `replay` is the real-suite replay's group (`replay.ts`, run after this comparison by index.ts).
  for (const k of groups) if (k !== 'vitest' && k !== 'replay' && !(KINDS as readonly string[]).includes(k)) throw new Error(`bad BENCH_KINDS entry ${k}: ${KINDS.join(', ')}, vitest or replay`)
  const kinds = groups.length === 0 ? KINDS : KINDS.filter((k) => groups.includes(k))
  const vitestRow = groups.length === 0 || groups.includes('vitest')
  if (kinds.length === 0 && !vitestRow) return false
  const coreSettings = parseCores(process.env.BENCH_CONTEST_CORES)
  if (!existsSync(DIST)) throw new Error('dist/index.js not found: run `npm run build` first (`npm run bench:contest` builds)')

  const installed = ensureContestants(log)
  if ('unavailable' in installed) {
    log(`skipped: ${installed.unavailable}`)
    return false
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'finality-contest-'))
  try {
    const paths: Paths = { finalityUrl: pathToFileURL(DIST).href, contestantsDir: installed.contestantsDir, anvilBin: installed.anvilBin }
    const token = (await compileFixtures()).Token
    if (token === undefined) throw new Error('compileFixtures() returned no Token artifact')
    const size = sizes(quick)
    log('signing the workloads (untimed)')
    const plan = await makePlan({ abi: token.abi as Abi, bytecode: token.bytecode as Hex }, size)
    const planPath = path.join(tmp, 'plan.json')
    writeFileSync(planPath, JSON.stringify(plan))
    await bundleChildren({ runner: path.join(ROOT, 'bench/contest/runner.ts'), chains: path.join(ROOT, 'bench/contest/chains.ts') }, tmp)
    const setup: ChainSetup = { paths, chainId: plan.chainId, hardfork: plan.hardfork, balanceWei: plan.balanceWei, accounts: plan.accounts }
    const variants: Variant[] = ['empty', ...running]
    const vitestDirs = new Map(variants.map((v) => [v, prepareVitest(tmp, v, vitestFiles, path.join(tmp, 'chains.mjs'), setup)]))

    const samplesOf = new Map(coreSettings.map((cores) => [cores, Object.fromEntries(CONTESTANTS.map((c) => [c, {}])) as Samples]))
    const add = (cores: Cores, c: Contestant, figures: Figures): void => {
      const samples = samplesOf.get(cores)!
      for (const [k, v] of Object.entries(figures)) (samples[c][k] ??= []).push(v)
    }
    const coresLabel = (cores: Cores): string => (cores === '1' ? 'pinned to one core' : `${os.cpus().length} cores`)
    const build_ = describeBuild()
    log(`finality: ${build_}; EDR ${installed.edrVersion}, Anvil ${installed.anvilVersion}; ${reps} repetitions${quick ? ' (BENCH_QUICK)' : ''}${skipped.length > 0 ? `; left out: ${skipped.join(', ')}` : ''}`)
    for (let rep = 1; rep <= reps; rep++) {
      for (const cores of coreSettings) {
        for (const kind of kinds) {
          for (const c of running) {
            log(`repetition ${rep}/${reps}, ${coresLabel(cores)}: ${kind} on ${c}`)
            add(cores, c, await runWorkload(path.join(tmp, 'runner.mjs'), kind, c, planPath, paths, cores))
          }
        }
        if (!vitestRow) continue
        log(`repetition ${rep}/${reps}, ${coresLabel(cores)}: vitest, ${vitestFiles} files each`)
        const empty = await runVitest(vitestDirs.get('empty')!, cores === '1')
        for (const c of running) add(cores, c, { vitestPerFileMs: ((await runVitest(vitestDirs.get(c)!, cores === '1')) - empty) / vitestFiles, vitestEmptyMs: empty })
      }
    }

    const n = (x: number): string => x.toLocaleString('en-US')
    const rows: Row[] = [
      { label: '`import` + first node / provider in a fresh process (Anvil: spawn to first answer)', key: 'coldStartMs', unit: 'ms', better: 'lower', digits: 1 },
      { label: `vitest: a file that creates one, over an empty file (${vitestFiles} files each)`, key: 'vitestPerFileMs', unit: 'ms per file', better: 'lower', digits: 0 },
      { label: `ETH transfers, first ${n(size.ethFirst)} of a process, send + receipt`, key: 'ethFirstTxPerSec', unit: 'tx/s', better: 'higher', digits: 0 },
      { label: `ETH transfers, steady (${n(size.ethSteady)} after ${n(size.ethFirst + size.ethWarm)})`, key: 'ethSteadyTxPerSec', unit: 'tx/s', better: 'higher', digits: 0 },
      { label: 'ERC20 deploy + receipt, first transaction of a process', key: 'deployMs', unit: 'ms', better: 'lower', digits: 1 },
      { label: `ERC20 transfers, first ${n(size.erc20First)}, send + receipt`, key: 'erc20FirstTxPerSec', unit: 'tx/s', better: 'higher', digits: 0 },
      { label: `ERC20 transfers, steady (${n(size.erc20Steady)} after ${n(size.erc20First + size.erc20Warm)})`, key: 'erc20SteadyTxPerSec', unit: 'tx/s', better: 'higher', digits: 0 },
      { label: `\`eth_getLogs\` of ${n(size.erc20First + 1)} Transfer events over ${n(size.erc20First + 1)} blocks`, key: 'getLogsMs', unit: 'ms', better: 'lower', digits: 1 },
      { label: '`eth_call` balanceOf', key: 'callsPerSec', unit: 'calls/s', better: 'higher', digits: 0 },
      { label: 'snapshot + transfer + revert', key: 'wrappedPerSec', unit: 'cycles/s', better: 'higher', digits: 0 },
      { label: `\`hardhat_mine\` (Anvil: \`anvil_mine\`) of ${n(size.mineBlocks)} empty blocks`, key: 'mineMs', unit: 'ms', better: 'lower', digits: 1 },
      { label: 'then the latest block (`eth_getBlockByNumber`)', key: 'mineLatestMs', unit: 'ms', better: 'lower', digits: 2 },
      { label: 'heapUsed after the token workloads', key: 'heapUsedMb', unit: 'MB', better: 'lower', digits: 1, skip: ['anvil'] },
      { label: 'rss after them (Anvil: the anvil process)', key: 'rssMb', unit: 'MB', better: 'lower', digits: 0 },
      { label: `a whole test file: import, create, deploy, ${size.suiteTransfers} transfers, ${size.suiteCalls} calls, one getLogs`, key: 'suiteMs', unit: 'ms', better: 'lower', digits: 0 },
    ]

    const json: Record<string, unknown> = {}
    for (const cores of coreSettings) {
      const samples = samplesOf.get(cores)!
      console.log()
      console.log(`finality against EDR ${installed.edrVersion} and Anvil ${installed.anvilVersion}, ${coresLabel(cores)}: medians of ${reps} runs${quick ? ' (BENCH_QUICK=1: smaller workloads)' : ''}`)
      console.log(`finality measured: ${build_}`)
      console.log(`node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.platform()}/${os.arch()}`)
      console.log()
      console.log(renderTable(rows, samples))
      console.log()
      console.log('each run:')
      console.log(renderSpread(rows, samples))
      const total = (c: Contestant, key: string): number => (samples[c][key] ?? []).reduce((a, b) => a + b, 0)
      const counts = (key: string): string => CONTESTANTS.map((c) => `${c} ${total(c, key)}`).join(', ')
      console.log(`receipts asked for again (null at first), all processes: ${counts('receiptRetries')}`)
      console.log(`transactions dropped after evm_revert and sent again: ${counts('dropped')}`)
      const medians = Object.fromEntries(CONTESTANTS.map((c) => [c, Object.fromEntries(rows.map((r) => [r.key, median(samples[c][r.key] ?? [])]))]))
      json[cores === '1' ? 'oneCore' : 'allCores'] = { medians, samples }
    }
    console.log()
    console.log(`BENCH_CONTEST_JSON ${JSON.stringify({ quick, reps, node: process.version, finality: build_, edr: installed.edrVersion, anvil: installed.anvilVersion, ...json })}`)
    return true
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await runContest()
