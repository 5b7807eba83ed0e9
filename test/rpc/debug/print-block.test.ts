/** debug_printBlock: the block as readable text (a format of this node's own, docs/debug.md). */
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { requestRaw } from '../../helpers/raw-request.js'
import { servedOverHttpAndWs, rpc } from '../../helpers/loopback.js'

const newNode = trackNodes()
const to = '0x00000000000000000000000000000000000beef2'

describe('debug_printBlock', () => {
  let node: FinalityNode
  let txHash: string
  beforeAll(async () => {
    node = await newNode()
    txHash = (await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0]!.address, to, value: '0x10' }] })) as string
  })

  it('default: the header fields, then each transaction, quantities in decimal', async () => {
    const text = (await node.request({ method: 'debug_printBlock', params: [1] })) as string
    const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['0x1', true] })) as unknown as Record<string, string>
    const lines = text.split('\n')
    expect(lines[0]).toBe(`Block #1 ${block.hash}`)
    expect(lines).toContain(`  gasUsed:               ${BigInt(block.gasUsed!)}`)
    expect(lines).toContain(`  stateRoot:             ${block.stateRoot}`)
    expect(lines).toContain(`  timestamp:             ${BigInt(block.timestamp!)}`)
    expect(lines).toContain(`  nonce:                 0x0000000000000000`)
    expect(lines).toContain('Transactions (1):')
    expect(lines).toContain(`  [0] ${txHash}`)
    expect(text).toMatch(new RegExp(`\\n      from: +${node.accounts[0]!.address.toLowerCase()}\\n`))
    expect(text).toMatch(/\n {6}value: +16\n/)
    expect(text).toMatch(/\n {6}nonce: +0\n/)
    expect(text.endsWith('Withdrawals (0):\n')).toBe(true)
    // The text is the same each time: no addresses of memory, no caches.
    expect(await node.request({ method: 'debug_printBlock', params: [1] })).toBe(text)
  })

  it('default: the genesis block has no transactions', async () => {
    const text = (await node.request({ method: 'debug_printBlock', params: [0] })) as string
    expect(text).toMatch(/^Block #0 0x[0-9a-f]{64}\n/)
    expect(text).toContain('Transactions (0):\nUncles (0):\n')
  })

  it('error: past the head, a string, a negative number (Go uint64)', async () => {
    await expect(node.request({ method: 'debug_printBlock', params: [99] })).rejects.toMatchObject({ code: -32000, message: 'block #99 not found' })
    await expect(requestRaw(node, 'debug_printBlock', ['0x1'])).rejects.toMatchObject({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64' })
    await expect(node.request({ method: 'debug_printBlock', params: [-1] })).rejects.toMatchObject({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal number -1 into Go value of type uint64' })
    await expect(requestRaw(node, 'debug_printBlock', [])).rejects.toMatchObject({ code: -32602, message: 'missing value for required argument 0' })
  })

  describe('over HTTP and WebSocket', () => {
    const served = servedOverHttpAndWs(() => node, ['eth', 'debug'])

    it('answers the same text', async () => {
      const text = await node.request({ method: 'debug_printBlock', params: [1] })
      expect((await rpc(served.http, 'debug_printBlock', [1])).result).toBe(text)
      expect((await served.ws.call('debug_printBlock', [1])).result).toBe(text)
      expect((await served.ws.call('debug_printBlock', ['1'])).error.code).toBe(-32602)
    })
  })
})
