/**
 * The real-suite replay's own parts (bench/replay): scenario files found and read, the recorded
 * config mapped onto both providers, ids translated, failures counted. On a small stream written
 * here in EDR's format (the recorded suites themselves are not in the repository).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import type { Job, ReplayResult } from '../../bench/replay/runner.js'
import { existsSync } from 'node:fs'
import { CONTESTANTS_DIR } from '../../bench/contest/install.js'
import { edrProviderConfig, hardforkName, listScenarios, loadScenario } from '../../bench/replay/scenario.js'
import { type PerMethod, perMethodLines } from '../../bench/replay/report.js'
import { findLibfaketime, frozenClockEnv, parseReplayClock } from '../../bench/replay/clock.js'
import { renderReport, type Runs } from '../../bench/replay/report.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const ADDR0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const ADDR1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

const config = {
  chainType: null,
  loggerEnabled: false,
  providerConfig: {
    allowBlocksWithSameTimestamp: false,
    allowUnlimitedContractSize: true,
    bailOnCallFailure: true,
    bailOnTransactionFailure: true,
    chainId: 31337,
    chainOverrides: {},
    coinbase: '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e',
    defaultTransactionGasLimit: 30000000,
    genesisState: { [ADDR0]: { balance: '0x21e19e0c9bab2400000', nonce: null, code: null, storage: null } },
    hardfork: 'Shanghai',
    initialBaseFeePerGas: null,
    initialParentBeaconBlockRoot: null,
    minGasPrice: '0x0',
    mining: { autoMine: true, blockGasLimit: 30000000, interval: null, memPool: { order: 'Priority' } },
    network: { Local: { genesisBlobGas: null, genesisBlockGasLimit: 30000000, genesisBlockTime: '2024-03-01T11:04:29Z' } },
    networkId: 31337,
    ownedAccounts: [KEY0],
    transactionGasCap: 'default',
  },
}
const requests = [
  { method: 'eth_accounts', params: [] },
  { method: 'evm_snapshot', params: [] },
  { method: 'eth_sendTransaction', params: [{ from: ADDR0, to: ADDR1, value: '0x1' }] },
  // The recorded id: EDR's answer to index 1 below is said to be 0x7.
  { method: 'evm_revert', params: ['0x7'] },
  { method: 'eth_noSuchMethod', params: [] },
  { method: 'eth_getBalance', params: [ADDR1, 'latest'] },
  { method: 'eth_sendTransaction', params: [{ from: ADDR0, to: ADDR1, value: '0x1' }] },
  // The chain starts again (Hardhat 2's JavaScript layer makes a new EDR provider): nonce 0 is free.
  { method: 'hardhat_reset', params: [] },
  { method: 'eth_sendTransaction', params: [{ from: ADDR0, to: ADDR1, value: '0x1', nonce: '0x0' }] },
]

const dir = mkdtempSync(path.join(os.tmpdir(), 'finality-replay-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const file = path.join(dir, 'tiny_0000.jsonl.gz')
writeFileSync(file, gzipSync([config, ...requests].map((l) => JSON.stringify(l)).join('\n') + '\n'))
writeFileSync(path.join(dir, 'lfs_0000.jsonl.gz'), 'version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 1\n')

function replay(contestant: 'finality' | 'edr' | 'hardhat', job: Partial<Job>, env: Record<string, string> = {}): ReplayResult {
  const jobFile = path.join(dir, `${contestant}-job.json`)
  const full: Job = {
    root: ROOT,
    finalityUrl: pathToFileURL(path.join(ROOT, 'src/index.ts')).href,
    contestantsDir: CONTESTANTS_DIR,
    knownOptions: ['hardhatCompat', 'chainId', 'hardfork', 'blockGasLimit', 'allowUnlimitedContractSize', 'throwOnTransactionFailures', 'throwOnCallFailures', 'accounts', 'mining'],
    ...job,
  }
  writeFileSync(jobFile, JSON.stringify(full))
  const out = execFileSync(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'bench/replay/runner.ts'), file, contestant, jobFile], { encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const line = out.split('\n').find((l) => l.startsWith('REPLAY_RESULT '))
  if (line === undefined) throw new Error(`no result:\n${out}`)
  return JSON.parse(line.slice('REPLAY_RESULT '.length)) as ReplayResult
}

describe('bench/replay', () => {
  it('finds gzip scenarios and leaves Git LFS pointers out by name', () => {
    const { scenarios, skipped } = listScenarios(dir)
    expect(scenarios.map((s) => s.name)).toEqual(['tiny_0000'])
    expect(skipped).toEqual(['lfs_0000.jsonl.gz'])
    const s = loadScenario(file)
    expect(s.requests).toHaveLength(requests.length)
    expect(s.config.hardfork).toBe('Shanghai')
  })

  it("names EDR's hardforks as finality and ethereumjs do", () => {
    expect(hardforkName('Cancun')).toBe('cancun')
    expect(hardforkName('Gray Glacier')).toBe('grayGlacier')
  })

  it("replays on finality: EDR's snapshot id translated, the failing request counted", () => {
    const r = replay('finality', { edrIds: { '1': '0x7' } })
    expect(r.requests).toBe(requests.length)
    expect(r.failures).toEqual([4])
    expect(r.idsDiffering).toEqual({ evm_snapshot: 1 })
    expect(r.translated).toBe(1)
    expect(r.perMethod.evm_revert?.n).toBe(1)
    expect(Object.keys(r.failureMessages)).toEqual(['4'])
    expect(r.perMethod.eth_sendTransaction?.cpuMs).toBeGreaterThan(0)
    // The main thread's share of the run's CPU, where Linux's schedstat is there to read it.
    if (existsSync('/proc/thread-self/schedstat')) {
      expect(r.mainCpuMs).toBeGreaterThan(0)
      expect(r.mainCpuMs).toBeLessThanOrEqual(r.cpuMs + 1)
    } else {
      expect(r.mainCpuMs).toBeUndefined()
    }
  })

  it('replays the stream again on a fresh node in the same process (passes)', () => {
    const r = replay('finality', { edrIds: { '1': '0x7' }, passes: 2 })
    expect(r.failures).toEqual([4])
    expect(r.laterPasses).toHaveLength(1)
    const second = r.laterPasses![0]!
    // A fresh node: the same request fails, the snapshot id translates again, nonce 0 is free again.
    expect(second.failures).toEqual([4])
    expect(second.cpuMs).toBeGreaterThan(0)
    if (existsSync('/proc/thread-self/schedstat')) expect(second.mainCpuMs).toBeLessThanOrEqual(second.cpuMs + 1)
    expect(replay('finality', {}).laterPasses).toBeUndefined()
    expect(() => replay('finality', { passes: 0 })).toThrow(/bad passes 0: a positive integer/)
  })

  it('behavior: each later pass has its own per-method figures, and BENCH_REPLAY_PROFILE_PASS profiles that pass alone', () => {
    const profile = path.join(dir, 'pass2.cpuprofile')
    const r = replay('finality', { edrIds: { '1': '0x7' }, passes: 2 }, { BENCH_REPLAY_PROFILE_PASS: '2', BENCH_PROFILE: profile })
    const second = r.laterPasses![0]!
    const counts = (m: ReplayResult['perMethod']) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.n]))
    expect(counts(second.perMethod)).toEqual(counts(r.perMethod))
    expect(second.perMethod.eth_sendTransaction?.cpuMs).toBeGreaterThan(0)
    const written = JSON.parse(readFileSync(profile, 'utf8')) as { nodes: unknown[]; samples: unknown[] }
    expect(written.nodes.length).toBeGreaterThan(0)
    expect(() => replay('finality', { passes: 2 }, { BENCH_REPLAY_PROFILE_PASS: '3' })).toThrow(/BENCH_REPLAY_PROFILE_PASS=3 with 2 passes/)
  })

  it('behavior: perMethodLines lists the methods whose medians differ most, in µs each', () => {
    const a: PerMethod[] = [{ x: { n: 10, ms: 0, cpuMs: 10 }, y: { n: 2, ms: 0, cpuMs: 4 } }, { x: { n: 10, ms: 0, cpuMs: 12 }, y: { n: 2, ms: 0, cpuMs: 4 } }]
    const b: PerMethod[] = [{ x: { n: 10, ms: 0, cpuMs: 11 }, y: { n: 2, ms: 0, cpuMs: 1 } }, { x: { n: 10, ms: 0, cpuMs: 11 } }]
    expect(perMethodLines(a, b, ['EDR', 'finality'])).toEqual([
      '  y (2): EDR 4 ms, finality 1 ms, 2000 → 250 µs each',
      '  x (10): EDR 11 ms, finality 11 ms, 1100 → 1100 µs each',
    ])
  })

  it("maps the recorded line onto EDR's own provider config", () => {
    const c = edrProviderConfig(loadScenario(file).config, (order) => `ordering ${order}`)
    expect(c).toMatchObject({
      chainId: 31337n,
      hardfork: 'shanghai',
      defaultTransactionGasLimit: 30_000_000n,
      initialBaseFeePerGas: 1_000_000_000n,
      minGasPrice: 0n,
      bailOnCallFailure: true,
      mining: { autoMine: true, blockGasLimit: 30_000_000n, memPool: { order: 'ordering Priority' } },
      network: { genesisBlockGasLimit: 30_000_000n, genesisBlockTime: BigInt(Date.parse('2024-03-01T11:04:29Z') / 1000) },
      ownedAccounts: [KEY0],
    })
    expect(c.genesisState).toEqual([{ address: Buffer.from(ADDR0.slice(2), 'hex'), balance: 0x21e19e0c9bab2400000n }])
  })

  // `@nomicfoundation/edr` alone is installed by the bench (bench/contestants), not by `npm ci`.
  // hardhat_reset is answered as Hardhat 2 does (the streams were recorded through it): EDR's own
  // provider does not know the method, so the runner makes a new provider from the same config.
  it.skipIf(!existsSync(path.join(CONTESTANTS_DIR, 'node_modules', '@nomicfoundation', 'edr')))('replays on @nomicfoundation/edr (installed by `npm run bench:contest`), hardhat_reset as Hardhat 2 answers it', () => {
    const idsFile = path.join(dir, 'edr22-ids.json')
    const r = replay('edr', { writeIdsTo: idsFile })
    expect(r.failures).toEqual([4])
    const ids = JSON.parse(readFileSync(idsFile, 'utf8')) as Record<string, string>
    expect(Object.keys(ids).sort()).toEqual(['1', '2', '6', '8'])
  })

  it('replays on EDR (Hardhat 2) and writes its id-giving answers', () => {
    const idsFile = path.join(dir, 'edr-ids.json')
    const r = replay('hardhat', { writeIdsTo: idsFile })
    // EDR is sent its own recorded 0x7, which it does not know: evm_revert answers false, no failure.
    expect(r.failures).toEqual([4])
    const ids = JSON.parse(readFileSync(idsFile, 'utf8')) as Record<string, string>
    expect(Object.keys(ids).sort()).toEqual(['1', '2', '6', '8'])
    expect(ids['2']).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('reports each Node version in a section of its own, both contestants of a row under it, and their CPU side by side', () => {
    const result = (cpuMs: number): ReplayResult => ({
      wallMs: cpuMs + 1,
      cpuMs,
      createMs: 1,
      createCpuMs: 1,
      requests: requests.length,
      failures: [4],
      failureMessages: { '4': 'method eth_noSuchMethod is not supported' },
      perMethod: { eth_sendTransaction: { n: 3, ms: cpuMs / 2, cpuMs: cpuMs / 2 } },
      translated: 0,
      idsDiffering: {},
    })
    const runs: Runs = {
      'v20.20.2|tiny_0000|1': { node: 'v20.20.2', scenario: 'tiny_0000', cores: '1', edr: [result(100)], finality: [result(300)] },
      'v24.22.3|tiny_0000|1': { node: 'v24.22.3', scenario: 'tiny_0000', cores: '1', edr: [result(110)], finality: [result(220)] },
    }
    const nodes = [
      { version: 'v20.20.2', from: 'the running node' },
      { version: 'v24.22.3', from: 'bench/nodes/24' },
    ]
    const text = renderReport({ runs, snapshot: { tiny_0000: [4] }, reps: 1, known: [], load: '1.0, 1.0, 1.0', scenarios: ['tiny_0000'], dir, reference: 'EDR', clock: 'frozen', nodes })
    expect(text).toContain('Node versions: v20.20.2 (the running node), v24.22.3 (bench/nodes/24), EDR and finality under the same one in each row')
    const [, node20, node24] = text.split(/^## Node /m)
    expect(node20).toMatch(/^v20\.20\.2 \(the running node\)\n/)
    expect(node20).toContain('| tiny_0000 | 1 | 9 | 101 | 301 | 2.98× | 100 | 300 | 3.00× | 1 / 1 / 1 | same | same |')
    expect(node20).toContain('each run, node v20.20.2, wall ms (EDR | finality):')
    expect(node20).toContain('per method, tiny_0000, 1 core(s), node v20.20.2')
    expect(node20).not.toContain('v24.22.3')
    expect(node24).toMatch(/^v24\.22\.3 \(bench\/nodes\/24\)\n/)
    expect(node24).toContain('| tiny_0000 | 1 | 9 | 111 | 221 | 1.99× | 110 | 220 | 2.00× | 1 / 1 / 1 | same | same |')
    expect(node24).toContain('tiny_0000, node v24.22.3:')
    expect(text).toContain('| tiny_0000 | 1 | 300 | 100 | 3.00× | 220 | 110 | 2.00× |')
    // One Node: no table across versions.
    const one = renderReport({ runs: { 'v20.20.2|tiny_0000|1': runs['v20.20.2|tiny_0000|1']! }, snapshot: { tiny_0000: [4] }, reps: 1, known: [], load: '1.0', scenarios: ['tiny_0000'], dir, reference: 'EDR', clock: 'frozen', nodes: nodes.slice(0, 1) })
    expect(one).toContain('## Node v20.20.2 (the running node)')
    expect(one).not.toContain('CPU by Node version')
  })

  it('names the clock setting and the environment that freezes a process at the genesis time', () => {
    expect(parseReplayClock(undefined)).toBe('wall')
    expect(parseReplayClock('frozen')).toBe('frozen')
    expect(() => parseReplayClock('paused')).toThrow('bad BENCH_REPLAY_CLOCK paused: wall or frozen')
    const env = frozenClockEnv('/lib/libfaketimeMT.so.1', Date.parse('2024-03-01T11:04:29Z') + 400)
    expect(env).toMatchObject({ LD_PRELOAD: '/lib/libfaketimeMT.so.1', FAKETIME: '2024-03-01 11:04:29', TZ: 'UTC', DONT_FAKE_MONOTONIC: '1' })
  })

  it('refuses a frozen-clock replay in a process whose clock runs', () => {
    expect(() => replay('finality', { clock: 'frozen' })).toThrow(/the frozen clock needs libfaketime preloaded .*Date\.now moved/)
  })

  // libfaketime is a system library (Debian: libfaketime), not an npm package.
  const faketime = findLibfaketime()
  it.skipIf(faketime === undefined)('replays with the clock frozen at the recorded genesis time on finality and EDR', () => {
    const env = frozenClockEnv(faketime!, Date.parse(config.providerConfig.network.Local.genesisBlockTime))
    expect(replay('finality', { clock: 'frozen', edrIds: { '1': '0x7' } }, env).failures).toEqual([4])
    const edr = existsSync(path.join(CONTESTANTS_DIR, 'node_modules', '@nomicfoundation', 'edr')) ? 'edr' : 'hardhat'
    expect(replay(edr, { clock: 'frozen' }, env).failures).toEqual([4])
    // The runner checks the clock stands at the genesis time: another time is refused.
    expect(() => replay(edr, { clock: 'frozen' }, frozenClockEnv(faketime!, Date.parse('2020-01-01T00:00:00Z')))).toThrow(/frozen at 2020-01-01T00:00:00.000Z, not at the recorded genesis time 2024-03-01T11:04:29.000Z/)
  })
})
