/**
 * A reset to another fork that fails half-way (the new remote answers the fork block, then fails
 * the state reads the reset needs) leaves the node as it was: same chain, blocks, state, chain
 * id, remote and snapshots; the same reset succeeds once the remote answers.
 */
import { keccak256, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, Listening } from '../../src/index.js'
import { faultProxy, type FaultProxy } from '../helpers/fault-proxy.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const holder = privateKeyToAccount(keccak256(toHex('fork reset holder'))).address
const untouched = privateKeyToAccount(keccak256(toHex('fork reset untouched'))).address
let first: FinalityNode
let second: FinalityNode
let servedFirst: Listening
let servedSecond: Listening
let proxy: FaultProxy

beforeAll(async () => {
  first = await newNode()
  second = await newNode({ chainId: 4242 })
  servedFirst = await first.listen({ address: '127.0.0.1:0', wsAddress: false })
  servedSecond = await second.listen({ address: '127.0.0.1:0', wsAddress: false })
  proxy = await faultProxy(servedSecond.http!)
  const dev = first.accounts[0]!.address
  await first.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: untouched, value: '0x7' }] })
  await second.request({ method: 'hardhat_mine', params: ['0x9'] })
})
afterAll(async () => {
  await proxy.close()
  await servedFirst.close()
  await servedSecond.close()
})

describe('a reset to another fork that fails', () => {
  it('leaves the node as it was, snapshots included; the same reset succeeds once the remote answers', async () => {
    const fork = await newNode({ fork: { url: servedFirst.http! } })
    const dev = fork.accounts[0]!.address
    const snapshot = await fork.request({ method: 'evm_snapshot', params: [] })
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: holder, value: '0x5' }] })
    const before = {
      chainId: await fork.request({ method: 'eth_chainId', params: [] }),
      head: await fork.request({ method: 'eth_getBlockByNumber', params: ['latest', false] }),
      balance: await fork.request({ method: 'eth_getBalance', params: [holder, 'latest'] }),
      remote: ((await fork.request({ method: 'finality_forkStatus', params: [] })) as { remote: string }).remote,
    }
    // The second step (the node's accounts, asked in one batch of proofs) fails with an error answer.
    proxy.rewrite = (answer, arrival) =>
      arrival.batch && arrival.methods.every((m) => m === 'eth_getProof')
        ? (answer as Array<{ id: unknown }>).map((item) => ({ jsonrpc: '2.0', id: item.id, error: { code: -32000, message: 'injected: state unavailable' } }))
        : answer
    await expect(fork.request({ method: 'hardhat_reset', params: [{ forking: { jsonRpcUrl: proxy.url } }] })).rejects.toMatchObject({ message: expect.stringContaining('injected: state unavailable') })
    expect(proxy.arrivals.some((a) => a.methods.includes('eth_getBlockByNumber'))).toBe(true)
    expect(await fork.request({ method: 'eth_chainId', params: [] })).toBe(before.chainId)
    expect(await fork.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })).toEqual(before.head)
    expect(await fork.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe(before.balance)
    expect(((await fork.request({ method: 'finality_forkStatus', params: [] })) as { remote: string }).remote).toBe(before.remote)
    // Still the first remote's fork: state not read yet comes from it, blocks are built on it.
    expect(await fork.request({ method: 'eth_getBalance', params: [untouched, 'latest'] })).toBe('0x7')
    await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: holder, value: '0x1' }] })
    expect(await fork.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe('0x6')
    expect(await fork.request({ method: 'evm_revert', params: [snapshot] })).toBe(true)
    expect(await fork.request({ method: 'eth_getBalance', params: [holder, 'latest'] })).toBe('0x0')

    proxy.rewrite = undefined
    expect(await fork.request({ method: 'hardhat_reset', params: [{ forking: { jsonRpcUrl: proxy.url } }] })).toBe(true)
    expect(await fork.request({ method: 'eth_chainId', params: [] })).toBe(toHex(4242))
    expect(await fork.request({ method: 'eth_blockNumber', params: [] })).toBe(await second.request({ method: 'eth_blockNumber', params: [] }))
    expect(await fork.request({ method: 'eth_getBalance', params: [untouched, 'latest'] })).toBe('0x0')
    const head = (await fork.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: Hex }
    expect(head.hash).toBe(((await second.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: Hex }).hash)
  })
})
