import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  custom,
  encodeFunctionData,
  parseEther,
  publicActions,
  type Hex,
} from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { requestRaw } from '../helpers/raw-request.js'
import { finalityChain as chain } from '../helpers/viem.js'

const { Counter } = loadArtifacts()

let node: FinalityNode
beforeAll(async () => {
  node = await createNode()
})
afterAll(() => node.close())

const clients = () => {
  const transport = custom(node.provider, { retryCount: 0 })
  return {
    client: createPublicClient({ chain, transport, cacheTime: 0 }),
    hardhat: createTestClient({ chain, transport, mode: 'hardhat', cacheTime: 0 }).extend(publicActions),
    anvil: createTestClient({ chain, transport, mode: 'anvil', cacheTime: 0 }).extend(publicActions),
    wallet: createWalletClient({ chain, transport }),
  }
}
const stranger = '0x00000000000000000000000000000000deadbeef' as const

describe('account writes', () => {
  test('behavior: setBalance, setNonce, setCode and setStorageAt change latest state at once, without a block', async () => {
    const { client, hardhat, anvil } = clients()
    const before = await client.getBlockNumber()
    await hardhat.setBalance({ address: stranger, value: parseEther('5') })
    expect(await client.getBalance({ address: stranger })).toBe(parseEther('5'))
    await anvil.setBalance({ address: stranger, value: 7n })
    expect(await client.getBalance({ address: stranger })).toBe(7n)
    await hardhat.setNonce({ address: stranger, nonce: 9 })
    expect(await client.getTransactionCount({ address: stranger })).toBe(9)
    await anvil.setCode({ address: stranger, bytecode: Counter!.deployedBytecode })
    expect(await client.getCode({ address: stranger })).toBe(Counter!.deployedBytecode)
    await hardhat.setStorageAt({ address: stranger, index: 0, value: `0x${'00'.repeat(31)}2a` })
    expect(await client.readContract({ address: stranger, abi: Counter!.abi, functionName: 'count' })).toBe(42n)
    expect(await client.getBlockNumber()).toBe(before)
    // The next block builds on the written state: a call through a transaction sees it.
    const [from] = node.accounts
    const hash = await clients().wallet.sendTransaction({
      account: from!.address as Hex,
      to: stranger,
      data: encodeFunctionData({ abi: Counter!.abi, functionName: 'increment' }),
    })
    expect((await client.getTransactionReceipt({ hash })).status).toBe('success')
    expect(await client.readContract({ address: stranger, abi: Counter!.abi, functionName: 'count' })).toBe(43n)
    // Writes at the head belong to that block's state, as Hardhat shows them.
    expect(await client.getBalance({ address: stranger, blockNumber: before })).toBe(7n)
  })

  test('error: a storage value that is not 32 bytes is refused', async () => {
    await expect(
      node.request({ method: 'hardhat_setStorageAt', params: [stranger, '0x0', '0x01'] }),
    ).rejects.toMatchObject({ code: -32602 })
  })
})

