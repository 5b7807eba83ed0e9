/**
 * Consensus: commit certificates (node API and RPC, checked independently), a 4-validator set
 * with validators going offline (halt without quorum, resume with it), manual and interval
 * mining, and the chain's links: parent hashes, increasing timestamps, safe/finalized = latest.
 */
import { createPublicKey, verify as edVerify } from 'node:crypto'
import { RLP } from '@ethereumjs/rlp'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes, keccak256, parseGwei, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { createNode, type BlockTag, type FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'

type Block = {
  number: Hex
  hash: Hex
  parentHash: Hex
  timestamp: Hex
  transactions: Hex[]
  miner: Hex
}
type Certificate = {
  height: Hex
  round: Hex
  blockHash: Hex
  proposer: Hex
  precommits: Array<{ validator: Hex; signature: Hex }>
}
type ValidatorInfo = { address: Hex; publicKey: Hex; votingPower: Hex; feeRecipient: Hex; online: boolean }

const newNode = trackNodes()


async function blockNumber(n: FinalityNode): Promise<bigint> {
  return BigInt((await n.request({ method: 'eth_blockNumber' })) as string)
}

async function getBlock(n: FinalityNode, tag: BlockTag | bigint): Promise<Block | null> {
  const t: BlockTag = typeof tag === 'bigint' ? `0x${tag.toString(16)}` : tag
  return (await n.request({ method: 'eth_getBlockByNumber', params: [t, false] })) as Block | null
}

async function rpcCertificate(n: FinalityNode, tag: BlockTag | bigint): Promise<Certificate | null> {
  const t: BlockTag = typeof tag === 'bigint' ? `0x${tag.toString(16)}` : tag
  return (await n.request({ method: 'finality_getCommitCertificate', params: [t] })) as Certificate | null
}

async function validatorsOf(n: FinalityNode): Promise<ValidatorInfo[]> {
  return (await n.request({ method: 'finality_getValidators' })) as ValidatorInfo[]
}

async function transfer(n: FinalityNode, from = 0, to = 1, value = 1000n): Promise<Hex> {
  return (await n.request({
    method: 'eth_sendTransaction',
    params: [{ from: n.accounts[from]!.address, to: n.accounts[to]!.address, value: `0x${value.toString(16)}` }],
  })) as Hex
}

async function receipt(n: FinalityNode, hash: Hex): Promise<Record<string, unknown> | null> {
  return (await n.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as Record<string, unknown> | null
}

const SPKI_ED25519_PREFIX = hexToBytes('0x302a300506032b6570032100')

/**
 * Checks a certificate without the node's code: each precommit is an ed25519 signature by the
 * named validator's public key over `finality/consensus/v1 ‖ rlp([3, chainId, height, round, blockHash])`.
 */
function verifyIndependently(cert: Certificate, validators: ValidatorInfo[], chainId = 31337n): number {
  const message = new Uint8Array([
    ...new TextEncoder().encode('finality/consensus/v1'),
    ...RLP.encode([3, chainId, BigInt(cert.height), BigInt(cert.round), hexToBytes(cert.blockHash)]),
  ])
  const seen = new Set<string>()
  let valid = 0
  for (const p of cert.precommits) {
    const v = validators.find((x) => x.address === p.validator)
    expect(v, `precommit by unknown validator ${p.validator}`).toBeDefined()
    expect(seen.has(p.validator)).toBe(false)
    seen.add(p.validator)
    const key = createPublicKey({
      key: Buffer.from([...SPKI_ED25519_PREFIX, ...hexToBytes(v!.publicKey)]),
      format: 'der',
      type: 'spki',
    })
    if (edVerify(null, message, key, hexToBytes(p.signature))) valid++
  }
  return valid
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

// ---------------------------------------------------------------------------------------------

describe('commit certificates (1 validator)', () => {
  it('each committed block has a valid certificate naming its hash, and the RPC returns the same', async () => {
    const n = await newNode()
    for (let i = 0; i < 3; i++) await transfer(n, 0, 1 + i)
    expect(await blockNumber(n)).toBe(3n)
    const validators = await validatorsOf(n)
    expect(validators).toHaveLength(1)
    expect(validators[0]!.address).toBe(n.validators[0]!.address)
    // A validator is named by sha256(public key)[0..20].
    expect(validators[0]!.address).toBe(bytesToHex(sha256(hexToBytes(validators[0]!.publicKey)).subarray(0, 20)))

    for (let h = 1n; h <= 3n; h++) {
      const block = (await getBlock(n, h))!
      const cert = await n.commitCertificate(h)
      expect(cert).toBeDefined()
      expect(cert!.valid).toBe(true)
      expect(cert!.blockHash).toBe(block.hash)
      expect(BigInt(cert!.height)).toBe(h)
      expect(cert!.round).toBe('0x0')
      expect(cert!.proposer).toBe(validators[0]!.address)
      expect(cert!.precommits).toHaveLength(1)
      expect(cert!.precommits[0]!.validator).toBe(validators[0]!.address)
      expect(cert!.precommits[0]!.signature).toMatch(/^0x[0-9a-f]{128}$/)

      const viaRpc = await rpcCertificate(n, h)
      const { valid: _valid, ...json } = cert!
      expect(viaRpc).toEqual(json)
      expect(verifyIndependently(viaRpc!, validators)).toBe(1)
    }
    expect(await rpcCertificate(n, 'latest')).toEqual(await rpcCertificate(n, 3n))
  })

  it('a certificate does not verify for another block (signatures bind height and hash)', async () => {
    const n = await newNode()
    await transfer(n)
    await transfer(n)
    const validators = await validatorsOf(n)
    const c1 = (await rpcCertificate(n, 1n))!
    const c2 = (await rpcCertificate(n, 2n))!
    expect(c1.blockHash).not.toBe(c2.blockHash)
    // c1's signatures over c2's block hash (or height) must not verify.
    expect(verifyIndependently({ ...c1, blockHash: c2.blockHash }, validators)).toBe(0)
    expect(verifyIndependently({ ...c1, height: c2.height }, validators)).toBe(0)
    expect(verifyIndependently(c1, validators)).toBe(1)
  })

  it('genesis has no certificate; a block past the head neither', async () => {
    const n = await newNode()
    expect(await n.commitCertificate(0n)).toBeUndefined()
    expect(await rpcCertificate(n, 0n)).toBeNull()
    expect(await rpcCertificate(n, 'earliest')).toBeNull()
    expect(await n.commitCertificate(5n)).toBeUndefined()
    expect(await rpcCertificate(n, 5n)).toBeNull()
  })
})

// ---------------------------------------------------------------------------------------------

/** Short time-outs: a round whose proposer is offline moves on after 30 ms of the wall clock. */
const FAST = { timeouts: { propose: 30, proposeDelta: 10, prevote: 10, prevoteDelta: 10, precommit: 10, precommitDelta: 10 } }

describe('4 validators', () => {
  it('node.validators and finality_getValidators list the set in one order (the proposer rotation\'s)', async () => {
    const n = await newNode({ validators: 7 })
    const rpc = await validatorsOf(n)
    expect(n.validators.map((v) => v.address)).toEqual(rpc.map((v) => v.address))
    const sorted = [...rpc.map((v) => v.address)].sort()
    expect(rpc.map((v) => v.address)).toEqual(sorted)
    // With equal power, CometBFT's weighted round-robin takes them in that order: height 1 is
    // proposed by the first, height h by validator (h − 1) mod n.
    for (let h = 1n; h <= 14n; h++) {
      await n.mine()
      expect((await n.commitCertificate(h))!.proposer).toBe(n.validators[Number((h - 1n) % 7n)]!.address)
    }
  })

  it('blocks commit with certificates signed by at least 3 validators', async () => {
    const n = await newNode({ validators: 4, consensus: FAST })
    expect(n.validators).toHaveLength(4)
    const validators = await validatorsOf(n)
    expect(validators).toHaveLength(4)
    expect(new Set(validators.map((v) => v.address)).size).toBe(4)
    for (let i = 0; i < 4; i++) await transfer(n, 0, 1)
    expect(await blockNumber(n)).toBe(4n)
    const proposers = new Set<string>()
    for (let h = 1n; h <= 4n; h++) {
      const cert = (await n.commitCertificate(h))!
      expect(cert.valid).toBe(true)
      expect(cert.blockHash).toBe((await getBlock(n, h))!.hash)
      expect(cert.precommits.length).toBeGreaterThanOrEqual(3)
      expect(verifyIndependently((await rpcCertificate(n, h))!, validators)).toBeGreaterThanOrEqual(3)
      proposers.add(cert.proposer)
      // The block's miner is the proposer's fee recipient.
      const proposer = validators.find((v) => v.address === cert.proposer)!
      expect((await getBlock(n, h))!.miner.toLowerCase()).toBe(proposer.feeRecipient.toLowerCase())
    }
    // Round-robin: four heights, four different proposers.
    expect(proposers.size).toBe(4)
  })

  it('one validator offline: blocks still commit, without its precommit', async () => {
    const n = await newNode({ validators: 4, consensus: FAST })
    const offline = n.validators[1]!.address
    n.setValidatorOnline(offline, false)
    expect((await validatorsOf(n)).find((v) => v.address === offline)!.online).toBe(false)
    const validators = await validatorsOf(n)
    const rounds: string[] = []
    for (let i = 0; i < 4; i++) {
      const hash = await transfer(n, 0, 1)
      expect((await receipt(n, hash))!.status).toBe('0x1')
    }
    expect(await blockNumber(n)).toBe(4n)
    for (let h = 1n; h <= 4n; h++) {
      const cert = (await n.commitCertificate(h))!
      expect(cert.valid).toBe(true)
      expect(cert.precommits).toHaveLength(3)
      expect(cert.precommits.map((p) => p.validator)).not.toContain(offline)
      expect(cert.proposer).not.toBe(offline)
      expect(verifyIndependently((await rpcCertificate(n, h))!, validators)).toBe(3)
      rounds.push(cert.round)
    }
    // The height whose first proposer is offline is decided in round 1; the others in round 0.
    expect(rounds.filter((r) => r === '0x1')).toHaveLength(1)
    expect(rounds.filter((r) => r === '0x0')).toHaveLength(3)
  })

  it('two offline: no quorum, mine() resolves undefined and the chain halts; one back: it resumes', async () => {
    const n = await newNode({ validators: 4, consensus: FAST })
    await transfer(n)
    expect(await blockNumber(n)).toBe(1n)
    const head = (await getBlock(n, 'latest'))!

    n.setValidatorOnline(n.validators[0]!.address, false)
    n.setValidatorOnline(n.validators[2]!.address, false)
    expect(await n.mine()).toBeUndefined()
    expect(await n.mine()).toBeUndefined()
    expect(await blockNumber(n)).toBe(1n)
    expect((await getBlock(n, 'latest'))!.hash).toBe(head.hash)
    expect(await getBlock(n, 2n)).toBeNull()
    expect(await n.commitCertificate(2n)).toBeUndefined()

    n.setValidatorOnline(n.validators[2]!.address, true)
    const mined = await n.mine()
    expect(mined).toBeDefined()
    expect(mined!.number).toBe(2n)
    expect(await blockNumber(n)).toBe(2n)
    const block = (await getBlock(n, 2n))!
    expect(mined!.hash).toBe(block.hash)
    expect(block.parentHash).toBe(head.hash)
    const cert = (await n.commitCertificate(2n))!
    expect(cert.valid).toBe(true)
    expect(cert.precommits).toHaveLength(3)
    expect(cert.precommits.map((p) => p.validator)).not.toContain(n.validators[0]!.address)

    // And transactions commit again in automine.
    const hash = await transfer(n)
    expect((await receipt(n, hash))!.blockNumber).toBe('0x3')
  })

  it('an unknown validator address is refused', async () => {
    const n = await newNode({ validators: 4, consensus: FAST })
    expect(() => n.setValidatorOnline(`0x${'12'.repeat(20)}`, false)).toThrow(/unknown validator/)
    // Nothing changed: all four are still online and blocks commit with four precommits.
    expect((await validatorsOf(n)).every((v) => v.online)).toBe(true)
    await transfer(n)
    expect((await n.commitCertificate(1n))!.precommits).toHaveLength(4)
  })
})

// ---------------------------------------------------------------------------------------------

describe('manual mining', () => {
  const fees = { maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: parseGwei('1') }

  function signed(key: Hex, nonce: number, value = 1n) {
    return privateKeyToAccount(key).signTransaction({
      type: 'eip1559',
      chainId: 31337,
      nonce,
      to: '0x000000000000000000000000000000000000dEaD',
      value,
      gas: 21_000n,
      ...fees,
    })
  }

  it('eth_sendRawTransaction returns a hash; the block number moves only on mine()', async () => {
    const n = await newNode({ mining: { mode: 'manual' } })
    const raw = await signed(n.accounts[0]!.privateKey as Hex, 0)
    const hash = (await n.request({ method: 'eth_sendRawTransaction', params: [raw] })) as Hex
    expect(hash).toBe(keccak256(raw))
    expect(await blockNumber(n)).toBe(0n)
    expect(await receipt(n, hash)).toBeNull()
    await sleep(50)
    expect(await blockNumber(n)).toBe(0n)
    // Pending in the pool: known, not in a block.
    const pending = (await n.request({ method: 'eth_getTransactionByHash', params: [hash] })) as Record<string, unknown>
    expect(pending.blockNumber).toBeNull()

    const mined = await n.mine()
    expect(mined!.number).toBe(1n)
    expect(await blockNumber(n)).toBe(1n)
    const r = (await receipt(n, hash))!
    expect(r.status).toBe('0x1')
    expect(r.blockNumber).toBe('0x1')
    expect(r.blockHash).toBe(mined!.hash)
    expect((await n.commitCertificate(1n))!.valid).toBe(true)
  })

  it('eth_sendTransaction returns before mining too', async () => {
    const n = await newNode({ mining: { mode: 'manual' } })
    const hash = await transfer(n)
    expect(await blockNumber(n)).toBe(0n)
    expect(await receipt(n, hash)).toBeNull()
    await n.mine()
    expect((await receipt(n, hash))!.status).toBe('0x1')
  })

  it('several transactions with increasing nonces are mined in one block, in nonce order', async () => {
    const n = await newNode({ mining: { mode: 'manual' } })
    const key = n.accounts[0]!.privateKey as Hex
    const hashes: Hex[] = []
    for (let nonce = 0; nonce < 4; nonce++) {
      hashes.push((await n.request({ method: 'eth_sendRawTransaction', params: [await signed(key, nonce, BigInt(nonce + 1))] })) as Hex)
    }
    expect(await n.request({ method: 'eth_getTransactionCount', params: [n.accounts[0]!.address, 'pending'] })).toBe('0x4')
    expect(await n.request({ method: 'eth_getTransactionCount', params: [n.accounts[0]!.address, 'latest'] })).toBe('0x0')
    expect(await blockNumber(n)).toBe(0n)

    await n.mine()
    expect(await blockNumber(n)).toBe(1n)
    const block = (await getBlock(n, 1n))!
    expect(block.transactions).toEqual(hashes)
    for (const [i, h] of hashes.entries()) {
      const r = (await receipt(n, h))!
      expect(r.status).toBe('0x1')
      expect(r.blockNumber).toBe('0x1')
      expect(r.transactionIndex).toBe(`0x${i.toString(16)}`)
    }
    expect(await n.request({ method: 'eth_getTransactionCount', params: [n.accounts[0]!.address, 'latest'] })).toBe('0x4')
    expect(await n.request({ method: 'eth_getTransactionCount', params: [n.accounts[0]!.address, 'pending'] })).toBe('0x4')

    // An empty mine still produces a block.
    const empty = await n.mine()
    expect(empty!.number).toBe(2n)
    expect((await getBlock(n, 2n))!.transactions).toEqual([])
  })

  it('mine({ timestamp }) sets the timestamp, and refuses one not after the parent', async () => {
    const n = await newNode({ mining: { mode: 'manual' } })
    const genesis = (await getBlock(n, 0n))!
    const t = BigInt(genesis.timestamp) + 1000n
    await n.mine({ timestamp: t })
    expect(BigInt((await getBlock(n, 1n))!.timestamp)).toBe(t)
    await expect(n.mine({ timestamp: t })).rejects.toThrow()
    expect(await blockNumber(n)).toBe(1n)
  })
})

// ---------------------------------------------------------------------------------------------

describe('interval mining', () => {
  it('produces blocks by itself and includes transactions', async () => {
    const n = await newNode({ mining: { mode: 'interval', blockTime: 20 } })
    let height = 0n
    for (let i = 0; i < 500 && height < 3n; i++) {
      await sleep(20)
      height = await blockNumber(n)
    }
    expect(height).toBeGreaterThanOrEqual(3n)

    const hash = await transfer(n)
    let r: Record<string, unknown> | null = null
    for (let i = 0; i < 500 && r === null; i++) {
      await sleep(20)
      r = await receipt(n, hash)
    }
    expect(r).not.toBeNull()
    expect(r!.status).toBe('0x1')
    const cert = (await n.commitCertificate(BigInt(r!.blockNumber as string)))!
    expect(cert.valid).toBe(true)
    expect(cert.blockHash).toBe(r!.blockHash)
  })

  it('stops producing after close()', async () => {
    const n = await createNode({ mining: { mode: 'interval', blockTime: 10 } })
    let height = 0n
    for (let i = 0; i < 500 && height < 1n; i++) {
      await sleep(10)
      height = await blockNumber(n)
    }
    expect(height).toBeGreaterThanOrEqual(1n)
    await n.close()
    // Reads after close() may be refused; when they are answered, the height must not move.
    const read = () => n.request({ method: 'eth_blockNumber' }).then((h) => BigInt(h as string), () => undefined)
    const after = await read()
    await sleep(150)
    const later = await read()
    if (after !== undefined) expect(later).toBe(after)
    await expect(n.provider.request({ method: 'eth_blockNumber' })).rejects.toMatchObject({ code: 4900 })
  })
})

// ---------------------------------------------------------------------------------------------

describe('the chain', () => {
  it('parent hashes link and timestamps strictly increase across 5 blocks', async () => {
    const n = await newNode()
    for (let i = 0; i < 5; i++) await transfer(n, 0, 1 + i)
    expect(await blockNumber(n)).toBe(5n)
    let parent = (await getBlock(n, 0n))!
    for (let h = 1n; h <= 5n; h++) {
      const block = (await getBlock(n, h))!
      expect(BigInt(block.number)).toBe(h)
      expect(block.parentHash).toBe(parent.hash)
      expect(BigInt(block.timestamp)).toBeGreaterThan(BigInt(parent.timestamp))
      expect(block.transactions).toHaveLength(1)
      const byHash = (await n.request({ method: 'eth_getBlockByHash', params: [block.hash, false] })) as Block
      expect(byHash).toEqual(block)
      parent = block
    }
  })

  it('manual mines in quick succession still get strictly increasing timestamps', async () => {
    const n = await newNode({ mining: { mode: 'manual' } })
    for (let i = 0; i < 5; i++) await n.mine()
    const stamps: bigint[] = []
    for (let h = 0n; h <= 5n; h++) stamps.push(BigInt((await getBlock(n, h))!.timestamp))
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]!).toBeGreaterThan(stamps[i - 1]!)
  })

  it("'finalized' and 'safe' equal 'latest' (BFT blocks are final when committed)", async () => {
    const n = await newNode()
    await transfer(n)
    await transfer(n)
    const latest = (await getBlock(n, 'latest'))!
    expect(BigInt(latest.number)).toBe(2n)
    expect(await getBlock(n, 'finalized')).toEqual(latest)
    expect(await getBlock(n, 'safe')).toEqual(latest)
    expect(await rpcCertificate(n, 'finalized')).toEqual(await rpcCertificate(n, 'latest'))
    // After one more block they move together.
    await transfer(n)
    const next = (await getBlock(n, 'latest'))!
    expect(next.parentHash).toBe(latest.hash)
    expect(await getBlock(n, 'finalized')).toEqual(next)
    expect(await getBlock(n, 'safe')).toEqual(next)
  })
})

describe('signBytes', () => {
  it('is the domain tag and RLP([step, chainId, height, round, blockHash]) for edge values', async () => {
    const { signBytes, Step } = await import('../../src/consensus/votes.js')
    const hash = hexToBytes(`0x${'ab'.repeat(32)}`)
    const domain = new TextEncoder().encode('finality/consensus/v1')
    for (const [chainId, height, round] of [[31337n, 1n, 0], [1n, 0n, 0], [2n ** 64n, 2n ** 40n + 7n, 300], [255n, 256n, 127], [128n, 127n, 128]] as const) {
      for (const step of [Step.Proposal, Step.Prevote, Step.Precommit]) {
        const expected = bytesToHex(new Uint8Array([...domain, ...RLP.encode([step, chainId, height, round, hash])]))
        expect(bytesToHex(signBytes(step, chainId, height, round, hash))).toBe(expected)
      }
    }
  })
})
