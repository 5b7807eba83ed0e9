/**
 * Hardhat mode answers a failed execution as Hardhat Network does: eth_call, eth_estimateGas and a
 * send whose mined transaction fails, for reverts and for every halt (invalid opcode, out of gas,
 * stack underflow and overflow, a bad jump, a creation over the code size limit). Each request
 * goes to finality (`hardhatCompat: true`) and to Hardhat's own provider (Hardhat 2.29, EDR, as
 * `hardhat node` writes its answers) and the answers are compared.
 */
import { describe, expect, it } from 'vitest'
import type { FinalityNode, Hex } from '../../src/index.js'
import { answer, hardhatNetwork, type WireProvider } from '../helpers/hardhat-network.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

/** Runtime code that returns `hex` as revert data: CODECOPY of the tail, then REVERT. */
function reverting(hex: string): Hex {
  const n = (hex.length / 2).toString(16).padStart(2, '0')
  return `0x60${n}600b5f3960${n}5ffd${hex}`
}
const word = (hex: string) => hex.padStart(64, '0')

const FAILING = {
  invalid: '0xfe',
  undefinedOpcode: '0x0c',
  outOfGas: '0x5b5f56',
  stackUnderflow: '0x01',
  stackOverflow: '0x5b5f5f56',
  badJump: '0x600556',
  bareRevert: '0x5f5ffd',
  reason: reverting(`08c379a0${word('20')}${word('1')}${'78'.padEnd(64, '0')}`),
  panic: reverting(`4e487b71${word('11')}`),
  customError: reverting('deadbeef'),
} as const

async function pair(): Promise<[WireProvider, FinalityNode]> {
  return [await hardhatNetwork(), await newNode({ hardhatCompat: true, hardfork: 'osaka' })]
}

describe('Hardhat mode: failed executions answer Hardhat\'s errors', () => {
  it('eth_call, eth_estimateGas and a send that mines the failing transaction: the same code, message and data', { timeout: 60_000 }, async () => {
    const providers = await pair()
    let i = 0
    for (const [name, code] of Object.entries(FAILING)) {
      const to: Hex = `0x${(0xa0 + i++).toString(16).padStart(40, '0')}`
      for (const p of providers) await p.request({ method: 'hardhat_setCode', params: [to, code] })
      // A gas limit throughout: the loop that runs out of gas would spin through 2^24 gas otherwise.
      for (const [method, params] of [
        ['eth_call', [{ from: A, to, gas: '0x30000' }]],
        ['eth_estimateGas', [{ from: A, to, gas: '0x30000' }]],
        ['eth_sendTransaction', [{ from: A, to, gas: '0x30000' }]],
      ] as const) {
        const h = await answer(providers[0], method, [...params])
        expect((h as { error?: unknown }).error, `${name} ${method}`).toBeDefined()
        expect(await answer(providers[1], method, [...params]), `${name} ${method}`).toEqual(h)
      }
    }
  })

  it('a creation whose code is over the size limit, and one that hits INVALID', async () => {
    const providers = await pair()
    for (const [method, params] of [
      ['eth_call', [{ from: A, data: '0x6160015ff3' }]],
      ['eth_estimateGas', [{ from: A, data: '0x6160015ff3' }]],
      ['eth_sendTransaction', [{ from: A, data: '0x6160015ff3', gas: '0x1000000' }]],
      ['eth_call', [{ from: A, data: '0xfe' }]],
      ['eth_sendTransaction', [{ from: A, data: '0xfe', gas: '0x100000' }]],
    ] as const) {
      const h = await answer(providers[0], method, [...params])
      expect(await answer(providers[1], method, [...params]), method).toEqual(h)
    }
  })

  it('without Hardhat mode: geth\'s errors (code 3 for a revert, -32000 with the halt\'s words)', async () => {
    const node = await newNode()
    await node.setCode('0x00000000000000000000000000000000000000a0', FAILING.invalid)
    await node.setCode('0x00000000000000000000000000000000000000a1', FAILING.bareRevert)
    expect(await answer(node, 'eth_call', [{ from: A, to: '0x00000000000000000000000000000000000000a0' }])).toEqual({ error: { code: -32000, message: 'invalid opcode' } })
    expect(await answer(node, 'eth_estimateGas', [{ from: A, to: '0x00000000000000000000000000000000000000a0' }])).toEqual({
      error: { code: -32000, message: 'gas required exceeds allowance (30000000)' },
    })
    expect(await answer(node, 'eth_call', [{ from: A, to: '0x00000000000000000000000000000000000000a1' }])).toEqual({ error: { code: 3, message: 'execution reverted', data: '0x' } })
  })

  it('refused sends: Hardhat\'s words, and a nonce gap refused in automine', async () => {
    const providers = await pair()
    const B = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
    const poor = '0x00000000000000000000000000000000000000e9'
    for (const p of providers) await p.request({ method: 'hardhat_impersonateAccount', params: [poor] })
    for (const tx of [
      { from: poor, to: B, value: '0x1', gas: '0x5208' },
      { from: A, to: B, value: '0x1', nonce: '0x5', gas: '0x5208' },
      { from: A, to: B, value: '0x1', gas: '0x5208' },
      { from: A, to: B, value: '0x1', nonce: '0x0', gas: '0x5208' },
      { from: A, to: B, gas: '0x5207' },
      { from: A, to: B, maxFeePerGas: '0x1', gas: '0x5208' },
      { from: '0x80997970c51812dc3a010c7d01b50e0d17dc79c8', to: B, gas: '0x5208' },
    ]) {
      const h = (await answer(providers[0], 'eth_sendTransaction', [tx])) as { error?: { code: number; message: string } } | string
      const f = await answer(providers[1], 'eth_sendTransaction', [tx])
      // Hardhat's handler adds `data: { message }` to every error; the code and message are compared.
      expect(f, JSON.stringify(tx)).toEqual(typeof h === 'string' ? h : { error: { code: h.error?.code, message: h.error?.message } })
    }
  })
})
