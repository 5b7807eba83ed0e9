/**
 * eth_sendTransaction signs an EIP-1559 transaction without building it a second time (the
 * signature and the signed encoding are added to the filled transaction): the transaction it
 * mines is byte for byte the one @ethereumjs/tx's `sign` makes (eth_signTransaction's path), for
 * transfers, calls with data and access lists, and creations. A send for an impersonated account
 * carries exactly the placeholder signature `addSignature` gives. And a raw transaction whose
 * signature recovers no key is refused as before, and a malformed EIP-1559 one with @ethereumjs/tx's
 * own words (its decoding is called without the factory's type check).
 */
import { createTx, createTxFromRLP } from '@ethereumjs/tx'
import { keccak256, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { createChainCommon } from '../../src/chain/common.js'
import { artifact, qty, rpcError, sender, testNode } from '../helpers/execution.js'

let node: FinalityNode
const stranger = '0x00000000000000000000000000000000000000aa'

beforeAll(async () => {
  node = await testNode()
})
afterAll(() => node.close())

async function pendingNonce(from: Hex): Promise<Hex> {
  return (await node.request({ method: 'eth_getTransactionCount', params: [from, 'pending'] })) as Hex
}

/** Signs `req` with eth_signTransaction (ethereumjs' sign), then sends it; both must agree. */
async function sendAndCompare(req: Record<string, unknown>): Promise<Hex> {
  const from = req.from as Hex
  const full = { ...req, nonce: await pendingNonce(from) }
  const expected = (await node.request({ method: 'eth_signTransaction', params: [full] })) as Hex
  const hash = (await node.request({ method: 'eth_sendTransaction', params: [full] })) as Hex
  const raw = (await node.request({ method: 'eth_getRawTransactionByHash', params: [hash] })) as Hex
  expect(raw).toBe(expected)
  expect(hash).toBe(keccak256(expected))
  const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: Hex; from: Hex; transactionHash: Hex }
  expect(receipt.status).toBe('0x1')
  expect(receipt.from).toBe(from.toLowerCase())
  expect(receipt.transactionHash).toBe(hash)
  const tx = (await node.request({ method: 'eth_getTransactionByHash', params: [hash] })) as Record<string, unknown>
  const decoded = createTxFromRLP(Buffer.from(raw.slice(2), 'hex'), { common: createChainCommon(31337n, 'prague') })
  expect(tx.r).toBe(qty(decoded.r as bigint))
  expect(tx.s).toBe(qty(decoded.s as bigint))
  expect(tx.v).toBe(qty(decoded.v as bigint))
  expect(decoded.getSenderAddress().toString()).toBe(from.toLowerCase())
  return hash
}

