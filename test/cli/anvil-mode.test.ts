/**
 * `finality --anvil`: what `anvil` with no flags gives a Foundry user that finality's defaults do
 * not (debug_* and trace_* on loopback, for `cast run` and `cast trace`; personal_sign; 10
 * accounts), checked on the parsed settings and on the CLI as a process, over HTTP with the
 * requests cast sends.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { isLoopback } from '../../src/adapters/auth.js'
import { ANVIL_EXTRA_API, defaultApi, helpText, parseCli } from '../../src/cli/config.js'
import { EPHEMERAL, startCli } from '../helpers/cli.js'
import { rpc } from '../helpers/loopback.js'

const LOOPBACK = ['eth', 'web3', 'net', 'rpc', 'evm', 'hardhat', 'anvil', 'txpool', 'finality']

describe('--anvil', () => {
  it('settings: 10 accounts unless --accounts; debug, trace and personal on loopback only; --json-rpc.api wins', () => {
    expect(parseCli(['--anvil'])).toMatchObject({ anvil: true, accounts: 10 })
    expect(parseCli(['--anvil', '--accounts', '3'])).toMatchObject({ anvil: true, accounts: 3 })
    expect(parseCli([])).toMatchObject({ anvil: false, accounts: 20 })
    expect(defaultApi('127.0.0.1:8545', isLoopback, false, true)).toEqual([...LOOPBACK, ...ANVIL_EXTRA_API])
    expect(defaultApi('127.0.0.1:8545', isLoopback, true, true)).toEqual([...LOOPBACK, 'debug', 'personal', 'trace'])
    expect(defaultApi('127.0.0.1:8545', isLoopback)).not.toContain('trace')
    expect(defaultApi('0.0.0.0:8545', isLoopback, false, true)).toEqual(['eth', 'web3', 'net', 'rpc'])
    expect(parseCli(['--anvil', '--json-rpc.api', 'eth']).api).toEqual(['eth'])
    expect(() => parseCli(['--anvil=maybe'])).toThrow()
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-anvil-'))
    writeFileSync(path.join(dir, 'node.toml'), 'anvil = true\n')
    expect(parseCli(['--config', path.join(dir, 'node.toml')])).toMatchObject({ anvil: true, accounts: 10 })
    expect(helpText()).toMatch(/--anvil +Anvil's defaults: debug, trace and personal/)
  })

  it('the CLI: the banner says so; cast trace\'s and cast run\'s requests are answered over HTTP', async () => {
    const cli = await startCli(['--anvil', '--quiet', ...EPHEMERAL])
    try {
      expect(cli.out()).toContain('Anvil:    defaults (--anvil)')
      expect(cli.out()).toContain(`Namespaces: ${[...LOOPBACK, ...ANVIL_EXTRA_API].join(',')}`)
      expect(cli.out()).toContain('(9) 0x')
      expect(cli.out()).not.toContain('(10) 0x')
      const [from] = (await rpc(cli.http, 'eth_accounts')).result as Hex[]
      const hash = (await rpc(cli.http, 'eth_sendTransaction', [{ from, to: '0x000000000000000000000000000000000000bEEF', value: '0x3' }])).result as Hex
      // cast trace <hash>
      expect((await rpc(cli.http, 'trace_transaction', [hash])).result).toMatchObject([{ type: 'call', action: { callType: 'call', value: '0x3' }, transactionHash: hash, traceAddress: [] }])
      // cast trace --raw <signed tx> --trace --state-diff
      const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
      const raw = await privateKeyToAccount(key).signTransaction({ chainId: 31337, nonce: 1, to: '0x000000000000000000000000000000000000bEEF', value: 5n, gas: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n })
      const traced = (await rpc(cli.http, 'trace_rawTransaction', [raw, ['trace', 'stateDiff']])).result as { trace: unknown[]; stateDiff: Record<string, unknown> }
      expect(traced.trace).toHaveLength(1)
      expect(traced.stateDiff['0x000000000000000000000000000000000000beef']).toEqual({ balance: { '*': { from: '0x3', to: '0x8' } }, code: '=', nonce: '=', storage: {} })
      // cast run --debug-trace-transaction
      expect((await rpc(cli.http, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])).result).toMatchObject({ type: 'CALL', value: '0x3' })
    } finally {
      expect(await cli.stop()).toBe(0)
    }
  })
})
