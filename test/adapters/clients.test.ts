/**
 * The path users take: viem's http() and webSocket() transports, ethers' JsonRpcProvider and
 * WebSocketProvider, and Express (with and without express.json()), over real loopback sockets.
 */
import express from 'express'
import { JsonRpcProvider, WebSocketProvider, Contract as EthersContract, Wallet } from 'ethers'
import {
  createPublicClient,
  createWalletClient,
  http,
  parseEther,
  webSocket,
  type Abi,
  type Hash,
  type Log,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import type { Listening } from '../../src/adapters/listen.js'
import { loadArtifacts } from '../helpers/compile.js'
import { finalityChain } from '../helpers/viem.js'
import { post, rpc, serve } from '../helpers/loopback.js'

const artifacts = loadArtifacts()
const emitterAbi = artifacts.Emitter?.abi as Abi

/** Resolves when `done()` turns true, polling every 10 ms at most `tries` times. */
async function until(done: () => boolean, tries = 500): Promise<void> {
  for (let i = 0; i < tries && !done(); i++) await new Promise((r) => setTimeout(r, 10))
  expect(done()).toBe(true)
}

describe('viem over http() and webSocket()', () => {
  let node: FinalityNode
  let served: Listening
  let emitter: `0x${string}`

  beforeAll(async () => {
    node = await createNode({ mining: { mode: 'manual' } })
    served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' })
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0]?.address, data: artifacts.Emitter?.bytecode }] })
    await node.mine()
    emitter = ((await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: `0x${string}` }).contractAddress
  })
  afterAll(async () => {
    await served.close()
    await node.close()
  })

  const clients = () => ({
    http: createPublicClient({ chain: finalityChain, transport: http(served.http, { retryCount: 0 }), pollingInterval: 20 }),
    ws: createPublicClient({ chain: finalityChain, transport: webSocket(served.ws, { retryCount: 0, reconnect: false }) }),
  })

  it('reads and a local-account transfer over http()', async () => {
    const { http: client } = clients()
    const account = privateKeyToAccount(node.accounts[1]?.privateKey as `0x${string}`)
    const wallet = createWalletClient({ chain: finalityChain, account, transport: http(served.http, { retryCount: 0 }) })
    const hash = await wallet.sendTransaction({ to: node.accounts[2]?.address as `0x${string}`, value: parseEther('1') })
    await node.mine()
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await client.getChainId()).toBe(31337)
  })

  for (const kind of ['http', 'ws'] as const) {
    it(`watchBlocks over ${kind}: every block once`, async () => {
      const client = clients()[kind]
      const seen: bigint[] = []
      const unwatch = client.watchBlocks({ emitMissed: true, onBlock: (b) => seen.push(b.number) })
      // Until the watch is live (over ws: its eth_subscribe answered), without guessing a delay.
      for (let i = 0; i < 100 && seen.length === 0; i++) {
        if (kind === 'ws') await node.mine()
        await new Promise((r) => setTimeout(r, 20))
      }
      expect(seen.length).toBeGreaterThan(0)
      const start = (await node.mine())?.number as bigint
      await node.mine()
      await node.mine()
      await until(() => seen.includes(start + 2n))
      unwatch()
      // viem fetches each notified block with its own getBlock call, so arrival order is viem's;
      // the raw WebSocket tests check the node's order.
      const mine = seen.filter((n) => n >= start).sort((a, b) => (a < b ? -1 : 1))
      expect(mine).toEqual([start, start + 1n, start + 2n])
    })

    it(`watchContractEvent over ${kind}: Emitter logs`, async () => {
      const client = clients()[kind]
      const logs: Log[] = []
      const unwatch = client.watchContractEvent({ address: emitter, abi: emitterAbi, eventName: 'Note', onLogs: (l) => logs.push(...l) })
      await new Promise((r) => setTimeout(r, 100))
      const wallet = createWalletClient({ chain: finalityChain, account: privateKeyToAccount(node.accounts[3]?.privateKey as `0x${string}`), transport: http(served.http) })
      await wallet.writeContract({ address: emitter, abi: emitterAbi, functionName: 'emitMany', args: [3n] })
      await node.mine()
      await until(() => logs.length >= 3)
      unwatch()
      expect(logs.map((l) => (l as unknown as { args: { id: bigint } }).args.id)).toEqual([0n, 1n, 2n])
    })

    it(`watchPendingTransactions over ${kind}, with manual mining`, async () => {
      const client = clients()[kind]
      const hashes: Hash[] = []
      const unwatch = client.watchPendingTransactions({ onTransactions: (h) => hashes.push(...h) })
      await new Promise((r) => setTimeout(r, 100))
      const hash = (await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[4]?.address, to: node.accounts[5]?.address, value: '0x1' }] })) as Hash
      await until(() => hashes.includes(hash))
      unwatch()
      await node.mine()
    })
  }
})

