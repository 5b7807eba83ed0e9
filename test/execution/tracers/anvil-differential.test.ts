/**
 * The trace_* namespace against Anvil 1.7.1 (its binary from the @foundry-rs/anvil npm package, on
 * a free loopback port): the same transactions sent to both chains (a creation, nested CALL /
 * STATICCALL / DELEGATECALL, reverts at depth caught and not, a failed CREATE, an out-of-gas
 * frame, CREATE / CREATE2, SELFDESTRUCT of a new and of an old contract, value transfers,
 * precompile calls), then each trace method asked the same question on both, over HTTP.
 *
 * Both chains start alike (chain id 31337, the test mnemonic's accounts, Prague), and every
 * transaction names its gas and gas price, so that nonces, addresses, gas and balances match.
 * Normalised, and only these:
 * - `blockHash`: the headers differ (the block producer, timestamps, extra data), so their hashes do;
 * - in a `stateDiff`, the entry of the block's miner: Anvil's is the zero address and finality's
 *   its validator, and what the miner gains (the gas price above the block's base fee) follows
 *   each chain's own base fee; it is compared by its presence only.
 * Anvil 1.7.1 serves trace_transaction, trace_block, trace_filter and
 * trace_replayBlockTransactions; the others are compared with reth's rules in trace-methods.test.ts.
 */
import { encodeFunctionData, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Listening } from '../../../src/index.js'
import { loadArtifacts } from '../../helpers/compile.js'
import { startAnvil, type RunningAnvil } from '../../helpers/anvil.js'
import { trackNodes } from '../../helpers/nodes.js'

const newNode = trackNodes()
const A = loadArtifacts()
const DEAD = '0x000000000000000000000000000000000000dEaD'

interface Chain {
  url: string
  rpc(method: string, params?: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }>
  /** Transaction hash and block number of each named transaction. */
  sent: Map<string, { hash: Hex; block: Hex }>
  miner: Map<Hex, string>
}

function client(url: string): Chain['rpc'] {
  let id = 0
  return async (method, params = []) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const { result, error } = (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
    return error === undefined ? { result } : { error: { code: error.code, message: error.message } }
  }
}

/** Sends the scenario's transactions one block each; the same calls on both chains. */
async function play(url: string): Promise<Chain> {
  const rpc = client(url)
  const chain: Chain = { url, rpc, sent: new Map(), miner: new Map() }
  const from = ((await rpc('eth_accounts')).result as Hex[])[0] as Hex
  const send = async (name: string, tx: Record<string, unknown>) => {
    const sent = await rpc('eth_sendTransaction', [{ from, gas: '0x200000', gasPrice: '0x77359400', ...tx }])
    if (sent.error !== undefined) throw new Error(`${name}: ${sent.error.message}`)
    const hash = sent.result as Hex
    for (let i = 0; i < 500; i++) {
      const receipt = (await rpc('eth_getTransactionReceipt', [hash])).result as { blockNumber: Hex; contractAddress: Hex | null } | null
      if (receipt !== null) {
        const block = (await rpc('eth_getBlockByNumber', [receipt.blockNumber, false])).result as { miner: string }
        chain.sent.set(name, { hash, block: receipt.blockNumber })
        chain.miner.set(receipt.blockNumber, block.miner.toLowerCase())
        return receipt.contractAddress as Hex
      }
      await new Promise((r) => setTimeout(r, 10))
    }
    throw new Error(`${name} was not mined`)
  }
  const matrix = await send('deploy', { data: A.TraceMatrix!.bytecode, value: '0x100' })
  const target = await send('deployTarget', { data: A.TraceTarget!.bytecode })
  const doomed = await send('deployDoomed', { data: A.Doomed!.bytecode, value: '0x55' })
  const call = (fn: string, args: unknown[]) => encodeFunctionData({ abi: A.TraceMatrix!.abi, functionName: fn, args })
  await send('nested', { to: matrix, data: call('nested', [target, 7n]) })
  // DELEGATECALL keeps msg.value: the non-payable get() reverts, and so does the transaction.
  await send('nestedReverted', { to: matrix, data: call('nested', [target, 7n]), value: '0x5' })
  await send('deepRevertCaught', { to: matrix, data: call('deepRevert', [3n]) })
  await send('deepRevertUncaught', { to: matrix, data: call('revertDeep', [2n]) })
  await send('failures', { to: matrix, data: call('failures', [target]) })
  await send('creates', { to: matrix, data: call('make', [`0x${'11'.repeat(32)}`]) })
  await send('selfdestructNew', { to: matrix, data: call('makeAndDestroy', [from]), value: '0x77' })
  await send('selfdestructOld', { to: doomed, data: encodeFunctionData({ abi: A.Doomed!.abi, functionName: 'destroy', args: [DEAD] }) })
  await send('pay', { to: matrix, data: call('pay', [DEAD]), value: '0x9' })
  await send('transfer', { to: '0x000000000000000000000000000000000000bEEF', value: '0x3' })
  await send('precompiles', { to: matrix, data: call('precompiles', [`0x${'22'.repeat(32)}`, 27, `0x${'33'.repeat(32)}`, `0x${'44'.repeat(32)}`]) })
  return chain
}

/** Block hashes differ between the chains (their headers do): blanked everywhere. */
function withoutBlockHashes(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'blockHash' ? '<block hash>' : v)))
}

