/**
 * hardhat_addCompilationResult gives a running node contract metadata, as Hardhat's `hardhat node`
 * sends it after a recompilation: its answers and refusals beside Hardhat 2.29.1's, and a failure
 * that names its custom error once the compilation is added. hardhat_getStackTraceFailuresCount
 * counts what the node could not explain.
 */
import { describe, expect, it } from 'vitest'
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem'
import { answer, hardhatNetwork } from '../helpers/hardhat-network.js'
import { trackNodes } from '../helpers/nodes.js'
import { vaultBuildInfo, VAULT_SOURCE } from './vault-build.js'

const newNode = trackNodes()
const build = vaultBuildInfo()
const Vault = build.output.contracts[VAULT_SOURCE]!.Vault as unknown as { abi: Abi; evm: { bytecode: { object: string } } }
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const input = { language: 'Solidity', sources: {}, settings: { outputSelection: {} } }
const output = { sources: {}, contracts: {} }

describe('hardhat_addCompilationResult', () => {
  it('answers true, and refuses what Hardhat refuses with the same code (its message where it checks the param itself)', { timeout: 60_000 }, async () => {
    const hardhat = await hardhatNetwork()
    const node = await newNode({ hardhatCompat: true })
    const same: unknown[][] = [
      ['0.8.24', input, output],
      [build.solcVersion, build.input, build.output],
      ['banana', input, output],
      [824, input, output],
      ['0.8.24', { sources: {} }, output],
      ['0.8.24', input, 'x'],
    ]
    // Hardhat's server repeats every error's message in `data`; the node's errors carry none: code and message compared.
    const bare = (a: unknown) => ((a as { error?: { code: number; message: string } }).error === undefined ? a : { code: (a as { error: { code: number } }).error.code, message: (a as { error: { message: string } }).error.message })
    for (const params of same) expect(bare(await answer(node, 'hardhat_addCompilationResult', params)), JSON.stringify(params).slice(0, 60)).toEqual(bare(await answer(hardhat, 'hardhat_addCompilationResult', params)))
    // The same code as Hardhat's; the message the dispatcher's (arity) or the reader's (an output it cannot read).
    const codes: [unknown[], number][] = [
      [[], -32602],
      [['0.8.24', input], -32602],
      [['0.8.24', input, output, 1], -32602],
      [['0.8.24', input, { sources: {} }], -32603],
      [['0.8.24', input, { sources: {}, contracts: { 'a.sol': { A: { abi: 5 } } } }], -32603],
    ]
    for (const [params, code] of codes) {
      const h = (await answer(hardhat, 'hardhat_addCompilationResult', params)) as { error: { code: number } }
      const f = (await answer(node, 'hardhat_addCompilationResult', params)) as { error: { code: number; message: string } }
      expect([h.error.code, f.error.code], JSON.stringify(params)).toEqual([code, code])
    }
    expect(await answer(node, 'hardhat_addCompilationResult', ['0.8.24', input, { sources: {} }])).toMatchObject({ error: { message: 'Error: has no contracts' } })
  })

  it('a failure after the compilation is added names its custom error and carries its Solidity frame', { timeout: 120_000 }, async () => {
    const node = await newNode({ hardhatCompat: true })
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: A, data: encodeDeployData({ abi: Vault.abi, bytecode: `0x${Vault.evm.bytecode.object}`, args: [4_000_000_000n] }) }] })
    const { contractAddress } = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }
    const call = { method: 'eth_call', params: [{ from: OTHER, to: contractAddress, data: encodeFunctionData({ abi: Vault.abi, functionName: 'onlyOwner' }) }] } as never
    const before = (await node.request(call).catch((e: Error) => e)) as Error
    expect(before.message).toMatch(/reverted with an unrecognized custom error/)
    expect(await node.request({ method: 'hardhat_addCompilationResult', params: [build.solcVersion, build.input, build.output] } as never)).toBe(true)
    const after = (await node.request(call).catch((e: Error) => e)) as Error
    expect(after.message).toMatch(/reverted with custom error 'NotOwner\("0x70997970C51812dc3A010C7d01b50e0d17dc79C8", /)
    expect(after.stack).toMatch(/at Vault\.onlyOwner \(contracts\/Vault\.sol:\d+\)/)
  })
})

describe('hardhat_getStackTraceFailuresCount', () => {
  it('0 after failures the node explained, as Hardhat answers', { timeout: 120_000 }, async () => {
    const node = await newNode({ hardhatCompat: true, artifacts: build as never })
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: A, data: encodeDeployData({ abi: Vault.abi, bytecode: `0x${Vault.evm.bytecode.object}`, args: [4_000_000_000n] }) }] })
    const { contractAddress } = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }
    await node.request({ method: 'eth_call', params: [{ from: OTHER, to: contractAddress, data: encodeFunctionData({ abi: Vault.abi, functionName: 'onlyOwner' }) }] } as never).catch(() => undefined)
    expect(await node.request({ method: 'hardhat_getStackTraceFailuresCount' })).toBe(0)
    expect(await (await hardhatNetwork()).request({ method: 'hardhat_getStackTraceFailuresCount', params: [] })).toBe(0)
  })
})