describe('ethers JsonRpcProvider and WebSocketProvider', () => {
  let node: FinalityNode
  let served: Listening

  beforeAll(async () => {
    node = await createNode()
    served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' })
  })
  afterAll(async () => {
    await served.close()
    await node.close()
  })

  it('JsonRpcProvider: reads, a signed transfer, a contract deployment and event query', async () => {
    const provider = new JsonRpcProvider(served.http, 31337, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 })
    const wallet = new Wallet(node.accounts[6]?.privateKey as string, provider)
    const tx = await wallet.sendTransaction({ to: node.accounts[7]?.address, value: 1n })
    const receipt = await tx.wait()
    expect(receipt?.status).toBe(1)
    expect(await provider.getBlockNumber()).toBe(receipt?.blockNumber)
    provider.destroy()
  })

  it('WebSocketProvider: block events and contract events through eth_subscribe', async () => {
    const provider = new WebSocketProvider(served.ws as string, 31337, { staticNetwork: true, cacheTimeout: -1 })
    const wallet = new Wallet(node.accounts[8]?.privateKey as string, provider)
    const blocks: number[] = []
    await provider.on('block', (n: number) => blocks.push(n))
    const deployed = await new (await import('ethers')).ContractFactory(emitterAbi as never, artifacts.Emitter?.bytecode as string, wallet).deploy()
    await deployed.waitForDeployment()
    const contract = new EthersContract(await deployed.getAddress(), emitterAbi as never, wallet)
    const notes: bigint[] = []
    await contract.on('Note', (id: bigint) => notes.push(id))
    await new Promise((r) => setTimeout(r, 100))
    await (await contract.getFunction('emitMany')(2n)).wait()
    await until(() => notes.length >= 2 && blocks.length >= 2)
    expect(notes).toEqual([0n, 1n])
    await provider.destroy()
  })
})

describe('Express', () => {
  for (const parsed of [false, true]) {
    it(`app.use('/rpc', node.http()) ${parsed ? 'after' : 'without'} express.json()`, async () => {
      const node = await createNode()
      const app = express()
      if (parsed) app.use(express.json({ limit: '10mb' }))
      app.use('/rpc', node.http())
      app.get('/health', (_req, res) => {
        res.send('ok')
      })
      const { url, close } = await serve(app)
      expect((await rpc(`${url}/rpc`, 'eth_chainId')).result).toBe('0x7a69')
      const batch = await post(`${url}/rpc`, '[{"jsonrpc":"2.0","id":1,"method":"net_version"},{"jsonrpc":"2.0","method":"eth_chainId"}]')
      expect(JSON.parse(batch.text)).toEqual([{ jsonrpc: '2.0', id: 1, result: '31337' }])
      expect((await post(`${url}/rpc`, '{"jsonrpc":"2.0","method":"eth_chainId"}')).status).toBe(204)
      const deep = `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","x":${'['.repeat(64)}${']'.repeat(64)}}`
      expect(JSON.parse((await post(`${url}/rpc`, deep)).text).error.code).toBe(-32700)
      expect((await fetch(`${url}/rpc`)).status).toBe(200)
      expect((await fetch(`${url}/rpc`, { method: 'PUT' })).status).toBe(405)
      expect(await (await fetch(`${url}/health`)).text()).toBe('ok')
      await close()
      await node.close()
    })
  }
})
