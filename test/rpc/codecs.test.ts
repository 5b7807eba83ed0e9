/**
 * Param codecs and refusals, with geth's wording: bad QTY / DATA / ADDR / HASH / block tags fail
 * with -32602 `invalid argument N: <reason>` and change nothing; valid block selectors (tags,
 * numbers, EIP-1898 objects) resolve; blocks past the head read as null or `header not found`;
 * eth_sendRawTransaction refusals keep geth's -32000 messages and add nothing to the pool;
 * eth_call reverts answer code 3 with the revert data.
 */
import {
  encodeDeployData,
  encodeErrorResult,
  encodeFunctionData,
  keccak256,
  parseEther,
  parseGwei,
  serializeTransaction,
  type Hex,
  type TransactionSerializable,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount, sign } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { RpcError, type BlockSelector, type BlockTag, type FinalityNode, type RpcBlock, type RpcTransactionRequest } from '../../src/index.js'
import { loadArtifacts, type Artifact } from '../helpers/compile.js'
import { trackNodes } from '../helpers/nodes.js'
import { requestRaw } from '../helpers/raw-request.js'

const artifacts = loadArtifacts()
function artifact(name: string): Artifact {
  const a = artifacts[name]
  if (a === undefined) throw new Error(`missing fixture ${name}`)
  return a
}

const CHAIN_ID = 31337
const newNode = trackNodes()


async function rejection(p: Promise<unknown>): Promise<RpcError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(RpcError)
    return e as RpcError
  }
  throw new Error('expected the request to reject')
}

function hexOf(n: bigint | number): Hex {
  return `0x${n.toString(16)}`
}

async function blockNumber(n: FinalityNode): Promise<bigint> {
  return BigInt((await n.request({ method: 'eth_blockNumber' })) as string)
}

async function balanceOf(n: FinalityNode, address: Hex, at: BlockSelector = 'latest'): Promise<bigint> {
  return BigInt(await n.request({ method: 'eth_getBalance', params: [address, at] }))
}

async function nonceOf(n: FinalityNode, address: Hex, at: 'latest' | 'pending'): Promise<bigint> {
  return BigInt(await n.request({ method: 'eth_getTransactionCount', params: [address, at] }))
}

async function block(n: FinalityNode, tag: BlockTag): Promise<RpcBlock | null> {
  return n.request({ method: 'eth_getBlockByNumber', params: [tag, false] })
}

async function send(n: FinalityNode, tx: RpcTransactionRequest): Promise<Hex> {
  return n.request({ method: 'eth_sendTransaction', params: [tx] })
}

