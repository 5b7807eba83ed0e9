/**
 * Hardhat mode's eth_estimateGas and eth_call are Hardhat Network's: the estimate runs on
 * `pending` with a gas price, searches as EDR does, and calls read a base fee of 0 whatever their
 * price. Each request goes to finality (`hardhatCompat: true`) and to Hardhat's own provider
 * (Hardhat 2.29, EDR) and the answers are compared; without Hardhat mode geth's rules stay.
 */
import { describe, expect, it } from 'vitest'
import type { FinalityNode, Hex } from '../../src/index.js'
import { answer, hardhatNetwork, type WireProvider } from '../helpers/hardhat-network.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const B = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
/** An account with no balance. */
const POOR = '0x00000000000000000000000000000000000000e9'

/** Runtime codes, set with hardhat_setCode on both. */
const CODE = {
  /** Returns tx.gasprice. */
  gasPrice: '0x3a5f5260205ff3',
  /** Returns block.basefee. */
  baseFee: '0x485f5260205ff3',
  /** Reverts unless tx.gasprice > 0 (a refund paid only to a priced transaction). */
  needsPrice: '0x3a6007575f5ffd5b00',
  /** Reverts unless block.number > 0 (true on `pending` of a fresh chain, false on `latest`). */
  needsBlock: '0x436007575f5ffd5b00',
  /** Returns block.timestamp. */
  timestamp: '0x425f5260205ff3',
  /** STOP. */
  stop: '0x00',
  /** Clears slot 0 (set to 1 first): a refund. */
  clear: '0x5f5f5500',
  /** Calls the ecrecover precompile with all its gas, then stops. */
  callsOut: '0x5f5f5f5f5f60015af100',
} as const
const at = (i: number): Hex => `0x${(0xa0 + i).toString(16).padStart(40, '0')}`
const ADDRESS = Object.fromEntries(Object.keys(CODE).map((name, i) => [name, at(i)])) as Record<keyof typeof CODE, string>

async function setUp(p: { request(a: { method: string; params?: unknown[] }): Promise<unknown> }): Promise<void> {
  for (const [name, code] of Object.entries(CODE)) await p.request({ method: 'hardhat_setCode', params: [ADDRESS[name as keyof typeof CODE], code] })
  await p.request({ method: 'hardhat_setStorageAt', params: [ADDRESS.clear, '0x0', `0x${'1'.padStart(64, '0')}`] })
}

async function pair(): Promise<[WireProvider, FinalityNode]> {
  const providers: [WireProvider, FinalityNode] = [await hardhatNetwork(), await newNode({ hardhatCompat: true, hardfork: 'osaka' })]
  for (const p of providers) await setUp(p as WireProvider)
  return providers
}

async function same(providers: [WireProvider, FinalityNode], method: string, params: unknown[]): Promise<unknown> {
  const h = await answer(providers[0], method, params)
  expect(await answer(providers[1], method, params), `${method} ${JSON.stringify(params)}`).toEqual(h)
  return h
}

