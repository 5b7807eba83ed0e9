/**
 * The intrinsic gas and minimum gas limit the node works out itself (src/execution/engine/intrinsic-gas.ts)
 * equal @ethereumjs/tx's `getIntrinsicGas` and `getMinimumGasLimit` on every hardfork the node runs
 * and every transaction type: calldata of zeros, non-zeros and both, creations with init code of
 * whole and partial words, access lists, authorisation lists; and on a later hardfork whose EIPs
 * (2780, 7976, 7981, 8037) it leaves to the library.
 */
import { Blob4844Tx, createTx, type TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createChainCommon, SUPPORTED_HARDFORKS } from '../../../src/chain/common.js'
import { intrinsicGas, minimumGasLimit } from '../../../src/execution/engine/intrinsic-gas.js'
import { callTransaction } from '../../../src/execution/call.js'
import { createBlock } from '@ethereumjs/block'
import type { Hex } from '../../../src/index.js'
import { rpcError, testNode } from '../../helpers/execution.js'

const to = '0x00000000000000000000000000000000000000aa'
const slot = `0x${'00'.repeat(31)}01`
const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }

/**
 * Calldata: empty, zeros, non-zeros, mixed (a token transfer's shape), long: dense with zeros
 * (ABI-encoded arguments, counted by a walk), sparse (code, searched), and sparse in its first 64
 * bytes but dense after (searched: the count must not depend on the way).
 */
const datas = [
  '0x',
  '0x00',
  '0xff',
  `0xa9059cbb${'00'.repeat(12)}${'11'.repeat(20)}${'00'.repeat(31)}64`,
  bytesToHex(Uint8Array.from({ length: 1000 }, (_, i) => (i % 3 === 0 ? 0 : i & 0xff))),
  bytesToHex(Uint8Array.from({ length: 3000 }, (_, i) => (i % 50 === 7 ? 0 : 0x60))),
  bytesToHex(Uint8Array.from({ length: 400 }, (_, i) => (i < 64 ? (i % 10 === 0 ? 0 : 1) : i % 2))),
]
const accessLists = [
  [],
  [{ address: to, storageKeys: [] }],
  [
    { address: to, storageKeys: [slot, slot] },
    { address: '0x00000000000000000000000000000000000000bb', storageKeys: [slot] },
  ],
]
const authorization = (n: number) => ({ chainId: '0x1', address: to, nonce: `0x${n.toString(16)}`, yParity: '0x0', r: '0x01', s: '0x01' })

function cases(hardfork: string): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = []
  for (const [i, data] of datas.entries()) {
    out.push([`legacy call, data ${i}`, { type: 0, to, data, gasPrice: 10n ** 10n }])
    out.push([`legacy creation, data ${i}`, { type: 0, data, gasPrice: 10n ** 10n }])
    for (const [j, accessList] of accessLists.entries()) {
      out.push([`2930 call, data ${i}, list ${j}`, { type: 1, to, data, accessList, gasPrice: 10n ** 10n }])
      out.push([`1559 call, data ${i}, list ${j}`, { type: 2, to, data, accessList, ...fees }])
      out.push([`1559 creation, data ${i}, list ${j}`, { type: 2, data, accessList, ...fees }])
      if (hardfork !== 'london' && hardfork !== 'paris' && hardfork !== 'shanghai') {
        out.push([`4844, data ${i}, list ${j}`, { type: 3, to, data, accessList, ...fees, maxFeePerBlobGas: 1n, blobVersionedHashes: [`0x01${'00'.repeat(31)}`] }])
      }
      if (hardfork === 'prague' || hardfork === 'osaka' || hardfork === 'amsterdam') {
        for (const n of [1, 3]) {
          out.push([`7702, data ${i}, list ${j}, ${n} authorisations`, { type: 4, to, data, accessList, ...fees, authorizationList: Array.from({ length: n }, (_, k) => authorization(k)) }])
        }
      }
    }
  }
  return out
}

const key = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')

