/**
 * docs/validators.md as tests: what `miner` is with several validators, a halt and its end, the
 * bytes validators sign, and the page's certificate check (run here verbatim) that trusts
 * nothing the node says but the certificate and the block hash.
 */
import { readFileSync } from 'node:fs'
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { mnemonicToSeedSync } from '@scure/bip39'
import { bytesToHex, concat, hexToBytes, keccak256, stringToBytes, toHex, toRlp, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signBytes as nodeSignBytes, Step } from '../../src/consensus/votes.js'
import { createNode, type CommitCertificateJson, type FinalityNode } from '../../src/index.js'

const MNEMONIC = 'test test test test test test test test test test test junk'

// #region snippet (docs/validators.md holds this text verbatim)
/** The validators' ed25519 public keys of a node created with `mnemonic` and `count` validators. */
export function validatorKeys(mnemonic: string, count: number): Uint8Array[] {
  const seed = mnemonicToSeedSync(mnemonic)
  return Array.from({ length: count }, (_, i) =>
    ed25519.getPublicKey(hexToBytes(keccak256(concat([stringToBytes(`finality/validator/${i}`), seed])))),
  )
}

/** "finality/consensus/v1" ‖ RLP([step, chainId, height, round, blockHash]); step 3 = precommit. */
export function signBytes(step: 1 | 2 | 3, chainId: bigint, height: bigint, round: bigint, blockHash: Hex): Uint8Array {
  const int = (n: bigint): Hex => (n === 0n ? '0x' : toHex(n)) // RLP integers: minimal big-endian, 0 is empty
  const list = toRlp([int(BigInt(step)), int(chainId), int(height), int(round), blockHash], 'bytes')
  return concat([stringToBytes('finality/consensus/v1'), list])
}

/** True when validators of `publicKeys` (equal power) holding more than 2/3 precommitted `blockHash`. */
export function verifyCertificate(cert: CommitCertificateJson, blockHash: Hex, chainId: bigint, publicKeys: Uint8Array[]): boolean {
  if (cert.blockHash.toLowerCase() !== blockHash.toLowerCase()) return false
  const byAddress = new Map(publicKeys.map((key) => [bytesToHex(sha256(key).subarray(0, 20)), key]))
  const message = signBytes(3, chainId, BigInt(cert.height), BigInt(cert.round), cert.blockHash)
  const seen = new Set<string>()
  for (const { validator, signature } of cert.precommits) {
    const key = byAddress.get(validator.toLowerCase() as Hex)
    if (key === undefined || seen.has(validator.toLowerCase())) return false
    if (!ed25519.verify(hexToBytes(signature), message, key)) return false
    seen.add(validator.toLowerCase())
  }
  return seen.size * 3 > publicKeys.length * 2
}
// #endregion snippet

interface RpcBlock {
  number: Hex
  hash: Hex
  miner: Hex
}

async function blockAt(node: FinalityNode, n: bigint): Promise<RpcBlock> {
  return (await node.request({ method: 'eth_getBlockByNumber', params: [toHex(n), false] })) as RpcBlock
}

async function certificateAt(node: FinalityNode, n: bigint): Promise<CommitCertificateJson> {
  return (await node.request({ method: 'finality_getCommitCertificate', params: [toHex(n)] })) as CommitCertificateJson
}

async function transfer(node: FinalityNode): Promise<Hex> {
  const [from, to] = node.accounts
  return (await node.request({ method: 'eth_sendTransaction', params: [{ from: from!.address, to: to!.address, value: '0x1' }] })) as Hex
}

async function head(node: FinalityNode): Promise<bigint> {
  return BigInt((await node.request({ method: 'eth_blockNumber' })) as Hex)
}

describe('the page', () => {
  it('holds the certificate check this file runs', () => {
    const source = readFileSync(new URL(import.meta.url), 'utf8')
    const region = /\/\/ #region snippet[^\n]*\n([\s\S]*?)\/\/ #endregion snippet/.exec(source)![1]!
    const page = readFileSync(new URL('../../docs/validators.md', import.meta.url), 'utf8')
    expect(page).toContain(region)
  })
})

/** Short time-outs, so a round whose proposer is offline moves on after 30 ms. */
const FAST = { timeouts: { propose: 30, proposeDelta: 10, prevote: 10, prevoteDelta: 10, precommit: 10, precommitDelta: 10 } }