describe('Hardhat mode: eth_estimateGas as Hardhat Network', () => {
  it('runs with a gas price: 1 gwei of tip when none is given, the given gasPrice, or min(maxFeePerGas, tip); code paying only when tx.gasprice > 0 estimates', async () => {
    const providers = await pair()
    expect(await same(providers, 'eth_estimateGas', [{ from: A, to: ADDRESS.needsPrice }])).toMatch(/^0x/)
    for (const fees of [{}, { gasPrice: '0x7' }, { maxFeePerGas: '0x5' }, { maxFeePerGas: '0x77359400' }, { maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x7' }, { type: '0x0' }]) {
      await same(providers, 'eth_estimateGas', [{ from: A, to: ADDRESS.needsPrice, ...fees }])
    }
    // The sender's balance bounds nothing.
    await same(providers, 'eth_estimateGas', [{ from: POOR, to: B, maxFeePerGas: '0x77359400' }])
    await same(providers, 'eth_estimateGas', [{ from: POOR, to: B, value: '0x1' }])
  })

  it('without a block it runs on `pending`: the next number and the timestamp evm_setNextBlockTimestamp set', async () => {
    const providers = await pair()
    expect(await same(providers, 'eth_estimateGas', [{ from: A, to: ADDRESS.needsBlock }])).toMatch(/^0x/)
    await same(providers, 'eth_estimateGas', [{ from: A, to: ADDRESS.needsBlock }, 'pending'])
    const [, node] = providers
    const head = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp: string }
    const next = BigInt(head.timestamp) + 1000n
    // block.timestamp == next ? stop : revert
    const onTime: Hex = `0x7f${next.toString(16).padStart(64, '0')}4214602957${'5f5ffd'}5b00`
    for (const p of providers) {
      await p.request({ method: 'hardhat_setCode', params: [at(0x20), onTime] })
      await p.request({ method: 'evm_setNextBlockTimestamp', params: [`0x${next.toString(16)}`] })
    }
    const [h, f] = [await answer(providers[0], 'eth_estimateGas', [{ from: A, to: at(0x20) }]), await answer(providers[1], 'eth_estimateGas', [{ from: A, to: at(0x20) }])]
    expect(h).toMatch(/^0x/)
    expect(f).toBe(h)
  })

  it('the same estimates: a transfer is 21,001, a refund leaves Hardhat\'s search tolerance, calldata floors and nested calls agree', async () => {
    const providers = await pair()
    expect(await same(providers, 'eth_estimateGas', [{ from: A, to: B }])).toBe('0x5209')
    await same(providers, 'eth_estimateGas', [{ from: A, to: ADDRESS.stop }])
    expect(await same(providers, 'eth_estimateGas', [{ from: A, to: ADDRESS.clear }])).toBe('0x6599')
    await same(providers, 'eth_estimateGas', [{ from: A, to: B, data: '0x1234' }])
    await same(providers, 'eth_estimateGas', [{ from: A, to: ADDRESS.callsOut }])
    await same(providers, 'eth_estimateGas', [{ from: A, to: '0x0000000000000000000000000000000000000001', data: '0x1234' }])
  })

  it('without Hardhat mode: geth\'s rules (latest, no gas price, the exact search)', async () => {
    const node = await newNode()
    await setUp(node)
    expect(await answer(node, 'eth_estimateGas', [{ from: A, to: B }])).toBe('0x5208')
    expect(await answer(node, 'eth_estimateGas', [{ from: A, to: ADDRESS.needsPrice }])).toEqual({ error: { code: 3, message: 'execution reverted', data: '0x' } })
    expect(await answer(node, 'eth_estimateGas', [{ from: A, to: ADDRESS.needsBlock }])).toEqual({ error: { code: 3, message: 'execution reverted', data: '0x' } })
    expect(await answer(node, 'eth_estimateGas', [{ from: A, to: ADDRESS.clear }])).toBe('0x6594')
  })
})

describe('Hardhat mode: eth_call as Hardhat Network', () => {
  it('block.basefee reads 0 and tx.gasprice is the price given (min(maxFee, tip) for EIP-1559 fields), below the base fee too, whatever the balance', async () => {
    const providers = await pair()
    for (const fees of [{}, { gasPrice: '0x7' }, { maxFeePerGas: '0x77359400' }, { maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1' }]) {
      await same(providers, 'eth_call', [{ from: A, to: ADDRESS.gasPrice, ...fees }])
      await same(providers, 'eth_call', [{ from: A, to: ADDRESS.baseFee, ...fees }])
    }
    await same(providers, 'eth_call', [{ from: POOR, to: B, gasPrice: '0x77359400', value: '0x1' }])
    // `latest` by default, as geth.
    await same(providers, 'eth_call', [{ from: A, to: ADDRESS.needsBlock }, 'pending'])
  })

  it('without Hardhat mode: a price below the base fee is refused, as geth', async () => {
    const node = await newNode()
    await setUp(node)
    expect(await answer(node, 'eth_call', [{ from: A, to: ADDRESS.gasPrice, gasPrice: '0x7' }])).toEqual({
      error: { code: -32000, message: `max fee per gas less than block base fee: address ${A}, maxFeePerGas: 7, baseFee: 1000000000` },
    })
  })
})
