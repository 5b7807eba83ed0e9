/**
 * The log index behind eth_getLogs ranges, over node.request: randomized queries against the
 * single-block path (blockHash queries, which walk the block's stored receipts), reverts and
 * hardhat_reset, a chain resumed from a database, and the result and range limits.
 */
import { describe, expect, it } from 'vitest'
import { MemoryLevel } from 'memory-level'
import { encodeFunctionData, keccak256, toHex, type Abi, type Hex } from 'viem'
import type { FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const Emitter = loadArtifacts().Emitter as { abi: Abi; bytecode: Hex }

interface Log { address: Hex; topics: Hex[]; blockNumber: Hex; blockHash: Hex; logIndex: Hex; transactionHash: Hex }
type Topics = Array<Hex | Hex[] | null>
interface Query { address?: Hex | Hex[]; topics?: Topics; fromBlock?: Hex | string; toBlock?: Hex | string; blockHash?: Hex }

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): (n: number) => number {
  let a = seed >>> 0
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)
  }
}

async function rpc<T>(node: FinalityNode, method: string, params: unknown[] = []): Promise<T> {
  return (await node.request({ method, params })) as T
}

async function rpcError(node: FinalityNode, method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  try {
    await node.request({ method, params })
  } catch (e) {
    return e as { code: number; message: string }
  }
  throw new Error(`${method} did not fail`)
}

const head = async (node: FinalityNode): Promise<number> => Number(BigInt(await rpc<Hex>(node, 'eth_blockNumber')))

async function deploy(node: FinalityNode, from: Hex): Promise<Hex> {
  const hash = await rpc<Hex>(node, 'eth_sendTransaction', [{ from, data: Emitter.bytecode }])
  const receipt = await rpc<{ contractAddress: Hex }>(node, 'eth_getTransactionReceipt', [hash])
  return receipt.contractAddress
}

/** One transaction that emits logs: a Transfer2, some Notes, or one of each event. */
function emitting(pick: (n: number) => number, accounts: Hex[], emitters: Hex[]): { from: Hex; to: Hex; data: Hex } {
  const from = accounts[pick(accounts.length)] as Hex
  const to = emitters[pick(emitters.length)] as Hex
  const kind = pick(3)
  const data = kind === 0
    ? encodeFunctionData({ abi: Emitter.abi, functionName: 'emitTransfer', args: [accounts[pick(accounts.length)], BigInt(pick(5))] })
    : kind === 1
      ? encodeFunctionData({ abi: Emitter.abi, functionName: 'emitMany', args: [BigInt(pick(4))] })
      : encodeFunctionData({ abi: Emitter.abi, functionName: 'fire', args: [] })
  return { from, to, data }
}

/** Mines `blocks` blocks of 0–3 log-emitting transactions each. */
async function produce(node: FinalityNode, pick: (n: number) => number, accounts: Hex[], emitters: Hex[], blocks: number): Promise<void> {
  await rpc(node, 'evm_setAutomine', [false])
  for (let b = 0; b < blocks; b++) {
    const count = pick(4)
    for (let i = 0; i < count; i++) await rpc(node, 'eth_sendTransaction', [emitting(pick, accounts, emitters)])
    await rpc(node, 'evm_mine')
  }
  await rpc(node, 'evm_setAutomine', [true])
}

/** The reference answer: each block of the range asked by its hash (the receipts walk). */
async function walk(node: FinalityNode, query: Query, from: number, to: number): Promise<Log[]> {
  const out: Log[] = []
  for (let h = from; h <= to; h++) {
    const block = await rpc<{ hash: Hex }>(node, 'eth_getBlockByNumber', [toHex(h), false])
    const { fromBlock: _f, toBlock: _t, ...rest } = query
    out.push(...(await rpc<Log[]>(node, 'eth_getLogs', [{ ...rest, blockHash: block.hash }])))
  }
  return out
}

/** Every log of blocks 0..to, for picking topics and addresses that occur. */
async function allLogs(node: FinalityNode): Promise<Log[]> {
  return rpc<Log[]>(node, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])
}

