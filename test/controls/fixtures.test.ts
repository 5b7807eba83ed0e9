import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createNode, FixtureAnonymousFunctionError, loadFixture, type FinalityNode } from '../../src/index.js'

let node: FinalityNode
let runs = 0

async function deployed(n: FinalityNode) {
  runs++
  const [a, b] = n.accounts
  await n.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x64', gas: '0x5208' }] })
  return { height: (await n.request({ method: 'eth_blockNumber' })) as string }
}

beforeAll(async () => {
  node = await createNode()
})
afterAll(() => node.close())

describe('loadFixture', () => {
  test('behavior: the setup runs once; later calls restore the chain it left', async () => {
    const first = await loadFixture(node, deployed)
    expect(first.height).toBe('0x1')
    for (let i = 0; i < 3; i++) {
      await node.request({ method: 'evm_mine' })
      await node.request({ method: 'hardhat_setBalance', params: [node.accounts[5]!.address, '0x0'] })
      const again = await loadFixture(node, deployed)
      expect(again).toBe(first)
      expect(await node.request({ method: 'eth_blockNumber' })).toBe('0x1')
      expect(await node.request({ method: 'eth_getBalance', params: [node.accounts[5]!.address, 'latest'] })).not.toBe('0x0')
    }
    expect(runs).toBe(1)
  })
})

describe('loadFixture: anonymous setup', () => {
  test('error: an inline arrow is refused with Hardhat\'s message, and nothing runs', async () => {
    const n = await createNode()
    try {
      let ran = 0
      await expect(
        loadFixture(n, async () => {
          ran++
          await n.request({ method: 'evm_mine' })
        }),
      ).rejects.toThrow(FixtureAnonymousFunctionError)
      await expect(loadFixture(n, async () => 1)).rejects.toThrow(/Anonymous functions cannot be used as fixtures/)
      expect(ran).toBe(0)
      expect(await n.request({ method: 'eth_blockNumber' })).toBe('0x0')
    } finally {
      await n.close()
    }
  })

  test('behavior: an arrow held in a named variable is a named fixture and is restored', async () => {
    const n = await createNode()
    try {
      const mineOne = async (m: FinalityNode) => m.request({ method: 'evm_mine' })
      for (let i = 0; i < 3; i++) {
        await loadFixture(n, mineOne)
        expect(await n.request({ method: 'eth_blockNumber' })).toBe('0x1')
        await n.request({ method: 'evm_mine' })
      }
    } finally {
      await n.close()
    }
  })
})
