/**
 * Hardhat mode with contract metadata: failed calls, estimates and sends of the Vault fixture name
 * their custom errors and carry their Solidity frames, as Hardhat 2.29.1's own provider does with
 * the same compilation; without metadata, and without Hardhat mode, the answers are unchanged.
 */
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, encodeDeployData, encodeFunctionData, http, type Abi, type Hex } from 'viem'
import { foundry } from 'viem/chains'
import { createNode } from '../../src/index.js'
import { answer, hardhatNetwork, type WireProvider } from '../helpers/hardhat-network.js'
import { trackNodes } from '../helpers/nodes.js'
import { vaultBuildInfo, VAULT_SOURCE } from './vault-build.js'

const newNode = trackNodes()
const build = vaultBuildInfo()
type Compiled = { abi: Abi; evm: { bytecode: { object: string } } }
const Vault = build.output.contracts[VAULT_SOURCE]!.Vault as unknown as Compiled
const User = build.output.contracts[VAULT_SOURCE]!.VaultUser as unknown as Compiled
const Factory = build.output.contracts[VAULT_SOURCE]!.VaultFactory as unknown as Compiled
const Strict = build.output.contracts[VAULT_SOURCE]!.StrictVault as unknown as Compiled
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const OTHER = '0x70997970c51812dc3b44e5c3e1c21d5e0e8b0d0f'
const UNLOCK = 4_000_000_000n

type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown> }

async function deploy(p: Provider, c: Compiled, args: unknown[]): Promise<Hex> {
  const hash = await p.request({ method: 'eth_sendTransaction', params: [{ from: A, data: encodeDeployData({ abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, args } as never) }] })
  return ((await p.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Hex }).contractAddress
}

async function contracts(p: Provider): Promise<{ vault: Hex; user: Hex; factory: Hex }> {
  const vault = await deploy(p, Vault, [UNLOCK])
  return { vault, user: await deploy(p, User, [vault]), factory: await deploy(p, Factory, []) }
}

const CASES = [
  ['custom error', 'vault', Vault, 'withdraw', []],
  ['custom error with an address and a string', 'vault', Vault, 'onlyOwner', []],
  ['custom error with every kind of value', 'vault', Vault, 'odd', []],
  ['reason string', 'vault', Vault, 'take', [5n]],
  ['panic', 'vault', Vault, 'add', [2n ** 256n - 1n, 1n]],
  ['custom error from a nested call', 'user', User, 'withdrawFrom', []],
  ['panic from a nested call', 'user', User, 'addThrough', [2n ** 256n - 1n, 1n]],
  ['custom error of a constructor, in a contract a contract creates', 'factory', Factory, 'make', [0n]],
] as const

const require = createRequire(import.meta.url)

/**
 * Hardhat 2.29.1's own provider in-process, given the compilation: its failures are SolidityErrors
 * whose `stackTrace` entries name each frame's contract, function and line.
 */
async function hardhatInProcess(): Promise<Provider> {
  const { resolveConfig } = require('hardhat/internal/core/config/config-resolution')
  const { createProvider } = require('hardhat/internal/core/providers/construction')
  const provider = (await createProvider(resolveConfig(fileURLToPath(import.meta.url), { networks: { hardhat: { loggingEnabled: false } } }), 'hardhat')) as Provider
  await provider.request({ method: 'hardhat_addCompilationResult', params: [build.solcVersion, build.input, build.output] })
  return provider
}