async function receipt(n: FinalityNode, hash: Hex): Promise<Record<string, unknown> | null> {
  return (await n.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as Record<string, unknown> | null
}

/** Asserts -32602 with geth's `invalid argument N: reason` form. */
async function expectInvalidArgument(p: Promise<unknown>, index: number, reason?: string | RegExp): Promise<RpcError> {
  const e = await rejection(p)
  expect(e.code).toBe(-32602)
  expect(e.message.startsWith(`invalid argument ${index}: `)).toBe(true)
  // geth wraps some reasons as `json: cannot unmarshal <reason> into Go value of type …`: either form is accepted.
  if (typeof reason === 'string') expect(e.message.slice(`invalid argument ${index}: `.length)).toContain(reason)
  else if (reason !== undefined) expect(e.message.slice(`invalid argument ${index}: `.length)).toMatch(reason)
  return e
}

// ---------------------------------------------------------------------------------------------

describe('codec errors, with geth wording', () => {
  let node: FinalityNode
  let alice: Hex
  let blockHash: Hex
  let heightBefore: bigint
  let balanceBefore: bigint
  let nonceBefore: bigint

  beforeAll(async () => {
    node = await newNode()
    alice = node.accounts[0]!.address
    await send(node, { from: alice, to: node.accounts[1]!.address, value: hexOf(1000n) })
    blockHash = (await block(node, 'latest'))!.hash as Hex
    heightBefore = await blockNumber(node)
    balanceBefore = await balanceOf(node, alice)
    nonceBefore = await nonceOf(node, alice, 'pending')
  })

  // eth_getTransactionByBlockHashAndIndex(HASH, QTY): argument 1 is a 256-bit QTY.
  const qtyAt1 = (value: unknown) => requestRaw(node, 'eth_getTransactionByBlockHashAndIndex', [blockHash, value])

  it('QTY "0x" → hex string "0x"', async () => {
    await expectInvalidArgument(qtyAt1('0x'), 1, 'hex string "0x"')
  })

  it('QTY "0x01" → hex number with leading zero digits', async () => {
    await expectInvalidArgument(qtyAt1('0x01'), 1, 'hex number with leading zero digits')
    await expectInvalidArgument(qtyAt1('0x00'), 1, 'hex number with leading zero digits')
    // "0x0" is a valid zero.
    expect(await qtyAt1('0x0')).not.toBeUndefined()
  })

  it('QTY of 65 hex digits → hex number > 256 bits; 64 digits are accepted', async () => {
    await expectInvalidArgument(qtyAt1(`0x1${'0'.repeat(64)}`), 1, 'hex number > 256 bits')
    expect(await qtyAt1(`0x${'f'.repeat(64)}`)).toBeNull()
  })

  it('QTY as a JSON number → a json unmarshal error', async () => {
    await expectInvalidArgument(qtyAt1(1), 1, /^json: cannot unmarshal .* into Go value of type \*hexutil\.Big$/)
  })

  it('QTY "ff" without prefix → hex string without 0x prefix', async () => {
    await expectInvalidArgument(qtyAt1('ff'), 1, 'hex string without 0x prefix')
  })

  it('QTY with a non-hex digit → invalid hex string', async () => {
    await expectInvalidArgument(qtyAt1('0xfg'), 1, 'invalid hex string')
  })

  it('a block number (uint64) of 17 digits → hex number > 64 bits', async () => {
    await expectInvalidArgument(
      node.request({ method: 'eth_getBlockByNumber', params: [`0x1${'0'.repeat(16)}`, false] }),
      0,
      'hex number > 64 bits',
    )
  })

  it('DATA of odd length → hex string of odd length', async () => {
    await expectInvalidArgument(node.request({ method: 'eth_sendRawTransaction', params: ['0xabc'] }), 0, 'hex string of odd length')
    await expectInvalidArgument(node.request({ method: 'web3_sha3', params: ['0x1'] }), 0, 'hex string of odd length')
    // Even length is fine.
    expect(await node.request({ method: 'web3_sha3', params: ['0x'] })).toBe(keccak256('0x'))
  })

  it('long DATA (2,048 characters and more, checked by native passes) decodes and fails as short DATA does', async () => {
    const digits = Array.from({ length: 3000 }, (_, i) => '0123456789abcdefABCDEF'[(i * 7) % 22]).join('')
    const sha3 = (value: unknown) => requestRaw(node, 'web3_sha3', [value])
    expect(await sha3(`0x${digits}`)).toBe(keccak256(`0x${digits.toLowerCase()}`))
    expect(await sha3(`0X${digits}`)).toBe(keccak256(`0x${digits.toLowerCase()}`))
    for (const at of [0, 1500, 2998, 2999]) {
      const bad = `0x${digits.slice(0, at)}g${digits.slice(at + 1)}`
      await expectInvalidArgument(sha3(bad), 0, 'invalid hex string')
    }
    // A character outside ASCII whose low byte is a hex digit ('İ' is U+0130): Node's hex decoder would read it as '0'.
    await expectInvalidArgument(sha3(`0x${digits.slice(0, 1000)}\u0130${digits.slice(1001)}`), 0, 'invalid hex string')
    await expectInvalidArgument(sha3(`0x${digits}a`), 0, 'hex string of odd length')
    await expectInvalidArgument(sha3(`0x${digits}g`), 0, 'invalid hex string')
    await expectInvalidArgument(sha3(digits), 0, 'hex string without 0x prefix')
  })

  it('ADDR of 19 bytes → hex string has length 38, want 40 for common.Address', async () => {
    await expectInvalidArgument(
      node.request({ method: 'eth_getBalance', params: [`0x${'11'.repeat(19)}`, 'latest'] }),
      0,
      'hex string has length 38, want 40 for common.Address',
    )
    await expectInvalidArgument(
      node.request({ method: 'eth_getBalance', params: [`0x${'11'.repeat(21)}`, 'latest'] }),
      0,
      'hex string has length 42, want 40 for common.Address',
    )
  })

  it('HASH of 31 bytes → hex string has length 62, want 64 for common.Hash', async () => {
    await expectInvalidArgument(
      node.request({ method: 'eth_getBlockByHash', params: [`0x${'22'.repeat(31)}`, false] }),
      0,
      'hex string has length 62, want 64 for common.Hash',
    )
    await expectInvalidArgument(
      node.request({ method: 'eth_getTransactionReceipt', params: [`0x${'22'.repeat(31)}`] }),
      0,
      'hex string has length 62, want 64 for common.Hash',
    )
  })

  it('block tag "safest" → hex string without 0x prefix', async () => {
    await expectInvalidArgument(requestRaw(node, 'eth_getBlockByNumber', ['safest', false]), 0, 'hex string without 0x prefix')
    await expectInvalidArgument(requestRaw(node, 'eth_getBalance', [alice, 'safest']), 1, 'hex string without 0x prefix')
    await expectInvalidArgument(requestRaw(node, 'eth_getBalance', [alice, 'Latest']), 1)
  })

  it('a boolean where one is expected → -32602', async () => {
    await expectInvalidArgument(requestRaw(node, 'eth_getBlockByNumber', ['latest', 'yes']), 1)
  })

  it('an EIP-1898 object naming both a hash and a number → -32602', async () => {
    await expectInvalidArgument(
      requestRaw(node, 'eth_getBalance', [alice, { blockHash, blockNumber: '0x1' }]),
      1,
      'cannot specify both BlockHash and BlockNumber, choose one or the other',
    )
  })

  it('bad fields of a call object name the argument', async () => {
    await expectInvalidArgument(
      node.request({ method: 'eth_call', params: [{ to: alice, value: '0x01' }, 'latest'] }),
      0,
      'hex number with leading zero digits',
    )
    await expectInvalidArgument(
      node.request({ method: 'eth_call', params: [{ to: `0x${'33'.repeat(19)}` }, 'latest'] }),
      0,
      'hex string has length 38, want 40 for common.Address',
    )
    await expectInvalidArgument(requestRaw(node, 'eth_call', [{ to: alice }, 'safest']), 1, 'hex string without 0x prefix')
  })

  it('huge strings are rejected quickly, before any BigInt or Buffer work', async () => {
    const overLimit: Hex = `0x${'1'.repeat(10 * 1024 * 1024 + 1)}`
    const bigDigits: Hex = `0x${'1'.repeat(4 * 1024 * 1024)}`
    const numeric = '9'.repeat(11 * 1024 * 1024)
    const start = performance.now()
    await expectInvalidArgument(qtyAt1(overLimit), 1, 'hex string too long')
    await expectInvalidArgument(qtyAt1(bigDigits), 1, 'hex number > 256 bits')
    await expectInvalidArgument(qtyAt1(numeric), 1)
    await expectInvalidArgument(node.request({ method: 'eth_getBlockByNumber', params: [bigDigits, false] }), 0, 'hex number > 64 bits')
    await expectInvalidArgument(node.request({ method: 'eth_getBalance', params: [bigDigits, 'latest'] }), 0)
    await expectInvalidArgument(node.request({ method: 'eth_sendRawTransaction', params: [overLimit] }), 0, 'hex string too long')
    // Generous bound: linear-time checks on a few MiB take milliseconds; quadratic or BigInt work would not.
    expect(performance.now() - start).toBeLessThan(5000)
  })

  it('none of the bad requests changed state', async () => {
    expect(await blockNumber(node)).toBe(heightBefore)
    expect(await balanceOf(node, alice)).toBe(balanceBefore)
    expect(await nonceOf(node, alice, 'pending')).toBe(nonceBefore)
    expect(await nonceOf(node, alice, 'latest')).toBe(nonceBefore)
  })
})

// ---------------------------------------------------------------------------------------------

describe('block selectors', () => {
  let node: FinalityNode
  let alice: Hex
  let bob: Hex
  let genesis: RpcBlock
  let b1: RpcBlock
  const initial = 10_000n * 10n ** 18n

  beforeAll(async () => {
    node = await newNode()
    alice = node.accounts[0]!.address
    bob = node.accounts[1]!.address
    await send(node, { from: alice, to: bob, value: hexOf(parseEther('1')) })
    genesis = (await block(node, '0x0'))!
    b1 = (await block(node, '0x1'))!
    expect(await blockNumber(node)).toBe(1n)
  })

  it.each<BlockTag>(['latest', 'pending', 'safe', 'finalized'])('eth_getBalance at %s reads the head', async (tag) => {
    expect(await balanceOf(node, bob, tag)).toBe(initial + parseEther('1'))
  })

  it('eth_getBalance at earliest and 0x0 reads genesis', async () => {
    expect(await balanceOf(node, bob, 'earliest')).toBe(initial)
    expect(await balanceOf(node, bob, '0x0')).toBe(initial)
    expect(await balanceOf(node, bob, '0x1')).toBe(initial + parseEther('1'))
  })

  it('EIP-1898 {blockHash}, {blockNumber}, {blockHash, requireCanonical: true}', async () => {
    expect(await balanceOf(node, bob, { blockHash: genesis.hash })).toBe(initial)
    expect(await balanceOf(node, bob, { blockHash: b1.hash })).toBe(initial + parseEther('1'))
    expect(await balanceOf(node, bob, { blockNumber: '0x0' })).toBe(initial)
    expect(await balanceOf(node, bob, { blockNumber: '0x1' })).toBe(initial + parseEther('1'))
    expect(await balanceOf(node, bob, { blockNumber: 'earliest' })).toBe(initial)
    expect(await balanceOf(node, bob, { blockHash: genesis.hash, requireCanonical: true })).toBe(initial)
    expect(await balanceOf(node, bob, { blockHash: b1.hash, requireCanonical: true })).toBe(initial + parseEther('1'))
    expect(await balanceOf(node, bob, { blockHash: b1.hash, requireCanonical: false })).toBe(initial + parseEther('1'))
    // A bare 32-byte hash string is a block hash too.
    expect(await balanceOf(node, bob, genesis.hash)).toBe(initial)
  })

  it('other state methods take the same selectors', async () => {
    expect(await node.request({ method: 'eth_getTransactionCount', params: [alice, { blockHash: genesis.hash }] })).toBe('0x0')
    expect(await node.request({ method: 'eth_getTransactionCount', params: [alice, { blockNumber: '0x1' }] })).toBe('0x1')
    expect(await node.request({ method: 'eth_getCode', params: [alice, 'safe'] })).toBe('0x')
  })

  it('a block beyond the head: eth_getBlockByNumber → null', async () => {
    expect(await block(node, '0x2')).toBeNull()
    expect(await block(node, '0xffff')).toBeNull()
    expect(await node.request({ method: 'eth_getBlockByNumber', params: ['0x2', true] })).toBeNull()
  })

  it('a block beyond the head: eth_getBalance → -32000 header not found', async () => {
    for (const at of ['0x2', '0xffffffff', { blockNumber: '0x2' }] satisfies BlockSelector[]) {
      const e = await rejection(node.request({ method: 'eth_getBalance', params: [bob, at] }))
      expect(e.code).toBe(-32000)
      expect(e.message).toBe('header not found')
    }
    const e = await rejection(node.request({ method: 'eth_call', params: [{ to: bob }, '0x5'] }))
    expect(e.code).toBe(-32000)
    expect(e.message).toBe('header not found')
  })

  it('an unknown EIP-1898 block hash → -32000', async () => {
    const unknown: Hex = `0x${'ab'.repeat(32)}`
    for (const at of [{ blockHash: unknown }, { blockHash: unknown, requireCanonical: true }, unknown] satisfies BlockSelector[]) {
      const e = await rejection(node.request({ method: 'eth_getBalance', params: [bob, at] }))
      expect(e.code).toBe(-32000)
      expect(e.message).toMatch(/not found/)
    }
  })
})

// ---------------------------------------------------------------------------------------------

describe('eth_sendRawTransaction refusals', () => {
  const fees = { maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: parseGwei('1') }

  function eip1559(key: Hex, nonce: number, extra: Partial<{ value: bigint; chainId: number; data: Hex; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; to: Hex }> = {}) {
    return privateKeyToAccount(key).signTransaction({
      type: 'eip1559',
      chainId: extra.chainId ?? CHAIN_ID,
      nonce,
      to: extra.to ?? '0x000000000000000000000000000000000000dEaD',
      value: extra.value ?? 1n,
      gas: extra.gas ?? 21_000n,
      maxFeePerGas: extra.maxFeePerGas ?? fees.maxFeePerGas,
      maxPriorityFeePerGas: extra.maxPriorityFeePerGas ?? fees.maxPriorityFeePerGas,
      ...(extra.data === undefined ? {} : { data: extra.data }),
    })
  }

  function sendRaw(n: FinalityNode, raw: Hex) {
    return n.request({ method: 'eth_sendRawTransaction', params: [raw] })
  }

  /** The chain height and the sender's pool, to check a refusal added nothing. */
  async function snapshot(n: FinalityNode, sender: Hex) {
    return {
      height: await blockNumber(n),
      latest: await nonceOf(n, sender, 'latest'),
      pending: await nonceOf(n, sender, 'pending'),
    }
  }

  async function expectRefused(
    n: FinalityNode,
    raw: Hex,
    sender: Hex,
    message: string | RegExp,
    { inPool = false }: { inPool?: boolean } = {},
  ): Promise<RpcError> {
    const before = await snapshot(n, sender)
    const e = await rejection(sendRaw(n, raw))
    expect(e.code).toBe(-32000)
    if (typeof message === 'string') expect(e.message).toBe(message)
    else expect(e.message).toMatch(message)
    expect(e.data).toBeUndefined()
    expect(await snapshot(n, sender)).toEqual(before)
    // Unknown to the node, unless it is the copy already in the pool (then still not mined).
    const known = (await n.request({ method: 'eth_getTransactionByHash', params: [keccak256(raw)] })) as Record<string, unknown> | null
    if (inPool) expect(known?.blockNumber).toBeNull()
    else expect(known).toBeNull()
    return e
  }

  it('a valid raw transaction is mined (control)', async () => {
    const n = await newNode()
    const { address, privateKey } = n.accounts[0]!
    const raw = await eip1559(privateKey as Hex, 0)
    const hash = await sendRaw(n, raw)
    expect(hash).toBe(keccak256(raw))
    expect((await receipt(n, hash as Hex))!.status).toBe('0x1')
    expect(await nonceOf(n, address, 'latest')).toBe(1n)
  })

  it('nonce too low', async () => {
    const n = await newNode()
    const { address, privateKey } = n.accounts[0]!
    await sendRaw(n, await eip1559(privateKey as Hex, 0))
    expect(await nonceOf(n, address, 'latest')).toBe(1n)
    const stale = await eip1559(privateKey as Hex, 0, { value: 2n })
    await expectRefused(n, stale, address, `nonce too low: address ${address.toLowerCase()}, tx: 0 state: 1`)
  })

  it('already known (manual mining keeps the first copy in the pool)', async () => {
    const n = await newNode({ mining: { mode: 'manual' } })
    const { address, privateKey } = n.accounts[0]!
    const raw = await eip1559(privateKey as Hex, 0)
    expect(await sendRaw(n, raw)).toBe(keccak256(raw))
    expect(await nonceOf(n, address, 'pending')).toBe(1n)
    expect(await nonceOf(n, address, 'latest')).toBe(0n)
    await expectRefused(n, raw, address, 'already known', { inPool: true })
    // Mining includes it once.
    const mined = await n.mine()
    expect(mined?.number).toBe(1n)
    const b = (await n.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })) as { transactions: string[] }
    expect(b.transactions).toEqual([keccak256(raw)])
  })

  it('insufficient funds for gas * price + value', async () => {
    const n = await newNode()
    const key = generatePrivateKey()
    const poor = privateKeyToAccount(key).address
    const raw = await eip1559(key, 0)
    const want = 21_000n * fees.maxFeePerGas + 1n
    await expectRefused(n, raw, poor, `insufficient funds for gas * price + value: address ${poor.toLowerCase()} have 0 want ${want}`)

    // A funded account that cannot cover value + gas is refused the same way.
    const { address, privateKey } = n.accounts[1]!
    const have = await balanceOf(n, address)
    const tooMuch = await eip1559(privateKey as Hex, 0, { value: have })
    await expectRefused(n, tooMuch, address, /^insufficient funds for gas \* price \+ value: /)
  })

  it('replacement transaction underpriced (+5%), accepted at +10%', async () => {
    const n = await newNode({ mining: { mode: 'manual' } })
    const { address, privateKey } = n.accounts[0]!
    const first = await eip1559(privateKey as Hex, 0)
    await sendRaw(n, first)
    const bump = (x: bigint, pct: bigint) => (x * (100n + pct)) / 100n
    const plus5 = await eip1559(privateKey as Hex, 0, {
      maxFeePerGas: bump(fees.maxFeePerGas, 5n),
      maxPriorityFeePerGas: bump(fees.maxPriorityFeePerGas, 5n),
    })
    await expectRefused(n, plus5, address, 'replacement transaction underpriced')
    // The original is still the pending one.
    expect(await n.request({ method: 'eth_getTransactionByHash', params: [keccak256(first)] })).not.toBeNull()

    const plus10 = await eip1559(privateKey as Hex, 0, {
      maxFeePerGas: bump(fees.maxFeePerGas, 10n),
      maxPriorityFeePerGas: bump(fees.maxPriorityFeePerGas, 10n),
    })
    expect(await sendRaw(n, plus10)).toBe(keccak256(plus10))
    expect(await nonceOf(n, address, 'pending')).toBe(1n)
    await n.mine()
    expect(await receipt(n, keccak256(plus10))).not.toBeNull()
    expect(await receipt(n, keccak256(first))).toBeNull()
  })

  it('wrong chain id → invalid chain id for signer', async () => {
    const n = await newNode()
    const { address, privateKey } = n.accounts[0]!
    await expectRefused(n, await eip1559(privateKey as Hex, 0, { chainId: 1 }), address, 'invalid chain id for signer')
    const legacy = await privateKeyToAccount(privateKey as Hex).signTransaction({
      type: 'legacy',
      chainId: 1,
      nonce: 0,
      to: '0x000000000000000000000000000000000000dEaD',
      value: 1n,
      gas: 21_000n,
      gasPrice: parseGwei('10'),
    })
    await expectRefused(n, legacy, address, 'invalid chain id for signer')
  })

  it('a legacy transaction without EIP-155 → only replay-protected (EIP-155) transactions allowed over RPC', async () => {
    const n = await newNode()
    const { address, privateKey } = n.accounts[0]!
    const unsigned: TransactionSerializable = {
      type: 'legacy',
      nonce: 0,
      to: '0x000000000000000000000000000000000000dEaD',
      value: 1n,
      gas: 21_000n,
      gasPrice: parseGwei('10'),
    }
    const signature = await sign({ hash: keccak256(serializeTransaction(unsigned)), privateKey: privateKey as Hex })
    const raw = serializeTransaction(unsigned, signature)
    await expectRefused(n, raw, address, 'only replay-protected (EIP-155) transactions allowed over RPC')

    // With the setting, the same bytes are accepted and recover the same sender.
    const open = await newNode({ allowUnprotectedTxs: true })
    const hash = (await sendRaw(open, raw)) as Hex
    const tx = (await open.request({ method: 'eth_getTransactionByHash', params: [hash] })) as Record<string, unknown>
    expect((tx.from as string).toLowerCase()).toBe(address.toLowerCase())
    expect(['0x1b', '0x1c']).toContain(tx.v)
  })

  it('a bad signature is refused and adds nothing', async () => {
    const n = await newNode()
    const { address, privateKey } = n.accounts[0]!
    const raw = await eip1559(privateKey as Hex, 0)
    // Flip bytes inside s (the last 32 bytes): either an invalid signature or another sender.
    const corrupted = `${raw.slice(0, -8)}${'00000000'}` as Hex
    const before = await snapshot(n, address)
    const e = await rejection(sendRaw(n, corrupted))
    expect(e.code).toBe(-32000)
    expect(await snapshot(n, address)).toEqual(before)
    // Garbage bytes are refused with -32000 too.
    const g = await rejection(sendRaw(n, '0x1234'))
    expect(g.code).toBe(-32000)
  })

  it('oversized data: at limits.rawTransactionBytes accepted, one byte past it refused', async () => {
    const probe = await newNode()
    const key = probe.accounts[0]!.privateKey as Hex
    const sender = probe.accounts[0]!.address
    const withData = (nonce: number, size: number) =>
      eip1559(key, nonce, { data: `0x${'ab'.repeat(size)}`, gas: 200_000n })
    const atLimit = await withData(0, 1000)
    const limit = (atLimit.length - 2) / 2

    // Find a nonce-1 transaction exactly one byte longer (signature lengths can vary by a byte).
    let past: Hex | undefined
    for (let size = 1001; size < 1010 && past === undefined; size++) {
      const candidate = await withData(1, size)
      if ((candidate.length - 2) / 2 === limit + 1) past = candidate
    }
    expect(past).toBeDefined()

    const n = await newNode({ limits: { rawTransactionBytes: limit } })
    const hash = (await sendRaw(n, atLimit)) as Hex
    expect((await receipt(n, hash))!.status).toBe('0x1')
    await expectRefused(n, past!, sender, 'oversized data')
    // Garbage past the limit is refused by size before decoding.
    await expectRefused(n, `0x${'00'.repeat(limit + 1)}`, sender, 'oversized data')
  })
})

