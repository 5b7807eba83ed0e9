/**
 * A Hardhat 2 project (test/hardhat/project: hardhat-ethers, chai matchers, network helpers, OpenZeppelin
 * contracts compiled with the solc npm package) runs its mocha suite against finality the ways
 * docs/hardhat.md sets it up: the `finality-evm/hardhat` plugin on Hardhat's own `hardhat` network
 * (in-process, then served by `hardhat node`), and the CLI over HTTP (`--network localhost`, then
 * the same node as `--network finality`). Every test must pass, none may be skipped, and
 * `hardhat test` must exit 0; a failing test must make it fail. The project loads the plugin's
 * sources through tsx (FINALITY_HARDHAT), where a user's project requires 'finality-evm/hardhat'.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { EPHEMERAL, startCli, type RunningCli } from '../helpers/cli.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const PROJECT = path.join(ROOT, 'test', 'hardhat', 'project')
const HARDHAT = path.join(ROOT, 'node_modules', 'hardhat', 'internal', 'cli', 'bootstrap.js')
const SUITES = ['network', 'fixtures and time', 'state', 'reverts', 'governance and time locks']
/** The plugin's sources, loaded by the project's config under tsx. */
const PLUGIN = { FINALITY_HARDHAT: path.join(ROOT, 'src', 'hardhat', 'hardhat2.ts') }
const TSX = ['--import', 'tsx']
/** hardhat-gas-reporter, installed from npm into the project's git-ignored .cache/ once. */
const GAS_REPORTER_VERSION = '2.3.0'
const GAS_REPORTER_DIR = path.join(PROJECT, '.cache', `gas-reporter-${GAS_REPORTER_VERSION}`)

/** The installed hardhat-gas-reporter's folder, installing it the first time. */
async function gasReporter(): Promise<string> {
  const installed = path.join(GAS_REPORTER_DIR, 'installed')
  if (!existsSync(installed)) {
    mkdirSync(GAS_REPORTER_DIR, { recursive: true })
    writeFileSync(path.join(GAS_REPORTER_DIR, 'package.json'), '{ "private": true }\n')
    // Without its peer dependency, Hardhat: the plugin must register with the project's Hardhat.
    await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--legacy-peer-deps', `hardhat-gas-reporter@${GAS_REPORTER_VERSION}`], {
      cwd: GAS_REPORTER_DIR,
      maxBuffer: 64 << 20,
    })
    writeFileSync(installed, '')
  }
  return path.join(GAS_REPORTER_DIR, 'node_modules', 'hardhat-gas-reporter')
}

interface MochaTest {
  fullTitle: string
  err: { message?: string; stack?: string }
}

interface MochaReport {
  stats: { suites: number; tests: number; passes: number; pending: number; failures: number }
  tests: MochaTest[]
  passes: MochaTest[]
  pending: MochaTest[]
  failures: MochaTest[]
}

/**
 * Runs Hardhat in the project with `args`; resolves to its exit code and output. Telemetry and
 * update checks stay off (CI=true: no prompt, no analytics, no error reports, no banner).
 */
function hardhat(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const child = startHardhat(args, env)
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })))
}

/** A Hardhat process in the project, the plugin's sources loaded through tsx. */
function startHardhat(args: string[], env: Record<string, string>): ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream } {
  return spawn(process.execPath, [...TSX, HARDHAT, ...args], {
    cwd: PROJECT,
    env: { ...process.env, CI: 'true', HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', NO_COLOR: '1', ...PLUGIN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream }
}

/** `hardhat test` on `network` (compiled beforehand), with mocha's JSON report; `files` instead of the project's tests. */
async function runSuite(network: string, env: Record<string, string> = {}, grep?: string, files: string[] = []): Promise<{ code: number | null; out: string; report: MochaReport }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'finality-mocha-')), 'report.json')
  const args = ['test', '--no-compile', '--network', network, ...(grep === undefined ? [] : ['--grep', grep]), ...files]
  const run = await hardhat(args, { ...env, FINALITY_MOCHA_JSON: file })
  let report: MochaReport
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as MochaReport
  } catch {
    throw new Error(`hardhat test --network ${network} wrote no report (exit ${run.code}):\n${run.out}`)
  }
  return { ...run, report }
}

