/**
 * evm_revert's rewind keeps its optimised code when a revert first drops no block (its snapshot
 * saw state writes alone: hardhat_setBalance and the like) after reverts that drop blocks had it
 * optimised: that way read past the end of an empty list and a field only it read, and V8 threw
 * the code away each time (chain.ts `rewind`). Checked with V8's natives.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { isOptimised, optimiseNext, prepare } from '../helpers/v8-natives.js'
import { Chain } from '../../src/chain/chain.js'
import { createNode, type FinalityNode } from '../../src/index.js'


let node: FinalityNode | undefined
afterEach(async () => {
  await node?.close()
  node = undefined
})

describe('Chain.rewind under optimised code', () => {
  it('behavior: stays optimised when a revert first drops no block', async () => {
    node = await createNode()
    const n = node
    let i = 0
    const revertOverBlocks = async () => {
      const id = await n.request({ method: 'evm_snapshot' })
      await n.request({ method: 'hardhat_setBalance', params: [`0x${(0x100 + i++).toString(16).padStart(40, '0')}`, '0x7'] })
      await n.request({ method: 'hardhat_mine', params: ['0x2'] })
      expect(await n.request({ method: 'evm_revert', params: [id] })).toBe(true)
    }
    const rewind = Chain.prototype.rewind
    prepare(rewind)
    await revertOverBlocks()
    await revertOverBlocks()
    optimiseNext(rewind)
    await revertOverBlocks()
    expect(isOptimised(rewind)).toBe(true)
    // A revert over a state write alone (hardhat_setBalance): the undo log has an entry, no block.
    const head = await n.request({ method: 'eth_blockNumber' })
    const address = '0x00000000000000000000000000000000000000aa'
    const id = await n.request({ method: 'evm_snapshot' })
    await n.request({ method: 'hardhat_setBalance', params: [address, '0x7'] })
    expect(await n.request({ method: 'evm_revert', params: [id] })).toBe(true)
    expect(await n.request({ method: 'eth_blockNumber' })).toBe(head)
    expect(await n.request({ method: 'eth_getBalance', params: [address, 'latest'] })).toBe('0x0')
    expect(isOptimised(rewind)).toBe(true)
  })
})
