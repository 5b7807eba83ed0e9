/**
 * What the transports answer at the edges, as geth answers it: ids echoed byte for byte, a batch
 * past the item limit, an empty GET, rpc_modules and a namespace that is off, eth_unsubscribe of an
 * unknown id, and the EIP-1193 disconnect event.
 */
import { createServer } from 'node:http'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { WsClient, onLoopback, post, rpc, serve, postWithHost } from '../helpers/loopback.js'


/** Sends raw text over a WebSocket and resolves to the first answer's raw text. */
async function wsRaw(url: string, text: string): Promise<string> {
  const ws = new WebSocket(url)
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const answer = new Promise<string>((resolve) => ws.once('message', (data) => resolve(data.toString())))
  ws.send(text)
  const out = await answer
  ws.close()
  return out
}

describe('envelope over HTTP and WebSocket', () => {
  let node: FinalityNode
  let http: string
  let ws: string
  let close: () => Promise<void>

  beforeAll(async () => {
    node = await createNode({ limits: { batchItems: 3 } })
    const server = createServer(node.http())
    const endpoint = node.ws(server)
    const port = await onLoopback(server)
    http = `http://127.0.0.1:${port}`
    ws = `ws://127.0.0.1:${port}`
    close = async () => {
      await endpoint.close()
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    }
  })
  afterAll(async () => {
    await close()
    await node.close()
  })

  const ids = ['9007199254740993', '1e400', '1.50', '-0', '18446744073709551617', '"\\u0061b"', '"x"', '0']

  it.each(ids)('id %s is echoed byte for byte (HTTP, WebSocket, results and errors)', async (id) => {
    const ok = `{"jsonrpc":"2.0","id":${id},"method":"eth_chainId","params":[]}`
    const bad = `{"id" : ${id} ,"jsonrpc":"2.0","method":"no_such","params":[]}`
    const want = `{"jsonrpc":"2.0","id":${id},"result":"0x7a69"}`
    expect((await post(http, ok)).text).toBe(want)
    expect(await wsRaw(ws, ok)).toBe(want)
    expect((await post(http, bad)).text).toMatch(new RegExp(`^\\{"jsonrpc":"2\\.0","id":${id.replace(/[.\\+]/g, (c) => `\\${c}`)},"error":\\{"code":-32601,`))
  })

  it('batch: each id echoed as written, nested ids ignored', async () => {
    const batch = `[ {"jsonrpc":"2.0","x":[{"id":1}],"id":9007199254740993,"method":"eth_chainId"} , {"jsonrpc":"2.0","method":"eth_chainId"}, {"jsonrpc":"2.0","id":1.50,"method":"net_version"} ]`
    const want = '[{"jsonrpc":"2.0","id":9007199254740993,"result":"0x7a69"},{"jsonrpc":"2.0","id":1.50,"result":"31337"}]'
    expect((await post(http, batch)).text).toBe(want)
    expect(await wsRaw(ws, batch)).toBe(want)
  })

  it('batch past the item limit: an array of one -32600 batch too large with the first call\'s id, nothing run', async () => {
    const before = await node.request({ method: 'eth_blockNumber' })
    const from = node.accounts[0]?.address
    const send = `{"jsonrpc":"2.0","id":12345678901234567890,"method":"eth_sendTransaction","params":[{"from":"${from}","to":"${from}"}]}`
    const batch = `[${send},${send},${send},${send}]`
    const want = '[{"jsonrpc":"2.0","id":12345678901234567890,"error":{"code":-32600,"message":"batch too large"}}]'
    expect((await post(http, batch)).text).toBe(want)
    expect(await wsRaw(ws, batch)).toBe(want)
    expect(await node.request({ method: 'eth_blockNumber' })).toBe(before)
    // In process too: the same shape.
    expect(await node.handle(JSON.parse(batch))).toEqual([{ jsonrpc: '2.0', id: 12345678901234567890, error: { code: -32600, message: 'batch too large' } }])
  })

  it('an empty GET answers 200 with no body (health checks); a GET with a query or a PUT does not', async () => {
    const res = await fetch(http)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
    expect((await fetch(`${http}/?x=1`)).status).toBe(405)
    expect((await fetch(http, { method: 'PUT', body: '{}' })).status).toBe(405)
  })
})

