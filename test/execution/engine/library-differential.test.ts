/**
 * The engine's uses of @ethereumjs/common, tx and block internals change no answer. The same
 * requests (sends signed by the node, raw EIP-1559 transactions, a creation, an impersonated
 * send, anvil_setChainId and sends under the new id, a refused raw transaction of the old id,
 * calls, an estimate, a moved precompile, eth_config, calls refused by the transaction's run
 * (funds, intrinsic gas, the fee cap), an access list, a failed creation, a simulation, traces,
 * every block and receipt) run on a
 * node of every supported hardfork in two processes: one with the engine's paths off
 * (FINALITY_ENGINE=plain: the plain Common, headers and transactions by their constructors,
 * no kept answers, the library's runTx) and one with them on. Every answer, block hashes included, must be the same.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_HARDFORKS } from '../../../src/chain/common.js'
import type { EngineStatus } from '../../../src/execution/engine/index.js'

const run = promisify(execFile)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const SCRIPT = path.join(ROOT, 'test', 'execution', 'engine', 'differential', 'node-outcomes.ts')
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx')

interface Answer {
  method: string
  result?: unknown
  error?: string
}
interface Side {
  status: EngineStatus
  answers: Record<string, Answer[]>
}

async function side(mode: 'plain' | 'fast'): Promise<Side> {
  const env: NodeJS.ProcessEnv = { ...process.env, FINALITY_ENGINE: mode }
  delete env.NODE_OPTIONS
  const { stdout } = await run(TSX, [SCRIPT], { cwd: ROOT, env, maxBuffer: 64 << 20 })
  return JSON.parse(stdout) as Side
}

describe('the engine with its paths through library internals on and off', () => {
  it('behavior: every answer of a node is the same on every supported hardfork', async () => {
    const [plain, fast] = await Promise.all([side('plain'), side('fast')])
    // Each side ran the paths it was meant to.
    for (const gate of Object.values(plain.status.libraries)) expect(gate).toMatchObject({ verified: true, fast: false, reason: 'turned off by FINALITY_ENGINE=plain' })
    for (const gate of Object.values(fast.status.libraries)) expect({ ...gate, version: undefined }).toEqual({ verified: true, fast: true })

    expect(Object.keys(fast.answers)).toEqual([...SUPPORTED_HARDFORKS])
    for (const fork of SUPPORTED_HARDFORKS) {
      const answers = plain.answers[fork] ?? []
      expect(fast.answers[fork], fork).toEqual(answers)
      // The run reached what it is meant to test.
      const of = (method: string) => answers.filter((a) => a.method === method)
      expect(of('eth_chainId').map((a) => a.result), fork).toEqual(['0x7a69', '0x4d2'])
      expect(of('eth_call').map((a) => a.result ?? a.error?.replace(/\d+$/, 'N')), fork).toEqual([
        `0x${'7a69'.padStart(64, '0')}`,
        `0x${'4d2'.padStart(64, '0')}`,
        '0xabcd',
        'insufficient funds for gas * price + value: address 0x00000000000000000000000000000000000b0b00 have 0 want N',
        'intrinsic gas too low: gas 20480, minimum needed N',
        'max fee per gas less than block base fee: address 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266, maxFeePerGas: 1, baseFee: N',
      ])
      expect(of('eth_sendRawTransaction').map((a) => a.error), fork).toEqual([undefined, undefined, 'invalid chain id for signer'])
      // Every send succeeded but the failed creation (its receipt asked twice).
      expect(of('eth_getTransactionReceipt').map((a) => (a.result as { status?: string } | undefined)?.status), fork).toEqual(['0x1', '0x0', '0x1', '0x1', '0x1', '0x1', '0x1', '0x1'])
      expect(of('eth_createAccessList').map((a) => a.result), fork).toEqual([{ accessList: [], gasUsed: '0x5219' }])
      expect(of('eth_simulateV1').map((a) => a.error), fork).toEqual([undefined])
      expect(of('eth_getBlockByNumber').length, fork).toBe(8)
    }
  }, 120_000)
})
