/**
 * evm_revert forgets the state a removed block's reads saw when a write at that block's head
 * came after it (its irregular root): a block mined again with the same hash after the revert
 * reads its own state, not the write that was reverted. The rewind keys these entries by the
 * removed blocks' kept keys (chain.ts `CommittedBlock.key`), each block's parent being the
 * one before it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'

let node: FinalityNode | undefined
afterEach(async () => {
  await node?.close()
  node = undefined
})

const ADDRESS = '0x00000000000000000000000000000000000000aa'

describe('evm_revert and writes between blocks', () => {
  it('behavior: a block mined again with the same hash reads its own state, not a reverted write at it', async () => {
    node = await createNode()
    const n = node
    const head = BigInt((await n.request({ method: 'eth_blockNumber' })) as string)
    const { timestamp } = (await n.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: string }
    const t = BigInt(timestamp)
    const mineAt = async (time: bigint) => {
      await n.request({ method: 'evm_setNextBlockTimestamp', params: [`0x${time.toString(16)}`] })
      await n.request({ method: 'evm_mine' })
      return ((await n.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: string }).hash
    }
    const id = await n.request({ method: 'evm_snapshot' })
    const first = await mineAt(t + 10n)
    const second = await mineAt(t + 20n)
    // A write at the second block's head, then blocks on it: the write belongs to the second
    // block's state as reads see it (Hardhat's rule), whose header keeps the root before it.
    await n.request({ method: 'hardhat_setBalance', params: [ADDRESS, '0x7'] })
    await mineAt(t + 30n)
    await mineAt(t + 40n)
    const at = (number: bigint) => n.request({ method: 'eth_getBalance', params: [ADDRESS, `0x${number.toString(16)}`] })
    expect(await at(head + 1n)).toBe('0x0')
    expect(await at(head + 2n)).toBe('0x7')
    expect(await at(head + 3n)).toBe('0x7')
    expect(await n.request({ method: 'evm_revert', params: [id] })).toBe(true)
    // The same blocks again: the same hashes, and no trace of the reverted write.
    expect(await mineAt(t + 10n)).toBe(first)
    expect(await mineAt(t + 20n)).toBe(second)
    await mineAt(t + 30n)
    expect(await at(head + 2n)).toBe('0x0')
    expect(await at(head + 3n)).toBe('0x0')
    expect(await n.request({ method: 'eth_getBalance', params: [ADDRESS, 'latest'] })).toBe('0x0')
  })
})
