/**
 * State writes between blocks (hardhat_setBalance and friends) belong to the head block they were
 * made at: reads at that block see them after later blocks are mined, its header keeps the root
 * it was sealed with, and eth_getProof at it proves against the post-write root.
 */
import { BrowserProvider, JsonRpcProvider, parseEther } from 'ethers'
import { MemoryLevel } from 'memory-level'
import { describe, expect, test } from 'vitest'
import { keccak256 } from '../../src/crypto/keccak.js'
import { fromHex } from '../../src/hex.js'
import { trackNodes } from '../helpers/nodes.js'
import { loadArtifacts } from '../helpers/compile.js'

const newNode = trackNodes()
const { Counter } = loadArtifacts()
const stranger = '0x00000000000000000000000000000000000000aa'
type Node = Awaited<ReturnType<typeof newNode>>
type Header = { number: string; hash: string; stateRoot: string }

const rpc = (node: Node, method: string, ...params: unknown[]) => node.request({ method, params })
const head = async (node: Node) => (await rpc(node, 'eth_getBlockByNumber', 'latest', false)) as Header
const proofRoot = async (node: Node, at: string) => {
  const proof = (await rpc(node, 'eth_getProof', stranger, [], at)) as { accountProof: string[]; balance: string }
  return { root: `0x${Buffer.from(keccak256(fromHex(proof.accountProof[0]!.slice(2)))).toString('hex')}`, balance: proof.balance }
}

