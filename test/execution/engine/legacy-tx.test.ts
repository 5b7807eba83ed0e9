/**
 * The unsigned legacy transaction of a call (src/execution/engine/legacy-tx.ts) is the very object
 * @ethereumjs/tx's `createLegacyTx` makes (prototype, own properties in order, values, what it
 * answers), and values the library refuses are left to it (its error). Over node.request, calls
 * that run as legacy transactions answer as before, a refused one with the library's words.
 */
import { createLegacyTx } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../../src/index.js'
import { createChainCommon } from '../../../src/chain/common.js'
import { unsignedLegacy, type LegacyFields } from '../../../src/execution/engine/legacy-tx.js'
import { rpcError, testNode } from '../../helpers/execution.js'

const common = createChainCommon(31337n, 'prague')
const key = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const to = hexToBytes('0x00000000000000000000000000000000000000aa')

/** The own properties of a transaction object, in order, as comparable values. */
function shape(tx: object): Array<[string, unknown]> {
  return Object.entries(tx).map(([k, v]) => [k, v instanceof Uint8Array ? bytesToHex(v) : v !== null && typeof v === 'object' && 'bytes' in v ? `address ${bytesToHex((v as { bytes: Uint8Array }).bytes)}` : v])
}

const base: LegacyFields = { nonce: 0n, gasLimit: 21_000n, gasPrice: 0n, to, value: 0n, data: new Uint8Array(0) }
const library = (fields: LegacyFields, c = common, freeze = false) => createLegacyTx({ ...fields, type: 0 }, { common: c, freeze })

describe('unsignedLegacy', () => {
  it.each([
    ['a call without value or price', {}],
    ['a price and a value', { gasPrice: 10n ** 9n, value: 1n }],
    ['large values', { nonce: 2n ** 64n - 2n, value: 2n ** 256n - 1n, gasPrice: 2n ** 200n, gasLimit: 2n ** 50n }],
    ['calldata', { data: hexToBytes('0xa9059cbb0000'), gasLimit: 100_000n }],
    ['a creation', { to: undefined, data: new Uint8Array(100).fill(0x60), gasLimit: 200_000n }],
  ] as Array<[string, Partial<LegacyFields>]>)('%s: the object ethereumjs makes', (_name, change) => {
    const fields = { ...base, ...change }
    const fast = unsignedLegacy(fields, { common, freeze: false })
    const made = library(fields)
    expect(Object.getPrototypeOf(fast)).toBe(Object.getPrototypeOf(made))
    expect(shape(fast)).toEqual(shape(made))
    expect(fast.common).toBe(made.common)
    expect(Object.isFrozen(fast)).toBe(false)
    expect(fast.supports(155)).toBe(true)
    expect(bytesToHex(fast.getHashedMessageToSign())).toBe(bytesToHex(made.getHashedMessageToSign()))
    expect(fast.getIntrinsicGas()).toBe(made.getIntrinsicGas())
    expect(fast.toJSON()).toEqual(made.toJSON())
    const signed = fast.sign(key)
    expect(bytesToHex(signed.serialize())).toBe(bytesToHex(made.sign(key).serialize()))
    expect(signed.getSenderAddress().toString()).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
    // The recipient and data are copies, as the library's are.
    if (fields.to !== undefined) expect(fast.to!.bytes).not.toBe(fields.to)
    expect(fast.data).not.toBe(fields.data)
  })

  it('frozen when asked, as the library freezes', () => {
    const fast = unsignedLegacy(base, { common, freeze: true })
    expect(Object.isFrozen(fast)).toBe(true)
    expect(shape(fast)).toEqual(shape(library(base, common, true)))
  })

  it('before Spurious Dragon: no EIP-155, as the library', () => {
    const homestead = createChainCommon(31337n, 'homestead')
    const fast = unsignedLegacy(base, { common: homestead, freeze: false })
    expect(shape(fast)).toEqual(shape(library(base, homestead)))
    expect(fast.supports(155)).toBe(false)
  })

  it.each([
    ['a recipient of 19 bytes', { to: to.subarray(1) }],
    ['a nonce of 2^64 - 1', { nonce: 2n ** 64n - 1n }],
    ['gas of 2^64', { gasLimit: 2n ** 64n }],
    ['gas over the EIP-7825 cap (Osaka)', { gasLimit: 2n ** 24n + 1n }],
    ['a value over 2^256 - 1', { value: 2n ** 256n }],
    ['a price over 2^256 - 1', { gasPrice: 2n ** 256n }],
    ['gas times price over 2^256', { gasPrice: 2n ** 250n, gasLimit: 2n ** 10n }],
    ['initcode over the limit', { to: undefined, data: new Uint8Array(49_153).fill(0x60), gasLimit: 1_000_000n }],
  ] as Array<[string, Partial<LegacyFields>]>)('%s: left to the library (its object or its error)', (_name, change) => {
    const osaka = createChainCommon(31337n, 'osaka')
    const fields = { ...base, ...change }
    let expected: unknown
    try {
      expected = shape(library(fields, osaka))
    } catch (error) {
      expected = (error as Error).message
    }
    let got: unknown
    try {
      got = shape(unsignedLegacy(fields, { common: osaka, freeze: false }))
    } catch (error) {
      got = (error as Error).message
    }
    expect(got).toEqual(expected)
  })
})

describe('eth_call and eth_estimateGas as legacy transactions', () => {
  let node: FinalityNode
  beforeAll(async () => {
    node = await testNode({ hardfork: 'prague' })
  })
  afterAll(() => node.close())

  // Init code that returns 32 bytes of 0x2a: PUSH1 0x2a PUSH1 0 MSTORE PUSH1 0x20 PUSH1 0 RETURN.
  const initcode: Hex = '0x602a60005260206000f3'

  it('a creation call runs and answers its output', async () => {
    expect(await node.request({ method: 'eth_call', params: [{ data: initcode }, 'latest'] })).toBe(`0x${'00'.repeat(31)}2a`)
  })

  it('a call with a price, a value and a sender', async () => {
    const [from] = (await node.request({ method: 'eth_accounts' })) as Hex[]
    const call = { from, to: '0x00000000000000000000000000000000000000aa' as Hex, value: '0x1' as Hex, gasPrice: '0x3b9aca00' as Hex }
    expect(await node.request({ method: 'eth_call', params: [call, 'latest'] })).toBe('0x')
    expect(await node.request({ method: 'eth_estimateGas', params: [call, 'latest'] })).toBe('0x5208')
  })

  it('gas times price over 2^256: refused with the library words', async () => {
    const error = await rpcError(node, 'eth_call', [{ to: '0x00000000000000000000000000000000000000aa', gas: '0xffffffffffffffff', gasPrice: `0x${'f'.repeat(64)}` }, 'latest'])
    expect(error.message).toMatch(/gas limit \* gasPrice cannot exceed MAX_INTEGER/)
  })
})
