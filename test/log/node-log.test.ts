/**
 * createNode({ onLog }): the node's log in-process, the entries the CLI prints: structured
 * entries with their formatted lines, colours only when asked, silenced by
 * hardhat_setLoggingEnabled(false), the option checked.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { createNode, type Hex, type LogEntry, type RpcTransactionRequest } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { vaultBuildInfo, VAULT_SOURCE } from '../metadata/vault-build.js'

const artifacts = loadArtifacts()
const fn = (abi: Abi, functionName: string, args: unknown[] = []) => encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])

describe('createNode({ onLog })', () => {
  it('hands each entry with its line: transactions, failures, console.log, block ranges, requests', async () => {
    const log: Array<{ entry: LogEntry; line: string }> = []
    const node = await createNode({ onLog: (entry, line) => log.push({ entry, line }) })
    try {
      const [a, b] = node.accounts
      const from = a!.address
      const send = (tx: RpcTransactionRequest) => node.request({ method: 'eth_sendTransaction', params: [{ from, ...tx }] })
      const deployed = await send({ data: artifacts.Reverter!.bytecode })
      const created = log.find((l) => l.entry.type === 'transaction')!
      expect(created.entry).toMatchObject({ type: 'transaction', hash: deployed, from, to: undefined, contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3', value: 0n, blockNumber: 1n, status: 'success', failure: undefined, consoleLogs: [] })
      expect(created.line).toContain('  Contract created: 0x5FbDB2315678afecb367f032d93F642f64180aa3')
      const to = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
      const abi = artifacts.Reverter!.abi
      await send({ to, gas: '0x100000', data: fn(abi, 'revertWithReason') })
      await send({ to, gas: '0x100000', data: fn(abi, 'revertWithCustomError', [7n]) })
      await send({ to, gas: '0x100000', data: fn(abi, 'panicDivide', [0n]) })
      await send({ to, gas: '0x100000', data: fn(abi, 'bareRevert') })
      await send({ to: b!.address, value: '0x1', gas: '0x5208' })
      const failures = log.flatMap((l) => (l.entry.type === 'transaction' && l.entry.status === 'reverted' ? [l.entry.failure] : []))
      expect(failures).toEqual([
        { kind: 'reason', reason: 'nope' },
        { kind: 'custom', selector: '0xda472023', data: `0x${from.slice(2).toLowerCase().padStart(64, '0')}${'7'.padStart(64, '0')}` },
        { kind: 'panic', code: 0x12n, description: 'Division or modulo division by zero' },
        { kind: 'empty' },
      ])
      const transfer = log.filter((l) => l.entry.type === 'transaction').at(-1)!
      expect(transfer.entry).toMatchObject({ to: b!.address, value: 1n, gasUsed: 21000n, gasLimit: 21000n, status: 'success' })

      // A failing call: its decoded revert and console.log under its request.
      const logger = (await node.request({ method: 'eth_getTransactionReceipt', params: [await send({ data: artifacts.Logger!.bytecode })] })) as { contractAddress: Hex }
      await expect(node.request({ method: 'eth_call', params: [{ from, to: logger.contractAddress, data: fn(artifacts.Logger!.abi, 'failAfterLog') }] })).rejects.toThrow('failed after log')
      const callEntry = log.at(-1)!
      expect(callEntry.entry).toMatchObject({ type: 'request', method: 'eth_call', error: { code: 3, failure: { kind: 'reason', reason: 'failed after log' } }, consoleLogs: ['about to fail'] })
      expect(callEntry.line).toMatch(/^eth_call \d+\.\dms\n  Error: +reverted with reason string 'failed after log'\n  console\.log:\n    about to fail$/)

      // A mined range: one entry, before its request's.
      await node.request({ method: 'hardhat_mine', params: ['0x4'] })
      const [range, mine] = log.slice(-2)
      expect(range!.entry).toMatchObject({ type: 'blocks', first: 8n, last: 11n })
      expect(mine!.entry).toMatchObject({ type: 'request', method: 'hardhat_mine', error: undefined })
      expect(log.some((l) => /\x1b\[/.test(l.line))).toBe(false)

      // hardhat_setLoggingEnabled(false) silences it.
      await node.request({ method: 'hardhat_setLoggingEnabled', params: [false] })
      const before = log.length
      await node.request({ method: 'eth_blockNumber' })
      await send({ to: b!.address, value: '0x1' })
      expect(log.length).toBe(before)
    } finally {
      await node.close()
    }
  })

  it("a failure's Solidity frames under its request's error, as Hardhat's node prints them (Hardhat mode with metadata)", async () => {
    const build = vaultBuildInfo()
    type Compiled = { abi: Abi; evm: { bytecode: { object: string } } }
    const contracts = build.output.contracts[VAULT_SOURCE]! as unknown as Record<string, Compiled>
    const log: Array<{ entry: LogEntry; line: string }> = []
    const node = await createNode({ hardhatCompat: true, artifacts: build as never, onLog: (entry, line) => log.push({ entry, line }) })
    try {
      const from = node.accounts[0]!.address
      const deploy = async (c: Compiled, args: unknown[]) => {
        const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from, data: encodeDeployData({ abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, args } as never) }] })
        return ((await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }).contractAddress
      }
      const vault = await deploy(contracts.Vault!, [4_000_000_000n])
      const user = await deploy(contracts.VaultUser!, [vault])
      const lines = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'contracts', 'Vault.sol'), 'utf8').split('\n')
      const lineOf = (text: string) => lines.findIndex((l) => l.includes(text)) + 1
      const frames = [`Vault.withdraw (${VAULT_SOURCE}:${lineOf('revert TooEarly(block.timestamp, unlockTime)')})`, `VaultUser.withdrawFrom (${VAULT_SOURCE}:${lineOf('vault.withdraw();')})`]
      for (const method of ['eth_call', 'eth_estimateGas', 'eth_sendTransaction']) {
        await expect(node.request({ method, params: [{ from, to: user, data: fn(contracts.VaultUser!.abi, 'withdrawFrom'), gas: '0x100000' }] } as never)).rejects.toThrow('TooEarly')
        const entry = log.filter((l) => l.entry.type === 'request').at(-1)!
        expect(entry.entry, method).toMatchObject({ type: 'request', method, error: { code: -32603, stack: frames } })
        expect(entry.line.split('\n').slice(-2), method).toEqual(frames.map((f) => `      at ${f}`))
        expect(entry.line.split('\n')[1], method).toMatch(/^  Error: {12}VM Exception while processing transaction: reverted with custom error 'TooEarly\(\d+, 4000000000\)'$/)
      }
      // A request that fails outside contract code has no frames.
      await expect(node.request({ method: 'eth_getBalance', params: ['0x1'] })).rejects.toThrow()
      expect(log.at(-1)!.entry).toMatchObject({ type: 'request', method: 'eth_getBalance', error: { stack: [] } })
    } finally {
      await node.close()
    }
  })

  it('colours with logColor; the options are checked', async () => {
    const lines: string[] = []
    const node = await createNode({ onLog: (_e, line) => lines.push(line), logColor: true })
    try {
      await node.request({ method: 'evm_mine' })
      expect(lines[0]).toMatch(/^\x1b\[32mMined block #1 0x[0-9a-f]{64} \(0 transactions, 0 gas\)\x1b\[0m$/)
    } finally {
      await node.close()
    }
    await expect(createNode({ onLog: 'stdout' as never })).rejects.toThrow(/onLog/)
    await expect(createNode({ onLog: () => {}, logColor: 'yes' as never })).rejects.toThrow(/logColor/)
  })

  it('a throwing consumer changes nothing', async () => {
    const node = await createNode({ onLog: () => { throw new Error('consumer failed') } })
    try {
      const [a, b] = node.accounts
      const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1' }] })
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x1')
    } finally {
      await node.close()
    }
  })
})

describe('formatEntry with colours', () => {
  it('paints a failed request red, its error red, the time dim', async () => {
    const lines: string[] = []
    const node = await createNode({ onLog: (_e, line) => lines.push(line), logColor: true })
    try {
      await expect(node.request({ method: 'eth_getBalance', params: ['0x12'] })).rejects.toThrow()
      expect(lines.at(-1)).toMatch(/^\x1b\[31meth_getBalance\x1b\[0m \x1b\[2m\d+\.\dms\x1b\[0m\n  Error: +\x1b\[31minvalid argument 0/)
    } finally {
      await node.close()
    }
  })
})
