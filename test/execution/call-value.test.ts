/**
 * eth_call and eth_estimateGas that send value from an account without the balance: without a
 * gas price they run, as Hardhat runs them (its calls skip the balance check); with a price the
 * balance has to cover value and fee, as geth checks.
 */
import { BrowserProvider } from 'ethers'
import { createPublicClient, custom, parseEther, parseGwei } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createNode, type FinalityNode, type Hex, type RpcTransactionRequest } from '../../src/index.js'
import { finalityChain as chain } from '../helpers/viem.js'

const empty = '0x00000000000000000000000000000000000000e1'
const to = '0x00000000000000000000000000000000000000e2'
const oneEther: Hex = `0x${parseEther('1').toString(16)}`

let node: FinalityNode
beforeAll(async () => {
  node = await createNode()
})
afterAll(() => node.close())

describe('value beyond the balance', () => {
  test('default: an unpriced eth_call and eth_estimateGas run; the state is unchanged', async () => {
    expect(await node.request({ method: 'eth_call', params: [{ from: empty, to, value: oneEther }, 'latest'] })).toBe('0x')
    expect(await node.request({ method: 'eth_estimateGas', params: [{ from: empty, to, value: oneEther }] })).toBe('0x5208')
    expect(await node.request({ method: 'eth_call', params: [{ from: empty, to, value: oneEther }, 'pending'] })).toBe('0x')
    expect(await node.request({ method: 'eth_getBalance', params: [empty, 'latest'] })).toBe('0x0')
    expect(await node.request({ method: 'eth_getBalance', params: [to, 'latest'] })).toBe('0x0')
  })

  test('error: with a gas price the balance must cover value and fee (geth)', async () => {
    const priced: RpcTransactionRequest = { from: empty, to, value: oneEther, maxFeePerGas: `0x${parseGwei('100').toString(16)}` }
    await expect(node.request({ method: 'eth_call', params: [priced, 'latest'] })).rejects.toThrow(/^insufficient funds for gas \* price \+ value/)
    await expect(node.request({ method: 'eth_estimateGas', params: [priced] })).rejects.toThrow(/insufficient funds/)
  })

  test('viem: call and estimateGas with value from an account without balance', async () => {
    const client = createPublicClient({ chain, transport: custom(node.provider, { retryCount: 0 }) })
    expect(await client.call({ account: empty, to, value: parseEther('1') })).toEqual({ data: undefined })
    expect(await client.estimateGas({ account: empty, to, value: parseEther('1') })).toBe(21_000n)
  })

  test('ethers: estimateGas and call with value from an account without balance', async () => {
    const provider = new BrowserProvider(node.provider, undefined, { cacheTimeout: -1 })
    expect(await provider.estimateGas({ from: empty, to, value: parseEther('1') })).toBe(21_000n)
    expect(await provider.call({ from: empty, to, value: parseEther('1') })).toBe('0x')
    provider.destroy()
  })
})
