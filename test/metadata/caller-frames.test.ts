/**
 * The in-process provider's failures, as viem and ethers users receive them: the error at the end
 * of the client's `cause` chain (the provider's own) has the Solidity frames, then the JavaScript
 * frames down to the test's line that called the client, even where the client calls through a
 * promise of its own (viem's retry wrapper) or makes the request again from a timer (viem retries
 * Hardhat's -32603).
 */
import { describe, expect, it, vi } from 'vitest'
import { BrowserProvider, Contract } from 'ethers'
import { FinalityEthersProvider } from '../../src/adapters/ethers.js'
import { createPublicClient, createTestClient, createWalletClient, custom, encodeFunctionData, type Abi, type Hex } from 'viem'
import { foundry } from 'viem/chains'
import { trackNodes } from '../helpers/nodes.js'
import { vaultBuildInfo, VAULT_SOURCE } from './vault-build.js'

const newNode = trackNodes()
const build = vaultBuildInfo()
type Compiled = { abi: Abi; evm: { bytecode: { object: string } } }
const Vault = build.output.contracts[VAULT_SOURCE]!.Vault as unknown as Compiled
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const THIS_FILE = 'caller-frames.test.ts'

/** The last error of a `cause` chain (viem wraps the provider's error in three of its own). */
function root(error: unknown): Error & { stack: string } {
  let e = error as { cause?: unknown }
  while (e.cause !== undefined && e.cause !== null) e = e.cause as { cause?: unknown }
  return e as Error & { stack: string }
}

/** The stack's frames: the Solidity one first, then this file's line after it. */
function expectFrames(error: unknown, line: number): void {
  const frames = root(error).stack.split('\n').filter((l) => l.startsWith('    at '))
  expect(frames[0]).toBe('    at Vault.take (contracts/Vault.sol:40)')
  const own = frames.findIndex((l) => l.includes(`${THIS_FILE}:${line}:`))
  expect(own, root(error).stack).toBeGreaterThan(0)
}

/** The line of the caller of this function (a test's line that made the call). */
function lineHere(): number {
  const stack = new Error().stack!.split('\n')
  const at = stack.find((l) => l.includes(THIS_FILE) && !l.includes('lineHere'))!
  return Number(/:(\d+):\d+\)?$/.exec(at)![1])
}

async function vaultNode() {
  const node = await newNode({ hardhatCompat: true, artifacts: build as never })
  const wallet = createWalletClient({ chain: foundry, transport: custom(node.provider), account: A })
  const pub = createPublicClient({ chain: foundry, transport: custom(node.provider) })
  const hash = await wallet.deployContract({ abi: Vault.abi, bytecode: `0x${Vault.evm.bytecode.object}`, args: [4_000_000_000n] } as never)
  const { contractAddress } = await pub.getTransactionReceipt({ hash })
  return { node, wallet, pub, vault: contractAddress as Hex }
}

