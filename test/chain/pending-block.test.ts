/**
 * `pending` is the next block, as geth's and Hardhat's: with nothing queued it is an empty block
 * at the head's number + 1, with the next timestamp, base fee, coinbase and prevrandao; calls and
 * estimates on it run with that block's number and timestamp.
 */
import { BrowserProvider, Contract, type InterfaceAbi } from 'ethers'
import { createPublicClient, createTestClient, createWalletClient, custom, http, toFunctionSelector, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadArtifacts } from '../helpers/compile.js'
import { trackNodes } from '../helpers/nodes.js'
import { finalityChain as chain } from '../helpers/viem.js'

const newNode = trackNodes()
const { Timelock } = loadArtifacts()
type Node = Awaited<ReturnType<typeof newNode>>
type Header = { number: string; timestamp: string; baseFeePerGas: string; miner: string; mixHash: string; transactions: unknown[] }

const rpc = (node: Node, method: string, ...params: unknown[]) => node.request({ method, params })
const block = async (node: Node, tag: string) => (await rpc(node, 'eth_getBlockByNumber', tag, false)) as Header
const hex = (n: bigint) => `0x${n.toString(16)}`

async function deploy(node: Node, opensAt: bigint): Promise<Hex> {
  const transport = custom(node.provider, { retryCount: 0 })
  const wallet = createWalletClient({ chain, transport })
  const client = createPublicClient({ chain, transport, cacheTime: 0 })
  const hash = await wallet.deployContract({
    account: node.accounts[0]!.address as Hex,
    abi: Timelock!.abi,
    bytecode: Timelock!.bytecode,
    args: [opensAt],
  })
  return (await client.getTransactionReceipt({ hash })).contractAddress as Hex
}