describe('snapshots', () => {
  test('behavior: revert undoes blocks, state writes and receipts; the id is used up', async () => {
    const { client, hardhat, wallet } = clients()
    const [a, b] = node.accounts
    const id = await hardhat.snapshot()
    const height = await client.getBlockNumber()
    const balance = await client.getBalance({ address: b!.address as Hex })
    const hash = await wallet.sendTransaction({ account: a!.address as Hex, to: b!.address as Hex, value: 1000n })
    await hardhat.setBalance({ address: stranger, value: 123n })
    await hardhat.mine({ blocks: 3 })
    expect(await client.getBlockNumber()).toBe(height + 4n)
    const dropped = await Promise.all([1n, 4n].map(async (n) => (await client.getBlock({ blockNumber: height + n })).hash))
    await hardhat.revert({ id })
    expect(await client.getBlockNumber()).toBe(height)
    // A client that kept a reverted block's hash finds nothing under it.
    for (const h of dropped) expect(await node.request({ method: 'eth_getBlockByHash', params: [h, false] })).toBeNull()
    expect(await client.getBalance({ address: b!.address as Hex })).toBe(balance)
    expect(await client.getBalance({ address: stranger })).not.toBe(123n)
    expect(await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })).toBeNull()
    expect(await node.request({ method: 'eth_getBlockByNumber', params: [`0x${(height + 1n).toString(16)}`, false] })).toBeNull()
    expect(await node.request({ method: 'evm_revert', params: [id] })).toBe(false)
    // The chain goes on from the reverted height, with a new block at the old number.
    const again = await wallet.sendTransaction({ account: a!.address as Hex, to: b!.address as Hex, value: 1n })
    const receipt = await client.getTransactionReceipt({ hash: again })
    expect(receipt.blockNumber).toBe(height + 1n)
  })

  test('behavior: revert takes off more blocks than the chain keeps decoded, transactions among them', async () => {
    const { client, hardhat, wallet } = clients()
    const [a, b] = node.accounts
    const id = await hardhat.snapshot()
    const height = await client.getBlockNumber()
    const first = await wallet.sendTransaction({ account: a!.address as Hex, to: b!.address as Hex, value: 1n })
    // One block a call, as suites mine them: each block its own entry in the undo log.
    for (let i = 0; i < 300; i++) await node.request({ method: 'hardhat_mine', params: ['0x1'] })
    const last = await wallet.sendTransaction({ account: a!.address as Hex, to: b!.address as Hex, value: 1n })
    expect(await client.getBlockNumber()).toBe(height + 302n)
    await hardhat.revert({ id })
    expect(await client.getBlockNumber()).toBe(height)
    for (const hash of [first, last]) {
      expect(await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })).toBeNull()
      expect(await node.request({ method: 'eth_getTransactionByHash', params: [hash] })).toBeNull()
    }
    expect(await node.request({ method: 'eth_getBlockByNumber', params: [`0x${(height + 1n).toString(16)}`, false] })).toBeNull()
    const again = await wallet.sendTransaction({ account: a!.address as Hex, to: b!.address as Hex, value: 1n })
    expect((await client.getTransactionReceipt({ hash: again })).blockNumber).toBe(height + 1n)
  })

  test('behavior: reverting to an earlier snapshot removes later ones', async () => {
    const { hardhat } = clients()
    const first = await hardhat.snapshot()
    await hardhat.mine({ blocks: 1 })
    const second = await hardhat.snapshot()
    await hardhat.revert({ id: first })
    expect(await node.request({ method: 'evm_revert', params: [second] })).toBe(false)
  })

  test('behavior: with reusableSnapshots a snapshot survives its revert', async () => {
    const other = await createNode({ reusableSnapshots: true })
    const id = await other.request({ method: 'evm_snapshot' })
    for (let i = 0; i < 3; i++) {
      await other.request({ method: 'evm_mine' })
      expect(await other.request({ method: 'eth_blockNumber' })).toBe('0x1')
      expect(await other.request({ method: 'evm_revert', params: [id] })).toBe(true)
      expect(await other.request({ method: 'eth_blockNumber' })).toBe('0x0')
    }
    await other.close()
  })

  test('behavior: the pool of a snapshot comes back with it', async () => {
    const manual = await createNode({ mining: { mode: 'manual' } })
    const [a, b] = manual.accounts
    const id = await manual.request({ method: 'evm_snapshot' })
    await manual.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1', gas: '0x5208' }] })
    expect(await manual.request({ method: 'txpool_status' })).toEqual({ pending: '0x1', queued: '0x0' })
    await manual.request({ method: 'evm_revert', params: [id] })
    expect(await manual.request({ method: 'txpool_status' })).toEqual({ pending: '0x0', queued: '0x0' })
    await manual.close()
  })
})

describe('time and mining', () => {
  test('behavior: increaseTime and setNextBlockTimestamp move block timestamps', async () => {
    const { client, hardhat } = clients()
    const start = (await client.getBlock()).timestamp
    const wall = BigInt(Math.floor(Date.now() / 1000))
    await hardhat.increaseTime({ seconds: 3600 })
    await hardhat.mine({ blocks: 1 })
    const moved = (await client.getBlock()).timestamp
    expect(moved).toBeGreaterThan(start)
    expect(moved).toBeGreaterThanOrEqual(wall + 3600n)
    const target = (await client.getBlock()).timestamp + 10_000n
    await hardhat.setNextBlockTimestamp({ timestamp: target })
    await hardhat.mine({ blocks: 1 })
    expect((await client.getBlock()).timestamp).toBe(target)
    await hardhat.mine({ blocks: 1 })
    expect((await client.getBlock()).timestamp).toBeGreaterThanOrEqual(target + 1n)
  })

  test('error: a next timestamp not after the head is refused', async () => {
    const head = (await clients().client.getBlock()).timestamp
    await expect(node.request({ method: 'evm_setNextBlockTimestamp', params: [Number(head)] })).rejects.toMatchObject({
      code: -32602,
    })
  })

  test('behavior: hardhat_mine with an interval spaces timestamps; evm_mine takes a timestamp', async () => {
    const { client, anvil } = clients()
    const height = await client.getBlockNumber()
    await anvil.mine({ blocks: 5, interval: 12 })
    expect(await client.getBlockNumber()).toBe(height + 5n)
    const last = await client.getBlock()
    const previous = await client.getBlock({ blockNumber: last.number - 1n })
    expect(last.timestamp - previous.timestamp).toBe(12n)
    await node.request({ method: 'evm_mine', params: [Number(last.timestamp) + 500] })
    expect((await client.getBlock()).timestamp).toBe(last.timestamp + 500n)
  })

  test('behavior: setAutomine(false) queues transactions until a block is mined', async () => {
    const { client, hardhat, wallet } = clients()
    const [a, b] = node.accounts
    await hardhat.setAutomine(false)
    expect(await hardhat.getAutomine()).toBe(false)
    const height = await client.getBlockNumber()
    const hash = await wallet.sendTransaction({ account: a!.address as Hex, to: b!.address as Hex, value: 1n })
    expect(await client.getBlockNumber()).toBe(height)
    const status = (await node.request({ method: 'txpool_status' })) as { pending: string }
    expect(status.pending).toBe('0x1')
    const content = (await node.request({ method: 'txpool_content' })) as { pending: Record<string, Record<string, { hash: string }>> }
    expect(Object.values(Object.values(content.pending)[0]!)[0]!.hash).toBe(hash)
    const inspect = (await node.request({ method: 'txpool_inspect' })) as { pending: Record<string, Record<string, string>> }
    expect(Object.values(Object.values(inspect.pending)[0]!)[0]).toMatch(/: 1 wei \+ \d+ gas × \d+ wei$/)
    await hardhat.mine({ blocks: 1 })
    expect((await client.getTransactionReceipt({ hash })).blockNumber).toBe(height + 1n)
    await hardhat.setAutomine(true)
    expect(await hardhat.getAutomine()).toBe(true)
  })
})