describe('the caller\'s JavaScript frames under the Solidity frames (in-process provider)', () => {
  it('viem: writeContract, simulateContract, sendTransaction and a test client\'s call', { timeout: 30_000 }, async () => {
    const { node, wallet, pub, vault } = await vaultNode()
    const take = { address: vault, abi: Vault.abi, functionName: 'take', args: [5n] } as never
    let line = lineHere(); const written = await wallet.writeContract(take).catch((e: unknown) => e)
    expectFrames(written, line)
    line = lineHere(); const simulated = await pub.simulateContract({ ...(take as object), account: A } as never).catch((e: unknown) => e)
    expectFrames(simulated, line)
    const data = encodeFunctionData(take)
    line = lineHere(); const sent = await wallet.sendTransaction({ to: vault, data } as never).catch((e: unknown) => e)
    expectFrames(sent, line)
    const test = createTestClient({ chain: foundry, mode: 'hardhat', transport: custom(node.provider) })
    line = lineHere(); const called = await test.request({ method: 'eth_call', params: [{ from: A, to: vault, data }, 'latest'] } as never).catch((e: unknown) => e)
    expectFrames(called, line)
  })

  it('ethers: its CALL_EXCEPTION, made from the revert data, has the test\'s line (the provider\'s error is not kept)', { timeout: 30_000 }, async () => {
    const { vault, node } = await vaultNode()
    const signer = await new BrowserProvider(node.provider as never).getSigner(A)
    const contract = new Contract(vault, Vault.abi as never, signer)
    const line = lineHere(); const called = (await contract.getFunction('take').staticCall(5n).catch((e: unknown) => e)) as Error & { reason?: string }
    expect(called.reason).toBe('Vault: insufficient balance')
    expect(called.stack).toContain(`${THIS_FILE}:${line}:`)
  })

  it('takes the caller\'s frames ahead only for the methods that run contract code', { timeout: 30_000 }, async () => {
    const { node, vault } = await vaultNode()
    const capture = vi.spyOn(Error, 'captureStackTrace')
    try {
      for (const method of ['eth_blockNumber', 'eth_getBalance', 'eth_getTransactionCount', 'evm_snapshot', 'eth_feeHistory']) {
        const params = method === 'eth_feeHistory' ? ['0x1', 'latest', []] : method.startsWith('eth_get') ? [A, 'latest'] : []
        await node.provider.request({ method, params })
      }
      expect(capture).not.toHaveBeenCalled()
      await node.provider.request({ method: 'eth_call', params: [{ to: vault, data: '0x' }, 'latest'] }).catch(() => undefined)
      expect(capture).toHaveBeenCalled()
    } finally {
      capture.mockRestore()
    }
  })

  it('ethers through FinalityEthersProvider: staticCall, a Contract\'s send and sendTransaction throw the node\'s error with the frames', { timeout: 30_000 }, async () => {
    const { vault, node } = await vaultNode()
    const provider = new FinalityEthersProvider(node)
    const signer = await provider.getSigner(A)
    const contract = new Contract(vault, Vault.abi as never, signer)
    // Hardhat's words for a failed call or estimate (the node's message in Hardhat mode).
    const message = "Error: VM Exception while processing transaction: reverted with reason string 'Vault: insufficient balance'"
    let line = lineHere(); const called = (await contract.getFunction('take').staticCall(5n).catch((e: unknown) => e)) as Error & { data?: unknown }
    expect(called.message).toBe(message)
    expectFrames(called, line)
    line = lineHere(); const sent = (await contract.getFunction('take')(5n).catch((e: unknown) => e)) as Error
    expect(sent.message).toBe(message)
    expectFrames(sent, line)
    const data = contract.interface.encodeFunctionData('take', [5n])
    line = lineHere(); const raw = (await signer.sendTransaction({ to: vault, data }).catch((e: unknown) => e)) as Error
    expect(raw.message).toBe(message)
    expectFrames(raw, line)
    // The calls that succeed are ethers' as ever.
    expect(await provider.getBalance(A)).toBeGreaterThan(0n)
  })

  it("ethers through FinalityEthersProvider, default (geth) mode with metadata: ethers' own CALL_EXCEPTION, the frames in its stack where it passes the provider", { timeout: 30_000 }, async () => {
    const node = await newNode({ artifacts: build as never })
    const provider = new FinalityEthersProvider(node)
    const signer = await provider.getSigner(A)
    const deployed = await signer.sendTransaction({ data: `0x${Vault.evm.bytecode.object}${(4_000_000_000n).toString(16).padStart(64, '0')}` })
    const vault = (await deployed.wait())!.contractAddress!
    const contract = new Contract(vault, Vault.abi as never, signer)
    const data = contract.interface.encodeFunctionData('take', [5n])
    for (const made of [() => provider.call({ from: A, to: vault, data }), () => provider.estimateGas({ from: A, to: vault, data })]) {
      const line = lineHere(); const error = (await made().catch((e: unknown) => e)) as Error & { code?: string; reason?: string; solidityTrace?: unknown }
      expect(error.code).toBe('CALL_EXCEPTION')
      expect(error.reason).toBe('Vault: insufficient balance')
      expect(error.solidityTrace).toEqual([{ kind: 'error', contract: 'Vault', function: 'take', file: VAULT_SOURCE, line: 40 }])
      expectFrames(error, line)
    }
    // A Contract's static call makes its own CALL_EXCEPTION from the revert data, as ethers does.
    const called = (await contract.getFunction('take').staticCall(5n).catch((e: unknown) => e)) as Error & { code?: string; reason?: string }
    expect(called.code).toBe('CALL_EXCEPTION')
    expect(called.reason).toBe('Vault: insufficient balance')
  })

  it('ethers through FinalityEthersProvider on a node without metadata: ethers\' own CALL_EXCEPTION', { timeout: 30_000 }, async () => {
    const node = await newNode({ hardhatCompat: true })
    const provider = new FinalityEthersProvider(node)
    const signer = await provider.getSigner(A)
    const deployed = await signer.sendTransaction({ data: `0x${Vault.evm.bytecode.object}${(4_000_000_000n).toString(16).padStart(64, '0')}` })
    const vault = (await deployed.wait())!.contractAddress!
    const contract = new Contract(vault, Vault.abi as never, signer)
    const called = (await contract.getFunction('take').staticCall(5n).catch((e: unknown) => e)) as Error & { code?: string; reason?: string }
    expect(called.code).toBe('CALL_EXCEPTION')
    expect(called.reason).toBe('Vault: insufficient balance')
  })
})