/** Every test passed, none was skipped, and every suite of the project ran. */
function expectAllPassed(report: MochaReport): void {
  expect(report.failures.map((t) => `${t.fullTitle}: ${t.err.message ?? ''}`)).toEqual([])
  expect(report.pending.map((t) => t.fullTitle)).toEqual([])
  expect(report.stats.passes).toBe(report.stats.tests)
  expect(report.stats.tests).toBeGreaterThanOrEqual(30)
  for (const suite of SUITES) expect(report.passes.some((t) => t.fullTitle.startsWith(`${suite} `)), suite).toBe(true)
}

describe('a Hardhat project against finality', () => {
  beforeAll(async () => {
    // Once: artifacts and Hardhat's cache stay in test/hardhat/project (git-ignored) for later runs.
    const { code, out } = await hardhat(['compile', '--quiet'])
    expect(code, out).toBe(0)
  }, 300_000)

  describe('the CLI over HTTP: npx finality --hardhat, hardhat test --network localhost', () => {
    let cli: RunningCli | undefined
    afterAll(async () => {
      await cli?.stop()
    })

    it('every test passes, none skipped', async () => {
      cli = await startCli([...EPHEMERAL, '--hardhat', '--hardfork', 'osaka', '--allow-unlimited-contract-size', '--quiet'])
      const { report } = await runSuite('localhost', { FINALITY_URL: cli.http })
      expectAllPassed(report)
    }, 240_000)

    it('the same node as a network named finality (every send estimated first), on the chain the first run left: every test passes', async () => {
      if (cli === undefined) throw new Error('the CLI did not start')
      const { report } = await runSuite('finality', { FINALITY_URL: cli.http })
      expectAllPassed(report)
    }, 240_000)
  })

  describe("the plugin: require('finality-evm/hardhat'), Hardhat's own hardhat network", () => {
    it('hardhat test: every test passes, none skipped, exit code 0 (hardhat_getStackTraceFailuresCount answered after the run)', async () => {
      const { code, out, report } = await runSuite('hardhat')
      expectAllPassed(report)
      expect(code, out).toBe(0)
      expect(out).not.toMatch(/Failed to generate|stack trace/i)
    }, 240_000)

    it("hardhat-gas-reporter (from npm): every test passes, and its figures are Hardhat Network's own (Reverter's deployment and succeed(), run on Hardhat itself)", async () => {
      const reporter = await gasReporter()
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'finality-gas-')), 'gas.json')
      const { code, out, report } = await runSuite('hardhat', { FINALITY_GAS_REPORTER: reporter, FINALITY_GAS_REPORT: file })
      expectAllPassed(report)
      expect(code, out).toBe(0)
      const gas = JSON.parse(readFileSync(file, 'utf8')) as {
        data: { methods: Record<string, { contract: string; method: string; numberOfCalls: number; gasData: number[] }>; deployments: { name: string; gasData: number[] }[] }
      }
      // The reference: `hardhat run` on Hardhat's own network (the project without the plugin).
      const reference = await hardhat(['run', '--no-compile', 'scripts/gas-probe.js'], { FINALITY_HARDHAT: 'none' })
      const line = /^\{"client".*$/m.exec(reference.out)
      if (line === null) throw new Error(`the reference run printed no figures:\n${reference.out}`)
      const edr = JSON.parse(line[0]) as { client: string; deployment: number; succeed: number }
      expect(edr.client).toMatch(/^HardhatNetwork\/2\.29\.1\/@nomicfoundation\/edr\//)
      const succeed = Object.values(gas.data.methods).find((m) => m.contract === 'Reverter' && m.method === 'succeed')
      expect(succeed?.numberOfCalls).toBeGreaterThan(0)
      expect([...new Set(succeed?.gasData)]).toEqual([edr.succeed])
      expect([...new Set(gas.data.deployments.find((d) => d.name === 'Reverter')?.gasData)]).toEqual([edr.deployment])
      expect(gas.data.deployments.find((d) => d.name === 'Big')?.gasData.length).toBeGreaterThan(0)
    }, 480_000)

    it('a failing test makes hardhat test fail', async () => {
      const { code, report } = await runSuite('hardhat', {}, undefined, ['failing/fails.js'])
      expect(report.stats.tests).toBe(1)
      expect(report.failures.map((t) => t.fullTitle)).toEqual(['a failing test expects a block the chain does not have'])
      expect(code).toBe(1)
    }, 240_000)
  })

  describe('hardhat node: the plugin\'s node served over HTTP and WebSocket', () => {
    let child: ReturnType<typeof startHardhat> | undefined
    let out = ''
    let port = 0
    afterAll(() => {
      if (child?.exitCode === null) child.kill('SIGINT')
    })

    it('starts with Hardhat\'s banner: the address, then the accounts with their keys', async () => {
      // Hardhat binds 0.0.0.0 by default inside a container; the test keeps to loopback.
      child = startHardhat(['node', '--hostname', '127.0.0.1', '--port', '0'], {})
      const started = child
      port = await new Promise<number>((resolve, reject) => {
        const read = (d: Buffer) => {
          out += d
          const at = /Started HTTP and WebSocket JSON-RPC server at http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)
          if (at !== null && out.includes('Account #19:')) resolve(Number(at[1]))
        }
        started.stdout.on('data', read)
        started.stderr.on('data', read)
        started.once('exit', (code) => reject(new Error(`hardhat node exited (${code}):\n${out}`)))
      })
      expect(out).toContain('Accounts\n========')
      expect(out).toContain('WARNING: These accounts, and their private keys, are publicly known.')
      expect(out).toContain('Account #0: 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (10000 ETH)\nPrivate Key: 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
      const version = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_clientVersion', params: [] }),
      }).then((r) => r.json() as Promise<{ result: string }>)
      expect(version.result).toMatch(/^HardhatNetwork\/finality\//)
    }, 120_000)

    it('WebSocket: eth_subscribe newHeads delivers the block a send mines', async () => {
      if (port === 0) throw new Error('hardhat node did not start')
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`)
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
      const messages: { id?: number; result?: string; method?: string; params?: { subscription: string; result: { number: string } } }[] = []
      const next = (test: (m: (typeof messages)[number]) => boolean) =>
        new Promise<(typeof messages)[number]>((resolve) => {
          const look = () => {
            const found = messages.find(test)
            if (found !== undefined) resolve(found)
            else ws.once('message', look)
          }
          look()
        })
      ws.on('message', (d) => messages.push(JSON.parse(String(d))))
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
      const id = (await next((m) => m.id === 1)).result
      expect(id).toMatch(/^0x/)
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [{ from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0x1' }] }))
      const head = await next((m) => m.method === 'eth_subscription' && m.params?.subscription === id)
      expect(head.params?.result.number).toMatch(/^0x[1-9a-f]/)
      ws.close()
    }, 60_000)

    it("with another network as the project's default, hardhat node serves a finality node too", async () => {
      const other = startHardhat(['node', '--hostname', '127.0.0.1', '--port', '0'], { FINALITY_DEFAULT_NETWORK: 'localhost' })
      try {
        let text = ''
        const at = await new Promise<number>((resolve, reject) => {
          const read = (d: Buffer) => {
            text += d
            const found = /JSON-RPC server at http:\/\/127\.0\.0\.1:(\d+)\//.exec(text)
            if (found !== null) resolve(Number(found[1]))
          }
          other.stdout.on('data', read)
          other.stderr.on('data', read)
          other.once('exit', (code) => reject(new Error(`hardhat node exited (${code}):\n${text}`)))
        })
        const version = await fetch(`http://127.0.0.1:${at}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_clientVersion', params: [] }),
        }).then((r) => r.json() as Promise<{ result: string }>)
        expect(version.result).toMatch(/^HardhatNetwork\/finality\//)
      } finally {
        other.kill('SIGINT')
      }
    }, 120_000)

    it('hardhat test --network localhost against it: every test passes, none skipped; the node logs each method', async () => {
      if (port === 0) throw new Error('hardhat node did not start')
      const { code, report } = await runSuite('localhost', { FINALITY_URL: `http://127.0.0.1:${port}` })
      expectAllPassed(report)
      expect(code).toBe(0)
      expect(out).toMatch(/^eth_sendTransaction$/m)
    }, 240_000)
  })

  describe('without --hardhat', () => {
    let cli: RunningCli | undefined
    afterAll(async () => {
      await cli?.stop()
    })

    it('the network helpers refuse the node: finality/… is not a client version they know', async () => {
      cli = await startCli([...EPHEMERAL, '--json-rpc.api', 'eth,web3,net,evm,hardhat', '--quiet'])
      const { report } = await runSuite('localhost', { FINALITY_URL: cli.http }, 'loadFixture')
      expect(report.stats.tests).toBe(2)
      expect(report.stats.passes).toBe(0)
      expect(report.failures.length).toBe(2)
      // The first refusal names the client version it read; the helpers keep the verdict after it.
      expect(report.failures[0]?.err.message).toMatch(/^This helper can only be used with Hardhat Network\. You are connected to 'localhost', whose identifier is 'finality\/v/)
      expect(report.failures[1]?.err.message).toMatch(/^This helper can only be used with Hardhat Network\. You are connected to 'localhost'/)
    }, 240_000)
  })
})
