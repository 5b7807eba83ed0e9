/**
 * eth_simulateV1 with geth's shape: blocks of calls with state and block overrides, validation,
 * traceTransfers (ERC-7528 logs), returnFullTransactions, and the -38xxx errors.
 */
import { createPublicClient, custom, decodeFunctionResult, pad, type Abi, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BlockSelector, FinalityNode } from '../../src/index.js'
import type { RpcSimulateRequest } from '../../src/rpc-types.js'
import { artifact, calldata, deploy, qty, rpcError, sender, testNode, word } from '../helpers/execution.js'

let node: FinalityNode
let probe: Hex
let forwarder: Hex
let reverter: Hex
const stranger = '0x00000000000000000000000000000000000000aa'
const ETHER = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

type Call = { returnData: Hex; logs: Array<{ address: Hex; topics: Hex[]; data: Hex; logIndex: Hex; blockHash: Hex; transactionHash: Hex }>; gasUsed: Hex; status: Hex; error?: { code: number; message: string; data?: Hex } }
type SimBlock = { number: Hex; hash: Hex; parentHash: Hex; timestamp: Hex; gasUsed: Hex; baseFeePerGas: Hex; miner: Hex; transactions: Array<Hex | { from: Hex; hash: Hex; to: Hex }>; calls: Call[] }

beforeAll(async () => {
  node = await testNode()
  probe = await deploy(node, 'Probe')
  forwarder = await deploy(node, 'Forwarder')
  reverter = await deploy(node, 'Reverter')
})
afterAll(() => node.close())

async function simulate(opts: RpcSimulateRequest, tag: BlockSelector = 'latest'): Promise<SimBlock[]> {
  return (await node.request({ method: 'eth_simulateV1', params: [opts, tag] })) as SimBlock[]
}

async function head(): Promise<{ number: bigint; hash: Hex; timestamp: bigint }> {
  const b = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { number: Hex; hash: Hex; timestamp: Hex }
  return { number: BigInt(b.number), hash: b.hash, timestamp: BigInt(b.timestamp) }
}

function balanceOf(out: Hex): bigint {
  return decodeFunctionResult({ abi: artifact('Probe').abi as Abi, functionName: 'balanceOf', data: out }) as bigint
}