describe('the pending block with nothing queued', () => {
  test('default: the head number + 1, a later timestamp, the next base fee, no transactions', async () => {
    const node = await newNode()
    await rpc(node, 'evm_mine')
    const latest = await block(node, 'latest')
    const pending = await block(node, 'pending')
    expect(pending.number).toBe(hex(BigInt(latest.number) + 1n))
    expect(BigInt(pending.timestamp)).toBeGreaterThan(BigInt(latest.timestamp))
    expect(pending.transactions).toEqual([])
    expect(await rpc(node, 'eth_getBlockTransactionCountByNumber', 'pending')).toBe('0x0')
    // The block mined next has the base fee pending showed.
    await rpc(node, 'evm_mine')
    expect((await block(node, 'latest')).baseFeePerGas).toBe(pending.baseFeePerGas)
  })

  test('behavior: follows evm_setNextBlockTimestamp, evm_increaseTime, the next base fee, coinbase and prevrandao', async () => {
    const node = await newNode()
    const latest = await block(node, 'latest')
    const at = BigInt(latest.timestamp) + 10_000n
    await rpc(node, 'evm_setNextBlockTimestamp', hex(at))
    await rpc(node, 'hardhat_setNextBlockBaseFeePerGas', '0x1234')
    await rpc(node, 'hardhat_setCoinbase', '0x00000000000000000000000000000000000000c0')
    await rpc(node, 'hardhat_setPrevRandao', `0x${'ab'.repeat(32)}`)
    const pending = await block(node, 'pending')
    expect(pending).toMatchObject({
      number: hex(BigInt(latest.number) + 1n),
      timestamp: hex(at),
      baseFeePerGas: '0x1234',
      miner: '0x00000000000000000000000000000000000000c0',
      mixHash: `0x${'ab'.repeat(32)}`,
    })
    // The block mined next is the one pending showed.
    await rpc(node, 'evm_mine')
    expect(await block(node, 'latest')).toMatchObject({ number: pending.number, timestamp: pending.timestamp, baseFeePerGas: '0x1234' })
    await rpc(node, 'evm_increaseTime', '0xe10')
    expect(BigInt((await block(node, 'pending')).timestamp)).toBeGreaterThanOrEqual(at + 3600n)
  })

  test('behavior: eth_call and eth_estimateGas on pending see its block.number and block.timestamp', async () => {
    const node = await newNode()
    const head = await block(node, 'latest')
    const opensAt = BigInt(head.timestamp) + 100_000n
    const address = await deploy(node, opensAt)
    const latest = await block(node, 'latest')
    const clock = toFunctionSelector('clock()')
    const pendingClock = (await rpc(node, 'eth_call', { to: address, data: clock }, 'pending')) as string
    expect(BigInt(pendingClock.slice(0, 66))).toBe(BigInt(latest.number) + 1n)
    const latestClock = (await rpc(node, 'eth_call', { to: address, data: clock }, 'latest')) as string
    expect(BigInt(latestClock.slice(0, 66))).toBe(BigInt(latest.number))
    // execute() is refused before opensAt; with the next block set to it, pending runs it.
    const execute = { from: node.accounts[0]!.address, to: address, data: toFunctionSelector('execute()') }
    await expect(rpc(node, 'eth_estimateGas', execute, 'pending')).rejects.toMatchObject({ code: 3 })
    await rpc(node, 'evm_setNextBlockTimestamp', hex(opensAt))
    expect(BigInt((await rpc(node, 'eth_estimateGas', execute, 'pending')) as string)).toBeGreaterThan(21_000n)
    await expect(rpc(node, 'eth_estimateGas', execute, 'latest')).rejects.toMatchObject({ code: 3 })
    const pendingTime = (await rpc(node, 'eth_call', { to: address, data: clock }, 'pending')) as string
    expect(BigInt(`0x${pendingTime.slice(66)}`)).toBe(opensAt)
  })

  test('behavior: a call on pending reads the header pending shows, after each setter, as the clock moves and after a block', async () => {
    let now = 1_700_000_000_000
    const clock = { now: () => now, setTimer: () => () => {} }
    const node = await newNode({ clock, genesisTimestamp: BigInt(now / 1000) - 100n })
    // Init code that returns NUMBER, TIMESTAMP, COINBASE, GASLIMIT, BASEFEE and PREVRANDAO, a word each.
    const data = `0x${['43', '42', '41', '45', '48', '44'].map((op, i) => `${op}60${(i * 32).toString(16).padStart(2, '0')}52`).join('')}60c05ff3`
    const seen = async () => {
      // Priced, so that BASEFEE reads the block's base fee.
      const words = ((await rpc(node, 'eth_call', { from: node.accounts[0]!.address, data, gasPrice: '0x3b9aca00', gas: '0x100000' }, 'pending')) as string).slice(2).match(/.{64}/g)!
      const [number, timestamp, coinbase, gasLimit, baseFee, prevRandao] = words.map((w) => BigInt(`0x${w}`))
      return { number, timestamp, coinbase, gasLimit, baseFee, prevRandao }
    }
    const shown = async () => {
      const b = (await rpc(node, 'eth_getBlockByNumber', 'pending', false)) as Header & { gasLimit: string }
      return { number: BigInt(b.number), timestamp: BigInt(b.timestamp), coinbase: BigInt(b.miner), gasLimit: BigInt(b.gasLimit), baseFee: BigInt(b.baseFeePerGas), prevRandao: BigInt(b.mixHash) }
    }
    const steps: Array<() => Promise<unknown>> = [
      async () => {},
      async () => (now += 7_000),
      () => rpc(node, 'evm_increaseTime', '0x64'),
      () => rpc(node, 'evm_setNextBlockTimestamp', hex(BigInt(now / 1000) + 5_000n)),
      () => rpc(node, 'hardhat_setCoinbase', '0x00000000000000000000000000000000000000c0'),
      () => rpc(node, 'hardhat_setPrevRandao', `0x${'cd'.repeat(32)}`),
      () => rpc(node, 'hardhat_setNextBlockBaseFeePerGas', '0x3b9aca00'),
      () => rpc(node, 'evm_setBlockGasLimit', '0x1c9c381'),
      () => rpc(node, 'evm_mine'),
      async () => (now += 10_000),
      () => rpc(node, 'hardhat_setBalance', node.accounts[1]!.address, '0x1'),
    ]
    const before: unknown[] = []
    for (const step of steps) {
      await step()
      const call = await seen()
      expect(call).toEqual(await shown())
      before.push(call)
    }
    // Each step changed what pending reads (the balance write only its state: the same header).
    expect(new Set(before.slice(0, -1).map((x) => JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? v.toString() : v)))).size).toBe(steps.length - 1)
  })

  test('behavior: state reads on pending answer the head state; the nonce is the pool\'s next', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const [a, b] = node.accounts
    const balance = await rpc(node, 'eth_getBalance', b!.address, 'latest')
    expect(await rpc(node, 'eth_getBalance', b!.address, 'pending')).toBe(balance)
    expect(await rpc(node, 'eth_getTransactionCount', a!.address, 'pending')).toBe('0x0')
    await rpc(node, 'eth_sendTransaction', { from: a!.address, to: b!.address, value: '0x5' })
    expect(await rpc(node, 'eth_getTransactionCount', a!.address, 'pending')).toBe('0x1')
    expect(await rpc(node, 'eth_getBalance', b!.address, 'pending')).toBe(hex(BigInt(balance as string) + 5n))
    expect((await block(node, 'pending')).transactions).toHaveLength(1)
  })
})

