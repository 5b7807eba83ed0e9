/**
 * `throwOnTransactionFailures` and `throwOnCallFailures`: Hardhat's answers for a send whose
 * transaction fails in its automined block (an error with the failure, the hash and the revert
 * data, the transaction still mined with status 0) and for a failing eth_call (its return
 * data). Off by default: geth's answers.
 */
import { BrowserProvider, Contract, Interface, Wallet, type InterfaceAbi } from 'ethers'
import { BaseError, ContractFunctionRevertedError, type Abi, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { rpc } from '../helpers/loopback.js'
import { finalityChain, rejectionOf, walletClientOf } from '../helpers/viem.js'
import { artifact, calldata, deploy, qty, rpcError, sender } from '../helpers/execution.js'

const newNode = trackNodes()
const reverterAbi = new Interface(artifact('Reverter').abi as InterfaceAbi)

async function hardhatNode(options: Parameters<typeof newNode>[0] = {}): Promise<{ node: FinalityNode; reverter: Hex }> {
  const node = await newNode({ throwOnTransactionFailures: true, ...options })
  return { node, reverter: await deploy(node, 'Reverter') }
}

function send(node: FinalityNode, to: Hex, input: Hex, extra: Record<string, unknown> = {}) {
  return rpcError(node, 'eth_sendTransaction', [{ from: sender(node), to, input, ...extra }])
}

/** The failed transaction is in the head block, with a receipt of status 0. */
async function expectMinedAndFailed(node: FinalityNode, hash: Hex): Promise<void> {
  const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex; blockNumber: Hex } | null
  expect(receipt?.status).toBe('0x0')
  expect(receipt?.blockNumber).toBe(await node.request({ method: 'eth_blockNumber' }))
}

