/**
 * A fork of a chain whose hardfork changed before the fork block: each remote block at or below
 * it is read under the hardfork it was made under, so that its header hashes to its hash and its
 * transactions replay under its rules. The remote is a finality node that imported the
 * execution-apis chain (geth's blocks, Homestead at genesis to Osaka and its blob forks by block
 * 54), served over HTTP; its chain id is none @ethereumjs/common knows, so the fork reads each
 * block's hardfork from its header's fields.
 */
import { readFileSync } from 'node:fs'
import type { Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const dir = new URL('../fixtures/execution-apis', import.meta.url).pathname
const genesis: unknown = JSON.parse(readFileSync(`${dir}/genesis.json`, 'utf8'))
const chainBytes = new Uint8Array(readFileSync(`${dir}/chain.rlp`))
const q = (n: bigint | number): Hex => `0x${n.toString(16)}`

/** The fork block: block 46, under Prague (pragueTime 450). */
const FORK_BLOCK = 46
/** Blocks of each fork before it, with transactions and no uncles: Berlin (24), London (27, before the merge), Paris (36), Shanghai (390 s), Cancun (420 s). */
const OLDER = { berlin: 26, london: 28, paris: 37, shanghai: 40, cancun: 43 } as const

let remote: FinalityNode
let fork: FinalityNode

type Block = { hash: Hex; transactions: Array<{ hash: Hex; to: Hex | null; from: Hex; input: Hex }> }

async function both(method: string, params: unknown[]): Promise<[unknown, unknown]> {
  return [await fork.request({ method, params }), await remote.request({ method, params })]
}

beforeAll(async () => {
  remote = await newNode({ genesis, mining: { mode: 'manual' } })
  expect((await remote.importBlocks(chainBytes)).imported).toBe(54)
  const served = await remote.listen({ address: '127.0.0.1:0', wsAddress: false })
  fork = await newNode({ fork: { url: served.http!, blockNumber: FORK_BLOCK } })
}, 120_000)

describe('a fork reads each older block of the remote under its own hardfork', () => {
  it.each(Object.entries(OLDER))('%s block: by number and hash, its receipts and raw forms are the remote\'s', async (_name, n) => {
    const [mine, theirs] = await both('eth_getBlockByNumber', [q(n), true])
    expect(mine).toEqual(theirs)
    const block = theirs as Block
    expect(block.transactions.length).toBeGreaterThan(0)
    const [byHash, theirsByHash] = await both('eth_getBlockByHash', [block.hash, false])
    expect(byHash).toEqual(theirsByHash)
    for (const tx of block.transactions) {
      const [r, rr] = await both('eth_getTransactionReceipt', [tx.hash])
      expect(r).toEqual(rr)
      const [raw, rawTheirs] = await both('debug_getRawTransaction', [tx.hash])
      expect(raw).toEqual(rawTheirs)
    }
    for (const method of ['debug_getRawBlock', 'debug_getRawHeader', 'debug_getRawReceipts']) {
      const [a, b] = await both(method, [q(n)])
      expect(a, method).toEqual(b)
    }
  })

  it.each(Object.entries(OLDER))('%s block: its transactions trace as on the remote (replayed under its rules)', async (_name, n) => {
    const block = (await remote.request({ method: 'eth_getBlockByNumber', params: [q(n), true] })) as Block
    for (const tx of block.transactions) {
      const [mine, theirs] = await both('debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }])
      expect(mine).toEqual(theirs)
      const [logs, theirLogs] = await both('debug_traceTransaction', [tx.hash, {}])
      expect(logs).toEqual(theirLogs)
    }
    const [mine, theirs] = await both('debug_traceBlockByNumber', [q(n), { tracer: 'callTracer' }])
    expect(mine).toEqual(theirs)
    // debug_traceBlock of the block's bytes as the remote gives them.
    const raw = await remote.request({ method: 'debug_getRawBlock', params: [q(n)] })
    const [byRaw, theirsByRaw] = await both('debug_traceBlock', [raw, { tracer: 'callTracer' }])
    expect(byRaw).toEqual(theirsByRaw)
    expect(byRaw).toEqual(theirs)
  })

  it.each(Object.entries(OLDER))('%s block: eth_call and eth_estimateGas at it run on its state under its rules, as on the remote', async (_name, n) => {
    const block = (await remote.request({ method: 'eth_getBlockByNumber', params: [q(n), true] })) as Block
    for (const tx of block.transactions.filter((t) => t.to !== null)) {
      const call = { from: tx.from, to: tx.to, data: tx.input }
      const [mine, theirs] = await both('eth_call', [call, q(n)])
      expect(mine).toEqual(theirs)
      const [gas, theirGas] = await both('eth_estimateGas', [call, q(n)])
      expect(gas).toEqual(theirGas)
    }
  })

  it("London's first block (27): a call without a price runs with base fee 0 there too, as on the remote", async () => {
    const block = (await remote.request({ method: 'eth_getBlockByNumber', params: [q(27), false] })) as { baseFeePerGas: string }
    expect(BigInt(block.baseFeePerGas)).toBe(1_000_000_000n)
    // BASEFEE, stored to memory and returned: 0 for an unpriced call, as geth's NoBaseFee.
    const call = { to: null, data: '0x4860005260206000f3' }
    const [mine, theirs] = await both('eth_call', [call, q(27)])
    expect(mine).toBe(`0x${'0'.repeat(64)}`)
    expect(theirs).toBe(mine)
  })

  it('a block from before Berlin hashes to its hash too (its header is of the same form): by number, raw, receipts', async () => {
    for (const n of [1, 5, 20]) {
      for (const method of ['eth_getBlockByNumber', 'debug_getRawBlock', 'debug_getRawHeader', 'debug_getRawReceipts']) {
        const [mine, theirs] = await both(method, method === 'eth_getBlockByNumber' ? [q(n), true] : [q(n)])
        expect(mine, `${method} ${n}`).toEqual(theirs)
      }
    }
  })

  it('a block whose uncles the remote does not answer has no raw form here, said so; its header and transactions still serve', async () => {
    // Block 25 has an uncle; the remote (this node, which keeps no uncles) lists none.
    const block = (await remote.request({ method: 'eth_getBlockByNumber', params: [q(25), true] })) as Block & { sha3Uncles: Hex }
    expect(block.sha3Uncles).not.toBe('0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347')
    await expect(fork.request({ method: 'debug_getRawBlock', params: [q(25)] })).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/^block 25 of the remote http:\/\/127\.0\.0\.1:\d+\/? has uncles the remote does not answer/) })
    const [mine, theirs] = await both('debug_traceTransaction', [block.transactions[0]!.hash, { tracer: 'callTracer' }])
    expect(mine).toEqual(theirs)
  })
})
