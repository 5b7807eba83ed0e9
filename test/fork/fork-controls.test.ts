/**
 * Test controls on a fork: snapshots and reverts, hardhat_reset / anvil_reset with and without
 * `forking` (viem's testClient.reset() included), state dumps that state their fork point, logs
 * of the blocks built on the fork.
 */
import { createTestClient, custom, http, encodeAbiParameters, encodeFunctionData, keccak256, parseEther, publicActions, toHex, walletActions, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadFixture, type FinalityNode, type Listening } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { trackNodes } from '../helpers/nodes.js'
import { finalityChain } from '../helpers/viem.js'

const newNode = trackNodes()
const Token = loadArtifacts().Token!
const holder = privateKeyToAccount(keccak256(toHex('fork controls holder')))
const transfer = (to: Address, amount: bigint): Hex => encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [to, amount] })

let remote: FinalityNode
let served: Listening
let token: Address
let dev: Address
let forkNumber: bigint

beforeAll(async () => {
  remote = await newNode()
  served = await remote.listen({ address: '127.0.0.1:0', wsAddress: false })
  dev = remote.accounts[0]!.address
  const args = encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], ['Ctl', 'CTL', 10n ** 24n])
  const hash = await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, data: `${Token.bytecode}${args.slice(2)}`, gas: '0x300000' }] })
  token = ((await remote.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Address }).contractAddress
  await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: holder.address, value: `0x${parseEther('1').toString(16)}` }] })
  forkNumber = BigInt((await remote.request({ method: 'eth_blockNumber', params: [] })) as Hex)
})

const balance = (node: FinalityNode, who: Address) => node.request({ method: 'eth_getBalance', params: [who, 'latest'] })

