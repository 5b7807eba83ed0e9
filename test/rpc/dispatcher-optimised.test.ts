/**
 * The dispatcher's run keeps its optimised code when a method first answers a value of a kind it
 * had not answered before (a boolean after strings, objects and null: evm_setAutomine's `true`):
 * the read of `then`, which a thenable answer needs, is made off objects alone (dispatcher.ts
 * `run`). Checked with V8's natives.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { isOptimised, optimiseNext, prepare } from '../helpers/v8-natives.js'
import { createNode, type FinalityNode } from '../../src/index.js'
import { Dispatcher } from '../../src/rpc/dispatcher.js'


let node: FinalityNode | undefined
afterEach(async () => {
  await node?.close()
  node = undefined
})

describe('Dispatcher#run under optimised code', () => {
  it('behavior: stays optimised at a first boolean answer after strings, objects and null', async () => {
    node = await createNode({ hardhatCompat: true })
    const n = node
    const requests = async () => {
      expect(await n.request({ method: 'eth_blockNumber' })).toMatch(/^0x/)
      expect(await n.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })).toHaveProperty('hash')
      expect(await n.request({ method: 'eth_accounts' })).toHaveLength(20)
      expect(await n.request({ method: 'eth_getTransactionReceipt', params: [`0x${'00'.repeat(32)}`] })).toBeNull()
      // Refused (its param is no boolean): the method has been looked up, no answer made.
      await expect(n.request({ method: 'evm_setAutomine', params: ['yes'] as unknown as [boolean] })).rejects.toMatchObject({ code: -32602 })
    }
    const run = (Dispatcher.prototype as unknown as { run: unknown }).run
    for (let i = 0; i < 50; i++) await requests()
    prepare(run)
    await requests()
    optimiseNext(run)
    await requests()
    expect(isOptimised(run)).toBe(true)
    expect(await n.request({ method: 'evm_setAutomine', params: [true] })).toBe(true)
    expect(isOptimised(run)).toBe(true)
  })
})
