/**
 * The contract code size limit: EIP-170's 24,576 bytes by default, lifted by
 * `allowUnlimitedContractSize` (Hardhat) or set by `codeSizeLimit` (Anvil's `--code-size-limit`),
 * with the EIP-3860 initcode limit at twice the code limit. The same limit holds for mined
 * transactions, eth_call, eth_estimateGas, eth_simulateV1, debug_traceCall and the replay of a
 * mined deployment by debug_traceTransaction.
 */
import { concat, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { artifact, qty, rpcError, sender } from '../helpers/execution.js'

const newNode = trackNodes()
const large = artifact('LargeMock')
const RUNTIME_SIZE = (large.deployedBytecode.length - 2) / 2
const GAS = qty(15_000_000)

/**
 * Initcode that deploys `size` bytes of STOPs (the zeroed memory it returns), padded with
 * unreachable bytes to `total` bytes of initcode.
 */
function initcode(size: number, total = 0): Hex {
  const code = `0x61${size.toString(16).padStart(4, '0')}6000f3` as Hex // PUSH2 size, PUSH1 0, RETURN: memory [0, size)
  const padding = Math.max(0, total - (code.length - 2) / 2)
  return padding === 0 ? code : concat([code, `0x${'00'.repeat(padding)}`])
}

/** Sends a creation with explicit gas (no estimate) and answers its receipt. */
async function create(node: FinalityNode, data: Hex): Promise<{ status: Hex; contractAddress: Hex | null; transactionHash: Hex }> {
  const hash = (await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), data, gas: GAS }] })) as Hex
  return (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex; contractAddress: Hex | null; transactionHash: Hex }
}

async function codeSize(node: FinalityNode, address: Hex | null): Promise<number> {
  // A failed creation keeps its address in the receipt, as on geth.
  if (address === null) throw new Error('the receipt has no contract address')
  const code = await node.request({ method: 'eth_getCode', params: [address, 'latest'] })
  return (code.length - 2) / 2
}

