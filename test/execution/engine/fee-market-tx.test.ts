/**
 * The EIP-1559 fast path of eth_sendRawTransaction's decoding (src/execution/engine/fee-market-tx.ts)
 * makes the very object @ethereumjs/tx's `create1559FeeMarketTxFromBytesArray` makes (prototype,
 * own properties in order, values), and leaves every value the library refuses to the library:
 * over node.request the refusals keep the library's words. The same for the unsigned transaction
 * eth_sendTransaction fills in (`unsignedFeeMarket` against `createFeeMarket1559Tx`).
 */
import { RLP } from '@ethereumjs/rlp'
import { create1559FeeMarketTxFromBytesArray, createFeeMarket1559Tx, createTx, createTxFromRLP } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../../src/index.js'
import { createChainCommon } from '../../../src/chain/common.js'
import { fastFeeMarket, unsignedFeeMarket, type FeeMarketFields } from '../../../src/execution/engine/fee-market-tx.js'
import { rpcError, testNode } from '../../helpers/execution.js'

const common = createChainCommon(31337n, 'prague')
const key = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const to: Hex = '0x00000000000000000000000000000000000000aa'
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

type Fields = { nonce?: bigint; to?: Hex; value?: bigint; data?: Hex; gasLimit?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }
function signedValues(fields: Fields = {}): Uint8Array[] {
  const tx = createTx(
    { type: 2, nonce: 0n, to, value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, data: '0x', accessList: [], ...fields },
    { common },
  ).sign(key)
  return RLP.decode(tx.serialize().subarray(1)) as Uint8Array[]
}

/** The own properties of a transaction object, in order, as comparable values. */
function shape(tx: object): Array<[string, unknown]> {
  return Object.entries(tx).map(([k, v]) => [k, v instanceof Uint8Array ? bytesToHex(v) : v !== null && typeof v === 'object' && 'bytes' in v ? `address ${bytesToHex((v as { bytes: Uint8Array }).bytes)}` : v])
}

describe('fastFeeMarket', () => {
  it.each([
    ['a transfer', {}],
    ['nonce 0, value 0', { value: 0n }],
    ['large values', { nonce: 2n ** 63n, value: 2n ** 255n, maxFeePerGas: 2n ** 100n, maxPriorityFeePerGas: 2n ** 99n, gasLimit: 30_000n }],
    ['calldata', { data: `0xa9059cbb${'00'.repeat(12)}${'11'.repeat(20)}${'00'.repeat(31)}01`, gasLimit: 100_000n }],
    ['a creation', { to: undefined, data: `0x${'60'.repeat(100)}`, gasLimit: 200_000n }],
    ['tip equal to the fee cap', { maxPriorityFeePerGas: 10n ** 10n }],
  ] as Array<[string, Fields]>)('%s: the object ethereumjs makes', (_name, fields) => {
    const values = signedValues(fields)
    const opts = { common, freeze: false } as const
    const fast = fastFeeMarket(values, opts)
    const library = create1559FeeMarketTxFromBytesArray(values as never, opts)
    expect(fast).toBeDefined()
    expect(Object.getPrototypeOf(fast)).toBe(Object.getPrototypeOf(library))
    expect(shape(fast!)).toEqual(shape(library))
    expect(fast!.common).toBe(library.common)
    expect(bytesToHex(fast!.serialize())).toBe(bytesToHex(library.serialize()))
    expect(fast!.getSenderAddress().toString()).toBe(library.getSenderAddress().toString())
    expect(fast!.getIntrinsicGas()).toBe(library.getIntrinsicGas())
    expect(fast!.toJSON()).toEqual(library.toJSON())
  })

  it('an access list goes to the library', () => {
    const values = RLP.decode(
      createTx({ type: 2, nonce: 0n, to, value: 1n, gasLimit: 30_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, accessList: [{ address: to, storageKeys: [] }] }, { common })
        .sign(key)
        .serialize()
        .subarray(1),
    )
    expect(fastFeeMarket(values, { common, freeze: false })).toBeUndefined()
  })
})

