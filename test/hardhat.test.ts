/**
 * A Hardhat 2 project (test/hardhat: hardhat-ethers, chai matchers, network helpers, OpenZeppelin
 * contracts compiled with the solc npm package) runs its mocha suite against finality the two
 * ways docs/hardhat.md sets it up: the CLI over HTTP (`--network localhost`, then the same node as
 * `--network finality`), and a node inside Hardhat's own process (`--network inprocess`). Every
 * test must pass and none may be skipped.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EPHEMERAL, startCli, type RunningCli } from './helpers/cli.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PROJECT = path.join(ROOT, 'test', 'hardhat')
const HARDHAT = path.join(ROOT, 'node_modules', 'hardhat', 'internal', 'cli', 'bootstrap.js')
const SUITES = ['network', 'fixtures and time', 'state', 'reverts', 'governance and time locks']

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
function hardhat(args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [...nodeFlags, HARDHAT, ...args], {
    cwd: PROJECT,
    env: { ...process.env, CI: 'true', HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })))
}

/** `hardhat test` on `network` (compiled beforehand), with mocha's JSON report. */
async function runSuite(network: string, env: Record<string, string> = {}, nodeFlags: string[] = [], grep?: string): Promise<{ code: number | null; out: string; report: MochaReport }> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'finality-mocha-')), 'report.json')
  const args = ['test', '--no-compile', '--network', network, ...(grep === undefined ? [] : ['--grep', grep])]
  const run = await hardhat(args, { ...env, FINALITY_MOCHA_JSON: file }, nodeFlags)
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
    // Once: artifacts and Hardhat's cache stay in test/hardhat (git-ignored) for later runs.
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

  it('in-process: the node inside Hardhat\'s process (hardhat test --network inprocess), every test passes, none skipped', async () => {
    const { report } = await runSuite('inprocess', { FINALITY_MODULE: pathToFileURL(path.join(ROOT, 'src', 'index.ts')).href }, ['--import', 'tsx'])
    expectAllPassed(report)
  }, 240_000)

  describe('without --hardhat', () => {
    let cli: RunningCli | undefined
    afterAll(async () => {
      await cli?.stop()
    })

    it('the network helpers refuse the node: finality/… is not a client version they know', async () => {
      cli = await startCli([...EPHEMERAL, '--json-rpc.api', 'eth,web3,net,evm,hardhat', '--quiet'])
      const { report } = await runSuite('localhost', { FINALITY_URL: cli.http }, [], 'loadFixture')
      expect(report.stats.tests).toBe(2)
      expect(report.stats.passes).toBe(0)
      expect(report.failures.length).toBe(2)
      // The first refusal names the client version it read; the helpers keep the verdict after it.
      expect(report.failures[0]?.err.message).toMatch(/^This helper can only be used with Hardhat Network\. You are connected to 'localhost', whose identifier is 'finality\/v/)
      expect(report.failures[1]?.err.message).toMatch(/^This helper can only be used with Hardhat Network\. You are connected to 'localhost'/)
    }, 240_000)
  })
})