describe('eth_sendTransaction signing', () => {
  it('EIP-1559 transfer with the fees filled in: the same bytes as eth_signTransaction', async () => {
    await sendAndCompare({ from: sender(node), to: stranger, value: '0x1', gas: '0x5208' })
  })

  it('EIP-1559 with fees, data and an access list given', async () => {
    await sendAndCompare({
      from: sender(node, 1),
      to: stranger,
      value: '0x0',
      gas: '0x20000',
      maxFeePerGas: '0x2540be400',
      maxPriorityFeePerGas: '0x3b9aca00',
      data: `0x${'ab00'.repeat(300)}`,
      accessList: [{ address: stranger, storageKeys: [`0x${'01'.repeat(32)}`] }],
    })
  })

  it('EIP-1559 creation (no `to`)', async () => {
    await sendAndCompare({ from: sender(node, 2), data: artifact('Counter').bytecode, gas: '0x100000' })
  })

  it('legacy (gasPrice) and EIP-2930 sends take ethereumjs\' signing: the same bytes too', async () => {
    await sendAndCompare({ from: sender(node), to: stranger, value: '0x2', gas: '0x5208', gasPrice: '0x77359400' })
    await sendAndCompare({ from: sender(node), to: stranger, value: '0x3', gas: '0x6000', gasPrice: '0x77359400', accessList: [] })
  })

  it('impersonated: the placeholder signature ethereumjs\' addSignature gives (r = sender, s = 1)', async () => {
    const who = '0x00000000000000000000000000000000000000bb'
    await node.request({ method: 'hardhat_setBalance', params: [who, '0xde0b6b3a7640000'] })
    await node.request({ method: 'hardhat_impersonateAccount', params: [who] })
    const hash = (await node.request({ method: 'eth_sendTransaction', params: [{ from: who, to: stranger, value: '0x5', gas: '0x5208' }] })) as Hex
    const raw = (await node.request({ method: 'eth_getRawTransactionByHash', params: [hash] })) as Hex
    expect(hash).toBe(keccak256(raw))
    const tx = (await node.request({ method: 'eth_getTransactionByHash', params: [hash] })) as unknown as Record<string, Hex>
    const common = createChainCommon(31337n, 'prague')
    const unsigned = createTx(
      { type: 2, nonce: BigInt(tx.nonce!), to: stranger, value: 5n, gasLimit: 21000n, maxFeePerGas: BigInt(tx.maxFeePerGas!), maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas!), data: '0x', accessList: [] },
      { common },
    )
    const expected = unsigned.addSignature(0n, BigInt(who), 1n)
    expect(raw).toBe(`0x${Buffer.from(expected.serialize()).toString('hex')}`)
    expect(tx).toMatchObject({ from: who, r: who.replace(/0x0+/, '0x'), s: '0x1', v: '0x0' })
  })
})

describe('eth_sendRawTransaction sender recovery', () => {
  it('a signature that recovers no key: invalid sender, nothing pooled', async () => {
    const common = createChainCommon(31337n, 'prague')
    const unsigned = createTx({ type: 2, nonce: 0n, to: stranger, value: 1n, gasLimit: 21000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, data: '0x', accessList: [] }, { common })
    // r = 5 is no x-coordinate of the curve (5^3 + 7 = 132 is not a square mod p): no key recovers.
    const bad = unsigned.addSignature(0n, 5n, 1n)
    const raw = `0x${Buffer.from(bad.serialize()).toString('hex')}`
    expect(await rpcError(node, 'eth_sendRawTransaction', [raw])).toMatchObject({ code: -32000, message: 'invalid sender' })
    expect(await node.request({ method: 'eth_getTransactionByHash', params: [keccak256(raw as Hex)] })).toBeNull()
  })
})

describe('eth_sendRawTransaction of a malformed EIP-1559 transaction', () => {
  const common = createChainCommon(31337n, 'prague')
  /** What submitRaw answers for a decoding error: ethereumjs' message without its details. */
  function expected(raw: Hex): string {
    try {
      createTxFromRLP(Buffer.from(raw.slice(2), 'hex'), { common })
    } catch (error) {
      return `invalid transaction: ${(error as Error).message.split(' (')[0]}`
    }
    throw new Error(`${raw} decodes`)
  }
  const signed = createTx({ type: 2, nonce: 0n, to: stranger, value: 1n, gasLimit: 21000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, data: '0x', accessList: [] }, { common }).sign(
    Buffer.from('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', 'hex'),
  )
  const good = Buffer.from(signed.serialize()).toString('hex')
  it.each([
    ['no list', '0x02'],
    ['a string, not a list', '0x0283010203'],
    ['an empty list', '0x02c0'],
    ['truncated', `0x${good.slice(0, -4)}`],
    ['trailing bytes', `0x${good}00`],
    ['a prefixed single byte', '0x02c3810101'],
    ['a list where the chain id goes', '0x02cac0010203040506070809'],
  ] as Array<[string, Hex]>)('%s: ethereumjs\' words', async (_name, raw) => {
    expect(await rpcError(node, 'eth_sendRawTransaction', [raw])).toMatchObject({ code: -32000, message: expected(raw) })
  })
})