describe('eth_sendRawTransaction: values the library refuses keep its words (Osaka: the EIP-7825 cap on)', () => {
  let node: FinalityNode
  const osaka = createChainCommon(31337n, 'osaka')
  beforeAll(async () => {
    node = await testNode({ hardfork: 'osaka' })
  })
  afterAll(() => node.close())

  const n = (v: bigint) => (v === 0n ? new Uint8Array(0) : hexToBytes(`0x${v.toString(16).padStart(v.toString(16).length + (v.toString(16).length % 2), '0')}`))
  /** `values` with item `i` replaced. */
  const put = (values: unknown[], i: number, item: unknown): unknown[] => values.map((x, j) => (j === i ? item : x))
  /** Index: 0 chainId, 1 nonce, 2 tip, 3 fee cap, 4 gas, 5 to, 6 value, 7 data, 8 access list, 9 v, 10 r, 11 s. */
  const cases: Array<[string, (values: Uint8Array[]) => unknown[]]> = [
    ['a leading zero in the nonce', (v) => put(v, 1, Uint8Array.of(0, 1))],
    ['a leading zero in r', (v) => put(v, 10, Uint8Array.of(0, ...v[10]!))],
    ['another chain id', (v) => put(v, 0, n(1n))],
    ['a recipient of 19 bytes', (v) => put(v, 5, v[5]!.subarray(1))],
    ['the fee cap under the tip', (v) => put(v, 2, n(10n ** 11n))],
    ['y-parity 2', (v) => put(v, 9, n(2n))],
    ['a high s', (v) => put(v, 11, n(N - 1n))],
    ['a nonce of 2^64 - 1', (v) => put(v, 1, n(2n ** 64n - 1n))],
    ['gas over the EIP-7825 cap', (v) => put(v, 4, n(2n ** 24n + 1n))],
    ['a nonce of 9 bytes', (v) => put(v, 1, n(2n ** 64n))],
    ['a value of 33 bytes', (v) => put(v, 6, n(2n ** 256n))],
    ['gas times fee cap over 2^256', (v) => put(put(v, 3, n(2n ** 250n)), 2, n(1n))],
    ['an array as the nonce', (v) => put(v, 1, [])],
    ['11 values', (v) => v.slice(0, 11)],
    ['an unsigned transaction (9 values)', (v) => v.slice(0, 9)],
    ['initcode over the limit', () => put(signedValues({ to: undefined, data: '0x60', gasLimit: 1_000_000n }), 7, new Uint8Array(49_153).fill(0x60))],
  ]
  it.each(cases)('%s', async (_name, change) => {
    const values = change(signedValues())
    const raw = `0x02${bytesToHex(RLP.encode(values as never)).slice(2)}` as Hex
    let expected = 'decoded'
    try {
      createTxFromRLP(hexToBytes(raw), { common: osaka })
    } catch (error) {
      expected = (error as Error).message
    }
    const got = await rpcError(node, 'eth_sendRawTransaction', [raw])
    expect(got.code).toBe(-32000)
    // submitRaw's rewording of a few library errors (chain id, the EIP-7825 cap, initcode) and
    // its cut of the library's details stay as they were.
    if (/chain ID|EIP155|chainId/i.test(expected)) expect(got.message).toBe('invalid chain id for signer')
    else if (expected.startsWith('Transaction gas limit')) expect(got.message).toMatch(/^transaction gas limit too high/)
    else if (expected.startsWith('the initcode size')) expect(got.message).toMatch(/^max initcode size exceeded/)
    // Only the unsigned one decodes: no sender to recover.
    else if (expected === 'decoded') expect(got.message).toBe('invalid sender')
    else expect(got.message).toBe(`invalid transaction: ${expected.split(' (')[0]}`)
  })
})

describe('unsignedFeeMarket', () => {
  const base: FeeMarketFields = { nonce: 0n, gasLimit: 21_000n, to: hexToBytes(to), value: 1n, data: new Uint8Array(0), accessList: undefined, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }
  const library = (fields: FeeMarketFields, c = common) => createFeeMarket1559Tx({ ...fields, type: 2 } as never, { common: c, freeze: false })
  it.each([
    ['a transfer', {}],
    ['value 0, an empty access list', { value: 0n, accessList: [] }],
    ['large values', { nonce: 2n ** 63n, value: 2n ** 255n, maxFeePerGas: 2n ** 100n, maxPriorityFeePerGas: 2n ** 99n, gasLimit: 30_000n }],
    ['calldata', { data: hexToBytes('0xa9059cbb0000'), gasLimit: 100_000n }],
    ['a creation', { to: undefined, data: new Uint8Array(100).fill(0x60), gasLimit: 200_000n }],
  ] as Array<[string, Partial<FeeMarketFields>]>)('%s: the object ethereumjs makes', (_name, change) => {
    const fields = { ...base, ...change }
    const fast = unsignedFeeMarket(fields, { common, freeze: false })
    const made = library(fields)
    expect(Object.getPrototypeOf(fast)).toBe(Object.getPrototypeOf(made))
    expect(shape(fast)).toEqual(shape(made))
    expect(Object.isFrozen(fast)).toBe(false)
    expect(bytesToHex(fast.getMessageToSign())).toBe(bytesToHex(made.getMessageToSign()))
    expect(bytesToHex(fast.sign(key).serialize())).toBe(bytesToHex(made.sign(key).serialize()))
    // The recipient and data are copies, as the library's are.
    if (fields.to !== undefined) expect(fast.to!.bytes).not.toBe(fields.to)
    expect(fast.data).not.toBe(fields.data)
  })

  it.each([
    ['an access list', { accessList: [[hexToBytes(to), []]] }],
    ['the fee cap under the tip', { maxPriorityFeePerGas: 10n ** 11n }],
    ['gas times fee cap over 2^256', { maxFeePerGas: 2n ** 250n, maxPriorityFeePerGas: 1n }],
    ['a nonce of 2^64 - 1', { nonce: 2n ** 64n - 1n }],
    ['gas over the EIP-7825 cap (Osaka)', { gasLimit: 2n ** 24n + 1n }],
    ['a value over 2^256 - 1', { value: 2n ** 256n }],
  ] as Array<[string, Partial<FeeMarketFields>]>)('%s: left to the library (its object or its error)', (_name, change) => {
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
      got = shape(unsignedFeeMarket(fields, { common: osaka, freeze: false }))
    } catch (error) {
      got = (error as Error).message
    }
    expect(got).toEqual(expected)
  })
})