describe('namespaces per transport', () => {
  it('rpc_modules lists what the transport serves; a method of a namespace that is off says how to turn it on', async () => {
    const node = await createNode()
    const pub = await serve(node.http())
    const more = await serve(node.http({ api: ['eth', 'rpc', 'evm'] }))
    expect((await rpc(pub.url, 'rpc_modules')).result).toEqual({ eth: '1.0', net: '1.0', rpc: '1.0', web3: '1.0' })
    expect((await rpc(more.url, 'rpc_modules')).result).toEqual({ eth: '1.0', evm: '1.0', rpc: '1.0' })
    const off = (await rpc(pub.url, 'evm_mine')).error
    expect(off.code).toBe(-32601)
    expect(off.message).toBe('the method evm_mine does not exist/is not available: the evm namespace is off here; enable it with the api option (CLI: --json-rpc.api)')
    expect((await rpc(pub.url, 'evm_nothing')).error).toEqual({ code: -32601, message: 'the method evm_nothing does not exist/is not available' })
    expect((await rpc(more.url, 'evm_mine')).result).toBe('0x0')
    // A method gated by the namespace it declares, not its name's prefix, on every call.
    const personal = await serve(node.http({ api: ['personal', 'rpc'] }))
    for (let i = 0; i < 2; i++) {
      expect((await rpc(personal.url, 'personal_sign', ['0x01', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'])).error).toEqual({
        code: -32601,
        message: 'the method personal_sign does not exist/is not available: the eth namespace is off here; enable it with the api option (CLI: --json-rpc.api)',
      })
    }
    await personal.close()
    // In process every namespace is on.
    expect(Object.keys((await node.request({ method: 'rpc_modules' })) as object)).toContain('hardhat')
    await pub.close()
    await more.close()
    await node.close()
  })
})

describe('EIP-1193 provider', () => {
  it('disconnect carries a CloseEvent code (1000 on a clean close); later requests reject with 4900', async () => {
    const node = await createNode()
    const events: Array<{ code: number; message: string }> = []
    node.provider.on('disconnect', (e) => events.push({ code: e.code, message: e.message }))
    await node.close()
    expect(events).toEqual([{ code: 1000, message: 'the node closed' }])
    await expect(node.provider.request({ method: 'eth_chainId' })).rejects.toMatchObject({ code: 4900 })
  })

  it('eth_unsubscribe of an id never issued → -32000 subscription not found', async () => {
    const node = await createNode()
    await expect(node.provider.request({ method: 'eth_unsubscribe', params: ['0x01'] })).rejects.toMatchObject({ code: -32000, message: 'subscription not found' })
    await node.close()
  })
})

describe('browser defaults: listen() vs the http() / ws() mounts', () => {
  it('listen(): local pages only, Host names other than localhost refused; mounts: any Host, any Origin, CORS off', async () => {
    const node = await createNode()
    const own = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' })
    const call = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}'
    expect((await post(own.http as string, call, { origin: 'http://localhost:3000' })).headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
    expect((await post(own.http as string, call, { origin: 'https://evil.example' })).headers.get('access-control-allow-origin')).toBe(null)
    expect(await postWithHost(own.http as string, 'rebound.example')).toBe(403)
    expect(await postWithHost(own.http as string, 'localhost:8545')).toBe(200)
    await expect(WsClient.connect(own.ws as string, { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403')
    await own.close()
    // An app behind a proxy is reached under its own names: the mount does not refuse them.
    const server = createServer(node.http())
    const endpoint = node.ws(server)
    const port = await onLoopback(server)
    expect(await postWithHost(`http://127.0.0.1:${port}`, 'app.example.com')).toBe(200)
    expect((await post(`http://127.0.0.1:${port}`, call, { origin: 'https://evil.example' })).headers.get('access-control-allow-origin')).toBe(null)
    const c = await WsClient.connect(`ws://127.0.0.1:${port}`, { origin: 'https://app.example.com' })
    c.close()
    await endpoint.close()
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
    await node.close()
  })
})
