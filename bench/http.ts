/**
 * Transport throughput on loopback: eth_blockNumber and eth_call over HTTP keep-alive (bounded
 * loops, a few requests in flight), and WebSocket notifications per second (newHeads fanned out
 * to many subscriptions). Run with `npx tsx bench/http.ts` after `npm run build` (see `finality.ts`).
 */
import { Agent, request } from 'node:http'
import WebSocket from 'ws'
import { createNode } from './finality.js'

const REQUESTS = Number(process.env.REQUESTS ?? 20_000)
const IN_FLIGHT = 8
/** Runtime code that returns 42 as one word: PUSH1 42 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const RETURNS_42 = '0x602a60005260206000f3'
const CONTRACT = '0x00000000000000000000000000000000000c0de0'

function post(url: URL, agent: Agent, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (text += d))
      res.on('end', () => resolve(text))
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function rate(url: string, body: string, n: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT })
  const target = new URL(url)
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < n) {
        next++
        const text = await post(target, agent, body)
        if (!text.includes('"result"')) throw new Error(`unexpected answer ${text}`)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  return n / seconds
}

async function notificationsPerSecond(): Promise<{ perSecond: number; total: number }> {
  const node = await createNode({ mining: { mode: 'manual' } })
  const served = await node.listen({ address: false, wsAddress: '127.0.0.1:0' })
  const SOCKETS = 10
  const SUBS = 100
  const BLOCKS = 50
  const total = SOCKETS * SUBS * BLOCKS
  let received = 0
  let done: () => void = () => {}
  const all = new Promise<void>((r) => (done = r))
  const sockets = await Promise.all(
    Array.from({ length: SOCKETS }, async () => {
      const ws = new WebSocket(served.ws as string)
      await new Promise((r) => ws.once('open', r))
      const batch = Array.from({ length: SUBS }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_subscribe', params: ['newHeads'] }))
      const answered = new Promise((r) => ws.once('message', r))
      ws.send(JSON.stringify(batch))
      await answered
      ws.on('message', () => {
        if (++received === total) done()
      })
      return ws
    }),
  )
  const started = performance.now()
  for (let i = 0; i < BLOCKS; i++) await node.mine()
  await all
  const seconds = (performance.now() - started) / 1000
  sockets.forEach((s) => s.close())
  await served.close()
  await node.close()
  return { perSecond: total / seconds, total }
}

async function main(): Promise<void> {
  const node = await createNode({ alloc: { [CONTRACT]: { code: RETURNS_42 } } })
  const served = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
  const url = served.http as string
  const blockNumber = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'
  const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: CONTRACT, data: '0x' }, 'latest'] })
  await rate(url, blockNumber, 1000)
  const row = (what: string, n: number) => console.log(`| ${what} | ${Math.round(n).toLocaleString('en-US')} |`)
  console.log(`| what (${IN_FLIGHT} HTTP requests in flight) | per second |\n| --- | ---: |`)
  row('eth_blockNumber over HTTP keep-alive', await rate(url, blockNumber, REQUESTS))
  row('eth_call over HTTP keep-alive', await rate(url, call, Math.floor(REQUESTS / 4)))
  await served.close()
  await node.close()
  const ws = await notificationsPerSecond()
  row(`WebSocket newHeads notifications (${ws.total.toLocaleString('en-US')} in all)`, ws.perSecond)
}

await main()
