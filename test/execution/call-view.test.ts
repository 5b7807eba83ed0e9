/**
 * What an eth_call sees: the state of the block it names, with its overrides, and nothing that an
 * earlier call wrote. Call VMs are pooled and each keeps one overlay that it empties for its next
 * run (execution/call.ts, `JournaledState#rebase`): these calls write, revert, fail and interleave
 * on the same pooled VMs and read back what the chain holds.
 */
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { calldata, deploy, qty, rpcError, sender, testNode, word } from '../helpers/execution.js'

let node: FinalityNode
let counter: Hex
let probe: Hex
let first: Hex
const increment = calldata('Counter', 'increment')
const count = calldata('Counter', 'count')

async function countAt(block: Hex | 'latest' | 'pending', state?: unknown): Promise<Hex> {
  const params: unknown[] = [{ to: counter, input: count }, block]
  if (state !== undefined) params.push(state)
  return node.request({ method: 'eth_call', params: params as never })
}

beforeAll(async () => {
  node = await testNode()
  counter = await deploy(node, 'Counter')
  probe = await deploy(node, 'Probe')
  first = (await node.request({ method: 'eth_blockNumber' })) as Hex
})
afterAll(() => node.close())

describe('a call reads its own block, not what earlier calls wrote', () => {
  it('behavior: a call that writes leaves nothing for the next call, run after run', async () => {
    for (let i = 0; i < 5; i++) {
      expect(await node.request({ method: 'eth_call', params: [{ from: sender(node), to: counter, input: increment }, 'latest'] })).toBe('0x')
      expect(await countAt('latest')).toBe(word(0n))
    }
    // The estimate prices the first write of the slot (zero to non-zero) every time.
    const estimates = new Set<Hex>()
    for (let i = 0; i < 3; i++) estimates.add(await node.request({ method: 'eth_estimateGas', params: [{ from: sender(node), to: counter, input: increment }] }))
    expect(estimates.size).toBe(1)
  })

  it('behavior: a call that fails (out of gas) or sends value leaves nothing either', async () => {
    const failed = await rpcError(node, 'eth_call', [{ from: sender(node), to: counter, input: increment, gas: qty(30_000) }, 'latest'])
    expect(failed.message).toMatch(/out of gas/)
    expect(await countAt('latest')).toBe(word(0n))
    const stranger = '0x00000000000000000000000000000000000000c1'
    expect(await node.request({ method: 'eth_call', params: [{ from: sender(node), to: stranger, value: qty(7) }, 'latest'] })).toBe('0x')
    expect(await node.request({ method: 'eth_call', params: [{ from: sender(node), to: stranger, value: qty(7) }, 'latest'] })).toBe('0x')
    expect(await node.request({ method: 'eth_getBalance', params: [stranger, 'latest'] })).toBe('0x0')
    // Read inside a call too: the balance the previous calls credited is not there.
    expect(await node.request({ method: 'eth_call', params: [{ to: probe, input: calldata('Probe', 'balanceOf', [stranger]) }, 'latest'] })).toBe(word(0n))
  })

  it('behavior: the named block, pending, and overrides, interleaved with writing calls', async () => {
    await node.request({ method: 'eth_sendTransaction', params: [{ from: sender(node), to: counter, input: increment }] })
    const second = (await node.request({ method: 'eth_blockNumber' })) as Hex
    const slot0 = `0x${'0'.repeat(64)}`
    const reads = await Promise.all([
      countAt(first),
      node.request({ method: 'eth_call', params: [{ from: sender(node), to: counter, input: increment }, 'latest'] }),
      countAt(second),
      countAt('latest', { [counter]: { stateDiff: { [slot0]: word(9n) } } }),
      countAt('pending'),
      countAt(first, { [counter]: { stateDiff: { [slot0]: word(5n) } } }),
      countAt('latest'),
    ])
    expect(reads).toEqual([word(0n), '0x', word(1n), word(9n), word(1n), word(5n), word(1n)])
    expect(await countAt(first)).toBe(word(0n))
    expect(await countAt('latest')).toBe(word(1n))
  })
})
