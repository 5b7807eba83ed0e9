/**
 * docs/errors.md: its programs run (solc from node_modules, the package pointed at src/) and
 * print what the page shows (the error object of a failed call over HTTP among them); its command
 * line is one the CLI parses.
 */
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { parseCli } from '../../src/cli/config.js'
import { createNode, type Hex } from '../../src/index.js'
import { vaultBuildInfo, VAULT_SOURCE } from '../metadata/vault-build.js'
import { block, runBatch, shellWords } from './blocks.js'

describe('docs/errors.md', () => {
  it('the example prints the custom error and its Solidity frame', { timeout: 120_000 }, async () => {
    const { runs, stderr } = await runBatch([{ name: 'errors-example.ts', source: block('errors.md', 1, 'ts') }])
    const run = runs['errors-example.ts']
    expect(run?.error, stderr).toBeUndefined()
    expect(run?.stdout.trimEnd()).toBe(block('errors.md', 2, 'text').trimEnd())
  })

  it('the command line parses', () => {
    const words = shellWords(block('errors.md', 3, 'sh').trim())
    expect(words.slice(0, 2)).toEqual(['npx', 'finality'])
    const c = parseCli(words.slice(2))
    expect(c.hardhat).toBe(true)
    expect(c.artifacts).toEqual(['out/'])
  })

  it('over HTTP: the error object a failed call answers, its Solidity frames in `solidityTrace`', { timeout: 120_000 }, async () => {
    const { runs, stderr } = await runBatch([{ name: 'errors-wire.ts', source: block('errors.md', 4, 'ts') }])
    const run = runs['errors-wire.ts']
    expect(run?.error, stderr).toBeUndefined()
    expect(JSON.parse(run!.stdout)).toEqual(JSON.parse(block('errors.md', 5, 'json')))
    expect(run?.stdout.trimEnd()).toBe(block('errors.md', 5, 'json').trimEnd())
  })

  it("the node's log: a failed call's Solidity frames under its error line", { timeout: 60_000 }, async () => {
    const build = vaultBuildInfo()
    type Compiled = { abi: Abi; evm: { bytecode: { object: string } } }
    const contracts = build.output.contracts[VAULT_SOURCE]! as unknown as Record<string, Compiled>
    const lines: string[] = []
    const node = await createNode({ hardhatCompat: true, artifacts: build as never, onLog: (entry, line) => void (entry.type === 'request' && lines.push(line)) })
    try {
      const from = node.accounts[0]!.address
      const deploy = async (c: Compiled, args: unknown[]) => {
        const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from, data: encodeDeployData({ abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, args } as never) }] })
        return ((await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }).contractAddress
      }
      const user = await deploy(contracts.VaultUser!, [await deploy(contracts.Vault!, [4_000_000_000n])])
      await node.request({ method: 'eth_call', params: [{ from, to: user, data: encodeFunctionData({ abi: contracts.VaultUser!.abi, functionName: 'withdrawFrom' }) }] }).catch(() => {})
      // The time taken and the block's timestamp differ from run to run.
      const same = (text: string) => text.trimEnd().replace(/ [\d.]+ms$/m, ' <ms>').replace(/TooEarly\(\d+,/, 'TooEarly(<time>,')
      expect(same(lines.at(-1)!)).toBe(same(block('errors.md', 7, 'text')))
    } finally {
      await node.close()
    }
  })

  it('contracts read once by loadArtifacts serve many nodes', { timeout: 120_000 }, async () => {
    const { runs, stderr } = await runBatch([{ name: 'errors-load.ts', source: block('errors.md', 6, 'ts') }])
    const run = runs['errors-load.ts']
    expect(run?.error, stderr).toBeUndefined()
    expect(run?.stdout.trimEnd()).toBe('1 1')
  })
})
