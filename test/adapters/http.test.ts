/**
 * The HTTP transport over a real socket on 127.0.0.1: status codes, the envelope, limits at N
 * and N+1, namespaces per transport, CORS, Host checks and the JWT gate.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { signJwt } from '../../src/adapters/auth.js'
import { post, rpc, serve } from '../helpers/loopback.js'

const call = (method: string, params: unknown[] = [], id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params })

/** A valid request padded with a string field to exactly `size` bytes. */
function paddedRequest(size: number): string {
  const head = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[],"pad":"'
  const tail = '"}'
  return head + 'a'.repeat(size - head.length - tail.length) + tail
}

/** A request whose extra field nests arrays so that the whole payload has depth `depth`. */
function nestedRequest(depth: number): string {
  const inner = depth - 1
  return `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","x":${'['.repeat(inner)}${']'.repeat(inner)}}`
}

describe('http', () => {
  let node: FinalityNode
  let url: string
  let close: () => Promise<void>

  beforeAll(async () => {
    node = await createNode()
    ;({ url, close } = await serve(node.http()))
  })
  afterAll(async () => {
    await close()
    await node.close()
  })

  it('default: one call answers 200 with the JSON-RPC response', async () => {
    const res = await post(url, call('eth_chainId'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
  })

  it('behavior: a batch answers each element in order; notifications get no answer', async () => {
    const res = await post(url, `[${call('eth_chainId', [], 1)},{"jsonrpc":"2.0","method":"eth_chainId"},${call('net_version', [], 'b')},1,[]]`)
    expect(JSON.parse(res.text)).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 'b', result: '31337' },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
    ])
  })

  it('behavior: only notifications → 204 with no body', async () => {
    const one = await post(url, '{"jsonrpc":"2.0","method":"eth_chainId"}')
    expect(one.status).toBe(204)
    expect(one.text).toBe('')
    const batch = await post(url, '[{"jsonrpc":"2.0","method":"eth_chainId"},{"jsonrpc":"2.0","method":"nope"}]')
    expect(batch.status).toBe(204)
  })

  it.each(['PUT', 'DELETE', 'PATCH', 'OPTIONS'])('error: %s → 405 (CORS off)', async (method) => {
    const res = await fetch(url, { method })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
  })

  it.each(['text/plain', 'application/x-www-form-urlencoded', ''])('error: content type %j → 415', async (type) => {
    const res = await fetch(url, { method: 'POST', body: call('eth_chainId'), headers: { 'content-type': type } })
    expect(res.status).toBe(415)
  })

  it('behavior: application/json with a charset is accepted', async () => {
    const res = await post(url, call('eth_chainId'), { 'content-type': 'application/json; charset=utf-8' })
    expect(res.status).toBe(200)
  })

  it('error: not JSON, truncated JSON, invalid UTF-8 → -32700 with id null, and the server keeps serving', async () => {
    for (const body of ['{', 'not json', '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])]) {
      const res = await post(url, body)
      expect(res.status).toBe(200)
      const parsed = JSON.parse(res.text)
      expect(parsed.id).toBe(null)
      expect(parsed.error.code).toBe(-32700)
    }
    expect((await rpc(url, 'eth_chainId')).result).toBe('0x7a69')
  })

  it('limit: JSON depth 64 accepted, 65 → -32700', async () => {
    expect(JSON.parse((await post(url, nestedRequest(64))).text).result).toBe('0x0')
    const deep = JSON.parse((await post(url, nestedRequest(65))).text)
    expect(deep).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error: JSON nested deeper than 64' } })
  })

  it('limit: a million nested brackets are refused without recursion', async () => {
    const res = JSON.parse((await post(url, '['.repeat(1_000_000))).text)
    expect(res.error.code).toBe(-32700)
  })

  it('limit: body of exactly 5 MiB accepted, 5 MiB + 1 → 413', async () => {
    const limit = 5 * 1024 * 1024
    const ok = await post(url, paddedRequest(limit))
    expect(ok.status).toBe(200)
    expect(JSON.parse(ok.text).result).toBe('0x0')
    const big = await post(url, paddedRequest(limit + 1))
    expect(big.status).toBe(413)
    expect((await rpc(url, 'eth_chainId')).result).toBe('0x7a69')
  })

  it('limit: a chunked body past the limit → 413 without reading the rest', async () => {
    const { status, received } = await new Promise<{ status: number; received: boolean }>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } })
      req.on('response', (res) => {
        res.resume()
        resolve({ status: res.statusCode ?? 0, received: true })
      })
      req.on('error', reject)
      req.write(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId","pad":"${'a'.repeat(5 * 1024 * 1024)}`)
      // the request is never finished: the server must answer without waiting for the end.
    })
    expect(received).toBe(true)
    expect(status).toBe(413)
  })

  it('error: eth_subscribe over HTTP → -32601 notifications not supported', async () => {
    const res = await rpc(url, 'eth_subscribe', ['newHeads'])
    expect(res.error).toEqual({ code: -32601, message: 'notifications not supported' })
  })

  it('behavior: only eth, web3, net and rpc are served unless listed', async () => {
    expect((await rpc(url, 'finality_getValidators')).error.code).toBe(-32601)
    expect((await rpc(url, 'web3_clientVersion')).result).toMatch(/^finality\//)
    const wide = await serve(node.http({ api: ['eth', 'finality'] }))
    try {
      expect((await rpc(wide.url, 'finality_getValidators')).result).toHaveLength(1)
      expect((await rpc(wide.url, 'web3_clientVersion')).error.code).toBe(-32601)
    } finally {
      await wide.close()
    }
  })

  it('behavior: toString, constructor, __proto__ are unknown methods', async () => {
    for (const m of ['toString', 'constructor', '__proto__']) expect((await rpc(url, m)).error.code).toBe(-32601)
  })
})

describe('http: limits', () => {
  it('limit: batch responses of exactly the byte limit run every call; one byte less → later calls -32003', async () => {
    // Each response `{"jsonrpc":"2.0","id":1,"result":"0x0"}` is 39 bytes: two make 78.
    const batch = `[${call('eth_blockNumber', [], 1)},${call('eth_blockNumber', [], 2)},${call('eth_blockNumber', [], 3)}]`
    for (const [limit, third] of [
      [78, { jsonrpc: '2.0', id: 3, result: '0x0' }],
      [77, { jsonrpc: '2.0', id: 3, error: { code: -32003, message: 'response too large' } }],
    ] as const) {
      const node = await createNode({ limits: { batchResponseBytes: limit } })
      const { url, close } = await serve(node.http())
      const res = JSON.parse((await post(url, batch)).text)
      expect(res).toHaveLength(3)
      expect(res[2]).toEqual(third)
      await close()
      await node.close()
    }
  })

  it('limit: body limit override at N and N+1', async () => {
    const node = await createNode({ limits: { httpBodyBytes: 200 } })
    const { url, close } = await serve(node.http())
    expect((await post(url, paddedRequest(200))).status).toBe(200)
    expect((await post(url, paddedRequest(201))).status).toBe(413)
    await close()
    await node.close()
  })

  it('limit: 1000 batch items run, 1001 → geth\'s one-element array: -32600 batch too large with the first call\'s id', async () => {
    const node = await createNode()
    const { url, close } = await serve(node.http())
    const items = (n: number) => `[${Array.from({ length: n }, (_, i) => call('eth_chainId', [], i + 7)).join(',')}]`
    expect(JSON.parse((await post(url, items(1000))).text)).toHaveLength(1000)
    expect(JSON.parse((await post(url, items(1001))).text)).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'batch too large' } }])
    // The first call, not the first item: a notification and a bare number come before it.
    const mixed = `[{"jsonrpc":"2.0","method":"eth_chainId"},5,${items(1000).slice(1, -1)}]`
    expect((await post(url, mixed)).text).toBe('[{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"batch too large"}}]')
    await close()
    await node.close()
  })

  it('limit: a request past the time-out → -32002 request timed out', async () => {
    const clock = { now: () => Date.now(), setTimer: (fn: () => void) => (fn(), () => {}) }
    const node = await createNode({ clock, limits: { requestTimeoutMs: 1 } })
    const { url, close } = await serve(node.http())
    expect((await rpc(url, 'eth_chainId')).error).toEqual({ code: -32002, message: 'request timed out' })
    await close()
    await node.close()
  })
})

describe('http: access', () => {
  it('error: a Host not in the allowed list → 403; allowed names pass, port ignored', async () => {
    const node = await createNode()
    const { url, close } = await serve(node.http({ hosts: ['localhost', '127.0.0.1'] }))
    expect((await post(url, call('eth_chainId'))).status).toBe(200)
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end(call('eth_chainId'))
    })
    expect(status).toBe(403)
    await close()
    await node.close()
  })

  it('behavior: CORS off by default; when configured, allowed origins get headers and OPTIONS preflight 204', async () => {
    const node = await createNode()
    const off = await serve(node.http())
    expect((await post(off.url, call('eth_chainId'), { origin: 'https://app.example' })).headers.get('access-control-allow-origin')).toBe(null)
    const on = await serve(node.http({ cors: ['https://app.example'] }))
    const pre = await fetch(on.url, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST')
    const res = await post(on.url, call('eth_chainId'), { origin: 'https://app.example' })
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const other = await post(on.url, call('eth_chainId'), { origin: 'https://other.example' })
    expect(other.headers.get('access-control-allow-origin')).toBe(null)
    await off.close()
    await on.close()
    await node.close()
  })

  it('behavior: with a JWT secret, private methods need a valid token; a bad token → 401; iat ±60 s', async () => {
    const secret = 'ab'.repeat(32)
    const key = Buffer.from(secret, 'hex')
    const node = await createNode()
    const { url, close } = await serve(node.http({ jwtSecret: secret }))
    const tx = [{ from: node.accounts[0]?.address, to: node.accounts[1]?.address, value: '0x1' }]
    expect((await rpc(url, 'eth_chainId')).result).toBe('0x7a69')
    const locked = await rpc(url, 'eth_sendTransaction', tx)
    expect(locked.error.code).toBe(-32001)
    expect(locked.error.message).toContain('eth_sendTransaction is a private method')
    // personal_sign is gated by the eth namespace, and private like eth_sign: locked the same way.
    const sign = await rpc(url, 'personal_sign', ['0x01', node.accounts[0]?.address])
    expect(sign.error.code).toBe(-32001)
    expect(sign.error.message).toContain('personal_sign is a private method')
    const bearer = (ms: number) => ({ authorization: `Bearer ${signJwt(key, ms)}` })
    expect((await rpc(url, 'personal_sign', ['0x01', node.accounts[0]?.address], bearer(Date.now()))).result).toMatch(/^0x[0-9a-f]{130}$/)
    expect((await rpc(url, 'eth_sendTransaction', tx, bearer(Date.now()))).result).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await rpc(url, 'eth_chainId', [], bearer(Date.now() - 55_000))).result).toBe('0x7a69')
    expect((await post(url, call('eth_chainId'), bearer(Date.now() - 70_000))).status).toBe(401)
    expect((await post(url, call('eth_chainId'), bearer(Date.now() + 70_000))).status).toBe(401)
    expect((await post(url, call('eth_chainId'), { authorization: `Bearer ${signJwt(Buffer.alloc(32, 1), Date.now())}` })).status).toBe(401)
    expect((await post(url, call('eth_chainId'), { authorization: 'Bearer nonsense' })).status).toBe(401)
    await close()
    await node.close()
  })
})
