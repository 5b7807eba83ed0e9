/**
 * The spec's verbatim messages that geth raises in its handlers (-32000, no `invalid argument N:`
 * prefix), over node.request, HTTP and WebSocket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { WsClient, rpc } from '../helpers/loopback.js'

const newNode = trackNodes()

describe('verbatim handler messages', () => {
  let node: FinalityNode
  let served: Awaited<ReturnType<FinalityNode['listen']>>
  let ws: WsClient
  let cases: Array<[string, unknown[], string]>
  beforeAll(async () => {
    node = await newNode()
    served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'personal'] })
    ws = await WsClient.connect(served.ws!)
    const from = node.accounts[0]!.address
    const typed = { types: { Mail: [{ name: 'text', type: 'string' }] }, primaryType: 'Mail', message: { text: 'hi' } }
    cases = [
      ['eth_signTypedData_v4', [from, JSON.stringify(typed)], 'domain is undefined'],
      ['eth_resend', [{ from, to: from, gas: '0x5208', gasPrice: '0x1' }, '0x2'], 'missing transaction nonce in transaction spec'],
      ['personal_ecRecover', ['0x01', '0x1234'], 'signature must be 65 bytes long'],
    ]
  })
  afterAll(async () => {
    ws.close()
    await served.close()
  })

  it('node.request, HTTP and WebSocket answer -32000 with the spec\'s text', async () => {
    for (const [method, params, message] of cases) {
      await expect(node.request({ method, params })).rejects.toMatchObject({ code: -32000, message })
      expect((await rpc(served.http!, method, params)).error).toEqual({ code: -32000, message })
      expect((await ws.call(method, params)).error).toEqual({ code: -32000, message })
    }
  })
})
