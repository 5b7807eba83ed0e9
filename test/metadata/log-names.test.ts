/**
 * The node's log (createNode's `onLog`, what the CLI prints) names custom errors and events with
 * the node's contract metadata: a failed call's and a reverted transaction's custom error as
 * `reverted with custom error 'Name(args)'`, a transaction's events as `Name(args)`; without
 * metadata the selector, and no events line.
 */
import { describe, expect, it } from 'vitest'
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import type { LogEntry } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { vaultBuildInfo, VAULT_SOURCE } from './vault-build.js'

const newNode = trackNodes()
const build = vaultBuildInfo()
const Vault = build.output.contracts[VAULT_SOURCE]!.Vault as unknown as { abi: Abi; evm: { bytecode: { object: string } } }
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const A_CHECKSUMMED = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

async function run(artifacts: unknown): Promise<{ entries: LogEntry[]; lines: string[] }> {
  const entries: LogEntry[] = []
  const lines: string[] = []
  const node = await newNode({ ...(artifacts === undefined ? {} : { artifacts: artifacts as never }), onLog: (entry, line) => (entries.push(entry), lines.push(line)) })
  const deployed = await node.request({ method: 'eth_sendTransaction', params: [{ from: A, data: encodeDeployData({ abi: Vault.abi, bytecode: `0x${Vault.evm.bytecode.object}`, args: [4_000_000_000n] }) }] })
  const { contractAddress: vault } = (await node.request({ method: 'eth_getTransactionReceipt', params: [deployed] })) as { contractAddress: Hex }
  await node.request({ method: 'eth_sendTransaction', params: [{ from: A, to: vault, value: '0x64', data: encodeFunctionData({ abi: Vault.abi, functionName: 'deposit' }) }] })
  await node.request({ method: 'eth_call', params: [{ from: OTHER, to: vault, data: encodeFunctionData({ abi: Vault.abi, functionName: 'onlyOwner' }) }] }).catch(() => undefined)
  // A send with its gas given is mined and reverts (no estimate refuses it first).
  await node.request({ method: 'eth_sendTransaction', params: [{ from: A, to: vault, gas: '0x100000', data: encodeFunctionData({ abi: Vault.abi, functionName: 'withdraw' }) }] }).catch(() => undefined)
  return { entries, lines }
}

describe('the node log with contract metadata', () => {
  it('names the custom error of a failed call and of a reverted transaction, and each event', { timeout: 120_000 }, async () => {
    const { entries, lines } = await run(build)
    const call = entries.find((e) => e.type === 'request' && e.method === 'eth_call')
    expect(call).toMatchObject({ error: { failure: { kind: 'custom', selector: '0x884ca587', name: expect.stringMatching(/^NotOwner\("0x70997970C51812dc3A010C7d01b50e0d17dc79C8", ".*"\)$/) } } })
    expect(lines.join('\n')).toMatch(/Error:\s+reverted with custom error 'NotOwner\("0x70997970C51812dc3A010C7d01b50e0d17dc79C8", /)
    const txs = entries.filter((e) => e.type === 'transaction')
    expect(txs.map((t) => t.events)).toEqual([[], [`Deposited("${A_CHECKSUMMED}", 100)`], []])
    expect(txs[2]).toMatchObject({ status: 'reverted', failure: { kind: 'custom', name: expect.stringMatching(/^TooEarly\(\d+, 4000000000\)$/) } })
    expect(lines.join('\n')).toContain(`  events:\n    Deposited("${A_CHECKSUMMED}", 100)`)
  })

  it('without metadata: the selector and its arguments\' hex, and no events', { timeout: 120_000 }, async () => {
    const { entries, lines } = await run(undefined)
    const call = entries.find((e) => e.type === 'request' && e.method === 'eth_call')
    expect(call).toMatchObject({ error: { failure: { kind: 'custom', selector: '0x884ca587' } } })
    expect((call as { error: { failure: { name?: string } } }).error.failure.name).toBeUndefined()
    expect(entries.filter((e) => e.type === 'transaction').every((t) => !('events' in t))).toBe(true)
    expect(lines.join('\n')).toMatch(/reverted with custom error 0x884ca587 \(arguments 0x/)
    expect(lines.join('\n')).not.toContain('events:')
  })
})