describe('impersonation', () => {
  test('behavior: an impersonated account sends without a key; stopping refuses again', async () => {
    const { client, hardhat, wallet } = clients()
    const whale = '0x000000000000000000000000000000000000c0de' as const
    await hardhat.setBalance({ address: whale, value: parseEther('10') })
    const payee = '0x000000000000000000000000000000000000beef' as const
    await expect(wallet.sendTransaction({ account: whale, to: payee, value: 1n })).rejects.toThrow(/unknown account/)
    await hardhat.impersonateAccount({ address: whale })
    const hash = await wallet.sendTransaction({ account: whale, to: payee, value: 5n })
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from).toBe(whale)
    expect((await client.getTransaction({ hash })).from).toBe(whale)
    expect(await client.getBalance({ address: payee })).toBe(5n)
    await hardhat.stopImpersonatingAccount({ address: whale })
    await expect(wallet.sendTransaction({ account: whale, to: payee, value: 1n })).rejects.toThrow(/unknown account/)
  })
})

describe('chain settings', () => {
  test('behavior: coinbase, next base fee and block gas limit apply to later blocks', async () => {
    const { client, hardhat } = clients()
    await node.request({ method: 'hardhat_setCoinbase', params: [stranger] })
    await hardhat.setNextBlockBaseFeePerGas({ baseFeePerGas: 800n })
    await hardhat.setBlockGasLimit({ gasLimit: 25_000_000n })
    await hardhat.mine({ blocks: 1 })
    const block = await client.getBlock()
    expect(block.miner).toBe(stranger)
    expect(block.baseFeePerGas).toBe(800n)
    expect(block.gasLimit).toBe(25_000_000n)
    await hardhat.mine({ blocks: 1 })
    expect((await client.getBlock()).baseFeePerGas).toBe(700n)
  })

  test('behavior: metadata and nodeInfo describe the chain', async () => {
    const meta = (await node.request({ method: 'hardhat_metadata' })) as { chainId: number; latestBlockNumber: number }
    expect(meta.chainId).toBe(31337)
    expect(BigInt(meta.latestBlockNumber)).toBe(BigInt((await node.request({ method: 'eth_blockNumber' })) as string))
    const info = (await node.request({ method: 'anvil_nodeInfo' })) as { hardFork: string }
    // Anvil's name for it.
    expect(info.hardFork).toBe('Prague')
  })
})