describe('throwOnTransactionFailures', () => {
  it('default: a reverting send answers its hash, as geth does; mined with status 0', async () => {
    const node = await newNode()
    const reverter = await deploy(node, 'Reverter')
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: reverter, input: calldata('Reverter', 'revertWithReason'), gas: qty(100_000) }] })
    await expectMinedAndFailed(node, hash)
  })

  it('reason string: Hardhat\'s message, the hash and the revert data; the transaction is mined', async () => {
    const { node, reverter } = await hardhatNode()
    const input = calldata('Reverter', 'revertWithReason')
    const e = await send(node, reverter, input, { gas: qty(100_000) })
    const message = "Error: VM Exception while processing transaction: reverted with reason string 'nope'"
    expect(e.code).toBe(-32603)
    expect(e.message).toBe(message)
    const data = e.data as { message: string; txHash: Hex; data: Hex }
    expect(data.message).toBe(message)
    expect(reverterAbi.parseError(data.data)?.args[0]).toBe('nope')
    await expectMinedAndFailed(node, data.txHash)
  })

  it('custom error, panic, bare revert: the messages Hardhat gives without the contract\'s ABI', async () => {
    const { node, reverter } = await hardhatNode()
    const custom = await send(node, reverter, calldata('Reverter', 'revertWithCustomError', [7n]), { gas: qty(100_000) })
    const customData = (custom.data as { data: Hex }).data
    expect(custom.message).toBe(`Error: VM Exception while processing transaction: reverted with an unrecognized custom error (return data: ${customData})`)
    const parsed = reverterAbi.parseError(customData)
    expect(parsed?.name).toBe('Unauthorized')
    expect(String(parsed?.args[0]).toLowerCase()).toBe(sender(node).toLowerCase())
    expect(parsed?.args[1]).toBe(7n)

    const panic = await send(node, reverter, calldata('Reverter', 'panicDivide', [0n]), { gas: qty(100_000) })
    expect(panic.message).toBe('Error: VM Exception while processing transaction: reverted with panic code 0x12 (Division or modulo division by zero)')
    expect(reverterAbi.parseError((panic.data as { data: Hex }).data)?.name).toBe('Panic')

    const bare = await send(node, reverter, calldata('Reverter', 'bareRevert'), { gas: qty(100_000) })
    expect(bare).toMatchObject({ code: -32603, message: 'Error: Transaction reverted without a reason string' })
    expect((bare.data as { data: Hex }).data).toBe('0x')
  })

  it('out of gas: -32000 "Transaction ran out of gas", mined', async () => {
    const { node, reverter } = await hardhatNode()
    const e = await send(node, reverter, calldata('Reverter', 'setAndRevert', [1n]), { gas: qty(22_000) })
    expect(e).toMatchObject({ code: -32000, message: 'Transaction ran out of gas' })
    const data = e.data as { txHash: Hex; data: Hex }
    expect(data.data).toBe('0x')
    await expectMinedAndFailed(node, data.txHash)
  })

  it('eth_sendRawTransaction: the same error, the hash is the raw transaction\'s', async () => {
    const { node, reverter } = await hardhatNode()
    const account = node.accounts[1] as { privateKey: Hex }
    const wallet = new Wallet(account.privateKey)
    const raw = await wallet.signTransaction({
      to: reverter, data: calldata('Reverter', 'revertWithReason'), gasLimit: 100_000n, chainId: 31337n, nonce: 0,
      maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, type: 2,
    })
    const e = await rpcError(node, 'eth_sendRawTransaction', [raw])
    expect(e.message).toBe("Error: VM Exception while processing transaction: reverted with reason string 'nope'")
    const { Transaction } = await import('ethers')
    const { txHash } = e.data as { txHash: Hex }
    expect(txHash).toBe(Transaction.from(raw).hash)
    await expectMinedAndFailed(node, txHash)
  })

  it('without gas: the failing estimate does not stop the send, which is mined and fails as on Hardhat', async () => {
    const { node, reverter } = await hardhatNode()
    const nonce = await node.request({ method: 'eth_getTransactionCount', params: [sender(node), 'latest'] })
    const e = await send(node, reverter, calldata('Reverter', 'revertWithReason'))
    expect(e.message).toBe("Error: VM Exception while processing transaction: reverted with reason string 'nope'")
    await expectMinedAndFailed(node, (e.data as { txHash: Hex }).txHash)
    expect(BigInt((await node.request({ method: 'eth_getTransactionCount', params: [sender(node), 'latest'] })) as Hex)).toBe(BigInt(nonce as Hex) + 1n)
  })

  it('default, without gas: the estimate\'s error answers and nothing is mined, as geth does', async () => {
    const node = await newNode()
    const reverter = await deploy(node, 'Reverter')
    const before = await node.request({ method: 'eth_blockNumber' })
    const e = await send(node, reverter, calldata('Reverter', 'revertWithReason'))
    expect(e).toMatchObject({ code: 3, message: 'execution reverted: nope' })
    expect(await node.request({ method: 'eth_blockNumber' })).toBe(before)
  })

  it('successful sends still answer their hash; manual mining answers the hash (nothing mined yet)', async () => {
    const { node, reverter } = await hardhatNode()
    const ok = await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: reverter, input: calldata('Reverter', 'requireWithReason', [true]) }] })
    expect(ok).toMatch(/^0x[0-9a-f]{64}$/)
    await node.request({ method: 'evm_setAutomine', params: [false] })
    const pooled = await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: reverter, input: calldata('Reverter', 'revertWithReason'), gas: qty(100_000) }] })
    expect(pooled).toMatch(/^0x[0-9a-f]{64}$/)
    await node.mine()
    await expectMinedAndFailed(node, pooled)
  })

  it('ethers: the send rejects and the revert data decodes with the contract\'s interface', async () => {
    const { node, reverter } = await hardhatNode()
    const signer = await new BrowserProvider(node.provider).getSigner(sender(node))
    const contract = new Contract(reverter, reverterAbi, signer)
    let caught: any
    try {
      // A state-changing function (ethers sends a view function as eth_call).
      await contract.getFunction('setAndRevert')(9n, { gasLimit: 100_000n })
    } catch (error) {
      caught = error
    }
    // ethers keeps the node's answer as `error.error`; Hardhat's chai matchers read
    // `error.data ?? error.error.data`, then that string or its `data`.
    expect(caught?.code).toBe('UNKNOWN_ERROR')
    expect(caught?.data).toBeUndefined()
    const errorData = caught?.error?.data as { message: string; txHash: Hex; data: Hex }
    expect(errorData.message).toBe("Error: VM Exception while processing transaction: reverted with reason string 'set then reverted'")
    const parsed = reverterAbi.parseError(errorData.data)
    expect(parsed?.name).toBe('Error')
    expect(parsed?.args[0]).toBe('set then reverted')
    await expectMinedAndFailed(node, errorData.txHash)
  })

  it('viem: writeContract rejects with the decoded revert (a custom error by name), sent once', async () => {
    const { node, reverter } = await hardhatNode()
    const wallet = walletClientOf(node, sender(node))
    const before = await node.request({ method: 'eth_blockNumber' })
    const error = await rejectionOf(() =>
      wallet.writeContract({ address: reverter, abi: artifact('Reverter').abi as Abi, functionName: 'revertWithCustomError', args: [5n], gas: 100_000n, chain: finalityChain }),
    )
    const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null
    expect(reverted?.data?.errorName).toBe('Unauthorized')
    expect(reverted?.data?.args?.[1]).toBe(5n)
    // One transaction, one block: viem did not send it again.
    expect(BigInt((await node.request({ method: 'eth_blockNumber' })) as Hex)).toBe(BigInt(before as Hex) + 1n)
  })

  it('over HTTP: hardhat node\'s wire shape', async () => {
    const { node, reverter } = await hardhatNode()
    const served = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
    try {
      const answer = await rpc(served.http as string, 'eth_sendTransaction', [{ from: sender(node), to: reverter, input: calldata('Reverter', 'revertWithReason'), gas: qty(100_000) }])
      expect(answer.result).toBeUndefined()
      expect(answer.error.code).toBe(-32603)
      expect(answer.error.message).toBe("Error: VM Exception while processing transaction: reverted with reason string 'nope'")
      expect(Object.keys(answer.error.data).sort()).toEqual(['data', 'message', 'txHash'])
      expect(reverterAbi.parseError(answer.error.data.data)?.args[0]).toBe('nope')
      await expectMinedAndFailed(node, answer.error.data.txHash)
    } finally {
      await served.close()
    }
  })

  it('refuses a non-boolean setting', async () => {
    await expect(newNode({ throwOnTransactionFailures: 'yes' as never })).rejects.toThrow(/throwOnTransactionFailures must be true or false/)
    await expect(newNode({ throwOnCallFailures: 1 as never })).rejects.toThrow(/throwOnCallFailures must be true or false/)
  })
})

