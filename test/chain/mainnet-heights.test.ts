/**
 * A node's own chain runs its hardfork from genesis on and has none of mainnet's block-number
 * rules: blocks 1,920,000 to 1,920,009 need no DAO `extraData`, and block 12,965,000 has the base
 * fee its parent gives, not London's initial 1 gwei. The chain reaches those heights here as a
 * user's would: a fork of a chain that is already there (an Anvil started from a geth genesis
 * whose `number` is just below them), then `hardhat_mine`, `hardhat_mine` with an interval and
 * automined transactions across them. Every block there reads back. A fork of a chain
 * @ethereumjs/common does not know reads that chain's own blocks there under the node's rules too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createPublicClient, custom, keccak256, type Hex } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { startAnvil, type RunningAnvil } from '../helpers/anvil.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const q = (n: bigint): Hex => `0x${n.toString(16)}`
const dir = mkdtempSync(path.join(tmpdir(), 'finality-heights-'))
const anvils: RunningAnvil[] = []

afterAll(async () => {
  for (const a of anvils.splice(0)) await a.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** An Anvil whose chain starts at block `number` (a Prague geth genesis), `mined` blocks mined on it. */
async function remoteAt(chainId: number, number: bigint, mined = 1n): Promise<RunningAnvil> {
  const file = path.join(dir, `genesis-${chainId}-${number}.json`)
  const forks = ['homestead', 'eip150', 'eip155', 'eip158', 'byzantium', 'constantinople', 'petersburg', 'istanbul', 'berlin', 'london', 'mergeNetsplit']
  const config: Record<string, unknown> = { chainId, terminalTotalDifficulty: 0, shanghaiTime: 0, cancunTime: 0, pragueTime: 0 }
  for (const f of forks) config[`${f}Block`] = 0
  writeFileSync(file, JSON.stringify({ config, number: q(number), gasLimit: '0x1c9c380', difficulty: '0x0', timestamp: '0x0', alloc: {} }))
  const anvil = await startAnvil(['--init', file])
  anvils.push(anvil)
  // Anvil's genesis state root leaves out its funded accounts; the next block's has them.
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [q(mined)] })
  await fetch(anvil.http, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.text())
  return anvil
}

type Block = { number: Hex; hash: Hex; parentHash: Hex; extraData: Hex; baseFeePerGas: Hex; gasUsed: Hex; transactions: Hex[] }

/** Forks the remote, mines across `target` (blocks, transactions, blocks with an interval) and reads every block back. */
async function acrossHeight(anvil: RunningAnvil, start: bigint, target: bigint): Promise<Block[]> {
  const node = await newNode({ fork: { url: anvil.http } })
  expect(BigInt((await node.request({ method: 'eth_blockNumber', params: [] })) as Hex)).toBe(start + 1n)
  const from = node.accounts[0]!.address
  await node.request({ method: 'hardhat_mine', params: ['0x4'] })
  for (let i = 0; i < 6; i++) await node.request({ method: 'eth_sendTransaction', params: [{ from, to: node.accounts[1]!.address, value: '0x1' }] })
  await node.request({ method: 'hardhat_mine', params: ['0xa', '0x3c'] })
  const head = BigInt((await node.request({ method: 'eth_blockNumber', params: [] })) as Hex)
  expect(head).toBe(start + 21n)
  expect(head).toBeGreaterThan(target + 9n)
  const client = createPublicClient({ transport: custom(node.provider) })
  const blocks: Block[] = []
  let parent = (await node.request({ method: 'eth_getBlockByNumber', params: [q(start + 1n), false] })) as Block
  for (let n = start + 2n; n <= head; n++) {
    const block = (await node.request({ method: 'eth_getBlockByNumber', params: [q(n), false] })) as Block
    expect(BigInt(block.number)).toBe(n)
    expect(block.parentHash).toBe(parent.hash)
    expect((await client.getBlock({ blockNumber: n })).hash).toBe(block.hash)
    expect(await node.request({ method: 'eth_getBlockByHash', params: [block.hash, false] })).toEqual(block)
    expect(keccak256((await node.request({ method: 'debug_getRawHeader', params: [q(n)] })) as Hex)).toBe(block.hash)
    const receipts = (await node.request({ method: 'eth_getBlockReceipts', params: [q(n)] })) as Array<{ status: Hex; blockHash: Hex }>
    expect(receipts.map((r) => [r.status, r.blockHash])).toEqual(block.transactions.map(() => ['0x1', block.hash]))
    // Its transactions replay under the node's rules (no irregular state change at the DAO block).
    const traces = (await node.request({ method: 'debug_traceBlockByNumber', params: [q(n), { tracer: 'callTracer' }] })) as unknown[]
    expect(traces.length).toBe(block.transactions.length)
    blocks.push(block)
    parent = block
  }
  return blocks
}

describe('a node\'s own chain at mainnet\'s fork heights', () => {
  it('builds and reads blocks 1,920,000 to 1,920,009 without the DAO fork\'s extraData', async () => {
    const start = 1_919_990n
    const blocks = await acrossHeight(await remoteAt(4242, start), start, 1_920_000n)
    const dao = blocks.filter((b) => BigInt(b.number) >= 1_920_000n && BigInt(b.number) <= 1_920_009n)
    expect(dao.length).toBe(10)
    for (const b of dao) expect(b.extraData).toBe('0x')
    // Automined transactions land across the boundary (blocks 1,919,996 to 1,920,001).
    expect(dao.filter((b) => b.transactions.length === 1).length).toBe(2)
  }, 120_000)

  it('builds and reads block 12,965,000 with the base fee its parent gives (under mainnet\'s chain id too)', async () => {
    const start = 12_964_990n
    const blocks = await acrossHeight(await remoteAt(1, start), start, 12_965_000n)
    const at = blocks.findIndex((b) => BigInt(b.number) === 12_965_000n)
    const [parent, london] = [blocks[at - 1]!, blocks[at]!]
    expect(london.transactions.length).toBe(1)
    expect(BigInt(london.baseFeePerGas)).not.toBe(1_000_000_000n)
    // EIP-1559 from the parent: an empty parent (a mined block) lowers the fee by an eighth.
    expect(BigInt(parent.gasUsed) < 15_000_000n).toBe(true)
    expect(BigInt(london.baseFeePerGas)).toBeLessThan(BigInt(parent.baseFeePerGas))
  }, 120_000)

  it('a fork reads the remote\'s own blocks 1,920,000 to 1,920,009 (a chain @ethereumjs/common does not know)', async () => {
    const start = 1_919_995n
    const anvil = await remoteAt(4242, start, 16n)
    const node = await newNode({ fork: { url: anvil.http } })
    const remote = { request: async (method: string, params: unknown[]) => ((await (await fetch(anvil.http, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result: unknown }).result }
    for (let n = 1_920_000n; n <= 1_920_009n; n++) {
      const theirs = (await remote.request('eth_getBlockByNumber', [q(n), false])) as Block
      const mine = (await node.request({ method: 'eth_getBlockByNumber', params: [q(n), false] })) as Block
      expect([mine.number, mine.hash, mine.extraData]).toEqual([theirs.number, theirs.hash, '0x'])
      expect(keccak256((await node.request({ method: 'debug_getRawHeader', params: [q(n)] })) as Hex)).toBe(theirs.hash)
      expect(await node.request({ method: 'eth_getBlockReceipts', params: [q(n)] })).toEqual([])
    }
    // And builds on them.
    await node.request({ method: 'hardhat_mine', params: ['0x2'] })
    expect(await node.request({ method: 'eth_blockNumber', params: [] })).toBe(q(start + 18n))
  }, 120_000)
})
