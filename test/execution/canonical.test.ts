/**
 * EIP-1898 block params on every state method: `{ blockHash, requireCanonical }`, `{ blockNumber }`
 * and a bare hash read that block's state; an unknown hash is -32000, a malformed one -32602.
 * (Committed BFT blocks are final, so every known block is canonical.)
 */
import { type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { calldata, deploy, rpcError, sender, testNode } from '../helpers/execution.js'

let node: FinalityNode
let counter: Hex
let deployedAt: { hash: Hex; number: Hex }
const stranger = '0x00000000000000000000000000000000000000aa'
const unknown = `0x${'ab'.repeat(32)}`

beforeAll(async () => {
  node = await testNode()
  counter = await deploy(node, 'Counter')
  const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: Hex; number: Hex }
  deployedAt = { hash: block.hash, number: block.number }
  await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: counter, input: calldata('Counter', 'increment') }] })
  await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: stranger, value: '0x5' }] })
})
afterAll(() => node.close())

const count = () => calldata('Counter', 'count')

/** Each state method with the value it must give at the deployment block (before increment and transfer). */
const methods: Array<{ name: string; params: (at: unknown) => unknown[]; atDeploy: (r: unknown) => void }> = [
  { name: 'eth_getBalance', params: (at) => [stranger, at], atDeploy: (r) => expect(r).toBe('0x0') },
  { name: 'eth_getTransactionCount', params: (at) => [sender(node), at], atDeploy: (r) => expect(r).toBe('0x1') },
  { name: 'eth_getCode', params: (at) => [counter, at], atDeploy: (r) => expect((r as string).length).toBeGreaterThan(2) },
  { name: 'eth_getStorageAt', params: (at) => [counter, '0x0', at], atDeploy: (r) => expect(BigInt(r as string)).toBe(0n) },
  { name: 'eth_call', params: (at) => [{ to: counter, input: count() }, at], atDeploy: (r) => expect(BigInt(r as string)).toBe(0n) },
  { name: 'eth_estimateGas', params: (at) => [{ from: sender(node), to: counter, input: calldata('Counter', 'increment') }, at], atDeploy: (r) => expect(BigInt(r as string)).toBeGreaterThan(40_000n) },
  { name: 'eth_createAccessList', params: (at) => [{ to: counter, input: count() }, at], atDeploy: (r) => expect(r).toHaveProperty('accessList') },
  {
    name: 'eth_simulateV1',
    params: (at) => [{ blockStateCalls: [{ calls: [{ to: counter, input: count() }] }] }, at],
    atDeploy: (r) => {
      const [block] = r as Array<{ number: Hex; calls: Array<{ returnData: Hex }> }>
      expect(BigInt(block!.number)).toBe(BigInt(deployedAt.number) + 1n)
      expect(BigInt(block!.calls[0]!.returnData)).toBe(0n)
    },
  },
]

describe.each(methods)('$name', ({ name, params, atDeploy }) => {
  it('{ blockHash, requireCanonical: true } reads that block', async () => {
    atDeploy(await node.request({ method: name, params: params({ blockHash: deployedAt.hash, requireCanonical: true }) }))
  })

  it('{ blockHash, requireCanonical: false }, { blockNumber } and a bare hash read the same block', async () => {
    atDeploy(await node.request({ method: name, params: params({ blockHash: deployedAt.hash, requireCanonical: false }) }))
    atDeploy(await node.request({ method: name, params: params({ blockNumber: deployedAt.number }) }))
    atDeploy(await node.request({ method: name, params: params(deployedAt.hash) }))
  })

  it('error: an unknown hash is -32000, with or without requireCanonical', async () => {
    for (const at of [{ blockHash: unknown, requireCanonical: true }, { blockHash: unknown }]) {
      expect(await rpcError(node, name, params(at))).toMatchObject({ code: -32000, message: 'header for hash not found' })
    }
  })

  it('error: a malformed selector is -32602', async () => {
    const bad = await rpcError(node, name, params({ blockHash: deployedAt.hash, requireCanonical: 'yes' }))
    expect(bad.code).toBe(-32602)
    const both = await rpcError(node, name, params({ blockHash: deployedAt.hash, blockNumber: '0x1' }))
    expect(both.code).toBe(-32602)
    const future = await rpcError(node, name, params({ blockNumber: '0xffff' }))
    expect(future).toMatchObject({ code: -32000, message: 'header not found' })
  })
})