describe('eth_simulateV1', () => {
  it('default: blocks on top of the head, later calls see earlier ones, the chain is unchanged', async () => {
    const base = await head()
    const blocks = await simulate({
      blockStateCalls: [
        { calls: [{ from: sender(node), to: stranger, value: '0x3e8' }] },
        { calls: [{ to: probe, input: calldata('Probe', 'balanceOf', [stranger]) }, { to: probe, input: calldata('Probe', 'hashOf', [base.number + 1n]) }] },
      ],
    })
    expect(blocks).toHaveLength(2)
    const [b1, b2] = blocks as [SimBlock, SimBlock]
    expect(BigInt(b1.number)).toBe(base.number + 1n)
    expect(BigInt(b2.number)).toBe(base.number + 2n)
    expect(b1.parentHash).toBe(base.hash)
    expect(b2.parentHash).toBe(b1.hash)
    expect(BigInt(b1.timestamp)).toBe(base.timestamp + 12n)
    expect(BigInt(b2.timestamp)).toBe(base.timestamp + 24n)
    expect(b1.baseFeePerGas).toBe('0x0')
    expect(b1.calls).toEqual([{ returnData: '0x', logs: [], gasUsed: '0x5208', maxUsedGas: '0x5208', status: '0x1' }])
    expect(b1.gasUsed).toBe('0x5208')
    expect(b1.transactions).toHaveLength(1)
    expect(typeof b1.transactions[0]).toBe('string')
    expect(balanceOf(b2.calls[0]!.returnData)).toBe(1000n)
    expect(b2.calls[1]!.returnData).toBe(b1.hash)
    expect(await node.request({ method: 'eth_getBalance', params: [stranger, 'latest'] })).toBe('0x0')
    expect((await head()).number).toBe(base.number)
  })

  it('args: stateOverrides and blockOverrides per block; a gap in numbers is filled with empty blocks', async () => {
    const base = await head()
    const blocks = await simulate({
      blockStateCalls: [
        { stateOverrides: { [stranger]: { balance: '0x64' } }, calls: [{ to: probe, input: calldata('Probe', 'balanceOf', [stranger]) }] },
        {
          blockOverrides: { number: qty(base.number + 4n), time: qty(base.timestamp + 100n), feeRecipient: '0x00000000000000000000000000000000000000cb', baseFeePerGas: '0x3' },
          stateOverrides: { [stranger]: { balance: '0x65' } },
          calls: [{ to: probe, input: calldata('Probe', 'balanceOf', [stranger]) }, { to: probe, input: calldata('Probe', 'blockInfo') }],
        },
      ],
    })
    expect(blocks.map((b) => BigInt(b.number))).toEqual([1n, 2n, 3n, 4n].map((i) => base.number + i))
    expect(balanceOf(blocks[0]!.calls[0]!.returnData)).toBe(100n)
    expect(blocks[1]!.calls).toEqual([])
    expect(BigInt(blocks[2]!.timestamp)).toBe(base.timestamp + 36n)
    const last = blocks[3]!
    expect(BigInt(last.timestamp)).toBe(base.timestamp + 100n)
    expect(last.miner).toBe('0x00000000000000000000000000000000000000cb')
    expect(last.baseFeePerGas).toBe('0x3')
    expect(balanceOf(last.calls[0]!.returnData)).toBe(101n)
    const info = decodeFunctionResult({ abi: artifact('Probe').abi as Abi, functionName: 'blockInfo', data: last.calls[1]!.returnData }) as bigint[]
    expect(info[0]).toBe(base.number + 4n)
    expect(info[1]).toBe(base.timestamp + 100n)
  })

  it('args: traceTransfers adds ERC-7528 Transfer logs in execution order', async () => {
    const blocks = await simulate({
      traceTransfers: true,
      blockStateCalls: [{ calls: [{ from: sender(node), to: forwarder, value: '0x64', input: calldata('Forwarder', 'forward', [stranger]) }] }],
    })
    const call = blocks[0]!.calls[0]!
    expect(call.status).toBe('0x1')
    const from = pad(sender(node).toLowerCase() as Hex)
    expect(call.logs.map((l) => [l.address.toLowerCase(), l.topics[0]])).toEqual([
      [ETHER, TRANSFER],
      [forwarder.toLowerCase(), call.logs[1]!.topics[0]],
      [ETHER, TRANSFER],
    ])
    expect(call.logs[0]!.topics.slice(1)).toEqual([from, pad(forwarder.toLowerCase() as Hex)])
    expect(call.logs[0]!.data).toBe(word(100n))
    expect(call.logs[2]!.topics.slice(1)).toEqual([pad(forwarder.toLowerCase() as Hex), pad(stranger)])
    expect(call.logs[2]!.data).toBe(word(50n))
    expect(call.logs.map((l) => l.logIndex)).toEqual(['0x0', '0x1', '0x2'])
    expect(call.logs[0]!.blockHash).toBe(blocks[0]!.hash)
    expect(call.logs[0]!.transactionHash).toBe(blocks[0]!.transactions[0])
    const plain = await simulate({ blockStateCalls: [{ calls: [{ from: sender(node), to: forwarder, value: '0x64', input: calldata('Forwarder', 'forward', [stranger]) }] }] })
    expect(plain[0]!.calls[0]!.logs).toHaveLength(1)
  })

  it('args: traceTransfers logs the balance a SELFDESTRUCT sends to its beneficiary', async () => {
    const doomed = '0x00000000000000000000000000000000000dead1'
    const heir = '0x00000000000000000000000000000000000be1a5'
    // PUSH20 heir, SELFDESTRUCT
    const code: Hex = `0x73${heir.slice(2)}ff`
    const blocks = await simulate({
      traceTransfers: true,
      blockStateCalls: [{ stateOverrides: { [doomed]: { code, balance: '0x3e8' } }, calls: [{ from: sender(node), to: doomed }] }],
    })
    const call = blocks[0]!.calls[0]!
    expect(call.status).toBe('0x1')
    expect(call.logs.map((l) => [l.address.toLowerCase(), l.topics[0], l.topics[1], l.topics[2], l.data])).toEqual([
      [ETHER, TRANSFER, pad(doomed), pad(heir), word(1000n)],
    ])
    const plain = await simulate({
      blockStateCalls: [{ stateOverrides: { [doomed]: { code, balance: '0x3e8' } }, calls: [{ from: sender(node), to: doomed }] }],
    })
    expect(plain[0]!.calls[0]!.logs).toHaveLength(0)
  })

  it('args: returnFullTransactions gives transaction objects with their sender', async () => {
    const blocks = await simulate({ returnFullTransactions: true, blockStateCalls: [{ calls: [{ from: sender(node, 2), to: stranger, value: '0x1' }] }] })
    const tx = blocks[0]!.transactions[0] as { from: Hex; hash: Hex; to: Hex }
    expect(tx.from.toLowerCase()).toBe(sender(node, 2).toLowerCase())
    expect(tx.to).toBe(stranger)
    expect(tx.hash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('behavior: a reverting call has status 0x0 and the revert as its error', async () => {
    const blocks = await simulate({ blockStateCalls: [{ calls: [{ to: reverter, input: calldata('Reverter', 'revertWithReason') }] }] })
    const call = blocks[0]!.calls[0]!
    expect(call.status).toBe('0x0')
    expect(call.error).toMatchObject({ code: 3 })
    expect(call.error?.message).toMatch(/^execution reverted/)
    expect(call.error?.data).toMatch(/^0x/)
  })

  it('args: validation checks nonce, funds and fees (-38011, -38014, -38012), and uses the real base fee', async () => {
    const nonce = BigInt((await node.request({ method: 'eth_getTransactionCount', params: [sender(node), 'latest'] })) as string)
    const high = await rpcError(node, 'eth_simulateV1', [{ validation: true, blockStateCalls: [{ calls: [{ from: sender(node), to: stranger, nonce: qty(nonce + 5n), maxFeePerGas: '0x3b9aca000' }] }] }, 'latest'])
    expect(high.code).toBe(-38011)
    expect(high.message).toMatch(/^nonce too high/)
    const low = await rpcError(node, 'eth_simulateV1', [{ validation: true, blockStateCalls: [{ calls: [{ from: sender(node), to: stranger, nonce: qty(nonce - 1n), maxFeePerGas: '0x3b9aca000' }] }] }, 'latest'])
    expect(low.code).toBe(-38010)
    const funds = await rpcError(node, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: stranger, to: probe, value: '0x1' }] }] }, 'latest'])
    expect(funds.code).toBe(-38014)
    expect(funds.message).toMatch(/^insufficient funds for gas \* price \+ value/)
    const fee = await rpcError(node, 'eth_simulateV1', [{ validation: true, blockStateCalls: [{ calls: [{ from: sender(node), to: stranger }] }] }, 'latest'])
    expect(fee.code).toBe(-38012)
    const ok = await simulate({ validation: true, blockStateCalls: [{ calls: [{ from: sender(node), to: stranger, maxFeePerGas: '0x3b9aca000' }] }] })
    expect(BigInt(ok[0]!.baseFeePerGas)).toBeGreaterThan(0n)
    const intrinsic = await rpcError(node, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: sender(node), to: stranger, gas: '0x5207' }] }] }, 'latest'])
    expect(intrinsic.code).toBe(-38013)
  })

  it('error: block numbers and timestamps must increase (-38020, -38021)', async () => {
    const base = await head()
    const numbers = await rpcError(node, 'eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: qty(base.number) } }] }, 'latest'])
    expect(numbers).toMatchObject({ code: -38020, message: `block numbers must be in order: ${base.number} <= ${base.number}` })
    const times = await rpcError(node, 'eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { time: qty(base.timestamp) } }] }, 'latest'])
    expect(times).toMatchObject({ code: -38021, message: `block timestamps must be in order: ${base.timestamp} <= ${base.timestamp}` })
  })

  it('limit: 256 blocks past the base are simulated, 257 are -38026', async () => {
    const base = await head()
    const at = await simulate({ blockStateCalls: [{ blockOverrides: { number: qty(base.number + 256n) } }] })
    expect(at).toHaveLength(256)
    const past = await rpcError(node, 'eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: qty(base.number + 257n) } }] }, 'latest'])
    expect(past).toMatchObject({ code: -38026, message: 'too many blocks' })
  })

  it('error: the block gas limit (-38015) and empty input (-32602)', async () => {
    const gas = await rpcError(node, 'eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { gasLimit: '0x9c40' }, calls: [{ to: stranger, gas: '0x5208' }, { to: stranger, gas: '0x5208' }] }] }, 'latest'])
    expect(gas).toMatchObject({ code: -38015, message: 'block gas limit reached: 21000 >= 40000' })
    const empty = await rpcError(node, 'eth_simulateV1', [{ blockStateCalls: [] }, 'latest'])
    expect(empty).toMatchObject({ code: -32602, message: 'empty input' })
    const both = await rpcError(node, 'eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: { [stranger]: { state: {}, stateDiff: {} } } }] }, 'latest'])
    expect(both.code).toBe(-32602)
  })

  it('through viem: simulateBlocks', async () => {
    const client = createPublicClient({ transport: custom(node.provider, { retryCount: 0 }) })
    const blocks = await client.simulateBlocks({
      blocks: [
        {
          stateOverrides: [{ address: stranger, balance: 7n }],
          calls: [{ to: probe, data: calldata('Probe', 'balanceOf', [stranger]) }],
        },
      ],
    })
    expect(blocks).toHaveLength(1)
    expect(balanceOf(blocks[0]!.calls[0]!.data)).toBe(7n)
    expect(blocks[0]!.calls[0]!.status).toBe('success')
  })
})