describe.each([...SUPPORTED_HARDFORKS, 'amsterdam'])('intrinsic gas on %s', (hardfork) => {
  const common = createChainCommon(31337n, hardfork)
  it.each(cases(hardfork))('%s', (_name, fields) => {
    const all: Record<string, unknown> = { nonce: 0n, gasLimit: 10_000_000n, value: 1n, ...fields }
    // The library's factory wants a KZG setup for any blob transaction; its constructor does not.
    const make = (values: object) => (all.type === 3 ? new Blob4844Tx(values as never, { common }) : createTx(values as never, { common })) as TypedTransaction
    const unsigned = make(all)
    const signed = all.type === 3 ? make({ ...all, v: 0n, r: 1n, s: 1n }) : unsigned.sign(key)
    for (const tx of [unsigned, signed]) {
      expect(intrinsicGas(tx)).toBe(tx.getIntrinsicGas())
      expect(minimumGasLimit(tx)).toBe(tx.getMinimumGasLimit())
    }
  })
})

describe('long data at any offset of its buffer (counted four bytes at a time)', () => {
  const common = createChainCommon(31337n, 'cancun')
  it.each([0, 1, 2, 3])('offset %i', (offset) => {
    const tx = createTx({ type: 2, to, gasLimit: 10_000_000n, ...fees }, { common })
    for (const [length, parity] of [257, 258, 259, 260, 1001].flatMap((n) => [[n, 0], [n, 1]] as const)) {
      // Every other byte zero, so the bytes before the first word and after the last hold zeros too.
      const buffer = new Uint8Array(length + 8)
      for (let i = 0; i < buffer.length; i++) buffer[i] = i % 2 === parity ? 0 : 1 + ((i * 11) % 255)
      // A view of the data starting `offset` bytes into the buffer, read as the transaction's data.
      const view = Object.create(tx, { data: { value: buffer.subarray(offset, offset + length) } }) as TypedTransaction
      expect(intrinsicGas(view)).toBe((Object.getPrototypeOf(tx) as TypedTransaction).getIntrinsicGas.call(view))
    }
  })
})

describe("a call's transaction answers getIntrinsicGas by the node's count, the library's value", () => {
  const common = createChainCommon(31337n, 'prague')
  const block = createBlock({ header: { baseFeePerGas: 7n } }, { common })
  it.each(datas.map((data, i) => [i, data] as const))('data %i, a call and a creation, each type a request makes', (_i, data) => {
    const bytes = hexToBytes(data as Hex)
    const requests = [
      { to: hexToBytes(to), data: bytes },
      { data: bytes },
      { to: hexToBytes(to), data: bytes, gasPrice: 3n, accessList: [{ address: hexToBytes(to), storageKeys: [hexToBytes(slot as Hex)] }] },
      { data: bytes, maxFeePerGas: 20n, maxPriorityFeePerGas: 1n },
    ]
    for (const req of requests) {
      const tx = callTransaction(req, 0n, 10_000_000n, block, common)
      const library = (Object.getPrototypeOf(tx) as TypedTransaction).getIntrinsicGas.call(tx)
      expect(Object.hasOwn(tx, 'getIntrinsicGas')).toBe(true)
      expect(tx.getIntrinsicGas()).toBe(library)
      expect(tx.getIntrinsicGas()).toBe(library)
    }
  })
})

describe('the pool refuses a gas limit below the minimum with the same words', () => {
  it.each<[string, string, Hex, bigint, string]>([
    ['below the intrinsic gas', 'osaka', '0x', 20_999n, 'intrinsic gas too low: gas 20999, minimum needed 21000'],
    // EIP-7623: 1,000 non-zero bytes cost 16,000 as calldata, 40,000 as the floor.
    ['below the calldata floor (EIP-7623)', 'prague', `0x${'ff'.repeat(1000)}`, 60_999n, 'intrinsic gas too low: gas 60999, minimum needed 61000'],
  ])('%s', async (_name, hardfork, data, gas, message) => {
    const node = await testNode({ hardfork: hardfork as 'prague' })
    try {
      const [from] = await node.request({ method: 'eth_accounts' })
      const error = await rpcError(node, 'eth_sendTransaction', [{ from, to, data, gas: `0x${gas.toString(16)}` }])
      expect(error).toEqual({ code: -32000, message, data: undefined })
      const ok = await node.request({ method: 'eth_sendTransaction', params: [{ from, to, data, gas: `0x${(gas + 1n).toString(16)}` }] })
      expect(typeof ok).toBe('string')
    } finally {
      await node.close()
    }
  })
})
