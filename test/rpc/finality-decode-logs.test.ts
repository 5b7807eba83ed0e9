/**
 * finality_decodeLogs through node.request and HTTP: a transaction's logs decoded with the
 * contract metadata the node holds (checked against viem's decodeEventLog), the emitter named
 * where its code matched, null where nothing is known, and -32602 for bad params.
 */
import { decodeEventLog, type Abi, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, Listening } from '../../src/index.js'
import { artifact, calldata, deploy, rpcError, sender } from '../helpers/execution.js'
import { rpc } from '../helpers/loopback.js'
import { trackNodes } from '../helpers/nodes.js'
import { requestRaw } from '../helpers/raw-request.js'

const newNode = trackNodes()
const EMITTER = { contractName: 'Emitter', ...artifact('Emitter') }

async function fire(node: FinalityNode, address: Hex): Promise<Hex> {
  return node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: address, data: calldata('Emitter', 'fire') }] })
}

describe('finality_decodeLogs', () => {
  let node: FinalityNode
  let served: Listening
  let emitter: Hex
  let tx: Hex

  beforeAll(async () => {
    node = await newNode({ artifacts: EMITTER })
    emitter = await deploy(node, 'Emitter')
    // A transfer first, so the fired transaction's logs do not start the block's index at 0.
    await node.request({ method: 'evm_setAutomine', params: [false] })
    await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: emitter, data: calldata('Emitter', 'emitTransfer', [sender(node, 1), 5n]) }] })
    tx = await fire(node, emitter)
    await node.request({ method: 'evm_mine' })
    await node.request({ method: 'evm_setAutomine', params: [true] })
    served = await node.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth', 'finality'] })
    return () => served.close()
  })

  it('default: each log by the emitting contract and the event with its arguments by name, as viem decodes them', async () => {
    const receipt = await node.request({ method: 'eth_getTransactionReceipt', params: [tx] })
    const decoded = await node.request({ method: 'finality_decodeLogs', params: [tx] })
    expect(decoded?.contractsKnown).toBe('0x1')
    expect(decoded?.logs.map((l) => [l.logIndex, l.address, l.contract])).toEqual(receipt!.logs.map((l) => [l.logIndex, l.address.toLowerCase(), 'Emitter']))
    expect(decoded?.logs[0]?.logIndex).toBe('0x1')
    for (const [i, log] of receipt!.logs.slice(0, 2).entries()) {
      const viem = decodeEventLog({ abi: EMITTER.abi as Abi, topics: log.topics as [Hex, ...Hex[]], data: log.data })
      const event = decoded!.logs[i]!.event!
      expect(event.name).toBe(viem.eventName)
      expect(event.declaredBy).toBe('Emitter')
      const args = viem.args as unknown as Record<string, unknown>
      expect(Object.fromEntries(event.args.map((a) => [a.name, a.value]))).toEqual(Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])))
    }
    expect(decoded!.logs[0]!.event).toEqual({
      name: 'Transfer2',
      signature: 'Transfer2(address,address,uint256)',
      declaredBy: 'Emitter',
      args: [
        { name: 'from', type: 'address', indexed: true, value: expect.stringMatching(new RegExp(`^${sender(node)}$`, 'i')) },
        { name: 'to', type: 'address', indexed: true, value: expect.stringMatching(new RegExp(`^${emitter}$`, 'i')) },
        { name: 'value', type: 'uint256', indexed: false, value: '1' },
      ],
    })
    // An anonymous event has no topic to know it by: not decoded.
    expect(decoded!.logs[2]!.event).toBeNull()
  })

  it('behavior: over HTTP the same answer', async () => {
    const local = await node.request({ method: 'finality_decodeLogs', params: [tx] })
    const remote = await rpc(served.http!, 'finality_decodeLogs', [tx])
    expect(remote).toEqual({ jsonrpc: '2.0', id: 1, result: local })
  })

  it('behavior: an ABI known without code decodes the events, the emitter stays unnamed', async () => {
    const other = await newNode({ artifacts: { contractName: 'EmitterAbi', abi: EMITTER.abi } })
    const address = await deploy(other, 'Emitter')
    const decoded = await other.request({ method: 'finality_decodeLogs', params: [await fire(other, address)] })
    expect(decoded?.logs.map((l) => [l.contract, l.event?.name ?? null, l.event?.declaredBy ?? null])).toEqual([
      [null, 'Transfer2', 'EmitterAbi'],
      [null, 'Note', 'EmitterAbi'],
      [null, null, null],
    ])
    expect(decoded?.logs[1]?.event?.args).toEqual([
      { name: 'id', type: 'uint256', indexed: true, value: '1' },
      { name: 'tag', type: 'bytes32', indexed: true, value: `0x${Buffer.from('fire').toString('hex').padEnd(64, '0')}` },
      { name: 'text', type: 'string', indexed: false, value: 'fired' },
    ])
  })

  it('behavior: a node without metadata answers every log undecoded; an unknown transaction is null', async () => {
    const bare = await newNode()
    const address = await deploy(bare, 'Emitter')
    const hash = await fire(bare, address)
    const decoded = await bare.request({ method: 'finality_decodeLogs', params: [hash] })
    expect(decoded).toEqual({ contractsKnown: '0x0', logs: [0, 1, 2].map((i) => ({ logIndex: `0x${i}`, address: address.toLowerCase(), contract: null, event: null })) })
    const transfer = await bare.request({ method: 'eth_sendTransaction', params: [{ from: sender(bare), to: sender(bare, 1), value: '0x1' }] })
    expect(await bare.request({ method: 'finality_decodeLogs', params: [transfer] })).toEqual({ contractsKnown: '0x0', logs: [] })
    expect(await bare.request({ method: 'finality_decodeLogs', params: [`0x${'ab'.repeat(32)}`] })).toBeNull()
  })

  it('behavior: metadata added after the transaction (node.addArtifacts) decodes it from then on', async () => {
    const later = await newNode({ artifacts: { contractName: 'Other', abi: [] as const, bytecode: '0x00', deployedBytecode: '0x00' } })
    const address = await deploy(later, 'Emitter')
    const hash = await fire(later, address)
    expect((await later.request({ method: 'finality_decodeLogs', params: [hash] }))?.logs[0]).toMatchObject({ contract: null, event: null })
    later.addArtifacts(EMITTER)
    const decoded = await later.request({ method: 'finality_decodeLogs', params: [hash] })
    expect([decoded?.contractsKnown, decoded?.logs[0]?.contract, decoded?.logs[0]?.event?.name]).toEqual(['0x2', 'Emitter', 'Transfer2'])
  })

  it('error: a hash of the wrong size, a missing one, an extra argument (-32602)', async () => {
    expect(await rpcError(node, 'finality_decodeLogs', ['0x1234'])).toMatchObject({ code: -32602, message: expect.stringMatching(/^invalid argument 0: /) })
    expect(await rpcError(node, 'finality_decodeLogs', [])).toMatchObject({ code: -32602, message: 'missing value for required argument 0' })
    expect(await rpcError(node, 'finality_decodeLogs', [tx, 1])).toMatchObject({ code: -32602, message: 'too many arguments, want at most 1' })
    await expect(requestRaw(node, 'finality_decodeLogs', { hash: tx })).rejects.toMatchObject({ code: -32602 })
    const http = await rpc(served.http!, 'finality_decodeLogs', ['0xzz'])
    expect(http.error.code).toBe(-32602)
  })

  it('error: off with the finality namespace (a server of the default namespaces)', async () => {
    const off = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
    try {
      const answer = await rpc(off.http!, 'finality_decodeLogs', [tx])
      expect(answer.error.code).toBe(-32601)
      expect(answer.error.message).toMatch(/finality/)
    } finally {
      await off.close()
    }
  })
})
