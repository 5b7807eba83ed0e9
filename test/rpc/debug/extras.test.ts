/**
 * geth's remaining debug_ methods through node.request: debug_getBlockRlp / debug_getHeaderRlp,
 * debug_intermediateRoots, debug_storageRangeAt, debug_getModifiedAccountsBy{Number,Hash},
 * debug_getBadBlocks / debug_traceBadBlock and debug_traceBlock.
 */
import { readFileSync } from 'node:fs'
import { RLP } from '@ethereumjs/rlp'
import { encodeAbiParameters, getContractAddress, keccak256, type Hex } from 'viem'
import { MemoryLevel } from 'memory-level'
import { beforeAll, describe, expect, it } from 'vitest'
import { createNode, type FinalityNode } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { artifact, calldata, qty, rpcError, sender, word } from '../../helpers/execution.js'
import type { CallFrame } from '../../helpers/traces.js'

const newNode = trackNodes()
const dir = new URL('../../fixtures/execution-apis', import.meta.url).pathname
const genesis = JSON.parse(readFileSync(`${dir}/genesis.json`, 'utf8'))
const chainRlp = new Uint8Array(readFileSync(`${dir}/chain.rlp`))

const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02'
const HISTORY_STORAGE = '0x0000f90827f1c53a10cb7a02335b175320002935'

type Block = { hash: Hex; number: Hex; stateRoot: Hex; miner: Hex; transactions: Array<Hex | { hash: Hex; from: Hex }> }

const call = <T>(node: FinalityNode, method: string, params: unknown[] = []) => node.request({ method, params }) as Promise<T>
const blockAt = (node: FinalityNode, tag: string, full = false) => call<Block>(node, 'eth_getBlockByNumber', [tag, full])

/** The first `n` blocks of the execution-apis chain, each re-encoded on its own. */
function chainBlocks(n: number): Uint8Array[] {
  const out: Uint8Array[] = []
  let rest: Uint8Array = chainRlp
  for (let i = 0; i < n; i++) {
    const { data, remainder } = RLP.decode(rest, true) as unknown as { data: Uint8Array[][]; remainder: Uint8Array }
    out.push(RLP.encode(data as never))
    rest = remainder
  }
  return out
}

/** Block 3 of the chain with its header's gas used changed: a block every node refuses. */
function corruptThird(): Uint8Array {
  const third = RLP.decode(chainBlocks(3)[2] as Uint8Array) as unknown as Uint8Array[][]
  ;(third[0] as Uint8Array[])[10] = Uint8Array.of(1, 2, 3)
  return RLP.encode(third as never)
}