describe('reset', () => {
  test('behavior: hardhat_reset returns to genesis: blocks, writes, pool, snapshots and time are gone', async () => {
    const other = await createNode({ mining: { mode: 'manual' } })
    const [a, b] = other.accounts
    const genesis = (await other.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as { hash: string; stateRoot: string }
    await other.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1', gas: '0x5208' }] })
    await other.mine()
    const mined = (await other.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { transactions: Hex[] }
    await other.request({ method: 'hardhat_setBalance', params: [stranger, '0x99'] })
    const id = await other.request({ method: 'evm_snapshot' })
    await other.request({ method: 'evm_increaseTime', params: [10_000] })
    await other.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1', gas: '0x5208' }] })
    expect(await other.request({ method: 'hardhat_reset', params: [] })).toBe(true)
    expect(await other.request({ method: 'eth_blockNumber' })).toBe('0x0')
    expect(await other.request({ method: 'eth_getBalance', params: [stranger, 'latest'] })).toBe('0x0')
    expect(await other.request({ method: 'eth_getTransactionCount', params: [a!.address, 'latest'] })).toBe('0x0')
    expect(await other.request({ method: 'eth_getTransactionReceipt', params: [mined.transactions[0]!] })).toBeNull()
    expect(await other.request({ method: 'txpool_status' })).toEqual({ pending: '0x0', queued: '0x0' })
    expect(await other.request({ method: 'evm_revert', params: [id] })).toBe(false)
    const again = (await other.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as { hash: string }
    expect(again.hash).toBe(genesis.hash)
    // The chain goes on from genesis, and the next block builds on the genesis state root.
    await other.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x2', gas: '0x5208' }] })
    await other.mine()
    const next = (await other.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { number: string; parentHash: string }
    expect(next).toMatchObject({ number: '0x1', parentHash: genesis.hash })
    expect(await other.request({ method: 'anvil_reset', params: [] })).toBeNull()
    await expect(other.request({ method: 'hardhat_reset', params: [{ forking: { jsonRpcUrl: 'ftp://x' } }] })).rejects.toMatchObject({ code: -32602 })
    await other.close()
  })
})

describe('reset with forking', () => {
  for (const mode of ['hardhat', 'anvil'] as const) {
    test(`behavior: viem's testClient.reset() in ${mode} mode (forking without a URL) resets the chain`, async () => {
      const other = await createNode()
      try {
        const transport = custom(other.provider, { retryCount: 0 })
        const test = createTestClient({ chain, transport, mode, cacheTime: 0 }).extend(publicActions)
        await test.mine({ blocks: 3 })
        await test.setBalance({ address: stranger, value: 5n })
        expect(await test.getBlockNumber()).toBe(3n)
        await test.reset()
        expect(await test.getBlockNumber()).toBe(0n)
        expect(await test.getBalance({ address: stranger })).toBe(0n)
        await test.mine({ blocks: 1 })
        await test.reset({ blockNumber: 1n })
        expect(await test.getBlockNumber()).toBe(0n)
      } finally {
        await other.close()
      }
    })

    test(`error: ${mode}_reset with forking.jsonRpcUrl of a remote that refuses answers its error, and changes nothing`, async () => {
      const other = await createNode()
      // A server that answers every request 404: not a JSON-RPC endpoint, and nothing to retry.
      const refusing = createServer((_req, res) => res.writeHead(404).end('not found'))
      await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve))
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`
      try {
        await other.request({ method: 'evm_mine' })
        const test = createTestClient({ chain, transport: custom(other.provider, { retryCount: 0 }), mode, cacheTime: 0 }).extend(publicActions)
        await expect(test.reset({ jsonRpcUrl: url, blockNumber: 5n })).rejects.toThrow(/404/)
        await expect(other.request({ method: `${mode}_reset`, params: [{ forking: { jsonRpcUrl: 'ftp://x' } }] })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/forking.jsonRpcUrl/) })
        await expect(requestRaw(other, `${mode}_reset`, [{ forking: 'x' }])).rejects.toMatchObject({ code: -32602 })
        await expect(requestRaw(other, `${mode}_reset`, [{ forking: { jsonRpcUrl: 7 } }])).rejects.toMatchObject({ code: -32602 })
        await expect(requestRaw(other, `${mode}_reset`, [{ forking: { blockNumber: 'soon' } }])).rejects.toMatchObject({ code: -32602 })
        expect(await other.request({ method: 'eth_blockNumber' })).toBe('0x1')
        expect(await other.request({ method: `${mode}_reset`, params: [{ forking: { jsonRpcUrl: null, blockNumber: null } }] })).toBe(mode === 'hardhat' ? true : null)
        expect(await other.request({ method: 'eth_blockNumber' })).toBe('0x0')
      } finally {
        await other.close()
        refusing.closeAllConnections()
        await new Promise<void>((resolve) => refusing.close(() => resolve()))
      }
    })
  }
})

describe('impersonating a contract', () => {
  test('behavior: an impersonated contract sends transactions (EIP-3607 is skipped for it, as Hardhat does)', async () => {
    const other = await createNode()
    const contract = '0x00000000000000000000000000000000000c0de3'
    await other.setCode(contract, '0x00')
    await other.setBalance(contract, 10n ** 18n)
    await other.impersonate(contract)
    const hash = await other.request({ method: 'eth_sendTransaction', params: [{ from: contract, to: stranger, value: '0x7', gas: '0x5208' }] })
    const receipt = (await other.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string; from: string }
    expect(receipt).toMatchObject({ status: '0x1', from: contract })
    // Its code is untouched.
    expect(await other.request({ method: 'eth_getCode', params: [contract, 'latest'] })).toBe('0x00')
    await other.close()
  })
})