// ---------------------------------------------------------------------------------------------

describe('eth_call reverts → code 3 with the revert data', () => {
  let node: FinalityNode
  let reverter: Hex
  const abi = artifact('Reverter').abi

  beforeAll(async () => {
    node = await newNode()
    const hash = await send(node, {
      from: node.accounts[0]!.address,
      data: encodeDeployData({ abi, bytecode: artifact('Reverter').bytecode }),
    })
    reverter = (await receipt(node, hash))!.contractAddress as Hex
    expect(reverter).toMatch(/^0x[0-9a-f]{40}$/)
  })

  const call = (functionName: string, args: unknown[] = [], from?: Hex) =>
    node.request({
      method: 'eth_call',
      params: [{ to: reverter, data: encodeFunctionData({ abi, functionName, args } as never), ...(from === undefined ? {} : { from }) }, 'latest'],
    })

  it('Error(string) → execution reverted: nope, data = the Error encoding', async () => {
    const e = await rejection(call('revertWithReason'))
    expect(e.code).toBe(3)
    expect(e.message).toBe('execution reverted: nope')
    expect(e.data).toBe(encodeErrorResult({ abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string' }] }], errorName: 'Error', args: ['nope'] }))
  })

  it('a custom error → execution reverted, data = the error encoding', async () => {
    const from = node.accounts[3]!.address
    const e = await rejection(call('revertWithCustomError', [9n], from))
    expect(e.code).toBe(3)
    expect(e.message).toBe('execution reverted')
    expect(e.data).toBe(encodeErrorResult({ abi, errorName: 'Unauthorized', args: [from, 9n] } as never))
  })

  it('a bare revert → data 0x', async () => {
    const e = await rejection(call('bareRevert'))
    expect(e.code).toBe(3)
    expect(e.message).toBe('execution reverted')
    expect(e.data).toBe('0x')
  })

  it('a panic → geth’s panic reason', async () => {
    const e = await rejection(call('panicDivide', [0n]))
    expect(e.code).toBe(3)
    expect(e.message).toBe('execution reverted: division or modulo by zero')
    expect(e.data).toBe(`0x4e487b71${'0'.repeat(62)}12`)
  })

  it('eth_estimateGas reverts the same way', async () => {
    const e = await rejection(
      node.request({
        method: 'eth_estimateGas',
        params: [{ from: node.accounts[0]!.address, to: reverter, data: encodeFunctionData({ abi, functionName: 'setAndRevert', args: [1n] } as never) }],
      }),
    )
    expect(e.code).toBe(3)
    expect(e.message).toBe('execution reverted: set then reverted')
    expect(typeof e.data).toBe('string')
  })

  it('the same revert through node.handle keeps code, message and data on the wire', async () => {
    const r = (await node.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: reverter, data: encodeFunctionData({ abi, functionName: 'revertWithReason' } as never) }, 'latest'],
    })) as { error: { code: number; message: string; data: string } }
    expect(r.error.code).toBe(3)
    expect(r.error.message).toBe('execution reverted: nope')
    expect(r.error.data).toMatch(/^0x08c379a0/)
  })
})

// ---------------------------------------------------------------------------------------------

describe('limits.hexParamLength', () => {
  // '0x' + 98 digits = 100 characters.
  const atLimit: Hex = `0x${'ab'.repeat(49)}`
  const past: Hex = `0x${'ab'.repeat(50)}`

  it('is enforced at the limit (accepted) and past it (rejected)', async () => {
    const strict = await newNode({ limits: { hexParamLength: 100 } })
    expect(await strict.request({ method: 'web3_sha3', params: [atLimit] })).toBe(keccak256(atLimit as Hex))
    await expectInvalidArgument(strict.request({ method: 'web3_sha3', params: [past] }), 0, 'hex string too long')
  })

  it('is per node: creating a node with other limits does not change an existing node', async () => {
    const lax = await newNode()
    expect(await lax.request({ method: 'web3_sha3', params: [past] })).toBe(keccak256(past as Hex))
    const strict = await newNode({ limits: { hexParamLength: 100 } })
    await expectInvalidArgument(strict.request({ method: 'web3_sha3', params: [past] }), 0, 'hex string too long')
    // The default node must keep its default limit.
    expect(await lax.request({ method: 'web3_sha3', params: [past] })).toBe(keccak256(past as Hex))
  })
})