describe('four validators', () => {
  let node: FinalityNode
  let keys: Uint8Array[]

  beforeAll(async () => {
    node = await createNode({ validators: 4, consensus: FAST })
    keys = validatorKeys(MNEMONIC, 4)
    for (let i = 0; i < 4; i++) await transfer(node)
  })

  afterAll(async () => {
    await node.close()
  })

  it('the keys derived from the mnemonic are the ones the node lists', async () => {
    const listed = (await node.request({ method: 'finality_getValidators' })) as { address: Hex; publicKey: Hex }[]
    expect(listed.map((v) => v.publicKey).sort()).toEqual(keys.map((k) => bytesToHex(k)).sort())
    for (const v of listed) expect(bytesToHex(sha256(hexToBytes(v.publicKey)).subarray(0, 20))).toBe(v.address)
  })

  it("the page's worked example is the node's precommit bytes", () => {
    const page = readFileSync(new URL('../../docs/validators.md', import.meta.url), 'utf8')
    const block = /The precommit of block 1[\s\S]*?\n\n((?: {4}.*\n)+)/.exec(page)![1]!
    const hex = block.split('\n').filter(Boolean).map((line) => line.trim().split(/\s+/)[0]).join('')
    expect(`0x${hex}`).toBe(bytesToHex(nodeSignBytes(Step.Precommit, 31337n, 1n, 0, new Uint8Array(32).fill(0xab))))
  })

  it('signBytes is the message the node signs', () => {
    const hash = keccak256('0x01')
    for (const [step, chainId, height, round] of [
      [Step.Precommit, 31337n, 1n, 0],
      [Step.Prevote, 1n, 127n, 1],
      [Step.Proposal, 2n ** 64n, 128n, 200],
    ] as const) {
      expect(bytesToHex(signBytes(step, chainId, height, BigInt(round), hash))).toBe(
        bytesToHex(nodeSignBytes(step, chainId, height, round, hexToBytes(hash))),
      )
    }
  })

  it('every block certificate verifies with keys from the mnemonic alone', async () => {
    for (let n = 1n; n <= (await head(node)); n++) {
      const block = await blockAt(node, n)
      const cert = await certificateAt(node, n)
      expect(cert.precommits).toHaveLength(4)
      expect(verifyCertificate(cert, block.hash, 31337n, keys)).toBe(true)
      expect((await node.commitCertificate(n))?.valid).toBe(true)
    }
  })

  it('a forged, repeated, short or misplaced certificate does not verify', async () => {
    const block = await blockAt(node, 1n)
    const cert = await certificateAt(node, 1n)
    const [first, second, third] = cert.precommits
    const flipped = `${first!.signature.slice(0, -2)}${first!.signature.endsWith('00') ? '01' : '00'}` as Hex
    expect(verifyCertificate({ ...cert, precommits: [{ ...first!, signature: flipped }, second!, third!] }, block.hash, 31337n, keys)).toBe(false)
    expect(verifyCertificate({ ...cert, precommits: [first!, first!, second!] }, block.hash, 31337n, keys)).toBe(false)
    expect(verifyCertificate({ ...cert, precommits: [first!, second!] }, block.hash, 31337n, keys)).toBe(false)
    expect(verifyCertificate({ ...cert, precommits: [first!, second!, third!] }, block.hash, 31337n, keys)).toBe(true)
    expect(verifyCertificate(cert, (await blockAt(node, 2n)).hash, 31337n, keys)).toBe(false)
    expect(verifyCertificate({ ...cert, height: '0x2' }, block.hash, 31337n, keys)).toBe(false)
    expect(verifyCertificate(cert, block.hash, 1n, keys)).toBe(false)
    expect(verifyCertificate(cert, block.hash, 31337n, validatorKeys(MNEMONIC, 5).slice(1))).toBe(false)
  })

  it("miner is the fee recipient of the round's proposer, taken in turn by address", async () => {
    const listed = (await node.request({ method: 'finality_getValidators' })) as { address: Hex; feeRecipient: Hex }[]
    const byAddress = [...listed].sort((a, b) => (a.address < b.address ? -1 : 1))
    const start = await head(node)
    // Height h's round-0 proposer is validator (h − 1) mod 4 (equal power: CometBFT's weighted
    // round-robin takes turns in address order).
    const offline = byAddress[Number(start % 4n)]!
    node.setValidatorOnline(offline.address, false)
    try {
      for (let i = 0; i < 4; i++) await transfer(node)
      for (let n = start + 1n; n <= start + 4n; n++) {
        const cert = await certificateAt(node, n)
        const block = await blockAt(node, n)
        const proposer = byAddress[Number((n - 1n + BigInt(cert.round)) % 4n)]!
        expect(cert.proposer).toBe(proposer.address)
        expect(block.miner).toBe(proposer.feeRecipient)
        expect(cert.precommits.map((p) => p.validator)).not.toContain(offline.address)
        expect(verifyCertificate(cert, block.hash, 31337n, keys)).toBe(true)
      }
      // the offline validator's turn (height start + 1) went to round 1 and the next validator
      expect((await certificateAt(node, start + 1n)).round).toBe('0x1')
    } finally {
      node.setValidatorOnline(offline.address, true)
    }
  })

  it('halts with two of four offline and resumes when one is back', async () => {
    const [a, b] = node.validators
    const before = await head(node)
    node.setValidatorOnline(a!.address, false)
    node.setValidatorOnline(b!.address, false)
    const hash = await transfer(node)
    expect(await node.request({ method: 'txpool_status' })).toEqual({ pending: '0x1', queued: '0x0' })
    expect(await node.mine()).toBeUndefined()
    await expect(node.request({ method: 'evm_mine' })).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/^the chain is halted: validators able to vote for a block hold 20 of 40 voting power/) })
    expect(await head(node)).toBe(before)
    expect(await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })).toBeNull()

    node.setValidatorOnline(b!.address, true)
    await node.mine()
    const receipt = (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { blockNumber: Hex } | null
    expect(receipt?.blockNumber).toBe(toHex(before + 1n))
    const cert = await certificateAt(node, before + 1n)
    expect(cert.precommits).toHaveLength(3)
    expect(verifyCertificate(cert, (await blockAt(node, before + 1n)).hash, 31337n, keys)).toBe(true)
    node.setValidatorOnline(a!.address, true)
  })
})

describe('three validators', () => {
  it('one offline halts the chain: 2 of 3 is not more than 2/3', async () => {
    const node = await createNode({ validators: 3, mining: { mode: 'manual' }, consensus: FAST })
    try {
      node.setValidatorOnline(node.validators[0]!.address, false)
      expect(await node.mine()).toBeUndefined()
      node.setValidatorOnline(node.validators[0]!.address, true)
      expect((await node.mine())?.number).toBe(1n)
    } finally {
      await node.close()
    }
  })
})
