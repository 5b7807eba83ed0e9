/**
 * The Hardhat 2 plugin hands the project's build-info files to the node: `hardhat test` of a
 * test that reads a failed call's message and stack (test/hardhat/project/test-errors/custom-errors.js),
 * in the repository's Hardhat project, the plugin's sources loaded through tsx.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const PROJECT = path.join(ROOT, 'test', 'hardhat', 'project')
const HARDHAT = path.join(ROOT, 'node_modules', 'hardhat', 'internal', 'cli', 'bootstrap.js')

function hardhat(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', HARDHAT, ...args], {
    cwd: PROJECT,
    env: { ...process.env, CI: 'true', HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', NO_COLOR: '1', FINALITY_HARDHAT: path.join(ROOT, 'src', 'hardhat', 'hardhat2.ts') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })))
}

describe('the Hardhat 2 plugin and the project\'s build-info', () => {
  it('hardhat test: a failed call names its custom error and its Solidity frame', { timeout: 300_000 }, async () => {
    const { code, out } = await hardhat(['test', 'test-errors/custom-errors.js'])
    expect(out).toContain('1 passing')
    expect(code, out).toBe(0)
  })
})
