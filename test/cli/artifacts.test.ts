/**
 * `finality --hardhat --artifacts <dir>` over HTTP: contract metadata read from a folder laid out
 * as Foundry's `out/` (one `<Source>.sol/<Contract>.json` per contract, solc's fields with the
 * compilation target in `metadata`) and as Hardhat's `artifacts/build-info/`; a failing call names
 * its custom error, and with a build-info (sources and AST) answers its Solidity frames as
 * `solidityTrace`. A bad path stops the CLI with the option named.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem'
import { vaultBuildInfo, VAULT_SOURCE } from '../metadata/vault-build.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
// The CLI runs under `node --import tsx`, not tsx's wrapper: the wrapper relays a signal only if
// the child reports it within 30 ms, else signals it again or kills it and exits 130, which a
// loaded machine turned into failed clean stops.
const BIN = path.join(ROOT, 'src', 'cli', 'bin.ts')
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

function spawnCli(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.on('data', (d) => (out += d))
  child.stderr?.on('data', (d) => (out += d))
  return { child, output: () => out }
}

async function rpc(url: string, method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await res.json()) as never
}

function foundryOut(): string {
  const build = vaultBuildInfo()
  const dir = mkdtempSync(path.join(tmpdir(), 'finality-out-'))
  for (const [name, c] of Object.entries(build.output.contracts[VAULT_SOURCE]!)) {
    mkdirSync(path.join(dir, 'Vault.sol'), { recursive: true })
    const evm = c.evm as { bytecode: Record<string, unknown>; deployedBytecode: Record<string, unknown> }
    const artifact = {
      abi: c.abi,
      bytecode: { ...evm.bytecode, object: `0x${evm.bytecode.object as string}` },
      deployedBytecode: { ...evm.deployedBytecode, object: `0x${evm.deployedBytecode.object as string}` },
      metadata: { settings: { compilationTarget: { [VAULT_SOURCE]: name } } },
      id: 0,
    }
    writeFileSync(path.join(dir, 'Vault.sol', `${name}.json`), JSON.stringify(artifact))
  }
  return dir
}

describe('finality --artifacts', () => {
  it('a Foundry out/ folder: a failing eth_call over HTTP names its custom error; the log names it and the events', { timeout: 60_000 }, async () => {
    const { child, output } = spawnCli(['--hardhat', '--artifacts', foundryOut(), '--json-rpc.address', '127.0.0.1:0', '--json-rpc.ws-address', '127.0.0.1:0'])
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', () => /HTTP listening on/.test(output()) && resolve())
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${output()}`)))
      })
      const url = /HTTP listening on (\S+)/.exec(output())![1]!
      const Vault = vaultBuildInfo().output.contracts[VAULT_SOURCE]!.Vault as unknown as { abi: Abi; evm: { bytecode: { object: string } } }
      const sent = await rpc(url, 'eth_sendTransaction', [{ from: A, data: encodeDeployData({ abi: Vault.abi, bytecode: `0x${Vault.evm.bytecode.object}`, args: [4_000_000_000n] }) }])
      const receipt = (await rpc(url, 'eth_getTransactionReceipt', [sent.result])).result as { contractAddress: string }
      const failed = await rpc(url, 'eth_call', [{ from: A, to: receipt.contractAddress, data: encodeFunctionData({ abi: Vault.abi, functionName: 'withdraw' }) }])
      expect(failed.error).toMatchObject({ code: -32603, message: expect.stringMatching(/^Error: VM Exception while processing transaction: reverted with custom error 'TooEarly\(\d+, 4000000000\)'$/) })
      await rpc(url, 'eth_sendTransaction', [{ from: A, to: receipt.contractAddress, value: '0x64', data: encodeFunctionData({ abi: Vault.abi, functionName: 'deposit' }) }])
      await rpc(url, 'eth_sendTransaction', [{ from: A, to: receipt.contractAddress, gas: '0x100000', data: encodeFunctionData({ abi: Vault.abi, functionName: 'withdraw' }) }])
      // The log's lines reach standard output a moment after the answers.
      for (let i = 0; i < 50 && !/Error:\s+reverted with custom error 'TooEarly/.test(output()); i++) await new Promise((r) => setTimeout(r, 100))
      expect(output()).toContain('  events:\n    Deposited("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", 100)')
      expect(output()).toMatch(/Error:\s+reverted with custom error 'TooEarly\(\d+, 4000000000\)'/)
    } finally {
      child.kill()
    }
  })

  it('a Hardhat build-info file: a failing call two frames deep answers its Solidity frames over HTTP as `solidityTrace`', { timeout: 60_000 }, async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'finality-build-info-')), 'vault.json')
    writeFileSync(file, JSON.stringify(vaultBuildInfo()))
    const { child, output } = spawnCli(['--hardhat', '--artifacts', file, '--json-rpc.address', '127.0.0.1:0'])
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', () => /HTTP listening on/.test(output()) && resolve())
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${output()}`)))
      })
      const url = /HTTP listening on (\S+)/.exec(output())![1]!
      const contracts = vaultBuildInfo().output.contracts[VAULT_SOURCE]! as unknown as Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>
      const deploy = async (name: string, args: unknown[]) => {
        const sent = await rpc(url, 'eth_sendTransaction', [{ from: A, data: encodeDeployData({ abi: contracts[name]!.abi, bytecode: `0x${contracts[name]!.evm.bytecode.object}`, args } as never) }])
        return ((await rpc(url, 'eth_getTransactionReceipt', [sent.result])).result as { contractAddress: string }).contractAddress
      }
      const user = await deploy('VaultUser', [await deploy('Vault', [4_000_000_000n])])
      const failed = await rpc(url, 'eth_call', [{ from: A, to: user, data: encodeFunctionData({ abi: contracts.VaultUser!.abi, functionName: 'withdrawFrom' }) }])
      expect(failed.error).toMatchObject({ code: -32603, data: { data: expect.stringMatching(/^0xe58369d1/) } })
      expect((failed.error as { solidityTrace?: unknown }).solidityTrace).toEqual([
        { kind: 'error', contract: 'Vault', function: 'withdraw', file: VAULT_SOURCE, line: 33 },
        { kind: 'call', contract: 'VaultUser', function: 'withdrawFrom', file: VAULT_SOURCE, line: 70 },
      ])
    } finally {
      child.kill()
    }
  })

  it('error: a path that does not exist stops the CLI, naming the option', { timeout: 120_000 }, async () => {
    const { child, output } = spawnCli(['--hardhat', '--artifacts', '/nonexistent/out', '--json-rpc.address', '127.0.0.1:0'])
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).not.toBe(0)
    expect(output()).toContain('option artifacts /nonexistent/out: does not exist')
  })
})
