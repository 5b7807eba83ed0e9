/**
 * The rest of what viem's test actions call in `anvil` and `hardhat` modes: block timestamp
 * intervals, logging, the minimum gas price (refused on EIP-1559 chains, as both do), unsigned
 * transactions, detailed mining, pool clearing and anvil_metadata.
 */
import { createTestClient, custom, parseEther, publicActions, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { calldata, deploy } from '../helpers/execution.js'
import { trackNodes } from '../helpers/nodes.js'
import { finalityChain as chain } from '../helpers/viem.js'

const newNode = trackNodes()
const rpc = <T = unknown>(node: FinalityNode, method: string, params: unknown[] = []) => node.request({ method, params }) as Promise<T>
const testClient = (node: FinalityNode, mode: 'anvil' | 'hardhat') =>
  createTestClient({ chain, transport: custom(node.provider, { retryCount: 0 }), mode, cacheTime: 0 }).extend(publicActions)
const stranger = '0x00000000000000000000000000000000c0ffee01' as const

describe('anvil and hardhat extras', () => {
  test('behavior: setBlockTimestampInterval spaces blocks by exactly that many seconds until removed', async () => {
    const node = await newNode()
    const anvil = testClient(node, 'anvil')
    await anvil.setBlockTimestampInterval({ interval: 7 })
    await anvil.mine({ blocks: 3 })
    const times = await Promise.all([1n, 2n, 3n].map(async (n) => (await anvil.getBlock({ blockNumber: n })).timestamp))
    expect(times[1]! - times[0]!).toBe(7n)
    expect(times[2]! - times[1]!).toBe(7n)
    expect(await rpc(node, 'anvil_removeBlockTimestampInterval')).toBe(true)
    expect(await rpc(node, 'anvil_removeBlockTimestampInterval')).toBe(false)
    // An explicit next timestamp still wins over the interval.
    await anvil.setBlockTimestampInterval({ interval: 7 })
    await anvil.setNextBlockTimestamp({ timestamp: times[2]! + 100n })
    await anvil.mine({ blocks: 1 })
    expect((await anvil.getBlock()).timestamp).toBe(times[2]! + 100n)
  })

  test('behavior: setLoggingEnabled(false) silences console.log, true brings it back', async () => {
    const messages: string[] = []
    const node = await newNode({ onConsoleLog: (m) => messages.push(m) })
    const logger = await deploy(node, 'Logger')
    const call = () => rpc(node, 'eth_call', [{ to: logger, input: calldata('Logger', 'hello', [5n]) }])
    await testClient(node, 'hardhat').setLoggingEnabled(false)
    await call()
    expect(messages).toEqual([])
    await testClient(node, 'anvil').setLoggingEnabled(true)
    await call()
    expect(messages[0]).toBe('hello 5')
  })

  test('behavior: setLoggingEnabled(false) also silences a transport\'s request log (the CLI\'s)', async () => {
    const node = await newNode()
    const logged: string[][] = []
    const served = await node.listen({ address: '127.0.0.1:0', onRequest: ({ methods }) => logged.push(methods) })
    const post = (method: string) =>
      fetch(served.http as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }) })
    await post('eth_chainId')
    expect(logged).toEqual([['eth_chainId']])
    await rpc(node, 'anvil_setLoggingEnabled', [false])
    await post('eth_blockNumber')
    expect(logged).toEqual([['eth_chainId']])
    await rpc(node, 'hardhat_setLoggingEnabled', [true])
    await post('eth_blockNumber')
    expect(logged).toEqual([['eth_chainId'], ['eth_blockNumber']])
  })

  test('error: setMinGasPrice is refused on an EIP-1559 chain in both modes, with their wording', async () => {
    const node = await newNode()
    for (const mode of ['hardhat', 'anvil'] as const) {
      await expect(testClient(node, mode).setMinGasPrice({ gasPrice: 1n })).rejects.toThrow(`${mode}_setMinGasPrice is not supported when EIP-1559 is active`)
    }
  })

  test('behavior: sendUnsignedTransaction sends for any funded address without impersonating it', async () => {
    const node = await newNode()
    const anvil = testClient(node, 'anvil')
    await anvil.setBalance({ address: stranger, value: parseEther('1') })
    const hash = await anvil.sendUnsignedTransaction({ from: stranger, to: node.accounts[0]!.address as Hex, value: 12345n })
    const receipt = await anvil.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from).toBe(stranger)
    // Not impersonated afterwards: eth_sendTransaction from it is still refused.
    await expect(rpc(node, 'eth_sendTransaction', [{ from: stranger, to: stranger }])).rejects.toMatchObject({ message: 'unknown account' })
  })

  test('error: eth_sendUnsignedTransaction is gated by the anvil namespace, not eth', async () => {
    const node = await newNode({ api: ['eth', 'net', 'web3'] })
    await expect(rpc(node, 'eth_sendUnsignedTransaction', [{ from: stranger, to: stranger }])).rejects.toMatchObject({ code: -32601 })
  })

  test('behavior: evm_mine_detailed and anvil_mine_detailed answer the mined blocks with full transactions', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const [a, b] = node.accounts
    const hash = await rpc<Hex>(node, 'eth_sendTransaction', [{ from: a!.address, to: b!.address, value: '0x1' }])
    const [block] = await rpc<Array<{ number: string; transactions: Array<{ hash: string }> }>>(node, 'evm_mine_detailed')
    expect(block!.number).toBe('0x1')
    expect(block!.transactions.map((t) => t.hash)).toEqual([hash])
    const blocks = await rpc<Array<{ number: string; transactions: unknown[] }>>(node, 'anvil_mine_detailed', [{ blocks: 2 }])
    expect(blocks.map((x) => x.number)).toEqual(['0x2', '0x3'])
    expect(blocks.every((x) => x.transactions.length === 0)).toBe(true)
  })

  test('behavior: anvil_removePoolTransactions drops one sender, anvil_dropAllTransactions the rest', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const [a, b, c] = node.accounts
    for (const from of [a!, a!, b!]) await rpc(node, 'eth_sendTransaction', [{ from: from.address, to: c!.address, value: '0x1' }])
    expect(await rpc(node, 'txpool_status')).toEqual({ pending: '0x3', queued: '0x0' })
    expect(await rpc(node, 'anvil_removePoolTransactions', [a!.address])).toBeNull()
    expect(await rpc(node, 'txpool_status')).toEqual({ pending: '0x1', queued: '0x0' })
    expect(await rpc(node, 'anvil_dropAllTransactions')).toBeNull()
    expect(await rpc(node, 'txpool_status')).toEqual({ pending: '0x0', queued: '0x0' })
    await rpc(node, 'evm_mine')
    expect((await rpc<{ transactions: unknown[] }>(node, 'eth_getBlockByNumber', ['latest', false])).transactions).toEqual([])
  })

  test('behavior: anvil_metadata names the chain, its head and the live snapshots', async () => {
    const node = await newNode()
    await rpc(node, 'evm_mine')
    const id = await rpc<string>(node, 'evm_snapshot')
    const meta = await rpc<Record<string, unknown>>(node, 'anvil_metadata')
    const head = await rpc<{ hash: string }>(node, 'eth_getBlockByNumber', ['latest', false])
    expect(meta).toMatchObject({ chainId: 31337, latestBlockNumber: 1, latestBlockHash: head.hash, forkConfig: null })
    expect(meta.snapshots).toEqual({ [BigInt(id).toString(10)]: [1, head.hash] })
    expect(meta.clientVersion).toMatch(/^finality\//)
  })
})