describe('controls on a fork', () => {
  it('evm_snapshot / evm_revert undo blocks and writes on the fork, and remote state read after the snapshot stays readable', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    const id = await fork.request({ method: 'evm_snapshot', params: [] })
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(holder.address, 5n) }] })
    await fork.request({ method: 'hardhat_setBalance', params: [holder.address, '0x1'] })
    expect(await balance(fork, holder.address)).toBe('0x1')
    expect(await fork.request({ method: 'evm_revert', params: [id] })).toBe(true)
    expect(await fork.request({ method: 'eth_blockNumber', params: [] })).toBe(`0x${forkNumber.toString(16)}`)
    expect(await balance(fork, holder.address)).toBe(`0x${parseEther('1').toString(16)}`)
    // A block after the revert builds on the fork block again, with the remote's state under it.
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(holder.address, 6n) }] })
    const out = (await fork.request({ method: 'eth_call', params: [{ to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [holder.address] }) }, 'latest'] })) as Hex
    expect(BigInt(out)).toBe(6n)
  })

  it('storage of a remote account deleted on the fork reads zero, and the remote\'s again after evm_revert', async () => {
    // An account with storage but no balance, nonce or code: a transaction that touches it deletes it (EIP-161).
    const bare = privateKeyToAccount(keccak256(toHex('fork controls bare'))).address
    const local = await newNode()
    await local.request({ method: 'hardhat_setStorageAt', params: [bare, '0x1', `0x${'00'.repeat(31)}2a`] })
    await local.request({ method: 'hardhat_setStorageAt', params: [bare, '0x2', `0x${'00'.repeat(31)}2b`] })
    await local.request({ method: 'evm_mine', params: [] })
    const fork = await newNode({ fork: { provider: local.provider } })
    const id = await fork.request({ method: 'evm_snapshot', params: [] })
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: bare, value: '0x0' }] })
    expect(await fork.request({ method: 'eth_getStorageAt', params: [bare, '0x1', 'latest'] })).toBe(`0x${'00'.repeat(32)}`)
    expect(await fork.request({ method: 'evm_revert', params: [id] })).toBe(true)
    // Slot 2 was never read before the revert: it comes from the remote again.
    expect(await fork.request({ method: 'eth_getStorageAt', params: [bare, '0x2', 'latest'] })).toBe(`0x${'00'.repeat(31)}2b`)
  })

  it('hardhat_reset without params goes back to the fork block; a state dump states the fork point', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: holder.address, value: '0x5' }] })
    await fork.request({ method: 'hardhat_reset', params: [] })
    expect(await fork.request({ method: 'eth_blockNumber', params: [] })).toBe(`0x${forkNumber.toString(16)}`)
    expect(await balance(fork, holder.address)).toBe(`0x${parseEther('1').toString(16)}`)
    const head = (await remote.request({ method: 'eth_getBlockByNumber', params: [`0x${forkNumber.toString(16)}`, false] })) as { hash: Hex; stateRoot: Hex }
    const dump = fork.dumpState()
    expect(dump.fork).toEqual({ blockNumber: `0x${forkNumber.toString(16)}`, blockHash: head.hash, stateRoot: head.stateRoot })
    expect(Object.keys(dump.accounts)).toContain(holder.address.toLowerCase())
  })

  it('viem\'s test client: reset() back to the fork, reset({ blockNumber }) to another block of the remote, reset({ jsonRpcUrl }) to another remote; reads and writes after each', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    for (const mode of ['hardhat', 'anvil'] as const) {
      const test = createTestClient({ chain: finalityChain, transport: custom(fork.provider, { retryCount: 0 }), mode, cacheTime: 0 }).extend(publicActions).extend(walletActions)
      await test.mine({ blocks: 2 })
      await test.reset()
      expect(await test.getBlockNumber()).toBe(forkNumber)
      await test.reset({ blockNumber: forkNumber - 1n })
      expect(await test.getBlockNumber()).toBe(forkNumber - 1n)
      // One block before the remote sent the holder its ether.
      expect(await test.getBalance({ address: holder.address })).toBe(0n)
      await test.reset({ jsonRpcUrl: served.http!, blockNumber: forkNumber })
      expect(await test.getBlockNumber()).toBe(forkNumber)
      expect(await test.getBalance({ address: holder.address })).toBe(parseEther('1'))
      const meta = (await fork.request({ method: 'hardhat_metadata', params: [] })) as { forkedNetwork: { forkBlockNumber: number } }
      expect(meta.forkedNetwork.forkBlockNumber).toBe(Number(forkNumber))
      const hash = await test.sendTransaction({ account: dev, to: holder.address, value: 7n, chain: null })
      const receipt = await test.getTransactionReceipt({ hash })
      expect(receipt.blockNumber).toBe(forkNumber + 1n)
      expect(await test.getBalance({ address: holder.address })).toBe(parseEther('1') + 7n)
      await test.reset({ jsonRpcUrl: served.http! })
    }
  })

  it('viem\'s test client over HTTP (blockNumber NaN arrives as null): reset() goes back to the fork block', async () => {
    const fork = await newNode({ fork: { url: served.http! } })
    const forkServed = await fork.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth', 'anvil', 'evm'] })
    const test = createTestClient({ chain: finalityChain, transport: http(forkServed.http!, { retryCount: 0 }), mode: 'anvil', cacheTime: 0 }).extend(publicActions)
    await test.mine({ blocks: 3 })
    expect(await test.getBlockNumber()).toBe(forkNumber + 3n)
    await test.reset()
    expect(await test.getBlockNumber()).toBe(forkNumber)
    await test.reset({ blockNumber: forkNumber - 1n })
    expect(await test.getBlockNumber()).toBe(forkNumber - 1n)
    expect(await test.getBalance({ address: holder.address })).toBe(0n)
  })

  it('a node that forks nothing forks a remote on hardhat_reset with a URL', async () => {
    const local = await newNode()
    await local.request({ method: 'hardhat_reset', params: [{ forking: { jsonRpcUrl: served.http!, blockNumber: Number(forkNumber) } }] })
    expect(await local.request({ method: 'eth_blockNumber', params: [] })).toBe(`0x${forkNumber.toString(16)}`)
    expect(await balance(local, holder.address)).toBe(`0x${parseEther('1').toString(16)}`)
    await local.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: holder.address, value: '0x1' }] })
    expect(await balance(local, holder.address)).toBe(`0x${(parseEther('1') + 1n).toString(16)}`)
  })

  it('logs of blocks built on the fork are found by eth_getLogs and filters', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    const hash = await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(holder.address, 9n) }] })
    const logs = (await fork.request({ method: 'eth_getLogs', params: [{ fromBlock: `0x${(forkNumber + 1n).toString(16)}`, toBlock: 'latest', address: token }] })) as Array<{ transactionHash: Hex; blockNumber: Hex }>
    expect(logs).toHaveLength(1)
    expect(logs[0]!.transactionHash).toBe(hash)
    expect(logs[0]!.blockNumber).toBe(`0x${(forkNumber + 1n).toString(16)}`)
  })

  it('loadFixture on a fork: the fixture runs once, each later call restores its state (remote storage written by the fixture included)', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    let runs = 0
    const tokenBalance = async (who: Address) =>
      BigInt((await fork.request({ method: 'eth_call', params: [{ to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [who] }) }, 'latest'] })) as Hex)
    async function paidHolder(node: FinalityNode) {
      runs++
      await node.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(holder.address, 5n) }] })
      return BigInt((await node.request({ method: 'eth_blockNumber', params: [] })) as Hex)
    }
    const at = await loadFixture(fork, paidHolder)
    expect(at).toBe(forkNumber + 1n)
    expect(await tokenBalance(holder.address)).toBe(5n)
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(holder.address, 7n) }] })
    expect(await tokenBalance(holder.address)).toBe(12n)
    expect(await loadFixture(fork, paidHolder)).toBe(at)
    expect(runs).toBe(1)
    expect(await tokenBalance(holder.address)).toBe(5n)
    expect(await fork.request({ method: 'eth_blockNumber', params: [] })).toBe(`0x${at.toString(16)}`)
  })

  it('a remote that goes away mid-suite: what the fork already read still answers; a first read of anything else, or a block that needs one, is an error (not a hang)', async () => {
    const gone = await newNode()
    const goneServed = await gone.listen({ address: '127.0.0.1:0', wsAddress: false })
    const fork = await newNode({ fork: { url: goneServed.http!, retries: 1, retryBaseMs: 10, timeoutMs: 2000 } })
    const stranger = privateKeyToAccount(keccak256(toHex('never read before the remote went away'))).address
    const before = await balance(fork, dev)
    await goneServed.close()
    await gone.close()
    expect(await balance(fork, dev)).toBe(before)
    const error = await fork.request({ method: 'eth_getBalance', params: [stranger, 'latest'] }).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string },
    )
    expect(error?.code).toBe(-32000)
    expect(error?.message).toMatch(/fork remote/)
    // A new block writes system-contract slots the fork has not read yet: the send fails with the
    // remote's error instead of waiting, and the chain is as it was.
    const head = await fork.request({ method: 'eth_blockNumber', params: [] })
    const send = await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: dev, value: '0x1' }] }).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string },
    )
    expect(send?.message).toMatch(/fork remote/)
    expect(await fork.request({ method: 'eth_blockNumber', params: [] })).toBe(head)
    expect(await balance(fork, dev)).toBe(before)
  }, 120_000)
})