const hex = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`

/** A node holding the whole execution-apis chain. */
let imported: FinalityNode

beforeAll(async () => {
  imported = await newNode({ genesis, mining: { mode: 'manual' } })
  await imported.importBlocks(chainRlp)
})

describe('debug_getBlockRlp and debug_getHeaderRlp', () => {
  it('default: the RLP debug_getRawBlock / debug_getRawHeader give, the number as a JSON number', async () => {
    for (const n of [0, 1, 3, 54]) {
      const block = await call<Hex>(imported, 'debug_getBlockRlp', [n])
      expect(block).toBe(await call<Hex>(imported, 'debug_getRawBlock', [qty(n)]))
      const header = await call<Hex>(imported, 'debug_getHeaderRlp', [n])
      expect(header).toBe(await call<Hex>(imported, 'debug_getRawHeader', [qty(n)]))
      expect(keccak256(header)).toBe((await blockAt(imported, qty(n))).hash)
    }
  })

  it('error: a block past the head (geth: block #N not found / header #N not found)', async () => {
    expect(await rpcError(imported, 'debug_getBlockRlp', [55])).toMatchObject({ code: -32000, message: 'block #55 not found' })
    expect(await rpcError(imported, 'debug_getHeaderRlp', [55])).toMatchObject({ code: -32000, message: 'header #55 not found' })
  })

  it('error: a hex string, a negative or a fractional number is refused as Go refuses it for uint64', async () => {
    for (const m of ['debug_getBlockRlp', 'debug_getHeaderRlp']) {
      expect(await rpcError(imported, m, ['0x1'])).toEqual({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64' })
      expect(await rpcError(imported, m, [-1])).toMatchObject({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal number -1 into Go value of type uint64' })
      expect(await rpcError(imported, m, [1.5])).toMatchObject({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal number 1.5 into Go value of type uint64' })
      expect(await rpcError(imported, m, [])).toMatchObject({ code: -32602, message: 'missing value for required argument 0' })
    }
  })
})

describe('debug_intermediateRoots', () => {
  it('behavior: before Byzantium each root is the one the receipt of that transaction carries', async () => {
    for (const n of [1, 2, 5, 8]) {
      const block = await blockAt(imported, qty(n))
      const receipts = await call<Array<{ root: Hex }>>(imported, 'eth_getBlockReceipts', [qty(n)])
      const roots = await call<Hex[]>(imported, 'debug_intermediateRoots', [block.hash])
      expect(roots).toHaveLength(receipts.length)
      expect(roots).toEqual(receipts.map((r) => r.root))
    }
  })

  it('behavior: the roots stop before the post-transaction work (a mining reward, an EIP-7002 request), as in geth', async () => {
    // Block 9 pays a proof-of-work reward; block 45 sends a withdrawal request the block dequeues.
    for (const n of [9, 45]) {
      const block = await blockAt(imported, qty(n))
      const roots = await call<Hex[]>(imported, 'debug_intermediateRoots', [block.hash])
      expect(roots).toHaveLength(block.transactions.length)
      expect(roots.at(-1)).not.toBe(block.stateRoot)
    }
    // Block 46 has none: its last root is its state root.
    const quiet = await blockAt(imported, qty(46))
    expect((await call<Hex[]>(imported, 'debug_intermediateRoots', [quiet.hash])).at(-1)).toBe(quiet.stateRoot)
  })

  it('behavior: a mined Prague block: the last root is its state root, the system writes before the first transaction included', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const from = sender(node)
    for (let i = 1; i <= 3; i++) await call(node, 'eth_sendTransaction', [{ from, to: sender(node, i), value: qty(i) }])
    await node.mine()
    const block = await blockAt(node, 'latest')
    const roots = await call<Hex[]>(node, 'debug_intermediateRoots', [block.hash, {}])
    expect(roots).toHaveLength(3)
    expect(new Set(roots).size).toBe(3)
    expect(roots[2]).toBe(block.stateRoot)
  })

  it('behavior: each root is the state root of a block that ran the same transactions one per block', async () => {
    // Shanghai has no start-of-block system writes, and a zero base fee stays zero while blocks
    // are under their gas target: the same transactions leave the same states either way.
    const options = { hardfork: 'shanghai' as const, initialBaseFee: 0n }
    const together = await newNode({ ...options, mining: { mode: 'manual' } })
    const oneByOne = await newNode(options)
    const from = sender(together)
    const counter = getContractAddress({ from, nonce: 1n })
    const fees = { maxFeePerGas: qty(2_000_000_000n), maxPriorityFeePerGas: qty(1_000_000_000n) }
    const txs = [
      { to: sender(together, 1), value: qty(7n), gas: qty(21_000n) },
      { data: artifact('Counter').bytecode, gas: qty(1_000_000n) },
      { to: counter, data: calldata('Counter', 'increment'), gas: qty(100_000n) },
      { to: counter, data: calldata('Counter', 'burn', [3n]), gas: qty(200_000n) },
    ].map((tx, nonce) => ({ from, nonce: qty(nonce), ...fees, ...tx }))
    for (const tx of txs) await call(together, 'eth_sendTransaction', [tx])
    await together.mine()
    const block = await blockAt(together, 'latest')
    expect(block.transactions).toHaveLength(4)
    const roots = await call<Hex[]>(together, 'debug_intermediateRoots', [block.hash])

    const expected: Hex[] = []
    for (const tx of txs) {
      await call(oneByOne, 'eth_sendTransaction', [tx])
      expected.push((await blockAt(oneByOne, 'latest')).stateRoot)
    }
    expect(roots).toEqual(expected)
    expect(roots[3]).toBe(block.stateRoot)
  })

  it('error: an unknown hash and the genesis block, in geth\'s words', async () => {
    const unknown = `0x${'ab'.repeat(32)}`
    expect(await rpcError(imported, 'debug_intermediateRoots', [unknown])).toMatchObject({ code: -32000, message: `block ${unknown} not found` })
    const genesisHash = (await blockAt(imported, '0x0')).hash
    expect(await rpcError(imported, 'debug_intermediateRoots', [genesisHash])).toMatchObject({ code: -32000, message: 'genesis is not traceable' })
    expect(await rpcError(imported, 'debug_intermediateRoots', ['0x1234'])).toMatchObject({ code: -32602 })
  })
})

/** The storage slot of `sink[i]` (a mapping at slot 1) in Counter. */
function sinkSlot(i: bigint): Hex {
  return keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [i, 1n]))
}

type Range = { storage: Record<Hex, { key: Hex | null; value: Hex }> | null; nextKey: Hex | null }

/** What debug_storageRangeAt must answer for the given slots (key → value), all of them. */
function rangeOf(slots: Array<[Hex, bigint]>): Range {
  const entries = slots.map(([key, value]) => [keccak256(key), { key, value: word(value) }] as const).sort(([a], [b]) => (a < b ? -1 : 1))
  return { storage: Object.fromEntries(entries), nextKey: null }
}

describe('debug_storageRangeAt', () => {
  let node: FinalityNode
  let counter: Hex
  let block: Block
  const range = (txIndex: number, start: Hex, max: number, at: unknown = block.hash) =>
    call<Range>(node, 'debug_storageRangeAt', [at, txIndex, counter, start, max])

  beforeAll(async () => {
    node = await newNode({ mining: { mode: 'manual' } })
    const from = sender(node)
    await call(node, 'eth_sendTransaction', [{ from, data: artifact('Counter').bytecode }])
    await node.mine()
    counter = getContractAddress({ from, nonce: 0n })
    const send = (data: Hex) => call(node, 'eth_sendTransaction', [{ from, to: counter, data, gas: qty(300_000n) }])
    await send(calldata('Counter', 'increment'))
    await send(calldata('Counter', 'burn', [3n]))
    await send(calldata('Counter', 'increment'))
    await node.mine()
    block = await blockAt(node, 'latest')
  })

  it('default: the storage before the transaction, by hashed key in trie order, each slot with its key', async () => {
    // Before the first transaction the contract has no storage: geth answers storage null.
    expect(await range(0, '0x', 100)).toEqual({ storage: null, nextKey: null })
    expect(await range(1, '0x', 100)).toEqual(rangeOf([[word(0n), 1n]]))
    const before2 = rangeOf([[word(0n), 1n], [sinkSlot(0n), 1n], [sinkSlot(1n), 2n], [sinkSlot(2n), 3n]])
    expect(await range(2, '0x', 100)).toEqual(before2)
    // After the block: the next block's state before its first transaction, read from the trie.
    await call(node, 'eth_sendTransaction', [{ from: sender(node), to: sender(node, 1), value: '0x1' }])
    await node.mine()
    const next = await blockAt(node, 'latest')
    const after = rangeOf([[word(0n), 2n], [sinkSlot(0n), 1n], [sinkSlot(1n), 2n], [sinkSlot(2n), 3n]])
    expect(await range(0, '0x', 100, next.hash)).toEqual(after)
    expect(await range(0, '0x', 100, { blockNumber: next.number })).toEqual(after)
    expect(await range(0, '0x', 100, 'latest')).toEqual(after)
  })

  it('behavior: paging: maxResult entries and the next hashed key, from which the next page starts', async () => {
    const all = (await range(2, '0x', 100)).storage as Record<Hex, unknown>
    const keys = Object.keys(all) as Hex[]
    const first = await range(2, '0x', 2)
    expect(Object.keys(first.storage ?? {})).toEqual(keys.slice(0, 2))
    expect(first.nextKey).toBe(keys[2])
    const second = await range(2, first.nextKey as Hex, 2)
    expect(Object.keys(second.storage ?? {})).toEqual(keys.slice(2))
    expect(second.nextKey).toBeNull()
    // maxResult 0: nothing, and the first key as the next one.
    expect(await range(2, '0x', 0)).toEqual({ storage: {}, nextKey: keys[0] })
    // A start between keys, and a shorter start: the keys from it on.
    const mid = `0x${(BigInt(keys[1] as Hex) + 1n).toString(16).padStart(64, '0')}` as Hex
    expect(Object.keys((await range(2, mid, 100)).storage ?? {})).toEqual(keys.slice(2))
    const prefix = (keys[2] as Hex).slice(0, 4) as Hex
    expect(Object.keys((await range(2, prefix, 100)).storage ?? {})).toEqual(keys.filter((k) => k.slice(0, 4) >= prefix))
  })

  it('behavior: an account without storage answers storage null', async () => {
    expect(await call(node, 'debug_storageRangeAt', [block.hash, 0, sender(node, 5), '0x', 10])).toEqual({ storage: null, nextKey: null })
  })

  it('error: a transaction index out of range, an unknown block, the genesis block', async () => {
    expect(await rpcError(node, 'debug_storageRangeAt', [block.hash, 3, counter, '0x', 10])).toMatchObject({
      code: -32000,
      message: `transaction index 3 out of range for block ${block.hash}`,
    })
    const unknown = `0x${'cd'.repeat(32)}`
    expect(await rpcError(node, 'debug_storageRangeAt', [unknown, 0, counter, '0x', 10])).toMatchObject({ code: -32000, message: `block ${unknown} not found` })
    expect(await rpcError(node, 'debug_storageRangeAt', ['0x99', 0, counter, '0x', 10])).toMatchObject({ code: -32000, message: 'block 0x99 not found' })
    expect(await rpcError(node, 'debug_storageRangeAt', ['0x0', 0, counter, '0x', 10])).toMatchObject({ code: -32000, message: 'no transaction in genesis' })
  })

  it('error: the index and count are JSON numbers (Go int), the start key hex bytes', async () => {
    expect(await rpcError(node, 'debug_storageRangeAt', [block.hash, '0x0', counter, '0x', 10])).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go value of type int',
    })
    expect(await rpcError(node, 'debug_storageRangeAt', [block.hash, 0, counter, '0x0', 10])).toMatchObject({ code: -32602, message: 'invalid argument 3: hex string of odd length' })
    expect(await rpcError(node, 'debug_storageRangeAt', [block.hash, 0, counter, '0x'])).toMatchObject({ code: -32602, message: 'missing value for required argument 4' })
  })
})

type Proof = { balance: Hex; nonce: Hex; codeHash: Hex; storageHash: Hex }

/** The addresses among `candidates` whose account differs between two blocks, in hashed-address order. */
async function changedBetween(node: FinalityNode, candidates: Hex[], from: Hex, to: Hex): Promise<Hex[]> {
  const out: Hex[] = []
  for (const address of new Set(candidates.map((a) => a.toLowerCase() as Hex))) {
    const [a, b] = await Promise.all([from, to].map((at) => call<Proof>(node, 'eth_getProof', [address, [], at])))
    const fields = (p: Proof) => [p.balance, p.nonce, p.codeHash, p.storageHash].join()
    // An account that is absent afterwards is not listed (geth's difference iterator walks the new trie).
    const exists = (p: Proof) => !(p.balance === '0x0' && p.nonce === '0x0' && p.storageHash === keccak256('0x80'))
    if (exists(b as Proof) && fields(a as Proof) !== fields(b as Proof)) out.push(address)
  }
  return out.sort((x, y) => (keccak256(x) < keccak256(y) ? -1 : 1))
}

describe('debug_getModifiedAccountsByNumber and debug_getModifiedAccountsByHash', () => {
  let node: FinalityNode
  let candidates: Hex[]

  beforeAll(async () => {
    node = await newNode()
    candidates = [...node.accounts.slice(0, 4).map((a) => a.address), BEACON_ROOTS, HISTORY_STORAGE]
  })

  it('default: a transfer changes its sender, its recipient, the fee recipient and the two system contracts the block writes', async () => {
    const from = sender(node)
    const to = sender(node, 1)
    await call(node, 'eth_sendTransaction', [{ from, to, value: '0x1' }])
    const block = await blockAt(node, 'latest')
    const modified = await call<Hex[]>(node, 'debug_getModifiedAccountsByNumber', [Number(block.number)])
    expect([...modified].sort()).toEqual([from, to, block.miner, BEACON_ROOTS, HISTORY_STORAGE].map((a) => a.toLowerCase()).sort())
    const parent = qty(Number(block.number) - 1)
    expect(modified).toEqual(await changedBetween(node, [...candidates, block.miner], parent, block.number))
    expect(await call(node, 'debug_getModifiedAccountsByHash', [block.hash])).toEqual(modified)
  })

  it('behavior: two blocks: every account that differs between the first one\'s state and the second one\'s', async () => {
    const start = await blockAt(node, 'latest')
    await call(node, 'eth_sendTransaction', [{ from: sender(node, 2), to: sender(node, 3), value: '0x2' }])
    await call(node, 'hardhat_setBalance', [sender(node, 1), '0x1234'])
    await call(node, 'eth_sendTransaction', [{ from: sender(node, 2), to: sender(node, 0), value: '0x3' }])
    const end = await blockAt(node, 'latest')
    const byNumber = await call<Hex[]>(node, 'debug_getModifiedAccountsByNumber', [Number(start.number), Number(end.number)])
    expect(byNumber).toEqual(await changedBetween(node, [...candidates, end.miner], start.number, end.number))
    // The test-control write between the two blocks is part of the difference.
    expect(byNumber).toContain(sender(node, 1).toLowerCase())
    expect(await call(node, 'debug_getModifiedAccountsByHash', [start.hash, end.hash])).toEqual(byNumber)
  })

  it('error: geth\'s texts for an unknown start or end, the genesis block alone, and a start not before the end', async () => {
    const head = await blockAt(node, 'latest')
    const n = Number(head.number)
    expect(await rpcError(node, 'debug_getModifiedAccountsByNumber', [300])).toMatchObject({ code: -32000, message: 'start block 12c not found' })
    expect(await rpcError(node, 'debug_getModifiedAccountsByNumber', [1, 300])).toMatchObject({ code: -32000, message: 'end block 300 not found' })
    expect(await rpcError(node, 'debug_getModifiedAccountsByNumber', [0])).toMatchObject({ code: -32000, message: 'block 0 has no parent' })
    expect(await rpcError(node, 'debug_getModifiedAccountsByNumber', [n, 1])).toMatchObject({
      code: -32000,
      message: `start block height (${n}) must be less than end block height (1)`,
    })
    const unknown = 'ef'.repeat(32)
    expect(await rpcError(node, 'debug_getModifiedAccountsByHash', [`0x${unknown}`])).toMatchObject({ code: -32000, message: `start block ${unknown} not found` })
    expect(await rpcError(node, 'debug_getModifiedAccountsByHash', [head.hash, `0x${unknown}`])).toMatchObject({ code: -32000, message: `end block ${unknown} not found` })
    expect(await rpcError(node, 'debug_getModifiedAccountsByNumber', ['0x1'])).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64',
    })
  })

  it('behavior: a node reopened from its database names accounts and slots by the stored preimages', async () => {
    const db = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' })
    const first = await createNode({ db })
    const from = sender(first)
    await call(first, 'eth_sendTransaction', [{ from, to: sender(first, 1), value: '0x1' }])
    const expected = await call<Hex[]>(first, 'debug_getModifiedAccountsByNumber', [1])
    const range = await call(first, 'debug_storageRangeAt', ['0x1', 0, HISTORY_STORAGE, '0x', 10])
    await first.close()
    const second = await createNode({ db })
    try {
      expect(await call(second, 'debug_getModifiedAccountsByNumber', [1])).toEqual(expected)
      expect(await call(second, 'debug_storageRangeAt', ['0x1', 0, HISTORY_STORAGE, '0x', 10])).toEqual(range)
      expect(range).toMatchObject({ storage: { [keccak256(word(0n))]: { key: word(0n) } } })
    } finally {
      await second.close()
    }
  })

  it('behavior: debug_preimage answers the address or slot behind a hashed trie key', async () => {
    expect(await call(node, 'debug_preimage', [keccak256(sender(node, 1))])).toBe(sender(node, 1).toLowerCase())
    expect(await call(node, 'debug_preimage', [keccak256(word(0n))])).toBe(word(0n))
    expect(await rpcError(node, 'debug_preimage', [keccak256('0x1234')])).toMatchObject({ code: -32000, message: 'unknown preimage' })
  })

  it('behavior: accounts of an imported chain, named by their addresses', async () => {
    const block = await blockAt(imported, qty(3), true)
    const senders = (block.transactions as Array<{ from: Hex }>).map((t) => t.from)
    const modified = await call<Hex[]>(imported, 'debug_getModifiedAccountsByNumber', [3])
    for (const s of senders) expect(modified).toContain(s)
    expect(modified).toContain(block.miner)
  })
})

describe('debug_getBadBlocks, debug_traceBadBlock', () => {
  let node: FinalityNode
  const bad = corruptThird()
  const badHash = keccak256(hex(RLP.encode((RLP.decode(bad) as unknown as Uint8Array[][])[0] as never)))

  beforeAll(async () => {
    node = await newNode({ genesis, mining: { mode: 'manual' } })
  })

  it('default: empty until an import is refused; then the refused block, as geth lists it', async () => {
    expect(await call(node, 'debug_getBadBlocks')).toEqual([])
    const [b1, b2] = chainBlocks(2)
    await expect(node.importBlocks(Buffer.concat([b1 as Uint8Array, b2 as Uint8Array, bad]))).rejects.toThrow(/block 3 is invalid/)
    const list = await call<Array<{ hash: Hex; block: Block & { gasUsed: Hex; parentHash: Hex }; rlp: Hex }>>(node, 'debug_getBadBlocks')
    expect(list).toHaveLength(1)
    const [entry] = list
    expect(entry?.hash).toBe(badHash)
    expect(entry?.rlp).toBe(hex(bad))
    expect(entry?.block).toMatchObject({ hash: badHash, number: '0x3', gasUsed: '0x10203', parentHash: (await blockAt(node, '0x2')).hash })
    // The transactions in full, with the senders geth recovers: those of the real block 3.
    const real = await blockAt(imported, '0x3', true)
    expect(entry?.block.transactions).toEqual(
      (real.transactions as Array<Record<string, unknown>>).map((t) => ({ ...t, blockHash: badHash })),
    )
    // The same block refused again is listed once.
    await expect(node.importBlocks(bad)).rejects.toThrow(/block 3 is invalid/)
    expect(await call(node, 'debug_getBadBlocks')).toHaveLength(1)
  })

  it('behavior: debug_traceBadBlock traces it as debug_traceBlockByNumber traces the real block', async () => {
    const traces = await call<Array<{ txHash: Hex; result: CallFrame }>>(node, 'debug_traceBadBlock', [badHash, { tracer: 'callTracer' }])
    expect(traces).toEqual(await call(imported, 'debug_traceBlockByNumber', ['0x3', { tracer: 'callTracer' }]))
    const structLogs = await call(node, 'debug_traceBadBlock', [badHash])
    expect(structLogs).toEqual(await call(imported, 'debug_traceBlockByNumber', ['0x3']))
  })

  it('behavior: debug_intermediateRoots finds a bad block by its hash', async () => {
    const receipts = await call<Array<{ root: Hex }>>(imported, 'eth_getBlockReceipts', ['0x3'])
    expect(await call(node, 'debug_intermediateRoots', [badHash])).toEqual(receipts.map((r) => r.root))
  })

  it('error: an unknown bad block (geth: bad block 0x… not found)', async () => {
    const good = (await blockAt(node, '0x2')).hash
    expect(await rpcError(node, 'debug_traceBadBlock', [good])).toMatchObject({ code: -32000, message: `bad block ${good} not found` })
  })
})

describe('debug_traceBlock', () => {
  it('default: an RLP block whose parent is the head traces as the chain that holds it traces it', async () => {
    const node = await newNode({ genesis, mining: { mode: 'manual' } })
    const [b1, b2, b3] = chainBlocks(3)
    await node.importBlocks(Buffer.concat([b1 as Uint8Array, b2 as Uint8Array]))
    const config = { tracer: 'callTracer', tracerConfig: { withLog: true } }
    const traced = await call(node, 'debug_traceBlock', [hex(b3 as Uint8Array), config])
    expect(traced).toEqual(await call(imported, 'debug_traceBlockByNumber', ['0x3', config]))
    // Nothing of it is kept.
    expect(await call(node, 'eth_blockNumber')).toBe('0x2')
  })

  it('behavior: a block the chain holds (a mined one) traces as debug_traceBlockByHash', async () => {
    const node = await newNode()
    await call(node, 'eth_sendTransaction', [{ from: sender(node), to: sender(node, 1), value: '0x5' }])
    const block = await blockAt(node, 'latest')
    const rlp = await call<Hex>(node, 'debug_getRawBlock', [block.hash])
    expect(await call(node, 'debug_traceBlock', [rlp, { tracer: 'prestateTracer' }])).toEqual(
      await call(node, 'debug_traceBlockByHash', [block.hash, { tracer: 'prestateTracer' }]),
    )
  })

  it('error: bytes that are not a block, and a block whose parent is not on the chain', async () => {
    const node = await newNode({ genesis, mining: { mode: 'manual' } })
    const error = await rpcError(node, 'debug_traceBlock', ['0x1234'])
    expect(error.code).toBe(-32000)
    expect(error.message).toMatch(/^could not decode block: /)
    // An empty list, an empty string and a list without a header: named, not a JS TypeError.
    for (const bytes of ['0x', '0x80', '0xc0', '0xc1c0']) {
      expect(await rpcError(node, 'debug_traceBlock', [bytes])).toMatchObject({
        code: -32000,
        message: 'could not decode block: not a block: expected a list whose first item is a header of at least 15 byte strings',
      })
    }
    const fifth = chainBlocks(5)[4] as Uint8Array
    expect(await rpcError(node, 'debug_traceBlock', [hex(fifth)])).toMatchObject({ code: -32000, message: 'block #4 not found' })
  })
})

describe('debug methods that are not built', () => {
  it('error: the head-rewinding, Go log, proof-of-work and LevelDB methods answer -32601 (docs/debug.md says why)', async () => {
    const names = ['debug_setHead', 'debug_backtraceAt', 'debug_seedHash', 'debug_chaindbProperty', 'debug_chaindbCompact']
    for (const name of names) expect((await rpcError(imported, name, [])).code).toBe(-32601)
  })
})