/** Both nodes' clocks differ: the block time inside TooEarly(time, …) is masked. */
const untimed = (a: unknown) => JSON.parse(JSON.stringify(a).replace(/TooEarly\(\d+/g, 'TooEarly(T').replace(/e58369d1[0-9a-f]{64}/g, 'e58369d1T'))

describe('contract metadata in Hardhat mode', () => {
  it('eth_call, eth_estimateGas and a failing send: the same code, message and data as Hardhat with the compilation', { timeout: 60_000 }, async () => {
    const hardhat: WireProvider = await hardhatNetwork()
    await hardhat.request({ method: 'hardhat_addCompilationResult', params: [build.solcVersion, build.input, build.output] })
    const node = await newNode({ hardhatCompat: true, artifacts: build as never })
    const at = [await contracts(hardhat), await contracts(node)]
    // Sends from an account that is not the owner: impersonated on both, as Hardhat knows only its own.
    for (const p of [hardhat, node]) {
      await p.request({ method: 'hardhat_impersonateAccount', params: [OTHER] })
      await p.request({ method: 'hardhat_setBalance', params: [OTHER, '0x1000000000000000000'] })
    }
    for (const [name, which, c, fn, args] of CASES) {
      const data = encodeFunctionData({ abi: c.abi, functionName: fn, args } as never)
      for (const method of ['eth_call', 'eth_estimateGas', 'eth_sendTransaction']) {
        const answers = []
        for (const [i, p] of [hardhat, node].entries()) answers.push(await answer(p, method, [{ from: OTHER, to: at[i]![which], data, gas: '0x100000' }]))
        const [h, f] = answers.map(untimed) as [{ error: { data: { txHash?: string } } }, { error: { data: { txHash?: string } } }]
        if (h.error.data.txHash !== undefined) h.error.data.txHash = f.error.data.txHash
        expect(f, `${name} ${method}`).toEqual(h)
      }
    }
  })

  it('a creation whose constructor reverts with a custom error: the same answers as Hardhat', { timeout: 60_000 }, async () => {
    const hardhat: WireProvider = await hardhatNetwork()
    await hardhat.request({ method: 'hardhat_addCompilationResult', params: [build.solcVersion, build.input, build.output] })
    const node = await newNode({ hardhatCompat: true, artifacts: build as never })
    const data = encodeDeployData({ abi: Strict.abi, bytecode: `0x${Strict.evm.bytecode.object}`, args: [0n] } as never)
    for (const method of ['eth_call', 'eth_estimateGas', 'eth_sendTransaction']) {
      const [h, f] = [await answer(hardhat, method, [{ from: A, data, gas: '0x100000' }]), await answer(node, method, [{ from: A, data, gas: '0x100000' }])] as [{ error: { data: { txHash?: string } } }, { error: { data: { txHash?: string } } }]
      if (h.error.data.txHash !== undefined) h.error.data.txHash = f.error.data.txHash
      expect(f, method).toEqual(h)
      expect(JSON.stringify(f), method).toContain("reverted with custom error 'BadUnlock(0)'")
    }
  })

  it('the Solidity frames, innermost first, in the error\'s stack (node.request): Hardhat\'s frames', { timeout: 60_000 }, async () => {
    const hardhat = await hardhatInProcess()
    const node = await newNode({ hardhatCompat: true, artifacts: build as never })
    await node.impersonate(OTHER)
    await node.setBalance(OTHER, 10n ** 18n)
    const at = [await contracts(hardhat), await contracts(node)]
    for (const [name, which, c, fn, args] of CASES) {
      const data = encodeFunctionData({ abi: c.abi, functionName: fn, args } as never)
      const request = (i: number, method: string) => ({ method, params: [{ from: OTHER, to: at[i]![which], data }] })
      // Hardhat's frames, outermost first in its stackTrace: written innermost first as its stack shows them.
      const h = (await hardhat.request(request(0, 'eth_call')).then(() => undefined, (e: { stackTrace?: { sourceReference?: { contract: string; function: string; sourceName: string; line: number } }[] }) => e)) as {
        stackTrace: { sourceReference?: { contract: string; function: string; sourceName: string; line: number } }[]
      }
      const expected = h.stackTrace.flatMap((e) => (e.sourceReference === undefined ? [] : [`at ${e.sourceReference.contract}.${e.sourceReference.function} (${e.sourceReference.sourceName}:${e.sourceReference.line})`])).reverse()
      for (const method of ['eth_call', 'eth_estimateGas', 'eth_sendTransaction']) {
        const error = (await node.request(request(1, method) as never).then(() => undefined, (e: Error) => e)) as Error
        expect(error.stack?.split('\n').filter((l) => l.includes('.sol:')).map((l) => l.trim()), `${name} ${method}`).toEqual(expected)
      }
      expect(expected.length, name).toBeGreaterThan(0)
    }
  })

  it('viem over HTTP: the custom error by name in the JSON-RPC error a call and a send answer', async () => {
    const node = await newNode({ hardhatCompat: true, artifacts: build as never })
    const { vault } = await contracts(node)
    const served = await node.listen({ address: '127.0.0.1:0' })
    try {
      const transport = http(served.http, { retryCount: 0 })
      const client = createPublicClient({ chain: foundry, transport })
      const wallet = createWalletClient({ chain: foundry, transport, account: A })
      const call = await client.call({ account: OTHER, to: vault, data: encodeFunctionData({ abi: Vault.abi, functionName: 'withdraw' }) }).catch((e: Error) => e)
      expect(String((call as Error).message)).toMatch(/reverted with custom error 'TooEarly\(\d+, 4000000000\)'/)
      const send = await wallet.sendTransaction({ to: vault, data: encodeFunctionData({ abi: Vault.abi, functionName: 'take', args: [5n] }), gas: 100_000n }).catch((e: Error) => e)
      expect(String((send as Error).message)).toContain("reverted with reason string 'Vault: insufficient balance'")
    } finally {
      await served.close()
    }
  })

  it('node.addArtifacts: metadata given after deployment names the same failure', async () => {
    const node = await newNode({ hardhatCompat: true })
    const { vault } = await contracts(node)
    const call = () => answer(node, 'eth_call', [{ from: OTHER, to: vault, data: encodeFunctionData({ abi: Vault.abi, functionName: 'withdraw' }) }])
    expect(await call()).toMatchObject({ error: { message: expect.stringContaining('reverted with an unrecognized custom error (return data: 0xe58369d1') } })
    expect(node.addArtifacts([{ abi: Vault.abi, bytecode: `0x${Vault.evm.bytecode.object}`, deployedBytecode: `0x${(build.output.contracts[VAULT_SOURCE]!.Vault!.evm.deployedBytecode as { object: string }).object}`, contractName: 'Vault' }])).toBe(1)
    expect(await call()).toMatchObject({ error: { message: expect.stringMatching(/reverted with custom error 'TooEarly\(\d+, 4000000000\)'$/) } })
  })

  it('without Hardhat mode: geth\'s answer, metadata or not (code 3, execution reverted, the data)', async () => {
    const node = await newNode({ artifacts: build as never })
    const { vault } = await contracts(node)
    const error = (await answer(node, 'eth_call', [{ from: OTHER, to: vault, data: encodeFunctionData({ abi: Vault.abi, functionName: 'withdraw' }) }])) as { error: { code: number; message: string; data: string } }
    expect(error).toEqual({ error: { code: 3, message: 'execution reverted', data: expect.stringMatching(/^0xe58369d1/) } })
  })

  it('error: a bad artifacts option fails createNode and names the entry', async () => {
    await expect(createNode({ artifacts: [build as never, { nothing: true }] })).rejects.toThrow('createNode: option artifacts[1] is neither a build-info')
    await expect(createNode({ artifacts: 42 as never })).rejects.toThrow('createNode: option artifacts must be build-info')
    await expect(createNode({ artifacts: '/nonexistent/out' })).rejects.toThrow('createNode: option artifacts /nonexistent/out: does not exist')
  })
})