/** A random query over what the chain holds, with some values that match nothing. */
function randomQuery(pick: (n: number) => number, logs: Log[], emitters: Hex[], height: number): { query: Query; from: number; to: number } {
  const topicsAt = (i: number): Hex[] => [...new Set(logs.map((l) => l.topics[i]).filter((t): t is Hex => t !== undefined))]
  const unknown = keccak256(toHex(`nothing ${pick(1000)}`))
  const query: Query = {}
  const addressKind = pick(4)
  if (addressKind === 1) query.address = emitters[pick(emitters.length)] as Hex
  if (addressKind === 2) query.address = [...emitters.filter(() => pick(2) === 0), ...(pick(3) === 0 ? [`0x${'ab'.repeat(20)}` as Hex] : [])]
  if (addressKind === 3) query.address = [emitters[0] as Hex, emitters[0] as Hex]
  const positions = pick(5)
  if (positions > 0 || pick(2) === 0) {
    const topics: Topics = []
    for (let i = 0; i < positions; i++) {
      const pool = topicsAt(i)
      const kind = pick(4)
      if (kind === 0 || pool.length === 0) topics.push(null)
      else if (kind === 1) topics.push(pool[pick(pool.length)] as Hex)
      else topics.push([...new Set([pool[pick(pool.length)] as Hex, pick(2) === 0 ? unknown : (pool[pick(pool.length)] as Hex)])])
    }
    query.topics = topics
  }
  let from = pick(height + 1)
  let to = pick(height + 1)
  if (from > to) [from, to] = [to, from]
  query.fromBlock = toHex(from)
  query.toBlock = to === height && pick(2) === 0 ? 'latest' : toHex(to)
  return { query, from, to }
}

async function setup(options: Parameters<typeof newNode>[0] = {}): Promise<{ node: FinalityNode; accounts: Hex[]; emitters: Hex[] }> {
  const node = await newNode(options)
  const accounts = (await rpc<Hex[]>(node, 'eth_accounts')).slice(0, 3)
  const emitters: Hex[] = []
  for (let i = 0; i < 3; i++) emitters.push(await deploy(node, accounts[0] as Hex))
  return { node, accounts, emitters }
}

async function compareRandom(node: FinalityNode, pick: (n: number) => number, emitters: Hex[], queries: number): Promise<number> {
  const height = await head(node)
  const logs = await allLogs(node)
  // The whole chain, unfiltered, first.
  expect(logs).toEqual(await walk(node, {}, 0, height))
  let nonEmpty = 0
  for (let q = 0; q < queries; q++) {
    const { query, from, to } = randomQuery(pick, logs, emitters, height)
    const got = await rpc<Log[]>(node, 'eth_getLogs', [query])
    expect(got, JSON.stringify(query)).toEqual(await walk(node, query, from, to))
    if (got.length > 0) nonEmpty++
  }
  return nonEmpty
}

