/**
 * Block time as Hardhat keeps it: a block mined at a set or explicit timestamp (or bumped past its
 * parent) moves the clock offset to its time, so evm_increaseTime and later blocks continue from
 * the last block's time, not from the wall clock.
 */
import { createTestClient, createPublicClient, custom } from 'viem'
import { describe, expect, test } from 'vitest'
import type { Clock } from '../../src/clock.js'
import { trackNodes } from '../helpers/nodes.js'
import { finalityChain as chain } from '../helpers/viem.js'

const newNode = trackNodes()
type Node = Awaited<ReturnType<typeof newNode>>

/** A clock that moves only when told. */
function fakeClock(start = 1_700_000_000_000): Clock & { advance(seconds: number): void } {
  let now = start
  return { now: () => now, setTimer: () => () => {}, advance: (seconds) => (now += seconds * 1000) }
}

const rpc = (node: Node, method: string, ...params: unknown[]) => node.request({ method, params })
const latestTime = async (node: Node) => BigInt(((await rpc(node, 'eth_getBlockByNumber', 'latest', false)) as { timestamp: string }).timestamp)

async function frozenNode(): Promise<{ node: Node; clock: ReturnType<typeof fakeClock> }> {
  const clock = fakeClock()
  const node = await newNode({ clock, genesisTimestamp: BigInt(clock.now() / 1000) - 100n })
  return { node, clock }
}

describe('evm_increaseTime after a block at a set time', () => {
  test('behavior: after evm_setNextBlockTimestamp and a block, increaseTime(3600) + mine lands 3600 s after it', async () => {
    const { node, clock } = await frozenNode()
    const at = (await latestTime(node)) + 1_000_000n
    await rpc(node, 'evm_setNextBlockTimestamp', Number(at))
    // Time passes between setting the timestamp and mining (a test's other work).
    clock.advance(5)
    await rpc(node, 'evm_mine')
    expect(await latestTime(node)).toBe(at)
    await rpc(node, 'evm_increaseTime', 3600)
    await rpc(node, 'evm_mine')
    expect(await latestTime(node)).toBe(at + 3600n)
    // The set timestamp is used once: the next block follows the clock from there.
    clock.advance(10)
    await rpc(node, 'evm_mine')
    expect(await latestTime(node)).toBe(at + 3610n)
  })

  test('behavior: after evm_mine(timestamp) the offset continues from that timestamp', async () => {
    const { node } = await frozenNode()
    const at = (await latestTime(node)) + 50_000n
    await rpc(node, 'evm_mine', Number(at))
    await rpc(node, 'evm_increaseTime', 3600)
    await rpc(node, 'evm_mine')
    expect(await latestTime(node)).toBe(at + 3600n)
  })

  test('behavior: after hardhat_mine with an interval the offset continues from the last block', async () => {
    const { node } = await frozenNode()
    await rpc(node, 'hardhat_mine', '0x3', '0x3e8')
    const last = await latestTime(node)
    await rpc(node, 'evm_increaseTime', 60)
    await rpc(node, 'evm_mine')
    expect(await latestTime(node)).toBe(last + 60n)
  })

  test('behavior: blocks bumped past a parent in the same second move the offset with them (Hardhat)', async () => {
    const { node } = await frozenNode()
    for (let i = 0; i < 4; i++) await rpc(node, 'evm_mine')
    const last = await latestTime(node)
    await rpc(node, 'evm_increaseTime', 100)
    await rpc(node, 'evm_mine')
    expect(await latestTime(node)).toBe(last + 100n)
  })

  test('behavior: evm_increaseTime between setting and mining does not change the set block, then continues from it', async () => {
    const { node } = await frozenNode()
    const at = (await latestTime(node)) + 1000n
    await rpc(node, 'evm_setNextBlockTimestamp', Number(at))
    await rpc(node, 'evm_increaseTime', 50)
    await rpc(node, 'evm_mine')
    expect(await latestTime(node)).toBe(at)
    await rpc(node, 'evm_mine')
    expect(await latestTime(node)).toBe(at + 1n)
  })

  test('viem: setNextBlockTimestamp, mine, increaseTime, mine', async () => {
    const { node, clock } = await frozenNode()
    const transport = custom(node.provider, { retryCount: 0 })
    const testClient = createTestClient({ chain, transport, mode: 'hardhat' })
    const client = createPublicClient({ chain, transport, cacheTime: 0 })
    const at = (await client.getBlock()).timestamp + 86_400n
    await testClient.setNextBlockTimestamp({ timestamp: at })
    clock.advance(3)
    await testClient.mine({ blocks: 1 })
    await testClient.increaseTime({ seconds: 3600 })
    await testClient.mine({ blocks: 1 })
    expect((await client.getBlock()).timestamp).toBe(at + 3600n)
  })
})

describe('answers', () => {
  test('default: evm_setNextBlockTimestamp answers the timestamp as a decimal string, as Hardhat; anvil_setNextBlockTimestamp null, as Anvil', async () => {
    const { node } = await frozenNode()
    const at = (await latestTime(node)) + 1000n
    expect(await rpc(node, 'evm_setNextBlockTimestamp', `0x${at.toString(16)}`)).toBe(at.toString(10))
    expect(await rpc(node, 'anvil_setNextBlockTimestamp', Number(at + 1n))).toBeNull()
  })
})
