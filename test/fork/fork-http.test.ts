/**
 * Forking a finality node served over HTTP on 127.0.0.1: state read on demand through the remote
 * client, the node info methods naming the fork, and a lying remote (a proxy that changes one
 * value of a real node's proof) refused with an error that names it.
 */
import { decodeFunctionResult, encodeFunctionData, keccak256, parseEther, toHex, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, Listening } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { trackNodes } from '../helpers/nodes.js'
import { serve } from '../helpers/loopback.js'
import { faultProxy } from '../helpers/fault-proxy.js'

const newNode = trackNodes()
const Token = loadArtifacts().Token!
const holder = privateKeyToAccount(keccak256(toHex('fork http holder')))

const balanceOf = (who: Address): Hex => encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [who] })
const transfer = (to: Address, amount: bigint): Hex => encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [to, amount] })

async function tokenBalance(node: FinalityNode, token: Address, who: Address): Promise<bigint> {
  const out = (await node.request({ method: 'eth_call', params: [{ to: token, data: balanceOf(who) }, 'latest'] })) as Hex
  return decodeFunctionResult({ abi: Token.abi, functionName: 'balanceOf', data: out }) as bigint
}

let remote: FinalityNode
let served: Listening
let token: Address
let forkBlock: bigint

beforeAll(async () => {
  remote = await newNode()
  served = await remote.listen({ address: '127.0.0.1:0', wsAddress: false })
  const dev = remote.accounts[0]!.address
  const hash = await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, data: deployData(), gas: '0x300000' }] })
  token = ((await remote.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Address }).contractAddress
  await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: holder.address, value: `0x${parseEther('3').toString(16)}` }] })
  await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(holder.address, 777n) }] })
  forkBlock = BigInt((await remote.request({ method: 'eth_blockNumber', params: [] })) as Hex)
})

function deployData(): Hex {
  // The constructor's arguments after the creation code.
  const args = encodeFunctionData({ abi: [{ type: 'function', name: 'x', inputs: [{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], outputs: [], stateMutability: 'nonpayable' }], functionName: 'x', args: ['Http', 'HTP', 10n ** 24n] })
  return `${Token.bytecode}${args.slice(10)}` as Hex
}

describe('a fork of a node over HTTP', () => {
  it('reads the remote state through the URL and names the fork in the node info methods', async () => {
    const fork = await newNode({ fork: { url: served.http! } })
    expect(await tokenBalance(fork, token, holder.address)).toBe(777n)
    expect(await fork.request({ method: 'eth_getBalance', params: [holder.address, 'latest'] })).toBe(`0x${parseEther('3').toString(16)}`)
    const head = (await remote.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: Hex }
    const meta = (await fork.request({ method: 'hardhat_metadata', params: [] })) as { forkedNetwork: unknown }
    expect(meta.forkedNetwork).toEqual({ chainId: Number(remote.chainId), forkBlockNumber: Number(forkBlock), forkBlockHash: head.hash, stateRoots: 'verified' })
    const info = (await fork.request({ method: 'anvil_nodeInfo', params: [] })) as { forkConfig: { forkUrl?: string; forkBlockNumber?: number } }
    expect(info.forkConfig.forkBlockNumber).toBe(Number(forkBlock))
    expect((info.forkConfig as { stateRoots?: string }).stateRoots).toBe('verified')
    expect(info.forkConfig.forkUrl).toBe(served.http!.replace(/\/$/, ''))
    const status = (await fork.request({ method: 'finality_forkStatus', params: [] })) as { stateRoots: string; loaded: { accounts: number; codes: number }; requests: { requests: number } }
    expect(status.stateRoots).toBe('verified')
    expect(status.loaded.codes).toBeGreaterThanOrEqual(1)
    expect(status.requests.requests).toBeGreaterThan(0)
    const plain = await newNode()
    expect(await plain.request({ method: 'finality_forkStatus', params: [] })).toBeNull()
    expect(((await plain.request({ method: 'hardhat_metadata', params: [] })) as Record<string, unknown>).forkedNetwork).toBeUndefined()
  })

  it('a warm read sends nothing to the remote', async () => {
    const fork = await newNode({ fork: { url: served.http! } })
    await tokenBalance(fork, token, holder.address)
    const stat = async () => ((await fork.request({ method: 'finality_forkStatus', params: [] })) as { requests: { requests: number } }).requests.requests
    const after = await stat()
    expect(await tokenBalance(fork, token, holder.address)).toBe(777n)
    expect(await stat()).toBe(after)
  })

  it('forks at a block named by number, or counted back from the head with a negative number', async () => {
    const byNumber = await newNode({ fork: { url: served.http!, blockNumber: forkBlock - 1n } })
    expect(await byNumber.request({ method: 'eth_blockNumber', params: [] })).toBe(`0x${(forkBlock - 1n).toString(16)}`)
    // The token transfer to the holder came in the head block: one before, the holder has none.
    expect(await tokenBalance(byNumber, token, holder.address)).toBe(0n)
    const back = await newNode({ fork: { url: served.http!, blockNumber: -1 } })
    expect(await back.request({ method: 'eth_blockNumber', params: [] })).toBe(`0x${(forkBlock - 1n).toString(16)}`)
    await expect(newNode({ fork: { url: served.http!, blockNumber: forkBlock + 5n } })).rejects.toThrow(/past the remote's head/)
  })

  it('refuses wrong fork options at once, naming the option', async () => {
    await expect(newNode({ fork: {} as never })).rejects.toThrow(/option fork.url needs url/)
    await expect(newNode({ fork: { url: 'ftp://x' } })).rejects.toThrow(/option fork.url must use http/)
    await expect(newNode({ fork: { url: served.http!, blockNumber: 1.5 } })).rejects.toThrow(/option fork.blockNumber must be an integer/)
    await expect(newNode({ fork: { url: served.http!, blokNumber: 1 } as never })).rejects.toThrow(/fork.blokNumber/)
  })
})

describe('a rate-limited remote', () => {
  it('a 429 on a state read is waited out and retried; the read succeeds', async () => {
    const proxy = await faultProxy(served.http!)
    try {
      const fork = await newNode({ fork: { url: proxy.url, retryBaseMs: 10 } })
      let limited = 0
      proxy.fault = (_n, arrival) => (arrival.methods.includes('eth_getProof') && limited++ < 2 ? { status: 429, headers: { 'retry-after': '0' } } : undefined)
      expect(await tokenBalance(fork, token, holder.address)).toBe(777n)
      expect(limited).toBeGreaterThanOrEqual(2)
      const status = (await fork.request({ method: 'finality_forkStatus', params: [] })) as { requests: { retries: number } }
      expect(status.requests.retries).toBeGreaterThanOrEqual(2)
    } finally {
      await proxy.close()
    }
  })
})

describe('anvil_setRpcUrl', () => {
  it('moves the fork to another endpoint that has the fork block; refuses one that does not, and a node that forks nothing', async () => {
    const fork = await newNode({ fork: { url: served.http! } })
    let seen = 0
    const proxy = await serve(async (req, res) => {
      seen++
      const chunks: Buffer[] = []
      for await (const c of req) chunks.push(c as Buffer)
      const upstream = await fetch(served.http!, { method: 'POST', body: Buffer.concat(chunks), headers: { 'content-type': 'application/json' } })
      res.setHeader('content-type', 'application/json')
      res.end(await upstream.text())
    })
    try {
      expect(await fork.request({ method: 'anvil_setRpcUrl', params: [proxy.url] })).toBeNull()
      const before = seen
      expect(await tokenBalance(fork, token, holder.address)).toBe(777n)
      expect(seen).toBeGreaterThan(before)
      const info = (await fork.request({ method: 'anvil_nodeInfo', params: [] })) as { forkConfig: { forkUrl?: string } }
      expect(info.forkConfig.forkUrl).toBe(proxy.url)
      const other = await newNode()
      const otherServed = await other.listen({ address: '127.0.0.1:0', wsAddress: false })
      await expect(fork.request({ method: 'anvil_setRpcUrl', params: [otherServed.http!] })).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/does not have the fork block/) })
      await expect(other.request({ method: 'anvil_setRpcUrl', params: [proxy.url] })).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/forks nothing/) })
      await expect(fork.request({ method: 'anvil_setRpcUrl', params: ['nope'] })).rejects.toMatchObject({ code: -32602 })
      // Still reading through the proxy.
      expect(await fork.request({ method: 'eth_getBalance', params: [holder.address, 'latest'] })).toBe(`0x${parseEther('3').toString(16)}`)
    } finally {
      await proxy.close()
    }
  })
})

