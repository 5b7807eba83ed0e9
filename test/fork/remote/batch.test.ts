/**
 * Batching and the rate cap of the fork's remote client, counted at a real proxy in front of a
 * real finality node on loopback.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode, type Hex, type Listening } from '../../../src/index.js'
import { type RemoteClient } from '../../../src/fork/remote/index.js'
import { remoteClients } from '../../helpers/remote-clients.js'
import { faultProxy, type FaultProxy } from '../../helpers/fault-proxy.js'

let node: FinalityNode
let small: FinalityNode
let served: Listening
let servedSmall: Listening
let proxy: FaultProxy
let accounts: Hex[]
const remote = remoteClients()

beforeAll(async () => {
  node = await createNode({ chainId: 1337n })
  served = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
  proxy = await faultProxy(served.http!)
  accounts = await node.request({ method: 'eth_accounts' })
  small = await createNode({ limits: { batchItems: 4 } })
  servedSmall = await small.listen({ address: '127.0.0.1:0', wsAddress: false })
})

afterAll(async () => {
  await remote.closeAll()
  await proxy.close()
  await served.close()
  await servedSmall.close()
  await node.close()
  await small.close()
})

beforeEach(() => {
  proxy.arrivals.length = 0
  proxy.fault = () => undefined
  proxy.refuseBatches = false
})

const balances = (c: RemoteClient, n: number) =>
  Promise.all(Array.from({ length: n }, (_, i) => c.request({ method: 'eth_getBalance', params: [accounts[i % accounts.length], 'latest'] })))

const sizes = () => proxy.arrivals.map((a) => (a.batch ? a.methods.length : 1))

describe('batching', () => {
  it('default: requests of the same tick leave as one JSON-RPC batch, each answered', async () => {
    const c = remote({ url: proxy.url })
    const got = await balances(c, 20)
    const want = await Promise.all(Array.from({ length: 20 }, (_, i) => node.request({ method: 'eth_getBalance', params: [accounts[i % accounts.length]!, 'latest'] })))
    expect(got).toEqual(want)
    expect(sizes()).toEqual([20])
    expect(c.stats()).toEqual({ requests: 20, httpRequests: 1, batches: 1, retries: 0, errors: 0 })
  })

  it('args: batchSize splits the batch; batchSize 1 sends one request per POST', async () => {
    const c = remote({ url: proxy.url, batchSize: 8 })
    await balances(c, 20)
    expect(sizes()).toEqual([8, 8, 4])
    proxy.arrivals.length = 0
    const one = remote({ url: proxy.url, batchSize: 1 })
    await balances(one, 5)
    expect(proxy.arrivals.map((a) => a.batch)).toEqual([false, false, false, false, false])
    expect(one.stats()).toMatchObject({ httpRequests: 5, batches: 0 })
  })

  it('behavior: an error answer inside a batch rejects that request only', async () => {
    const c = remote({ url: proxy.url })
    const [ok, bad] = await Promise.allSettled([c.request({ method: 'eth_chainId' }), c.request({ method: 'eth_getBalance', params: ['0x12', 'latest'] })])
    expect(ok).toEqual({ status: 'fulfilled', value: '0x539' })
    expect(bad).toMatchObject({ status: 'rejected', reason: { remoteCode: -32602, answered: true } })
    expect(sizes()).toEqual([2])
  })

  it('behavior: a remote that answers a batch with one error object gets single requests from then on', async () => {
    proxy.refuseBatches = true
    const c = remote({ url: proxy.url })
    expect(await balances(c, 3)).toHaveLength(3)
    expect(sizes()).toEqual([3, 1, 1, 1])
    await balances(c, 3)
    expect(sizes()).toEqual([3, 1, 1, 1, 1, 1, 1])
    expect(c.stats()).toMatchObject({ requests: 6, httpRequests: 7, batches: 1, retries: 0, errors: 0 })
  })

  it('behavior: a remote whose batch limit is smaller gets halved batches (a finality node with limits.batchItems 4)', async () => {
    const front = await faultProxy(servedSmall.http!)
    try {
      const c = remote({ url: front.url, batchSize: 10 })
      expect(await balances(c, 10)).toHaveLength(10)
      // 10 refused as `batch too large`, then the two halves of 5, then batches of at most 2 go through.
      const s = front.arrivals.map((a) => a.methods.length)
      expect(s.slice(0, 3)).toEqual([10, 5, 5])
      expect(s.slice(3).every((n) => n <= 2)).toBe(true)
      expect(s.slice(3).reduce((a, b) => a + b, 0)).toBe(10)
      expect(c.stats()).toMatchObject({ requests: 10, errors: 0, retries: 0, httpRequests: s.length })
    } finally {
      await front.close()
    }
  })

  it('behavior: a 429 on a batch retries every request of it', async () => {
    proxy.fault = (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '0' } } : undefined)
    const c = remote({ url: proxy.url, retryBaseMs: 1 })
    expect(await balances(c, 4)).toHaveLength(4)
    expect(sizes()).toEqual([4, 4])
    expect(c.stats()).toMatchObject({ requests: 4, httpRequests: 2, batches: 2, retries: 4 })
  })
})

describe('requestsPerSecond', () => {
  it('behavior: a cap of 5 lets 5 requests leave at once and the rest as tokens come back', async () => {
    const c = remote({ url: proxy.url, requestsPerSecond: 5 })
    expect(await balances(c, 8)).toHaveLength(8)
    const s = sizes()
    expect(s[0]).toBe(5)
    expect(Math.max(...s)).toBeLessThanOrEqual(5)
    expect(s.reduce((a, b) => a + b, 0)).toBe(8)
    expect(s.length).toBeGreaterThanOrEqual(2)
  })

  it('behavior: without a cap the same requests leave as one batch', async () => {
    const c = remote({ url: proxy.url, requestsPerSecond: 0 })
    await balances(c, 8)
    expect(sizes()).toEqual([8])
  })

  it('behavior: the cap holds for a provider too (one request per call)', async () => {
    let calls = 0
    const c = remote({ provider: { request: (a) => (calls++, node.provider.request(a as never)) }, requestsPerSecond: 50 })
    await Promise.all(Array.from({ length: 60 }, () => c.request({ method: 'eth_chainId' })))
    expect(calls).toBe(60)
    expect(c.stats()).toMatchObject({ requests: 60, httpRequests: 60, batches: 0 })
  })
})