describe('code size limit', () => {
  it('default: a solc-compiled mock over 24 KiB is refused, in a block and by eth_call, eth_estimateGas', async () => {
    expect(RUNTIME_SIZE).toBeGreaterThan(24_576)
    const node = await newNode()
    const receipt = await create(node, large.bytecode)
    expect(receipt.status).toBe('0x0')
    expect(await codeSize(node, receipt.contractAddress)).toBe(0)
    const call = await rpcError(node, 'eth_call', [{ from: sender(node), data: large.bytecode, gas: GAS }, 'latest'])
    expect(call.message).toBe('max code size exceeded')
    const estimate = await rpcError(node, 'eth_estimateGas', [{ from: sender(node), data: large.bytecode }])
    expect(estimate.message).toContain('max code size exceeded')
  })

  it('allowUnlimitedContractSize: the mock deploys and runs; call, estimate, simulate and traces agree', async () => {
    const node = await newNode({ allowUnlimitedContractSize: true })
    const tx = { from: sender(node), data: large.bytecode }
    const gas = BigInt((await node.request({ method: 'eth_estimateGas', params: [tx] })) as Hex)
    const returned = (await node.request({ method: 'eth_call', params: [{ ...tx, gas: GAS }, 'latest'] })) as Hex
    expect(returned).toBe(large.deployedBytecode)

    const hash = (await node.request({ method: 'eth_sendTransaction', params: [tx] })) as Hex
    const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex; contractAddress: Hex; gasUsed: Hex }
    expect(receipt.status).toBe('0x1')
    expect(BigInt(receipt.gasUsed)).toBeLessThanOrEqual(gas)
    expect(await codeSize(node, receipt.contractAddress)).toBe(RUNTIME_SIZE)
    const size = await node.request({
      method: 'eth_call',
      params: [{ to: receipt.contractAddress, data: encodeFunctionData({ abi: large.abi, functionName: 'size' }) }, 'latest'],
    })
    expect(BigInt(size as Hex)).toBe(25_000n)

    // The mined deployment replays the same way: success, the same gas, the code returned.
    const trace = (await node.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] })) as { gasUsed: Hex; output: Hex; error?: string }
    expect(trace.error).toBeUndefined()
    expect(trace.gasUsed).toBe(receipt.gasUsed)
    expect(trace.output).toBe(large.deployedBytecode)
    const traceCall = (await node.request({ method: 'debug_traceCall', params: [{ ...tx, gas: GAS }, 'latest', { tracer: 'callTracer' }] })) as { error?: string }
    expect(traceCall.error).toBeUndefined()

    const simulated = (await node.request({
      method: 'eth_simulateV1',
      params: [{ blockStateCalls: [{ calls: [{ ...tx, gas: GAS }] }] }, 'latest'],
    })) as Array<{ calls: Array<{ status: Hex; returnData: Hex }> }>
    expect(simulated[0]?.calls[0]?.status).toBe('0x1')
  })

  it('default: debug_traceCall and eth_simulateV1 refuse the deployment too', async () => {
    const node = await newNode()
    const tx = { from: sender(node), data: large.bytecode, gas: GAS }
    const trace = (await node.request({ method: 'debug_traceCall', params: [tx, 'latest', { tracer: 'callTracer' }] })) as { error?: string }
    expect(trace.error).toBe('max code size exceeded')
    const simulated = (await node.request({
      method: 'eth_simulateV1',
      params: [{ blockStateCalls: [{ calls: [tx] }] }, 'latest'],
    })) as Array<{ calls: Array<{ status: Hex; error?: { message: string } }> }>
    expect(simulated[0]?.calls[0]?.status).toBe('0x0')
  })

  it('codeSizeLimit: code of exactly the limit deploys, one byte more does not', async () => {
    const node = await newNode({ codeSizeLimit: 1000 })
    const at = await create(node, initcode(1000))
    expect(at.status).toBe('0x1')
    expect(await codeSize(node, at.contractAddress)).toBe(1000)
    const past = await create(node, initcode(1001))
    expect(past.status).toBe('0x0')
    expect(await codeSize(node, past.contractAddress)).toBe(0)
    // Above EIP-170 when the limit says so.
    const roomy = await newNode({ codeSizeLimit: RUNTIME_SIZE })
    expect((await create(roomy, large.bytecode)).status).toBe('0x1')
    const tight = await newNode({ codeSizeLimit: RUNTIME_SIZE - 1 })
    expect((await create(tight, large.bytecode)).status).toBe('0x0')
  })

  it('codeSizeLimit: the initcode limit is twice the code limit (EIP-3860)', async () => {
    const node = await newNode({ codeSizeLimit: 1000 })
    expect((await create(node, initcode(10, 2000))).status).toBe('0x1')
    const over = initcode(10, 2001)
    expect(await rpcError(node, 'eth_sendTransaction', [{ from: sender(node), data: over, gas: GAS }])).toEqual({
      code: -32000,
      message: 'max initcode size exceeded: code size 2001, limit 2000',
      data: undefined,
    })
    expect((await rpcError(node, 'eth_sendTransaction', [{ from: sender(node), data: over }])).message).toBe('max initcode size exceeded: code size 2001, limit 2000')
    expect((await rpcError(node, 'eth_call', [{ from: sender(node), data: over }, 'latest'])).message).toBe('max initcode size exceeded: code size 2001 limit 2000')
    expect((await rpcError(node, 'eth_estimateGas', [{ from: sender(node), data: over }])).message).toBe('max initcode size exceeded: code size 2001 limit 2000')
    const account = privateKeyToAccount(node.accounts[0]!.privateKey)
    const raw = await account.signTransaction({ chainId: 31337, nonce: 1, data: over, gas: 15_000_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n })
    expect((await rpcError(node, 'eth_sendRawTransaction', [raw])).message).toBe('max initcode size exceeded: code size 2001, limit 2000')
    // The default allows 49,152 bytes of initcode, unlimited allows more.
    const byDefault = await newNode()
    expect((await create(byDefault, initcode(10, 49_152))).status).toBe('0x1')
    expect((await rpcError(byDefault, 'eth_sendTransaction', [{ from: sender(byDefault), data: initcode(10, 49_153), gas: GAS }])).message).toBe(
      'max initcode size exceeded: code size 49153, limit 49152',
    )
    const unlimited = await newNode({ allowUnlimitedContractSize: true })
    expect((await create(unlimited, initcode(30_000, 60_000))).status).toBe('0x1')
  })

  it('error: bad options are refused by createNode, naming the option', async () => {
    await expect(newNode({ codeSizeLimit: 0 })).rejects.toThrow('createNode: option codeSizeLimit must be at least 1, got 0')
    await expect(newNode({ codeSizeLimit: 1.5 })).rejects.toThrow('createNode: option codeSizeLimit must be an integer')
    await expect(newNode({ codeSizeLimit: '100' as unknown as number })).rejects.toThrow('createNode: option codeSizeLimit must be an integer')
    await expect(newNode({ codeSizeLimit: 2n ** 53n })).rejects.toThrow('createNode: option codeSizeLimit must be at most 9007199254740991 bytes')
    await expect(newNode({ allowUnlimitedContractSize: 'yes' as unknown as boolean })).rejects.toThrow('createNode: option allowUnlimitedContractSize must be true or false')
    await expect(newNode({ allowUnlimitedContractSize: true, codeSizeLimit: 100 })).rejects.toThrow(
      'createNode: option codeSizeLimit cannot be set together with allowUnlimitedContractSize: true',
    )
    // A bigint is a limit too, and `allowUnlimitedContractSize: false` leaves the limit to codeSizeLimit.
    const node = await newNode({ allowUnlimitedContractSize: false, codeSizeLimit: 1000n })
    expect((await create(node, initcode(1000))).status).toBe('0x1')
    expect((await create(node, initcode(1001))).status).toBe('0x0')
  })
})