describe('throwOnCallFailures', () => {
  it('default: a reverting eth_call is code 3 with the revert data', async () => {
    const node = await newNode()
    const reverter = await deploy(node, 'Reverter')
    expect(await rpcError(node, 'eth_call', [{ to: reverter, input: calldata('Reverter', 'revertWithReason') }])).toMatchObject({ code: 3, message: 'execution reverted: nope' })
  })

  it('false: a reverting eth_call answers the revert data; other failures answer 0x', async () => {
    const node = await newNode({ throwOnCallFailures: false })
    const reverter = await deploy(node, 'Reverter')
    const out = (await node.request({ method: 'eth_call', params: [{ to: reverter, input: calldata('Reverter', 'revertWithCustomError', [3n]) }] })) as Hex
    expect(reverterAbi.parseError(out)?.name).toBe('Unauthorized')
    const oog = await node.request({ method: 'eth_call', params: [{ to: reverter, input: calldata('Reverter', 'setAndRevert', [1n]), gas: qty(22_000) }] })
    expect(oog).toBe('0x')
    // Still a normal answer for a call that succeeds.
    expect(BigInt((await node.request({ method: 'eth_call', params: [{ to: reverter, input: calldata('Reverter', 'ok') }] })) as Hex)).toBe(42n)
  })
})
