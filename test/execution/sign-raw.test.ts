/**
 * eth_fillTransaction (`{ raw, tx }` as geth), eth_signTransaction (raw hex, as Hardhat and Anvil), the raw accessors and
 * eth_blobBaseFee.
 */
import { Transaction } from 'ethers'
import { getAddress, keccak256, parseTransaction, recoverTransactionAddress, type Hex, type TransactionSerialized } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { qty, rpcError, sender, testNode } from '../helpers/execution.js'

let node: FinalityNode
const stranger = '0x00000000000000000000000000000000000000aa'
type Filled = { raw: Hex; tx: Record<string, string | null> }

beforeAll(async () => {
  node = await testNode()
})
afterAll(() => node.close())

describe('eth_fillTransaction', () => {
  it('default: fills nonce, gas and EIP-1559 fees; raw is the unsigned encoding', async () => {
    const nonce = (await node.request({ method: 'eth_getTransactionCount', params: [sender(node), 'pending'] })) as Hex
    const { raw, tx } = (await node.request({ method: 'eth_fillTransaction', params: [{ from: sender(node), to: stranger, value: '0x1' }] })) as unknown as Filled
    expect(tx).toMatchObject({ type: '0x2', nonce, gas: '0x5208', to: stranger, value: '0x1', input: '0x', v: '0x0', r: '0x0', s: '0x0', chainId: '0x7a69' })
    expect(BigInt(tx.maxFeePerGas as string)).toBeGreaterThan(0n)
    expect(BigInt(tx.maxPriorityFeePerGas as string)).toBe(1_000_000_000n)
    expect(tx.hash).toBe(keccak256(raw))
    const parsed = parseTransaction(raw as TransactionSerialized)
    expect(parsed).toMatchObject({ type: 'eip1559', to: stranger, value: 1n, gas: 21000n, nonce: Number(nonce) })
    expect(BigInt(parsed.r ?? '0x0')).toBe(0n)
  })

  it('args: gasPrice makes a legacy transaction; given fields are kept', async () => {
    const { tx } = (await node.request({ method: 'eth_fillTransaction', params: [{ from: sender(node), to: stranger, gasPrice: '0x77359400', nonce: '0x63', gas: '0x6000' }] })) as unknown as Filled
    expect(tx).toMatchObject({ type: '0x0', gasPrice: '0x77359400', nonce: '0x63', gas: '0x6000' })
  })
})

describe('eth_signTransaction', () => {
  it('default: signs with the node-held key; the raw transaction can be sent', async () => {
    const raw = (await node.request({ method: 'eth_signTransaction', params: [{ from: sender(node, 1), to: stranger, value: '0x2' }] })) as Hex
    expect(await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized })).toBe(getAddress(sender(node, 1)))
    expect(Transaction.from(raw).from).toBe(getAddress(sender(node, 1)))
    const hash = await node.request({ method: 'eth_sendRawTransaction', params: [raw] })
    expect(hash).toBe(keccak256(raw))
    expect(await node.request({ method: 'eth_getBalance', params: [stranger, 'latest'] })).toBe('0x2')
  })

  it('error: an account the node has no key for', async () => {
    const e = await rpcError(node, 'eth_signTransaction', [{ from: stranger, to: stranger, gas: '0x5208', gasPrice: '0x1', nonce: '0x0' }])
    expect(e).toMatchObject({ code: -32000, message: 'unknown account' })
  })

  it('error: the tx fee cap applies', async () => {
    const e = await rpcError(node, 'eth_signTransaction', [{ from: sender(node), to: stranger, gas: '0x5208', gasPrice: qty(10n ** 18n) }])
    expect(e.message).toMatch(/^tx fee \(21000\.00 ether\) exceeds the configured cap \(1\.00 ether\)$/)
  })
})