describe('writes at the head belong to the head block', () => {
  test('behavior: balance, nonce, code, storage and eth_call at block N see writes made while N was the head', async () => {
    const node = await newNode()
    await rpc(node, 'evm_mine')
    const n = await head(node)
    await rpc(node, 'hardhat_setBalance', stranger, '0x55')
    await rpc(node, 'hardhat_setNonce', stranger, '0x7')
    await rpc(node, 'hardhat_setCode', stranger, Counter!.deployedBytecode)
    await rpc(node, 'hardhat_setStorageAt', stranger, '0x0', `0x${'00'.repeat(31)}2a`)
    await rpc(node, 'evm_mine')
    await rpc(node, 'hardhat_setBalance', stranger, '0x66')
    await rpc(node, 'evm_mine')
    expect(await rpc(node, 'eth_blockNumber')).toBe(`0x${(BigInt(n.number) + 2n).toString(16)}`)
    expect(await rpc(node, 'eth_getBalance', stranger, n.number)).toBe('0x55')
    expect(await rpc(node, 'eth_getBalance', stranger, `0x${(BigInt(n.number) + 1n).toString(16)}`)).toBe('0x66')
    expect(await rpc(node, 'eth_getBalance', stranger, `0x${(BigInt(n.number) - 1n).toString(16)}`)).toBe('0x0')
    expect(await rpc(node, 'eth_getTransactionCount', stranger, n.number)).toBe('0x7')
    expect(await rpc(node, 'eth_getCode', stranger, n.number)).toBe(Counter!.deployedBytecode)
    expect(await rpc(node, 'eth_getStorageAt', stranger, '0x0', { blockHash: n.hash })).toBe(`0x${'00'.repeat(31)}2a`)
    // count() reads slot 0.
    expect(await rpc(node, 'eth_call', { to: stranger, data: '0x06661abd' }, n.number)).toBe(`0x${'00'.repeat(31)}2a`)
  })

  test('behavior: the header keeps its sealed root and hash; eth_getProof at N proves against the post-write root', async () => {
    const node = await newNode()
    await rpc(node, 'evm_mine')
    const n = await head(node)
    await rpc(node, 'hardhat_setBalance', stranger, '0x55')
    const atHead = await proofRoot(node, 'latest')
    expect(atHead.root).not.toBe(n.stateRoot)
    await rpc(node, 'evm_mine')
    expect(await rpc(node, 'eth_getBlockByNumber', n.number, false)).toEqual(n)
    const later = await proofRoot(node, n.number)
    expect(later).toEqual({ root: atHead.root, balance: '0x55' })
    // The block before the write proves against its own header's root.
    const parent = (await rpc(node, 'eth_getBlockByNumber', `0x${(BigInt(n.number) - 1n).toString(16)}`, false)) as Header
    expect((await proofRoot(node, parent.number)).root).toBe(parent.stateRoot)
  })

  test('behavior: a balance-change matcher reading blockNumber - 1 and blockNumber sees only the transaction (ethers)', async () => {
    const node = await newNode()
    const provider = new BrowserProvider(node.provider, undefined, { cacheTimeout: -1 })
    const signer = await provider.getSigner(0)
    await rpc(node, 'hardhat_setBalance', stranger, `0x${parseEther('100').toString(16)}`)
    const tx = await signer.sendTransaction({ to: stranger, value: parseEther('1') })
    const receipt = await tx.wait()
    const before = await provider.getBalance(stranger, receipt!.blockNumber - 1)
    const after = await provider.getBalance(stranger, receipt!.blockNumber)
    expect(after - before).toBe(parseEther('1'))
    provider.destroy()
  })

  test('http: the balance-change reads over ethers JsonRpcProvider', async () => {
    const node = await newNode()
    const served = await node.listen({ address: '127.0.0.1:0', api: ['eth', 'net', 'web3', 'hardhat'] })
    const provider = new JsonRpcProvider(served.http, undefined, { cacheTimeout: -1, staticNetwork: true })
    try {
      await provider.send('hardhat_setBalance', [stranger, `0x${parseEther('100').toString(16)}`])
      const signer = await provider.getSigner(0)
      const receipt = await (await signer.sendTransaction({ to: stranger, value: parseEther('2') })).wait()
      const before = await provider.getBalance(stranger, receipt!.blockNumber - 1)
      expect(before).toBe(parseEther('100'))
      expect((await provider.getBalance(stranger, receipt!.blockNumber)) - before).toBe(parseEther('2'))
    } finally {
      provider.destroy()
      await served.close()
    }
  })

  test('behavior: a transaction mined after a write traces on the written state', async () => {
    const node = await newNode()
    const [a] = node.accounts
    await rpc(node, 'hardhat_setCode', stranger, Counter!.deployedBytecode)
    await rpc(node, 'hardhat_setStorageAt', stranger, '0x0', `0x${'00'.repeat(31)}09`)
    // increment()
    const hash = (await rpc(node, 'eth_sendTransaction', { from: a!.address, to: stranger, data: '0xd09de08a' })) as string
    await rpc(node, 'evm_mine')
    const trace = (await rpc(node, 'debug_traceTransaction', hash, { tracer: 'prestateTracer' })) as Record<string, { storage?: Record<string, string> }>
    expect(trace[stranger]?.storage?.[`0x${'00'.repeat(32)}`]).toBe(`0x${'00'.repeat(31)}09`)
  })

  test('behavior: evm_revert past a block takes the write back to the head; a block mined after it does not keep the reverted write', async () => {
    const node = await newNode()
    await rpc(node, 'evm_mine')
    const n = await head(node)
    const id = await rpc(node, 'evm_snapshot')
    await rpc(node, 'hardhat_setBalance', stranger, '0x55')
    await rpc(node, 'evm_mine')
    expect(await rpc(node, 'eth_getBalance', stranger, n.number)).toBe('0x55')
    expect(await rpc(node, 'evm_revert', id)).toBe(true)
    expect(await rpc(node, 'eth_getBalance', stranger, n.number)).toBe('0x0')
    await rpc(node, 'evm_mine')
    expect(await rpc(node, 'eth_getBalance', stranger, n.number)).toBe('0x0')
    expect((await proofRoot(node, n.number)).root).toBe(n.stateRoot)
  })

  test('behavior: a write kept by a snapshot survives reverting a later block', async () => {
    const node = await newNode()
    await rpc(node, 'evm_mine')
    const n = await head(node)
    await rpc(node, 'hardhat_setBalance', stranger, '0x55')
    const id = await rpc(node, 'evm_snapshot')
    await rpc(node, 'evm_mine')
    await rpc(node, 'evm_revert', id)
    expect(await rpc(node, 'eth_blockNumber')).toBe(n.number)
    await rpc(node, 'evm_mine')
    expect(await rpc(node, 'eth_getBalance', stranger, n.number)).toBe('0x55')
  })

  test('behavior: a chain resumed from its database keeps the written state of older blocks', async () => {
    const db = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' })
    const first = await newNode({ db })
    await rpc(first, 'evm_mine')
    const n = await head(first)
    await rpc(first, 'hardhat_setBalance', stranger, '0x55')
    await rpc(first, 'evm_mine')
    const root = await proofRoot(first, n.number)
    await first.close()
    const second = await newNode({ db })
    expect(await rpc(second, 'eth_getBalance', stranger, n.number)).toBe('0x55')
    expect(await proofRoot(second, n.number)).toEqual(root)
  })

  test('behavior: a chain resumed after evm_revert starts from the reverted-to state', async () => {
    const db = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' })
    const first = await newNode({ db })
    await rpc(first, 'hardhat_setBalance', stranger, '0x55')
    const id = await rpc(first, 'evm_snapshot')
    await rpc(first, 'hardhat_setBalance', stranger, '0x66')
    await rpc(first, 'evm_mine')
    await rpc(first, 'evm_revert', id)
    await first.close()
    const second = await newNode({ db })
    expect(await rpc(second, 'eth_blockNumber')).toBe('0x0')
    expect(await rpc(second, 'eth_getBalance', stranger, 'latest')).toBe('0x55')
  })
})
