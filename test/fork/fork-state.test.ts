/**
 * Forking another finality node through its EIP-1193 provider (no socket): the fork block is the
 * first block, state is loaded on demand and verified, blocks built on the fork have the state
 * roots the remote computes for the same transactions, and eth_getProof on the fork verifies.
 */
import { createWalletClient, custom, encodeFunctionData, decodeFunctionResult, parseEther, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { verifyMerkleProof } from '@ethereumjs/mpt'
import { keccak256, hexToBytes, toHex } from 'viem'
import type { FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const Token = loadArtifacts().Token!
const outsider = privateKeyToAccount(keccak256(toHex('fork test outsider')))

async function deployToken(node: FinalityNode, from: Address): Promise<Address> {
  const wallet = createWalletClient({ transport: custom(node.provider), account: from })
  const hash = await wallet.deployContract({ abi: Token.abi, bytecode: Token.bytecode, args: ['Fork', 'FRK', 10n ** 24n], chain: null })
  const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Address }
  return receipt.contractAddress
}

const balanceOf = (who: Address): Hex => encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [who] })
const transfer = (to: Address, amount: bigint): Hex => encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [to, amount] })

async function callBalance(node: FinalityNode, token: Address, who: Address): Promise<bigint> {
  const out = (await node.request({ method: 'eth_call', params: [{ to: token, data: balanceOf(who) }, 'latest'] })) as Hex
  return decodeFunctionResult({ abi: Token.abi, functionName: 'balanceOf', data: out }) as bigint
}

describe('a fork of another node through its provider', () => {
  let remote: FinalityNode
  let token: Address
  let dev: Address
  beforeAll(async () => {
    remote = await newNode()
    dev = remote.accounts[0]!.address
    token = await deployToken(remote, dev)
    // The outsider holds ether and tokens on the remote; it is no dev account of the fork.
    await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: outsider.address, value: `0x${parseEther('10').toString(16)}` }] })
    await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(outsider.address, 5000n) }] })
  })

  it('starts at the remote head: same block hash, number and chain id; the next block is fork + 1 on it', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    const head = (await remote.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: Hex; number: Hex; stateRoot: Hex }
    const forkHead = (await fork.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: Hex; number: Hex }
    expect(forkHead.hash).toBe(head.hash)
    expect(forkHead.number).toBe(head.number)
    expect(fork.chainId).toBe(remote.chainId)
    await fork.request({ method: 'evm_mine', params: [] })
    const next = (await fork.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { parentHash: Hex; number: Hex }
    expect(next.parentHash).toBe(head.hash)
    expect(BigInt(next.number)).toBe(BigInt(head.number) + 1n)
  })

  it('reads remote state on demand: balances, code, storage and calls', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    expect(await fork.request({ method: 'eth_getBalance', params: [outsider.address, 'latest'] })).toBe(`0x${parseEther('10').toString(16)}`)
    expect(await fork.request({ method: 'eth_getCode', params: [token, 'latest'] })).toBe(await remote.request({ method: 'eth_getCode', params: [token, 'latest'] }))
    expect(await fork.request({ method: 'eth_getStorageAt', params: [token, '0x2', 'latest'] })).toBe(await remote.request({ method: 'eth_getStorageAt', params: [token, '0x2', 'latest'] }))
    expect(await callBalance(fork, token, outsider.address)).toBe(5000n)
    expect(await fork.request({ method: 'eth_getTransactionCount', params: [dev, 'latest'] })).toBe(await remote.request({ method: 'eth_getTransactionCount', params: [dev, 'latest'] }))
  })

  it('writes on the fork stay on the fork: a dev account sends tokens, the remote is unchanged', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    const before = await callBalance(remote, token, dev)
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(outsider.address, 1000n) }] })
    expect(await callBalance(fork, token, outsider.address)).toBe(6000n)
    expect(await callBalance(fork, token, dev)).toBe(before - 1000n)
    expect(await callBalance(remote, token, outsider.address)).toBe(5000n)
  })

  it('estimates, traces and concurrent cold calls work on the fork', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    const [a, b, c] = await Promise.all([callBalance(fork, token, outsider.address), callBalance(fork, token, outsider.address), callBalance(fork, token, dev)])
    expect(a).toBe(b)
    expect(c).toBe(await callBalance(remote, token, dev))
    const gas = BigInt((await fork.request({ method: 'eth_estimateGas', params: [{ from: dev, to: token, data: transfer(outsider.address, 3n) }] })) as Hex)
    expect(gas).toBe(BigInt((await remote.request({ method: 'eth_estimateGas', params: [{ from: dev, to: token, data: transfer(outsider.address, 3n) }] })) as Hex))
    const hash = await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(outsider.address, 3n) }] })
    const trace = (await fork.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] })) as { to: string; output: Hex }
    expect(trace.to.toLowerCase()).toBe(token.toLowerCase())
    expect(BigInt(trace.output)).toBe(1n)
  })

  it('a block built on the fork has the state root the remote computes for the same transaction', async () => {
    const fork = await newNode({ fork: { provider: remote.provider }, accountCount: 0 })
    const head = (await remote.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: Hex }
    const nonce = (await remote.request({ method: 'eth_getTransactionCount', params: [outsider.address, 'latest'] })) as Hex
    const gasPrice = (await remote.request({ method: 'eth_gasPrice', params: [] })) as Hex
    const raw = await outsider.signTransaction({
      chainId: Number(remote.chainId), nonce: Number(nonce), to: token, data: transfer(dev, 4000n), gas: 100_000n,
      maxFeePerGas: BigInt(gasPrice) * 2n, maxPriorityFeePerGas: 1n, type: 'eip1559',
    })
    const timestamp: Hex = `0x${(BigInt(head.timestamp) + 100n).toString(16)}`
    const roots: Hex[] = []
    for (const node of [fork, remote]) {
      await node.request({ method: 'evm_setNextBlockTimestamp', params: [timestamp] })
      await node.request({ method: 'eth_sendRawTransaction', params: [raw] })
      const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { stateRoot: Hex; transactions: Hex[] }
      expect(block.transactions).toHaveLength(1)
      roots.push(block.stateRoot)
    }
    expect(roots[0]).toBe(roots[1])
  })

  it('eth_getProof on the fork answers proofs that verify against the fork head state root', async () => {
    const fork = await newNode({ fork: { provider: remote.provider } })
    const held = await callBalance(remote, token, outsider.address)
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(outsider.address, 7n) }] })
    const block = (await fork.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { stateRoot: Hex }
    const slot = keccak256(`0x${outsider.address.slice(2).toLowerCase().padStart(64, '0')}${'0'.repeat(64)}`)
    const proof = (await fork.request({ method: 'eth_getProof', params: [token, [slot], 'latest'] })) as { accountProof: Hex[]; storageHash: Hex; storageProof: Array<{ value: Hex; proof: Hex[] }> }
    const account = await verifyMerkleProof(hexToBytes(token), proof.accountProof.map((h) => hexToBytes(h)), { root: hexToBytes(block.stateRoot), useKeyHashing: true })
    expect(account).not.toBeNull()
    const value = await verifyMerkleProof(hexToBytes(slot), proof.storageProof[0]!.proof.map((h) => hexToBytes(h)), { root: hexToBytes(proof.storageHash), useKeyHashing: true })
    expect(value).not.toBeNull()
    expect(BigInt(proof.storageProof[0]!.value)).toBe(held + 7n)
  })
})

