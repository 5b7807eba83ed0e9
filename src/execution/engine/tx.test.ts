/**
 * The hash a transaction's signature covers, cut from its signed bytes (`signingHash`), equals
 * the one @ethereumjs/tx computes by re-encoding the fields, for every transaction type; a
 * sender recovered through it is the signer; and the sends the node signs or receives raw share
 * one hidden class.
 */
import { type AccessList, createTx, createTxFromRLP, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { RLP } from '@ethereumjs/rlp'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBytes, privateToAddress } from '@ethereumjs/util'
import v8 from 'node:v8'
import { describe, expect, it } from 'vitest'
import { blobTransaction } from '../../chain/decode.js'
import { createChainCommon } from '../../chain/common.js'
import { feeMarketFromValues, unsignedFeeMarket } from './fee-market-tx.js'
import { feeMarketMessage, signedBy, signingHash, withEncoding, withSignature } from './tx.js'

const common = createChainCommon(31337n, 'prague')
const key = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const to = '0x00000000000000000000000000000000000000aa'
const accessList: AccessList = [{ address: to, storageKeys: [`0x${'01'.repeat(32)}`] }]
const base = { nonce: 7n, gasLimit: 100_000n, to, value: 5n, data: '0xdeadbeef' } as const

const cases: Array<[string, () => TypedTransaction]> = [
  ['legacy, EIP-155', () => createTx({ ...base, type: 0, gasPrice: 10n ** 9n }, { common })],
  ['legacy, unprotected', () => createTx({ ...base, type: 0, gasPrice: 10n ** 9n }, { common: createChainCommon(31337n, 'prague') }).sign(key, false)],
  ['EIP-2930', () => createTx({ ...base, type: 1, gasPrice: 10n ** 9n, accessList }, { common })],
  ['EIP-1559', () => createTx({ ...base, type: 2, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, accessList }, { common })],
  [
    'EIP-7702',
    () =>
      createTx(
        {
          ...base,
          type: 4,
          maxFeePerGas: 10n ** 10n,
          maxPriorityFeePerGas: 1n,
          authorizationList: [{ chainId: '0x7a69', address: to, nonce: '0x0', yParity: '0x1', r: '0x01', s: '0x02' }],
        } as never,
        { common },
      ),
  ],
  ['large data (long list header)', () => createTx({ ...base, data: `0x${'ab'.repeat(5000)}`, type: 2, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }, { common })],
]

describe('signingHash', () => {
  it.each(cases)('%s: equals @ethereumjs/tx and recovers the signer', (_name, make) => {
    const made = make()
    const signed = made.isSigned() ? made : made.sign(key)
    const bytes = signed.serialize()
    const decoded = createTxFromRLP(bytes, { common })
    expect(bytesToHex(signingHash(decoded, bytes))).toBe(bytesToHex(decoded.getHashedMessageToSign()))
    expect(decoded.getSenderAddress().toString()).toBe(bytesToHex(privateToAddress(key)))
  })

  it('EIP-4844 (canonical form): equals @ethereumjs/tx', () => {
    const n = (v: number) => (v === 0 ? new Uint8Array(0) : Uint8Array.of(v))
    // [chainId, nonce, tip, maxFee, gas, to, value, data, accessList, maxFeePerBlobGas, hashes]
    const fields = [hexToBytes('0x7a69'), n(1), n(1), n(100), hexToBytes('0x5208'), hexToBytes(to), n(1), new Uint8Array(0), [], n(1), [hexToBytes(`0x01${'00'.repeat(30)}0a`)]]
    const unsigned = blobTransaction(new Uint8Array([TransactionType.BlobEIP4844, ...RLP.encode(fields)]), common, false)
    // Signed by hand: @ethereumjs/tx's sign() wants a KZG setup for any blob transaction.
    const sig = secp256k1.sign(unsigned.getHashedMessageToSign(), key, { prehash: false, format: 'recovered' })
    const bytes = new Uint8Array([TransactionType.BlobEIP4844, ...RLP.encode([...fields, n(sig[0]!), sig.subarray(1, 33), sig.subarray(33)])])
    const decoded = blobTransaction(bytes, common)
    expect(decoded.getSenderAddress().toString()).toBe(bytesToHex(privateToAddress(key)))
    expect(bytesToHex(signingHash(decoded, bytes))).toBe(bytesToHex(decoded.getHashedMessageToSign()))
  })
})