describe('pending through viem and ethers', () => {
  let node: Node
  let address: Hex
  beforeAll(async () => {
    node = await newNode()
    address = await deploy(node, 0n)
  })

  test('viem: a votes-style past lookup of the head block reverts on latest and runs on pending', async () => {
    const transport = custom(node.provider, { retryCount: 0 })
    const client = createPublicClient({ chain, transport, cacheTime: 0 })
    const test = createTestClient({ chain, transport, mode: 'hardhat' })
    await test.mine({ blocks: 1 })
    const head = await client.getBlockNumber()
    const args = { address, abi: Timelock!.abi, functionName: 'pastLookup', args: [head] } as const
    await expect(client.readContract(args)).rejects.toThrow(/FutureLookup/)
    expect(await client.readContract({ ...args, blockTag: 'pending' })).toBe(head)
    const pending = await client.getBlock({ blockTag: 'pending' })
    expect(pending.number).toBe(head + 1n)
    expect(await client.estimateContractGas({ ...args, functionName: 'execute', args: [], account: node.accounts[0]!.address as Hex, blockTag: 'pending' })).toBeGreaterThan(21_000n)
  })

  test('ethers: staticCall with blockTag pending runs in the next block', async () => {
    const provider = new BrowserProvider(node.provider, undefined, { cacheTimeout: -1 })
    const contract = new Contract(address, Timelock!.abi as unknown as InterfaceAbi, provider)
    const head = BigInt(await provider.getBlockNumber())
    const [number] = (await contract.getFunction('clock').staticCall({ blockTag: 'pending' })) as [bigint, bigint]
    expect(number).toBe(head + 1n)
    expect(await contract.getFunction('pastLookup').staticCall(head, { blockTag: 'pending' })).toBe(head)
    expect((await provider.getBlock('pending'))?.number).toBe(Number(head) + 1)
    provider.destroy()
  })
})

describe('pending over HTTP', () => {
  let served: Awaited<ReturnType<Node['listen']>>
  let node: Node
  beforeAll(async () => {
    node = await newNode()
    served = await node.listen({ address: '127.0.0.1:0' })
  })
  afterAll(() => served.close())

  test('default: eth_getBlockByNumber("pending") is the next block', async () => {
    const client = createPublicClient({ chain, transport: http(served.http, { retryCount: 0 }) })
    const head = await client.getBlockNumber({ cacheTime: 0 })
    expect((await client.getBlock({ blockTag: 'pending' })).number).toBe(head + 1n)
  })
})
