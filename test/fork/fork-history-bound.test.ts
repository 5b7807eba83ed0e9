/**
 * The remote's history answers a fork keeps in memory are bounded (`fork.historyEntries`): at
 * the bound every answer is kept, past it the least recently used is dropped and asked again
 * when needed; 0 keeps none; bad values are refused naming the option.
 */
import { keccak256, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, Listening } from '../../src/index.js'
import { faultProxy, type FaultProxy } from '../helpers/fault-proxy.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const to = privateKeyToAccount(keccak256(toHex('fork bound receiver'))).address
let remote: FinalityNode
let served: Listening
let proxy: FaultProxy
const sent: Hex[] = []

beforeAll(async () => {
  remote = await newNode()
  served = await remote.listen({ address: '127.0.0.1:0', wsAddress: false })
  proxy = await faultProxy(served.http!)
  const from = remote.accounts[0]!.address
  for (let i = 0; i < 3; i++) sent.push((await remote.request({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x1' }] })) as Hex)
})
afterAll(async () => {
  await proxy.close()
  await served.close()
})

/** Receipts asked of the remote so far. */
const asked = () => proxy.arrivals.flatMap((a) => a.methods).filter((m) => m === 'eth_getTransactionReceipt').length

describe('fork.historyEntries', () => {
  it('keeps up to the bound; past it the least recently used answer is dropped and asked again', async () => {
    const fork = await newNode({ fork: { url: proxy.url, historyEntries: 2 } })
    const receipt = (i: number) => fork.request({ method: 'eth_getTransactionReceipt', params: [sent[i]!] })
    const status = async () => ((await fork.request({ method: 'finality_forkStatus', params: [] })) as { history: { entries: number; maxEntries: number } }).history
    const start = asked()
    const theirs = await remote.request({ method: 'eth_getTransactionReceipt', params: [sent[0]!] })
    expect(await receipt(0)).toEqual(theirs)
    await receipt(1)
    expect(asked() - start).toBe(2)
    expect(await status()).toEqual({ entries: 2, maxEntries: 2 })
    // At the bound: both kept.
    expect(await receipt(0)).toEqual(theirs)
    await receipt(1)
    expect(asked() - start).toBe(2)
    // Past it: the third drops the least recently used (the first).
    await receipt(2)
    expect(asked() - start).toBe(3)
    expect(await status()).toEqual({ entries: 2, maxEntries: 2 })
    await receipt(1)
    expect(asked() - start).toBe(3)
    expect(await receipt(0)).toEqual(theirs)
    expect(asked() - start).toBe(4)
  })

  it('0 keeps none; the default is 1000', async () => {
    const none = await newNode({ fork: { url: proxy.url, historyEntries: 0 } })
    const start = asked()
    await none.request({ method: 'eth_getTransactionReceipt', params: [sent[0]!] })
    await none.request({ method: 'eth_getTransactionReceipt', params: [sent[0]!] })
    expect(asked() - start).toBe(2)
    const byDefault = await newNode({ fork: { url: proxy.url } })
    expect(((await byDefault.request({ method: 'finality_forkStatus', params: [] })) as { history: unknown }).history).toEqual({ entries: 0, maxEntries: 1_000 })
  })

  it('refuses a bad bound naming the option', async () => {
    for (const bad of [-1, 1.5, 10_000_001, '5']) {
      await expect(newNode({ fork: { url: proxy.url, historyEntries: bad as number } })).rejects.toThrow(/option fork\.historyEntries must be an integer from 0 to 10000000/)
    }
  })
})