describe('a lying remote', () => {
  let proxy: Awaited<ReturnType<typeof serve>>
  const tampered: string[] = []
  beforeAll(async () => {
    // A real proxy in front of the real node: it adds 1 wei to the balance of every eth_getProof answer.
    proxy = await serve(async (req, res) => {
      const chunks: Buffer[] = []
      for await (const c of req) chunks.push(c as Buffer)
      const upstream = await fetch(served.http!, { method: 'POST', body: Buffer.concat(chunks), headers: { 'content-type': 'application/json' } })
      const body = JSON.parse(await upstream.text()) as unknown
      const sent = JSON.parse(Buffer.concat(chunks).toString()) as { method: string } | Array<{ method: string }>
      const pairs = Array.isArray(body) ? body.map((b, i) => [b, (sent as Array<{ method: string }>)[i]!] as const) : [[body, sent as { method: string }] as const]
      for (const [answer, request] of pairs) {
        const result = (answer as { result?: { balance?: string; address?: string } }).result
        if (request.method === 'eth_getProof' && result?.balance !== undefined && result.address?.toLowerCase() === holder.address.toLowerCase()) {
          result.balance = `0x${(BigInt(result.balance) + 1n).toString(16)}`
          tampered.push(result.address)
        }
      }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(body))
    })
  })
  afterAll(async () => proxy.close())

  it('is refused with an error naming it, and nothing it sent is used', async () => {
    const fork = await newNode({ fork: { url: proxy.url } })
    const error = (await fork.request({ method: 'eth_getBalance', params: [holder.address, 'latest'] }).catch((e: unknown) => e)) as { code: number; message: string }
    expect(tampered.length).toBeGreaterThan(0)
    expect(error.code).toBe(-32000)
    expect(error.message).toContain(proxy.url.replace(/^http:\/\//, ''))
    expect(error.message).toMatch(/does not verify|differs from what its proof shows/)
    // An honest answer for another account is still used.
    expect(await tokenBalance(fork, token, remote.accounts[1]!.address)).toBe(0n)
  })
})