/** The miner's entry of each stateDiff replaced by a mark of its presence (see the file's comment). */
function withoutMiner(value: unknown, miner: string): unknown {
  const results = value as Array<{ stateDiff: Record<string, unknown> | null }>
  return results.map((r) => {
    if (r.stateDiff === null || !Object.hasOwn(r.stateDiff, miner)) return r
    const { [miner]: _gain, ...rest } = r.stateDiff
    return { ...r, stateDiff: { ...rest, '<miner>': 'changed' } }
  })
}

let anvil: RunningAnvil
let served: Listening
let ours: Chain
let theirs: Chain

beforeAll(async () => {
  anvil = await startAnvil(['--hardfork', 'prague'])
  const node = await newNode({ hardfork: 'prague' })
  served = await node.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth', 'web3', 'net', 'trace'] })
  theirs = await play(anvil.http)
  ours = await play(served.http as string)
}, 60_000)

afterAll(async () => {
  await served?.close()
  await anvil?.stop()
})

/** Asks both chains; the answers must be equal once block hashes are blanked. */
async function same(method: string, params: unknown[]): Promise<unknown> {
  const [a, b] = [await theirs.rpc(method, params), await ours.rpc(method, params)]
  expect(withoutBlockHashes(b), `${method} ${JSON.stringify(params)}`).toEqual(withoutBlockHashes(a))
  return b.result
}

describe('trace_* against Anvil', () => {
  it('the scenario ran alike: the same transaction hashes in the same blocks', () => {
    expect([...ours.sent]).toEqual([...theirs.sent])
    expect(ours.sent.size).toBe(14)
  })

  it('trace_transaction: every transaction', async () => {
    for (const [name, { hash }] of theirs.sent) {
      const traces = (await same('trace_transaction', [hash])) as unknown[]
      expect(traces.length, name).toBeGreaterThan(0)
    }
  })

  it('trace_transaction: the kinds of entries the scenario has (calls, creations, suicides; Reverted, Out of gas)', async () => {
    const all = []
    for (const { hash } of ours.sent.values()) all.push(...((await ours.rpc('trace_transaction', [hash])).result as Array<Record<string, unknown>>))
    const kinds = new Set(all.map((t) => `${t.type}:${(t.action as { callType?: string }).callType ?? (t.action as { creationMethod?: string }).creationMethod ?? ''}:${t.error ?? ''}`))
    for (const kind of ['call:call:', 'call:staticcall:', 'call:delegatecall:', 'call:call:Reverted', 'call:delegatecall:Reverted', 'call:call:Out of gas', 'create:create:', 'create:create2:', 'create:create:Reverted', 'suicide::']) {
      expect(kinds, kind).toContain(kind)
    }
  })

  it('trace_transaction of an unknown transaction: [] on both', async () => {
    expect(await same('trace_transaction', [`0x${'ab'.repeat(32)}`])).toEqual([])
  })

  it('trace_block: every block, by number and by tag; past the head: [] on both', async () => {
    for (const { block } of theirs.sent.values()) await same('trace_block', [block])
    await same('trace_block', ['latest'])
    await same('trace_block', ['earliest'])
    expect(await same('trace_block', ['0x999'])).toEqual([])
  })

  it('trace_filter: by block range, fromAddress, toAddress, both modes, after and count', async () => {
    const target = `0x${'e7f1725e7734ce288f8367e1bb143e90bb3f0512'}`
    const matrix = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
    const filters = [
      { fromBlock: '0x1', toBlock: '0x5' },
      { fromBlock: '0x1', toAddress: [target] },
      { fromAddress: [matrix] },
      { fromAddress: [matrix], toAddress: [target], mode: 'intersection' },
      { fromAddress: [matrix], toAddress: [DEAD.toLowerCase()], mode: 'union' },
      { fromBlock: '0x1', after: 3, count: 4 },
    ]
    for (const filter of filters) expect(((await same('trace_filter', [filter])) as unknown[]).length, JSON.stringify(filter)).toBeGreaterThan(0)
  })

  it('trace_filter: the same refusals (a reversed range, a range over 300 blocks)', async () => {
    for (const filter of [{ fromBlock: '0x5', toBlock: '0x1' }, { fromBlock: '0x0', toBlock: '0x12d' }]) {
      await same('trace_filter', [filter])
      expect((await ours.rpc('trace_filter', [filter])).error?.code).toBe(-32602)
    }
  })

  it('trace_replayBlockTransactions: trace and stateDiff of every block (the miner normalised)', async () => {
    for (const [name, { block }] of theirs.sent) {
      const params = [block, ['trace', 'stateDiff']]
      const [a, b] = [await theirs.rpc('trace_replayBlockTransactions', params), await ours.rpc('trace_replayBlockTransactions', params)]
      expect(b.error, name).toBeUndefined()
      expect(withoutMiner(b.result, ours.miner.get(block) as string), name).toEqual(withoutMiner(a.result, theirs.miner.get(block) as string))
    }
  })

  it('trace_replayBlockTransactions: vmTrace of every block', async () => {
    for (const { block } of theirs.sent.values()) await same('trace_replayBlockTransactions', [block, ['vmTrace']])
  })

  it('trace_replayBlockTransactions: only the trace types asked for', async () => {
    const { block } = theirs.sent.get('nested') as { block: Hex }
    await same('trace_replayBlockTransactions', [block, ['trace']])
    await same('trace_replayBlockTransactions', [block, []])
  })
})
