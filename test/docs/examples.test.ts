/**
 * The examples in examples/ run as users run them (`npx tsx examples/<name>.ts`, a child
 * process) and print what they promise, so the README's pointers to them stay true.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))

async function example(name: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', `examples/${name}.ts`], { cwd: root, timeout: 60_000 })
  return stdout
}

describe('examples', () => {
  it('quickstart: a transfer, its receipt and its commit certificate', async () => {
    const out = await example('quickstart')
    expect(out).toMatch(/block\s+0x1 status 0x1 gas used 0x5208/)
    expect(out).toMatch(/certificate 1 precommit\(s\), valid: true/)
  }, 60_000)

  it('viem-fixture: a fixture restored per test, time travel, a custom error', async () => {
    const out = await example('viem-fixture')
    expect(out).toContain('test 1: count = 2n')
    expect(out).toContain('test 2: count after restore = 0n')
    expect(out).toContain('test 3: reverted with TooLate')
  }, 60_000)

  it('express: the node mounted on an Express app next to its own routes, HTTP and WebSocket', async () => {
    const out = await example('express')
    expect(out).toContain('chain id  31337')
    expect(out).toContain('mined in  1n status success')
    expect(out).toContain('ws heads  1')
    expect(out).toContain('health    {"ok":true}')
  }, 60_000)

  it('ethers: deploy, an event, a signed message and a commit certificate', async () => {
    const out = await example('ethers')
    expect(out).toMatch(/deployed {2}0x[0-9a-fA-F]{40}/)
    expect(out).toContain('event     Incremented 1n in block 2')
    expect(out).toContain('signed by the node account')
    expect(out).toContain('finality  block 2 committed with 1 precommit(s), valid: true')
  }, 60_000)
})
