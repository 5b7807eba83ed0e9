/**
 * admin_startHTTP / admin_startWS / admin_stopHTTP / admin_stopWS on the servers node.listen()
 * opened, with geth's answers when a server is already running.
 */
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { WsClient, freePort, rpc } from '../helpers/loopback.js'

const newNode = trackNodes()


const call = (node: FinalityNode, method: string, params: unknown[] = []) => node.request({ method, params })
const refused = async (url: string) => fetch(url, { method: 'POST', body: '{}' }).then(() => false, () => true)

describe('admin server methods', () => {
  it('error: geth\'s answers while the servers run', async () => {
    const node = await newNode()
    const served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'admin'] })
    const httpPort = new URL(served.http!).port
    expect((await rpc(served.http!, 'admin_startHTTP')).error).toEqual({ code: -32000, message: 'JSON-RPC over HTTP is already enabled' })
    expect((await rpc(served.http!, 'admin_startHTTP', ['127.0.0.1', Number(httpPort)])).error).toEqual({ code: -32000, message: 'JSON-RPC over HTTP is already enabled' })
    expect((await rpc(served.http!, 'admin_startHTTP', ['127.0.0.1', 1])).error).toEqual({ code: -32000, message: `HTTP server already running on 127.0.0.1:${httpPort}` })
    expect((await rpc(served.http!, 'admin_startWS')).error).toEqual({ code: -32000, message: 'JSON-RPC over WebSocket is already enabled' })
    await served.close()
  })

  it('default: stopHTTP closes HTTP and keeps WebSocket; startHTTP opens it again with the given settings', async () => {
    const node = await newNode()
    const served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'admin', 'rpc'] })
    const ws = await WsClient.connect(served.ws!)
    try {
      expect((await ws.call('admin_stopHTTP')).result).toBe(true)
      expect(await refused(served.http!)).toBe(true)
      expect((await ws.call('eth_chainId')).result).toBe('0x7a69')
      // Stopping what is not running is true, as geth.
      expect((await ws.call('admin_stopHTTP')).result).toBe(true)
      const port = await freePort()
      expect((await ws.call('admin_startHTTP', ['127.0.0.1', port, null, 'eth,rpc'])).result).toBe(true)
      const url = `http://127.0.0.1:${port}`
      expect((await rpc(url, 'rpc_modules')).result).toEqual({ eth: '1.0', rpc: '1.0' })
      expect((await rpc(url, 'admin_stopHTTP')).error.code).toBe(-32601)
      // geth's deprecated alias.
      expect(await call(node, 'admin_stopRPC')).toBe(true)
      expect(await refused(url)).toBe(true)
    } finally {
      ws.close()
      await served.close()
    }
  })

  it('default: stopWS closes the sockets; startWS opens a WebSocket server again', async () => {
    const node = await newNode()
    const served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'admin'] })
    const ws = await WsClient.connect(served.ws!)
    try {
      expect((await rpc(served.http!, 'admin_stopWS')).result).toBe(true)
      expect((await ws.waitClosed()).code).toBe(1001)
      await expect(WsClient.connect(served.ws!)).rejects.toThrow()
      expect((await rpc(served.http!, 'eth_chainId')).result).toBe('0x7a69')
      const port = await freePort()
      expect((await rpc(served.http!, 'admin_startWS', ['127.0.0.1', port, null, 'eth'])).result).toBe(true)
      const again = await WsClient.connect(`ws://127.0.0.1:${port}`)
      expect((await again.call('eth_chainId')).result).toBe('0x7a69')
      expect((await again.call('admin_stopWS')).error.code).toBe(-32601)
      again.close()
      expect((await rpc(served.http!, 'admin_startWS')).error).toEqual({ code: -32000, message: 'JSON-RPC over WebSocket is already enabled' })
    } finally {
      await served.close()
      await node.close()
    }
  })

  it('default: one server for both (listen({ port })): stopHTTP keeps its WebSocket, answering plain requests 426', async () => {
    const node = await newNode()
    const served = await node.listen({ port: 0, api: ['eth', 'admin'] })
    const ws = await WsClient.connect(served.ws!)
    try {
      expect((await ws.call('admin_stopHTTP')).result).toBe(true)
      expect((await fetch(served.http!, { method: 'POST', body: '{}' })).status).toBe(426)
      expect((await ws.call('eth_chainId')).result).toBe('0x7a69')
      // Stopped over its own socket, the socket closes with the server (as on geth).
      expect(await call(node, 'admin_stopWS')).toBe(true)
      expect((await ws.waitClosed()).code).toBe(1001)
      expect(await refused(served.http!)).toBe(true)
    } finally {
      await served.close()
    }
  })

  it('error: bad params, a taken port, an exposed address without a token; nothing starts', async () => {
    const node = await newNode()
    await expect(call(node, 'admin_startHTTP', ['127.0.0.1', 'x'])).rejects.toMatchObject({ code: -32602, message: 'invalid argument 1: json: cannot unmarshal string into Go value of type int' })
    await expect(call(node, 'admin_startHTTP', [5])).rejects.toMatchObject({ code: -32602 })
    await expect(call(node, 'admin_startHTTP', ['127.0.0.1', 70000])).rejects.toMatchObject({ code: -32000, message: 'invalid port 70000: want 0 to 65535' })
    await expect(call(node, 'admin_startWS', ['127.0.0.1', -1])).rejects.toMatchObject({ code: -32000 })
    await expect(call(node, 'admin_startHTTP', ['0.0.0.0', 0, null, 'eth,admin'])).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('admin') })
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as { port: number }
    try {
      await expect(call(node, 'admin_startHTTP', ['127.0.0.1', port])).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('EADDRINUSE') })
    } finally {
      taken.close()
    }
    expect(await call(node, 'admin_stopHTTP')).toBe(true)
    expect(await call(node, 'admin_stopWS')).toBe(true)
  })
})
