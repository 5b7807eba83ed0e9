/**
 * HTTP keep-alive of `listen()`'s server (the `httpKeepAliveMs` limit): idle connections are kept
 * longer than clients keep theirs, so a client never reuses a connection the server is closing at
 * that moment (undici's `SocketError: other side closed`).
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { Agent } from 'undici'
import { afterAll, describe, expect, test } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'

const nodes: FinalityNode[] = []
afterAll(async () => {
  for (const n of nodes) await n.close()
})

async function serve(httpKeepAliveMs?: number): Promise<string> {
  const node = await createNode(httpKeepAliveMs === undefined ? {} : { limits: { httpKeepAliveMs } })
  nodes.push(node)
  const served = await node.listen({ port: 0 })
  return served.http!
}

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One eth_chainId through Node's http client: the answer's headers and whether the socket was reused. */
function post(url: string, agent: HttpAgent): Promise<{ headers: Record<string, unknown>; reused: boolean; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (d: string) => (body += d))
      res.on('end', () => resolve({ headers: res.headers, reused: req.reusedSocket, body }))
    })
    req.on('error', reject)
    req.end(BODY)
  })
}

describe('httpKeepAliveMs', () => {
  test('default: 120 s, told to clients in Keep-Alive (Node\'s own default is 5 s)', async () => {
    const url = await serve()
    const agent = new HttpAgent({ keepAlive: true })
    try {
      const { headers, body } = await post(url, agent)
      expect(body).toContain('"result":"0x7a69"')
      expect(headers['keep-alive']).toBe('timeout=120')
    } finally {
      agent.destroy()
    }
  })

  test('behavior: at 300 ms, a connection idle 100 ms answers again; one idle past 300 ms is closed by the server', async () => {
    const url = new URL(await serve(300))
    const socket = connect(Number(url.port), url.hostname)
    let text = ''
    socket.setEncoding('utf8').on('data', (d: string) => (text += d))
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())))
    const ask = async () => {
      const before = text.length
      socket.write(`POST / HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`)
      while (!text.slice(before).includes('"result":"0x7a69"')) await sleep(5)
    }
    await new Promise((resolve) => socket.once('connect', resolve))
    await ask()
    await sleep(100)
    await ask()
    const idleFrom = Date.now()
    const at = await closed
    expect(at - idleFrom).toBeGreaterThanOrEqual(250)
    expect(at - idleFrom).toBeLessThan(2000)
  })

  test('behavior: undici (Node\'s fetch) keeps the connection by the server\'s hint less its 1 s margin, and reuses it after idling', async () => {
    const url = await serve(3000)
    const agent = new Agent()
    let connects = 0
    agent.on('connect', () => connects++)
    const call = async () => {
      const res = await agent.request({ origin: url, path: '/', method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY })
      expect(res.headers['keep-alive']).toBe('timeout=3')
      return res.body.json()
    }
    try {
      expect(await call()).toMatchObject({ result: '0x7a69' })
      await sleep(1200)
      expect(await call()).toMatchObject({ result: '0x7a69' })
      expect(connects).toBe(1)
    } finally {
      await agent.close()
    }
  })

  test('error: a negative value is refused, naming the limit', async () => {
    await expect(createNode({ limits: { httpKeepAliveMs: -1 } })).rejects.toThrow('createNode: option limits.httpKeepAliveMs must be at least 0, got -1')
  })
})
