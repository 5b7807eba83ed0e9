/**
 * node.close(): afterwards every member refuses with NodeClosedError (4900), nothing mines or
 * serves, and work in flight when close() was called settles.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPublicClient, custom } from 'viem'
import { describe, expect, test } from 'vitest'
import { createNode, NodeClosedError } from '../../src/index.js'

const transfer = (n: Awaited<ReturnType<typeof createNode>>, from = 0) => ({
  method: 'eth_sendTransaction',
  params: [{ from: n.accounts[from]!.address, to: n.accounts[9]!.address, value: '0x1' }],
})

describe('node.close()', () => {
  test('error: every member refuses afterwards with NodeClosedError, code 4900', async () => {
    const node = await createNode()
    await node.close()
    const closed = { code: 4900, message: 'the node is closed' }
    await expect(node.request({ method: 'eth_blockNumber' })).rejects.toMatchObject(closed)
    await expect(node.request(transfer(node))).rejects.toBeInstanceOf(NodeClosedError)
    await expect(node.mine()).rejects.toMatchObject(closed)
    await expect(node.listen({ address: '127.0.0.1:0', wsAddress: false })).rejects.toMatchObject(closed)
    await expect(node.snapshot()).rejects.toMatchObject(closed)
    await expect(node.setBalance(node.accounts[0]!.address, 1n)).rejects.toMatchObject(closed)
    await expect(node.mineBlocks(2)).rejects.toMatchObject(closed)
    await expect(node.commitCertificate(0n)).rejects.toMatchObject(closed)
    expect(() => node.http()).toThrow(NodeClosedError)
    expect(() => node.setMining({ mode: 'manual' })).toThrow(NodeClosedError)
    expect(() => node.dumpState()).toThrow(NodeClosedError)
    expect(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).toEqual({ jsonrpc: '2.0', id: 1, error: closed })
    await expect(node.provider.request({ method: 'eth_chainId' })).rejects.toMatchObject({ code: 4900 })
    // Closing again is harmless.
    await node.close()
  })

  test('behavior: a send in flight during close settles (receipt or error) and nothing is left pending', async () => {
    const node = await createNode()
    // No `gas`: the send estimates first, so close() lands while it is under way.
    const inFlight = [0, 1, 2].map((i) => node.request(transfer(node, i)))
    const closing = node.close()
    const settled = await Promise.allSettled(inFlight)
    await closing
    for (const s of settled) {
      if (s.status === 'rejected') expect(s.reason).toMatchObject({ code: 4900 })
      else expect(s.value).toMatch(/^0x[0-9a-f]{64}$/)
    }
  })

  test('behavior: a send already submitted in automine gets its receipt before close resolves', async () => {
    const node = await createNode()
    const [a, b] = node.accounts
    const sent = node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1', gas: '0x5208' }] })
    // Let the send reach the pool (it has gas, so nothing to estimate), then close.
    await new Promise((r) => setImmediate(r))
    await node.close()
    await expect(sent).resolves.toMatch(/^0x[0-9a-f]{64}$/)
  })

  test('behavior: interval mining makes no block after close, and a handler made before refuses', async () => {
    const node = await createNode({ mining: { mode: 'interval', blockTime: 1 } })
    const handler = node.http()
    const server = createServer(handler)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const client = createPublicClient({ transport: custom(node.provider, { retryCount: 0 }) })
    expect(await client.getChainId()).toBe(31337)
    await node.close()
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' }) })
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, error: { code: 4900, message: 'the node is closed' } })
    } finally {
      await new Promise((r) => server.close(r))
    }
    await expect(client.getBlockNumber()).rejects.toThrow()
  })
})