describe('eth_getLogs over a range, from the log index', () => {
  it('answers random address, topic, wildcard and range queries as the per-block receipts walk does', async () => {
    const pick = random(7)
    const { node, accounts, emitters } = await setup()
    await produce(node, pick, accounts, emitters, 40)
    const logs = await allLogs(node)
    expect(logs.length).toBeGreaterThan(60)
    // Several transactions in one block: logIndex runs over the block, not the transaction.
    expect(logs.some((l, i) => i > 0 && logs[i - 1]?.blockHash === l.blockHash && logs[i - 1]?.transactionHash !== l.transactionHash)).toBe(true)
    const nonEmpty = await compareRandom(node, pick, emitters, 150)
    // The random queries are not all trivially empty.
    expect(nonEmpty).toBeGreaterThan(40)
  })

  it('a polling filter and eth_getFilterLogs give what eth_getLogs gives, before and after new blocks', async () => {
    const pick = random(11)
    const { node, accounts, emitters } = await setup()
    await produce(node, pick, accounts, emitters, 10)
    const query = { address: emitters[1], fromBlock: '0x0', toBlock: 'latest' }
    const id = await rpc<Hex>(node, 'eth_newFilter', [query])
    expect(await rpc<Log[]>(node, 'eth_getFilterLogs', [id])).toEqual(await rpc<Log[]>(node, 'eth_getLogs', [query]))
    await produce(node, pick, accounts, emitters, 10)
    const all = await rpc<Log[]>(node, 'eth_getLogs', [query])
    expect(await rpc<Log[]>(node, 'eth_getFilterLogs', [id])).toEqual(all)
    expect(all).toEqual(await walk(node, query, 0, await head(node)))
  })

  it('drops reverted blocks (evm_revert) and indexes the blocks mined at their heights instead', async () => {
    const pick = random(23)
    const { node, accounts, emitters } = await setup()
    await produce(node, pick, accounts, emitters, 8)
    const before = await allLogs(node)
    const height = await head(node)
    const snapshot = await rpc<Hex>(node, 'evm_snapshot')
    await produce(node, pick, accounts, emitters, 8)
    expect((await allLogs(node)).length).toBeGreaterThan(before.length)
    expect(await rpc(node, 'evm_revert', [snapshot])).toBe(true)
    // Without a new block: the same answer as before the snapshot, and the head is where it was.
    expect(await head(node)).toBe(height)
    expect(await allLogs(node)).toEqual(before)
    const past = await rpcError(node, 'eth_getLogs', [{ fromBlock: toHex(height + 1), toBlock: toHex(height + 2) }])
    expect(past.message).toBe('block range extends beyond current head block')
    // New, different blocks at the reverted heights.
    await produce(node, random(99), accounts, emitters.slice(2), 8)
    await compareRandom(node, pick, emitters, 40)
    // Revert with a block mined right after (the commit replaces the reverted heights itself).
    const again = await rpc<Hex>(node, 'evm_snapshot')
    await produce(node, pick, accounts, emitters, 3)
    await rpc(node, 'evm_revert', [again])
    await rpc(node, 'eth_sendTransaction', [emitting(pick, accounts, emitters)])
    await compareRandom(node, pick, emitters, 30)
  })

  it('forgets every block on hardhat_reset and indexes the new chain from its genesis', async () => {
    const pick = random(31)
    const { node, accounts, emitters } = await setup()
    await produce(node, pick, accounts, emitters, 6)
    expect((await allLogs(node)).length).toBeGreaterThan(0)
    expect(await rpc(node, 'hardhat_reset')).toBe(true)
    expect(await head(node)).toBe(0)
    expect(await allLogs(node)).toEqual([])
    const fresh: Hex[] = [await deploy(node, accounts[0] as Hex), await deploy(node, accounts[1] as Hex)]
    await produce(node, pick, accounts, fresh, 6)
    expect((await allLogs(node)).length).toBeGreaterThan(0)
    await compareRandom(node, pick, fresh, 30)
  })

  it('answers for a chain resumed from a database, blocks before and after the restart', async () => {
    const pick = random(43)
    const db = new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' })
    const { node, accounts, emitters } = await setup({ db })
    await produce(node, pick, accounts, emitters, 12)
    const before = await allLogs(node)
    await node.close()
    const resumed = await newNode({ db })
    // Indexed lazily on first use: the same logs as before the restart.
    expect(await allLogs(resumed)).toEqual(before)
    await produce(resumed, pick, accounts, emitters, 6)
    expect((await allLogs(resumed)).length).toBeGreaterThan(before.length)
    await compareRandom(resumed, pick, emitters, 40)
  })

  it('enforces logsResults at and past the limit with geth\'s message and range hint', async () => {
    const { node, accounts, emitters } = await setup({ limits: { logsResults: 5 } })
    const emitter = emitters[0] as Hex
    const start = await head(node)
    // Blocks start+1 .. start+3 each emit two Note logs.
    for (let i = 0; i < 3; i++) {
      await rpc(node, 'eth_sendTransaction', [{ from: accounts[0], to: emitter, data: encodeFunctionData({ abi: Emitter.abi, functionName: 'emitMany', args: [2n] }) }])
    }
    // Block start+4 emits one more.
    await rpc(node, 'eth_sendTransaction', [{ from: accounts[0], to: emitter, data: encodeFunctionData({ abi: Emitter.abi, functionName: 'emitMany', args: [1n] }) }])
    const range = { address: emitter, fromBlock: toHex(start + 1) }
    // At the limit: 2 + 2 + 1 logs.
    const atLimit = await rpc<Log[]>(node, 'eth_getLogs', [{ address: emitter, fromBlock: toHex(start + 2), toBlock: toHex(start + 4) }])
    expect(atLimit).toHaveLength(5)
    // Past it: the sixth log is in block start+3, so the hint ends at start+2.
    const past = await rpcError(node, 'eth_getLogs', [{ ...range, toBlock: toHex(start + 3) }])
    expect(past.code).toBe(-32602)
    expect(past.message).toBe(`query returned more than 5 results; try the range ${toHex(start + 1)}-${toHex(start + 2)}`)
  })

  it('enforces logsBlockRange at and past the limit', async () => {
    const node = await newNode({ limits: { logsBlockRange: 3 } })
    await rpc(node, 'hardhat_mine', ['0x5'])
    expect(await rpc<Log[]>(node, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x3' }])).toEqual([])
    const past = await rpcError(node, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x4' }])
    expect(past.code).toBe(-32602)
    expect(past.message).toBe('block range too large: 4 blocks, the limit is 3')
  })
})
