/**
 * The engine's fast paths change no outcome. The same corpus (the hand-written programs of
 * corpus.ts and programs generated from a fixed seed: calls, creates, reverts, logs,
 * storage, out of gas at many limits, as EVM calls and as transactions) runs on every supported
 * hardfork in two processes, one with the patches off (FINALITY_ENGINE=plain) and one with them
 * on (=fast); every outcome (return data, gas, refund, logs, error, created address, the state
 * root after each run) must be the same. The transactions (and the cases of tx-cases.ts, every
 * branch of a transaction's run and every refusal) compare the engine's own run of a transaction
 * with @ethereumjs/vm's `runTx`: every field of the result, the receipt and the error's words.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_HARDFORKS } from '../../../src/chain/common.js'

const run = promisify(execFile)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const SCRIPT = path.join(ROOT, 'test', 'execution', 'engine', 'differential', 'outcomes.ts')
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx')

interface Outcome {
  error?: string
  logs: unknown[]
  created?: string
}
interface Side {
  status: { patches: Record<string, boolean>; reason?: string }
  count: number
  /** The transaction cases the engine's own run took, and those it left to the library. */
  ran: { engine: number; library: number }
  outcomes: Record<string, Outcome[]>
}

async function side(mode: 'plain' | 'fast'): Promise<Side> {
  const env: NodeJS.ProcessEnv = { ...process.env, FINALITY_ENGINE: mode }
  delete env.NODE_OPTIONS
  const { stdout } = await run(TSX, [SCRIPT], { cwd: ROOT, env, maxBuffer: 256 << 20 })
  return JSON.parse(stdout) as Side
}

describe('the engine with its fast paths on and off', () => {
  it('behavior: every program and transaction ends the same on every supported hardfork', async () => {
    const [plain, fast] = await Promise.all([side('plain'), side('fast')])
    // Each side ran the engine it was meant to.
    expect(Object.values(plain.status.patches).some(Boolean)).toBe(false)
    expect(plain.status.reason).toBe('turned off by FINALITY_ENGINE=plain')
    expect(Object.values(fast.status.patches).every(Boolean)).toBe(true)
    expect(fast.status.reason).toBeUndefined()
    // The plain side ran the library's runTx for every transaction case, the fast side its own.
    expect(plain.ran.engine).toBe(0)
    expect(fast.ran.library).toBe(0)
    expect(fast.ran.engine).toBe(plain.ran.library)

    expect(Object.keys(fast.outcomes)).toEqual(Object.keys(plain.outcomes))
    for (const key of Object.keys(plain.outcomes)) expect(fast.outcomes[key], key).toEqual(plain.outcomes[key])

    // The corpus reaches what it is meant to test, on every fork.
    for (const fork of SUPPORTED_HARDFORKS) {
      const runs = Object.entries(plain.outcomes).filter(([key]) => key.startsWith(`${fork} `)).flatMap(([, r]) => r)
      const errors = new Set(runs.map((r) => r.error ?? 'none'))
      for (const expected of ['none', 'out of gas', 'revert', 'invalid opcode', 'stack underflow']) expect(errors, fork).toContain(expected)
      expect(runs.filter((r) => r.logs.length > 0).length, fork).toBeGreaterThan(4)
      expect(runs.filter((r) => r.created !== undefined).length, fork).toBeGreaterThan(10)
    }
    expect(plain.count).toBeGreaterThan(200)
  }, 600_000) // two CPU-bound processes: ~1 min alone, several beside other test files on 2 cores
})
