/**
 * The node mounted on an Express app, as the README shows it: node.http() at /rpc beside the
 * app's own routes, node.ws() on the same server, used by viem over HTTP and WebSocket.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { createNode, type FinalityNode } from 'finality-evm'
import {
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  getAddress,
  http as httpTransport,
  parseEther,
  webSocket,
  type Log,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { myToken } from './artifact.js'

let node: FinalityNode
let server: http.Server
let base: string

beforeAll(async () => {
  node = await createNode()
  const app = express()
  app.get('/health', (_req, res) => void res.json({ ok: true }))
  app.use('/rpc', node.http())
  server = http.createServer(app)
  node.ws(server, { path: '/ws' })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeAllConnections() // viem's fetch keeps its HTTP connection alive
  await closed
  await node.close()
})

describe('an Express app with the node mounted', () => {
  it("serves the app's own routes beside the node", async () => {
    expect(await (await fetch(`http://${base}/health`)).json()).toEqual({ ok: true })
  })

  it('deploys and transfers over HTTP, and a WebSocket client sees the Transfer event', async () => {
    const [owner, alice] = node.accounts.map((a) => getAddress(a.address))
    const client = createPublicClient({ transport: httpTransport(`http://${base}/rpc`), pollingInterval: 50 })
    const wallet = createWalletClient({ transport: httpTransport(`http://${base}/rpc`), account: owner! })
    const hash = await wallet.deployContract({ abi: myToken.abi, bytecode: myToken.bytecode, args: [parseEther('10')], chain: null })
    const { contractAddress } = await client.waitForTransactionReceipt({ hash })

    const socket = createPublicClient({ transport: webSocket(`ws://${base}/ws`) })
    let deliver: (log: Log) => void = () => undefined
    const seen = new Promise<Log>((resolve) => (deliver = resolve))
    // resolves once the node has answered eth_subscribe with the subscription id
    const { unsubscribe } = await socket.transport.subscribe({
      params: ['logs', { address: contractAddress! }],
      onData: (message: { result?: unknown }) => deliver(message.result as Log),
      onError: (error: Error) => {
        throw error
      },
    })
    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: contractAddress!, abi: myToken.abi, functionName: 'transfer', args: [alice!, 3n], chain: null }),
    })
    const log = await seen
    const event = decodeEventLog({ abi: myToken.abi, data: log.data, topics: log.topics })
    expect(event.eventName).toBe('Transfer')
    expect(event.args).toEqual({ from: owner, to: alice, value: 3n })
    await unsubscribe()
    await (await socket.transport.getRpcClient()).close()
  })
})