describe('trie updates on a fork that need nodes no proof brought', () => {
  // sstore(calldataload(0), calldataload(32)): PUSH1 32 CALLDATALOAD PUSH1 0 CALLDATALOAD SSTORE STOP
  const STORE = '0x602035600035550000'
  const contract = '0x00000000000000000000000000000000000f0e11' as Address

  it('zeroing one of two slots collapses the storage trie: the remaining leaf is fetched, the root is the remote\'s', async () => {
    const remote = await newNode({ accountCount: 2 })
    const a = remote.accounts[0]!.address
    await remote.request({ method: 'hardhat_setCode', params: [contract, STORE] })
    await remote.request({ method: 'hardhat_setStorageAt', params: [contract, '0x1', `0x${'00'.repeat(31)}01`] })
    await remote.request({ method: 'hardhat_setStorageAt', params: [contract, '0x2', `0x${'00'.repeat(31)}02`] })
    await remote.request({ method: 'evm_mine', params: [] })
    const sender = privateKeyToAccount(keccak256(toHex('collapse sender')))
    await remote.request({ method: 'eth_sendTransaction', params: [{ from: a, to: sender.address, value: '0xde0b6b3a7640000' }] })
    const fork = await newNode({ fork: { provider: remote.provider }, accountCount: 0 })
    const head = (await remote.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: Hex }
    const raw = await sender.signTransaction({
      chainId: Number(remote.chainId), nonce: 0, to: contract, data: `0x${'00'.repeat(31)}01${'00'.repeat(32)}`, gas: 100_000n,
      maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 1n, type: 'eip1559',
    })
    const timestamp: Hex = `0x${(BigInt(head.timestamp) + 50n).toString(16)}`
    const roots: Hex[] = []
    for (const node of [fork, remote]) {
      await node.request({ method: 'evm_setNextBlockTimestamp', params: [timestamp] })
      const hash = await node.request({ method: 'eth_sendRawTransaction', params: [raw] })
      const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex }
      expect(receipt.status).toBe('0x1')
      roots.push(((await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { stateRoot: Hex }).stateRoot)
    }
    expect(await fork.request({ method: 'eth_getStorageAt', params: [contract, '0x1', 'latest'] })).toBe(`0x${'00'.repeat(32)}`)
    expect(await fork.request({ method: 'eth_getStorageAt', params: [contract, '0x2', 'latest'] })).toBe(`0x${'00'.repeat(31)}02`)
    expect(roots[0]).toBe(roots[1])
    const status = (await fork.request({ method: 'finality_forkStatus', params: [] })) as { loaded: { searched: number } }
    expect(status.loaded.searched).toBe(1)
  })
})