describe('raw accessors', () => {
  it('by hash, by block hash and index, by block number and index', async () => {
    const raw = (await node.request({ method: 'eth_signTransaction', params: [{ from: sender(node, 2), to: stranger, value: '0x3' }] })) as Hex
    const hash = (await node.request({ method: 'eth_sendRawTransaction', params: [raw] })) as Hex
    const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { blockHash: Hex; blockNumber: Hex }
    expect(await node.request({ method: 'eth_getRawTransactionByHash', params: [hash] })).toBe(raw)
    expect(await node.request({ method: 'eth_getRawTransactionByBlockHashAndIndex', params: [receipt.blockHash, '0x0'] })).toBe(raw)
    expect(await node.request({ method: 'eth_getRawTransactionByBlockNumberAndIndex', params: [receipt.blockNumber, '0x0'] })).toBe(raw)
    expect(await node.request({ method: 'eth_getRawTransactionByBlockNumberAndIndex', params: ['latest', '0x0'] })).toBe(raw)
  })

  it('unknown transactions, indexes past the end and unknown blocks are null', async () => {
    expect(await node.request({ method: 'eth_getRawTransactionByHash', params: [`0x${'11'.repeat(32)}`] })).toBeNull()
    expect(await node.request({ method: 'eth_getRawTransactionByBlockNumberAndIndex', params: ['latest', '0x1'] })).toBeNull()
    expect(await node.request({ method: 'eth_getRawTransactionByBlockNumberAndIndex', params: ['0xffff', '0x0'] })).toBeNull()
    expect(await node.request({ method: 'eth_getRawTransactionByBlockHashAndIndex', params: [`0x${'22'.repeat(32)}`, '0x0'] })).toBeNull()
  })

  it('a pending transaction is found by hash', async () => {
    const manual = await testNode({ mining: { mode: 'manual' } })
    const raw = (await manual.request({ method: 'eth_signTransaction', params: [{ from: sender(manual), to: stranger, value: '0x1' }] })) as Hex
    const hash = await manual.request({ method: 'eth_sendRawTransaction', params: [raw] })
    expect(await manual.request({ method: 'eth_getRawTransactionByHash', params: [hash] })).toBe(raw)
    await manual.close()
  })

  it('error: bad params', async () => {
    expect((await rpcError(node, 'eth_getRawTransactionByHash', ['0x12'])).code).toBe(-32602)
    expect((await rpcError(node, 'eth_getRawTransactionByBlockNumberAndIndex', ['latest', '0x01'])).message).toBe('invalid argument 1: hex number with leading zero digits')
  })
})

describe('eth_blobBaseFee', () => {
  it('cancun and prague: the next block\'s blob base fee', async () => {
    expect(await node.request({ method: 'eth_blobBaseFee' })).toBe('0x1')
  })

  it('before cancun: no blobs, an error', async () => {
    const london = await testNode({ hardfork: 'shanghai' })
    const e = await rpcError(london, 'eth_blobBaseFee', [])
    expect(e.code).toBe(-32000)
    expect(e.message).toMatch(/no blobs/)
    await london.close()
  })
})

describe('eth_signTransaction through viem and ethers', () => {
  it('behavior: viem walletClient.signTransaction and ethers JsonRpcSigner.signTransaction get a raw transaction', async () => {
    const { createWalletClient, custom } = await import('viem')
    const { BrowserProvider } = await import('ethers')
    const chain = { id: 31337, name: 'f', nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 }, rpcUrls: { default: { http: ['http://x'] } } } as const
    const wallet = createWalletClient({ chain, transport: custom(node.provider) })
    const from = getAddress(sender(node, 3))
    const raw = await wallet.signTransaction({ account: from, to: stranger, value: 5n, gas: 21000n, nonce: 0 })
    expect(await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized })).toBe(from)
    expect(parseTransaction(raw).value).toBe(5n)
    const signer = await new BrowserProvider(node.provider).getSigner(from)
    const signed = await signer.signTransaction({ to: stranger, value: 6n, gasLimit: 21000n, nonce: 0, chainId: 31337n, type: 2, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n })
    expect(Transaction.from(signed).from).toBe(from)
  })
})