describe('feeMarketMessage and withSignature', () => {
  const fee = { type: 2, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n } as const
  const feeCases: Array<[string, () => TypedTransaction]> = [
    ['plain call', () => createTx({ ...base, ...fee }, { common })],
    ['zero fields', () => createTx({ type: 2, to, nonce: 0n, gasLimit: 0n, value: 0n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }, { common })],
    ['one-byte fields below and at 0x80', () => createTx({ type: 2, to, nonce: 0x7fn, gasLimit: 0x80n, value: 1n, data: '0x7f', maxFeePerGas: 0x80n, maxPriorityFeePerGas: 0x7fn }, { common })],
    ['creation', () => createTx({ nonce: 1n, gasLimit: 100_000n, value: 0n, data: '0x6000', ...fee }, { common })],
    ['access list', () => createTx({ ...base, ...fee, accessList }, { common })],
    ['large data (long list header)', () => createTx({ ...base, ...fee, data: `0x${'ab'.repeat(5000)}` }, { common })],
    ['256-bit value', () => createTx({ ...base, ...fee, value: 2n ** 256n - 1n }, { common })],
  ]

  it.each(feeCases)('%s: the message and the signed bytes equal @ethereumjs/tx', (_name, make) => {
    const unsigned = make()
    const message = feeMarketMessage(unsigned)
    expect(bytesToHex(message)).toBe(bytesToHex(unsigned.getMessageToSign() as Uint8Array))
    const signed = unsigned.sign(key)
    for (const given of [message, undefined]) {
      const fast = withSignature(unsigned, signed.v!, signed.r!, signed.s!, given)
      expect(fast).toBeDefined()
      expect(bytesToHex(fast!.bytes)).toBe(bytesToHex(signed.serialize()))
      expect(bytesToHex(fast!.tx.hash())).toBe(bytesToHex(signed.hash()))
    }
  })
})

describe('signedBy and withEncoding', () => {
  v8.setFlagsFromString('--allow-natives-syntax')
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax parses only in code compiled after the flag
  const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean
  const from = privateToAddress(key)
  const fields = { nonce: 0n, gasLimit: 21_000n, to: hexToBytes(to), value: 1n, data: new Uint8Array(), accessList: undefined, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n }
  /** A send eth_sendRawTransaction decodes, as transactions.ts makes it. */
  const received = () => {
    const bytes = createTx({ ...base, type: 2, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, data: '0x' }, { common }).sign(key).serialize()
    return withEncoding(feeMarketFromValues(RLP.decode(bytes.subarray(1)), { common, freeze: false }), bytes)
  }
  /** A send the node signs (`r` a signature's) or makes for an impersonated account (`s` = 1), as transactions.ts makes it. */
  const sent = (v: bigint, r: bigint, s: bigint) => {
    const fast = withSignature(unsignedFeeMarket(fields, { common, freeze: false }), v, r, s)!
    return signedBy(fast.tx, from, fast.bytes)
  }

  it('behavior: a send received raw, one the node signs and an impersonated one have one hidden class', () => {
    const signed = createTx({ ...fields, type: 2, to }, { common }).sign(key)
    const mine = sent(signed.v!, signed.r!, signed.s!)
    expect(bytesToHex(mine.serialize())).toBe(bytesToHex(signed.serialize()))
    expect(mine.getSenderAddress().bytes).toEqual(from)
    // The class's own methods answer as on the library's object.
    expect(bytesToHex(mine.getMessageToVerifySignature())).toBe(bytesToHex(signed.getMessageToVerifySignature()))
    expect(bytesToHex(mine.getSenderPublicKey())).toBe(bytesToHex(signed.getSenderPublicKey()))
    expect(sameMap(received(), received())).toBe(true)
    expect(sameMap(mine, received())).toBe(true)
    expect(sameMap(sent(0n, 5n, 1n), received())).toBe(true)
  })
})
