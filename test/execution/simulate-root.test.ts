import { describe, expect, test } from 'vitest'
import { createNode } from '../../src/index.js'

type SimBlock = { stateRoot: string; number: string }

describe('eth_simulateV1 state roots', () => {
  test('behavior: a simulated block has the state root the real block with the same contents gets', async () => {
    const node = await createNode()
    const [a, b] = node.accounts
    await node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1' }] })
    const head = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: string }
    const time = BigInt(head.timestamp) + 100n
    const [simulated] = (await node.request({
      method: 'eth_simulateV1',
      params: [{ blockStateCalls: [{ blockOverrides: { time: `0x${time.toString(16)}` }, calls: [] }] }, 'latest'],
    })) as SimBlock[]
    expect(simulated!.stateRoot).not.toBe(`0x${'00'.repeat(32)}`)
    await node.request({ method: 'evm_mine', params: [Number(time)] })
    const real = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as SimBlock
    expect(real.number).toBe(simulated!.number)
    expect(simulated!.stateRoot).toBe(real.stateRoot)
    await node.close()
  })

  test('behavior: simulating does not move the chain: the next real block still builds on the head', async () => {
    const node = await createNode()
    const [a, b] = node.accounts
    await node.request({
      method: 'eth_simulateV1',
      params: [{ blockStateCalls: [{ calls: [{ from: a!.address, to: b!.address, value: '0x5' }] }] }, 'latest'],
    })
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1' }] })
    const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string; blockNumber: string }
    expect(receipt).toMatchObject({ status: '0x1', blockNumber: '0x1' })
    expect(await node.request({ method: 'eth_getBalance', params: [b!.address, 'latest'] })).toBe('0x21e19e0c9bab2400001')
    await node.close()
  })
})
