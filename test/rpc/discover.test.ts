/**
 * rpc_discover: an OpenRPC document generated from the method tables, listing exactly what the
 * transport asked serves: node.request, the EIP-1193 provider, HTTP and WebSocket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { WsClient, post, rpc } from '../helpers/loopback.js'

const newNode = trackNodes()

interface Doc {
  openrpc: string
  info: { title: string; version: string }
  methods: Array<{ name: string; params: Array<{ name: string; required: boolean; schema: Record<string, unknown> }>; result: { name: string; schema: object } }>
}

const names = (doc: Doc) => doc.methods.map((m) => m.name)

describe('rpc_discover', () => {
  let node: FinalityNode
  let served: Awaited<ReturnType<FinalityNode['listen']>>
  let ws: WsClient
  beforeAll(async () => {
    node = await newNode()
    served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'net', 'web3', 'rpc'], wsApi: ['eth', 'rpc', 'debug'] })
    ws = await WsClient.connect(served.ws!)
  })
  afterAll(async () => {
    ws.close()
    await served.close()
  })

  it('default: an OpenRPC 1.2.6 document with params from the codecs', async () => {
    const doc = (await node.request({ method: 'rpc_discover', params: [] })) as Doc
    expect(doc.openrpc).toBe('1.2.6')
    expect(doc.info).toEqual({ title: 'finality JSON-RPC', version: await node.request({ method: 'web3_clientVersion' }) })
    expect(names(doc)).toEqual([...names(doc)].sort())
    const getBalance = doc.methods.find((m) => m.name === 'eth_getBalance')!
    expect(getBalance.params.map((p) => [p.name, p.required])).toEqual([['param0', true], ['param1', false]])
    expect(getBalance.params[0]!.schema).toMatchObject({ type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' })
    expect(getBalance.result).toEqual({ name: 'result', schema: {} })
    expect(doc.methods.find((m) => m.name === 'debug_getBlockRlp')!.params[0]!.schema).toEqual({ type: 'integer', minimum: 0 })
    expect(doc.methods.find((m) => m.name === 'eth_call')!.params[0]!.schema).toEqual({ title: 'call object' })
    expect(names(doc)).toContain('rpc_discover')
  })

  it('behavior: node.request lists every namespace but not eth_subscribe (no notifications there); the provider lists it', async () => {
    const doc = (await node.request({ method: 'rpc_discover' })) as Doc
    for (const ns of ['eth', 'debug', 'personal', 'anvil', 'hardhat', 'evm', 'admin', 'txpool', 'finality', 'testing']) expect(names(doc).some((n) => n.startsWith(`${ns}_`)), ns).toBe(true)
    expect(names(doc)).not.toContain('eth_subscribe')
    const viaProvider = (await node.provider.request({ method: 'rpc_discover' })) as Doc
    expect(names(viaProvider)).toContain('eth_subscribe')
    expect(names(viaProvider)).toContain('eth_unsubscribe')
  })

  it('behavior: HTTP lists its namespaces only, each name listed is served there and nothing else is', async () => {
    const doc = (await rpc(served.http!, 'rpc_discover')).result as Doc
    const listed = names(doc)
    expect(new Set(listed.filter((n) => n !== 'personal_sign').map((n) => n.slice(0, n.indexOf('_'))))).toEqual(new Set(['eth', 'net', 'web3', 'rpc']))
    expect(listed).not.toContain('eth_subscribe')
    expect(listed).toContain('eth_sendRawTransaction')
    // personal_sign is gated by `eth` (with eth_sign), so it is listed with it.
    expect(listed).toContain('personal_sign')
    const batch = listed.filter((n) => n !== 'rpc_discover').map((method, id) => ({ jsonrpc: '2.0', id, method, params: [] }))
    const answers = JSON.parse((await post(served.http!, JSON.stringify(batch))).text) as Array<{ id: number; error?: { code: number } }>
    for (const a of answers) expect(a.error?.code, batch[a.id]!.method).not.toBe(-32601)
    const all = (await node.request({ method: 'rpc_discover' })) as Doc
    const absent = names(all).filter((n) => !listed.includes(n) && n !== 'eth_subscribe' && n !== 'eth_unsubscribe')
    const missing = JSON.parse((await post(served.http!, JSON.stringify(absent.slice(0, 50).map((method, id) => ({ jsonrpc: '2.0', id, method, params: [] }))))).text) as Array<{ error?: { code: number } }>
    for (const a of missing) expect(a.error?.code).toBe(-32601)
  })

  it('behavior: WebSocket lists its own namespaces, eth_subscribe included', async () => {
    const doc = (await ws.call('rpc_discover')).result as Doc
    const listed = names(doc)
    expect(new Set(listed.filter((n) => n !== 'personal_sign').map((n) => n.slice(0, n.indexOf('_'))))).toEqual(new Set(['eth', 'rpc', 'debug']))
    expect(listed).not.toContain('eth_sendUnsignedTransaction')
    expect(listed).toContain('eth_subscribe')
    expect(listed).toContain('debug_subscribe')
    expect(listed).toContain('debug_traceTransaction')
    expect(listed).not.toContain('net_version')
  })

  it('error: params are refused as for any method without params; off when rpc is not served', async () => {
    expect((await rpc(served.http!, 'rpc_discover', [1])).error).toEqual({ code: -32602, message: 'too many arguments, want at most 0' })
    const noRpc = await node.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth'] })
    try {
      expect((await rpc(noRpc.http!, 'rpc_discover')).error.code).toBe(-32601)
    } finally {
      await noRpc.close()
    }
  })
})
