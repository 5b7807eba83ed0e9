/**
 * The producer's `produce` keeps the optimised code automine's sends gave it when a suite first
 * mines an empty block (evm_mine, hardhat_mine): the empty pool's selection is a list made once,
 * not a call that code had never seen (producer.ts `NOTHING_SELECTED`). With the call, V8 threw
 * the code away at the first mined block ("Insufficient type feedback for call"), and Rocket
 * Pool's sends ran `produce` unoptimised for ~48,000 requests. Checked with V8's natives.
 */
import { describe, expect, it } from 'vitest'
import { isOptimised, optimiseNext, prepare } from '../helpers/v8-natives.js'
import { Producer } from '../../src/producer/producer.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()

describe('Producer.produce under optimised code', () => {
  it('behavior: stays optimised when the first empty block is mined after sends', async () => {
    const n = await newNode()
    const [from, to] = (await n.request({ method: 'eth_accounts' })) as [`0x${string}`, `0x${string}`]
    const send = async () => {
      const hash = await n.request({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x1' }] })
      expect(typeof hash).toBe('string')
    }
    const produce = (Producer.prototype as unknown as { produce: unknown }).produce
    prepare(produce)
    for (let i = 0; i < 5; i++) await send()
    optimiseNext(produce)
    await send()
    expect(isOptimised(produce)).toBe(true)
    const head = BigInt((await n.request({ method: 'eth_blockNumber' })) as string)
    await n.request({ method: 'evm_mine' })
    await n.request({ method: 'hardhat_mine', params: ['0x2'] })
    expect(BigInt((await n.request({ method: 'eth_blockNumber' })) as string)).toBe(head + 3n)
    const block = (await n.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { transactions: unknown[] }
    expect(block.transactions).toEqual([])
    expect(isOptimised(produce)).toBe(true)
    // A send after the empty blocks is mined as before.
    await send()
    expect(BigInt((await n.request({ method: 'eth_blockNumber' })) as string)).toBe(head + 4n)
  })
})
