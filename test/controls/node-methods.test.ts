import { describe, expect, test } from 'vitest'
import { createNode } from '../../src/index.js'

const stranger = '0x00000000000000000000000000000000000f00d1' as const

describe('typed control methods on the node object', () => {
  test('behavior: snapshot, state writes, mining, time, impersonation, revert and reset', async () => {
    const node = await createNode()
    const balance = () => node.request({ method: 'eth_getBalance', params: [stranger, 'latest'] })
    const height = () => node.request({ method: 'eth_blockNumber' })

    const id = await node.snapshot()
    expect(id).toMatch(/^0x[0-9a-f]+$/)
    await node.setBalance(stranger, 10n ** 18n)
    expect(await balance()).toBe('0xde0b6b3a7640000')
    await node.setNonce(stranger, 3n)
    expect(await node.request({ method: 'eth_getTransactionCount', params: [stranger, 'latest'] })).toBe('0x3')
    await node.setCode(stranger, '0x60005460005260206000f3')
    await node.setStorageAt(stranger, 0n, `0x${'00'.repeat(31)}05`)
    expect(await node.request({ method: 'eth_call', params: [{ to: stranger }] })).toBe(`0x${'00'.repeat(31)}05`)

    await node.mineBlocks(3, 10)
    expect(await height()).toBe('0x3')
    const before = BigInt(((await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: string }).timestamp)
    expect(await node.increaseTime(1000)).toBeGreaterThanOrEqual(1000n)
    await node.setNextBlockTimestamp(before + 5000n)
    await node.mine()
    expect(((await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: string }).timestamp).toBe(
      `0x${(before + 5000n).toString(16)}`,
    )

    const whale = '0x00000000000000000000000000000000000f00d2' as const
    await node.setBalance(whale, 10n ** 18n)
    await node.impersonate(whale)
    await node.request({ method: 'eth_sendTransaction', params: [{ from: whale, to: '0x00000000000000000000000000000000000f00d3', value: '0x1' }] })
    await node.stopImpersonating(whale)
    await expect(node.request({ method: 'eth_sendTransaction', params: [{ from: whale, to: stranger, value: '0x1' }] })).rejects.toThrow(/unknown account/)

    await node.setAutomine(false)
    expect(await node.request({ method: 'hardhat_getAutomine' })).toBe(false)
    await node.setAutomine(true)

    expect(await node.revert(id)).toBe(true)
    expect(await height()).toBe('0x0')
    expect(await balance()).toBe('0x0')
    expect(await node.revert(id)).toBe(false)

    await node.mineBlocks(2)
    await node.reset()
    expect(await height()).toBe('0x0')

    await node.setBalance(stranger, 9n)
    const dump = node.dumpState()
    await node.setBalance(stranger, 7n)
    await node.loadState(dump)
    expect(await balance()).toBe('0x9')
    await node.close()
  })
  test('behavior: mineBlocks mines through the controls, answers -32602 for a bad count or interval and mines nothing', async () => {
    const node = await createNode()
    const height = () => node.request({ method: 'eth_blockNumber' })
    await node.mineBlocks(2n, 0n)
    expect(await height()).toBe('0x2')
    const [first, second] = await Promise.all(
      (['0x1', '0x2'] as const).map((n) => node.request({ method: 'eth_getBlockByNumber', params: [n, false] })),
    )
    // An interval of 0 spaces blocks 1 s apart, as hardhat_mine does.
    expect(BigInt(second!.timestamp) - BigInt(first!.timestamp)).toBe(1n)
    await expect(node.mineBlocks(-1)).rejects.toMatchObject({ code: -32602 })
    await expect(node.mineBlocks(1.5)).rejects.toMatchObject({ code: -32602 })
    await expect(node.mineBlocks(1, -2)).rejects.toMatchObject({ code: -32602 })
    await expect(node.mineBlocks(2n ** 64n)).rejects.toMatchObject({ code: -32602 })
    await expect(node.mineBlocks(1_000_001)).rejects.toThrow(/at most 1,000,000 blocks/)
    expect(await height()).toBe('0x2')
    await node.close()
  })
})
