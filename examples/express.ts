/**
 * A node mounted on an Express app (next to your own routes), used over HTTP by viem, and by
 * WebSocket on the same server for new-block notifications.
 * Run with `npx tsx examples/express.ts`.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { createPublicClient, createWalletClient, http as httpTransport, parseEther, webSocket } from 'viem'
import { createNode } from '../src/index.js'

const node = await createNode()
const app = express()
app.get('/health', (_req, res) => void res.json({ ok: true }))
app.use('/rpc', node.http())
const server = http.createServer(app)
node.ws(server, { path: '/ws' })
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const { port } = server.address() as AddressInfo
console.log('serving  ', `http://127.0.0.1:${port}/rpc`)

const client = createPublicClient({ transport: httpTransport(`http://127.0.0.1:${port}/rpc`) })
const [alice, bob] = node.accounts
if (alice === undefined || bob === undefined) throw new Error('no prefunded accounts')
const wallet = createWalletClient({ transport: httpTransport(`http://127.0.0.1:${port}/rpc`), account: alice.address as `0x${string}` })

// New blocks over WebSocket on the same server: the subscription is in place once `subscribe`
// resolves (it has the node's subscription id), so no block can come before it.
const socket = createPublicClient({ transport: webSocket(`ws://127.0.0.1:${port}/ws`) })
const heads: bigint[] = []
const { unsubscribe } = await socket.transport.subscribe({
  params: ['newHeads'],
  onData: (message) => {
    if ('result' in message && message.result !== undefined) heads.push(BigInt((message.result as { number: string }).number))
  },
})

console.log('chain id ', await client.getChainId())
const hash = await wallet.sendTransaction({ chain: null, to: bob.address as `0x${string}`, value: parseEther('1') })
const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
console.log('mined in ', receipt.blockNumber, 'status', receipt.status)
// The notification is sent before the receipt's block is announced over HTTP, but travels
// over its own socket: wait for it rather than for a fixed time.
for (let waited = 0; heads.length === 0 && waited < 5_000; waited += 20) await new Promise((r) => setTimeout(r, 20))
console.log('ws heads ', heads.join(','))
console.log('health   ', await (await fetch(`http://127.0.0.1:${port}/health`)).text())

await unsubscribe()
await socket.transport.getRpcClient().then((c) => c.close())
await new Promise<void>((resolve) => server.close(() => resolve()))
await node.close()
