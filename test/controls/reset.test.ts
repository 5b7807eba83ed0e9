/**
 * hardhat_reset without a fork, against a fresh node made with the same options: after a chain of
 * more blocks than the chain keeps decoded, transactions with logs, snapshots, test-control writes,
 * impersonation, a queued transaction and filters, the reset node answers every read as the fresh
 * one does, and the chain both then build (the same requests) is the same block for block. With a
 * database the reset leaves the same block records as a fresh chain's, and a node reopened on it
 * resumes the chain built after the reset.
 */
import { describe, expect, test } from 'vitest'
import { MemoryLevel } from 'memory-level'
import { encodeFunctionData, type Abi, type Hex } from 'viem'
import type { FinalityNode } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { manualClock } from '../helpers/manual-clock.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const Emitter = loadArtifacts().Emitter as { abi: Abi; bytecode: Hex }
const stranger: Hex = '0x00000000000000000000000000000000000000aa'

async function rpc<T = unknown>(node: FinalityNode, method: string, params: unknown[] = []): Promise<T> {
  return (await node.request({ method, params })) as T
}

/** The answer of a request, or its error's code and message: both nodes must give the same. */
async function answer(node: FinalityNode, method: string, params: unknown[] = []): Promise<unknown> {
  try {
    return await rpc(node, method, params)
  } catch (e) {
    const { code, message } = e as { code: number; message: string }
    return { code, message }
  }
}

const emit = (to: Hex, from: Hex, n: bigint) => ({ from, to, data: encodeFunctionData({ abi: Emitter.abi, functionName: 'emitTransfer', args: [from, n] }) })

/** Builds a chain the way a suite does before it resets; answers what the reset must forget. */
async function history(node: FinalityNode, queue = true): Promise<{ blockHashes: Hex[]; txHashes: Hex[]; contract: Hex; snapshot: unknown; filter: Hex }> {
  const [a, b] = node.accounts.map((x) => x.address as Hex) as [Hex, Hex]
  const deployed = await rpc<Hex>(node, 'eth_sendTransaction', [{ from: a, data: Emitter.bytecode }])
  const contract = (await rpc<{ contractAddress: Hex }>(node, 'eth_getTransactionReceipt', [deployed])).contractAddress
  const txHashes: Hex[] = [deployed]
  const filter = await rpc<Hex>(node, 'eth_newFilter', [{ address: contract }])
  await rpc(node, 'eth_newBlockFilter')
  for (let i = 0n; i < 20n; i++) txHashes.push(await rpc<Hex>(node, 'eth_sendTransaction', [emit(contract, i % 2n === 0n ? a : b, i)]))
  // More blocks than the chain keeps decoded (256), some under snapshots.
  await rpc(node, 'hardhat_mine', ['0x100'])
  const snapshot = await rpc(node, 'evm_snapshot')
  await rpc(node, 'hardhat_setBalance', [stranger, '0x99'])
  await rpc(node, 'hardhat_setStorageAt', [contract, '0x5', `0x${'00'.repeat(31)}07`])
  await rpc(node, 'evm_snapshot')
  for (let i = 0n; i < 10n; i++) txHashes.push(await rpc<Hex>(node, 'eth_sendTransaction', [emit(contract, a, 100n + i)]))
  await rpc(node, 'evm_increaseTime', [1000])
  await rpc(node, 'hardhat_mine', ['0x5', '0x3'])
  await rpc(node, 'hardhat_impersonateAccount', [stranger])
  await rpc(node, 'hardhat_setCode', [stranger, '0x6000'])
  // A transaction the pool keeps (a nonce gap): the reset empties the pool.
  // (Hardhat mode refuses a nonce gap while automining.)
  if (queue) {
    const nonce = BigInt(await rpc<Hex>(node, 'eth_getTransactionCount', [b, 'latest']))
    await rpc(node, 'eth_sendTransaction', [{ from: b, to: a, value: '0x1', nonce: `0x${(nonce + 3n).toString(16)}` }])
    expect(await rpc(node, 'txpool_status')).toEqual({ pending: '0x0', queued: '0x1' })
  }
  const height = Number(BigInt(await rpc<Hex>(node, 'eth_blockNumber')))
  const blockHashes: Hex[] = []
  for (const n of [1, 2, 100, height - 1, height]) blockHashes.push((await rpc<{ hash: Hex }>(node, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).hash)
  return { blockHashes, txHashes, contract, snapshot, filter }
}

/** What a node answers about its chain and state, with the hashes and ids of the history before a reset. */
async function probe(node: FinalityNode, old: { blockHashes: Hex[]; txHashes: Hex[]; contract: Hex }): Promise<unknown[]> {
  const [a, b] = node.accounts.map((x) => x.address as Hex) as [Hex, Hex]
  const out: unknown[] = []
  const ask = async (method: string, params: unknown[] = []) => out.push([method, params, await answer(node, method, params)])
  await ask('eth_blockNumber')
  await ask('eth_getBlockByNumber', ['latest', true])
  await ask('eth_getBlockByNumber', ['0x0', true])
  await ask('eth_getBlockByNumber', ['0x1', false])
  await ask('eth_getBlockByNumber', ['pending', false])
  for (const hash of old.blockHashes) {
    await ask('eth_getBlockByHash', [hash, false])
    await ask('eth_getBlockReceipts', [hash])
  }
  for (const hash of old.txHashes.slice(0, 3).concat(old.txHashes.slice(-3))) {
    await ask('eth_getTransactionByHash', [hash])
    await ask('eth_getTransactionReceipt', [hash])
  }
  for (const address of [a, b, stranger, old.contract]) {
    for (const tag of ['latest', 'pending', '0x0']) {
      await ask('eth_getBalance', [address, tag])
      await ask('eth_getTransactionCount', [address, tag])
      await ask('eth_getCode', [address, tag])
      await ask('eth_getStorageAt', [address, '0x5', tag])
    }
    await ask('eth_getProof', [address, ['0x0', '0x5'], 'latest'])
  }
  await ask('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])
  await ask('eth_getLogs', [{ address: old.contract }])
  await ask('txpool_content')
  await ask('eth_getBlockTransactionCountByNumber', ['0x1'])
  await ask('debug_getRawBlock', ['latest'])
  await ask('eth_feeHistory', ['0x4', 'latest', [50]])
  const meta = await rpc<Record<string, unknown>>(node, 'anvil_metadata')
  // The instance id changes with each reset (Hardhat's does): it alone may differ.
  out.push(['anvil_metadata', { ...meta, instanceId: undefined }])
  return out
}

/** The same requests on both nodes after the reset: the chain they build must be the same. */
async function future(node: FinalityNode, contract: Hex): Promise<unknown[]> {
  const [a, b] = node.accounts.map((x) => x.address as Hex) as [Hex, Hex]
  const out: unknown[] = []
  const ask = async (method: string, params: unknown[] = []) => out.push([method, params, await answer(node, method, params)])
  // Filter ids are random: each node's own, named in the answers by what they filter.
  const byFilter = async (method: string, id: Hex, name: string) => out.push([method, name, await answer(node, method, [id])])
  const filter = await rpc<Hex>(node, 'eth_newFilter', [{ fromBlock: '0x0' }])
  const blocks = await rpc<Hex>(node, 'eth_newBlockFilter')
  // Sent from an address impersonated before the reset: refused on both (no impersonation left).
  await ask('eth_sendTransaction', [{ from: stranger, to: a, value: '0x1' }])
  const deployed = await rpc<Hex>(node, 'eth_sendTransaction', [{ from: b, data: Emitter.bytecode }])
  const fresh = (await rpc<{ contractAddress: Hex }>(node, 'eth_getTransactionReceipt', [deployed])).contractAddress
  out.push(['deployed at', fresh, fresh === contract])
  for (let i = 0n; i < 4n; i++) await ask('eth_sendTransaction', [emit(fresh, a, i)])
  await ask('hardhat_mine', ['0x3'])
  await byFilter('eth_getFilterChanges', filter, 'logs')
  await byFilter('eth_getFilterLogs', filter, 'logs')
  await byFilter('eth_getFilterChanges', blocks, 'blocks')
  await ask('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])
  await ask('eth_getBlockByNumber', ['latest', true])
  await ask('eth_getBlockByNumber', ['0x1', true])
  await ask('eth_getBlockReceipts', ['0x2'])
  await ask('eth_getProof', [fresh, ['0x0'], 'latest'])
  return out
}

async function resetAgainstFresh(options: () => Parameters<typeof newNode>[0]): Promise<FinalityNode> {
  const used = await newNode(options())
  const fresh = await newNode(options())
  const old = await history(used)
  expect(await rpc(used, 'hardhat_reset')).toBe(true)
  expect(await probe(used, old)).toEqual(await probe(fresh, old))
  expect(await rpc(used, 'evm_revert', [old.snapshot])).toBe(false)
  expect(await future(used, old.contract)).toEqual(await future(fresh, old.contract))
  expect(await probe(used, old)).toEqual(await probe(fresh, old))
  return used
}

describe('hardhat_reset', () => {
  test('behavior: after blocks, logs, snapshots, writes, impersonation, a queued transaction and filters, a reset node answers as a fresh one', async () => {
    const start = 1_700_000_000_000
    await resetAgainstFresh(() => ({ clock: manualClock(start) }))
  })

  test('behavior: without Hardhat mode, a filter made before the reset sees the chain built after it; the mining mode and the snapshot count stay', async () => {
    const used = await newNode({ clock: manualClock() })
    const old = await history(used)
    await rpc(used, 'evm_setAutomine', [false])
    await rpc(used, 'hardhat_reset')
    expect(await rpc(used, 'hardhat_getAutomine')).toBe(false)
    expect(await rpc(used, 'evm_snapshot')).toBe('0x3')
    await rpc(used, 'evm_setAutomine', [true])
    const [a] = used.accounts.map((x) => x.address as Hex) as [Hex]
    const deployed = await rpc<Hex>(used, 'eth_sendTransaction', [{ from: a, data: Emitter.bytecode }])
    const contract = (await rpc<{ contractAddress: Hex }>(used, 'eth_getTransactionReceipt', [deployed])).contractAddress
    // The same address as before the reset: the same sender at nonce 0.
    expect(contract).toBe(old.contract)
    await rpc(used, 'eth_sendTransaction', [emit(contract, a, 9n)])
    const logs = await rpc<Array<{ blockNumber: Hex; data: Hex }>>(used, 'eth_getFilterLogs', [old.filter])
    expect(logs.map((l) => l.blockNumber)).toEqual(['0x2'])
  })

  test('behavior: Hardhat mode leaves what Hardhat\'s new provider has: the configured mining mode, snapshot ids from 0x1, no filters (an unknown id answers null)', async () => {
    for (const mining of [undefined, { mode: 'manual' }] as const) {
      const used = await newNode({ clock: manualClock(), hardhatCompat: true, ...(mining === undefined ? {} : { mining }) })
      const before = await rpc(used, 'hardhat_getAutomine')
      await rpc(used, 'evm_setAutomine', [true])
      const old = await history(used, false)
      // The mode at the reset is the other one.
      await rpc(used, 'evm_setAutomine', [before !== true])
      await rpc(used, 'hardhat_reset')
      expect(await rpc(used, 'hardhat_getAutomine')).toBe(before)
      expect(await rpc(used, 'evm_snapshot')).toBe('0x1')
      expect(await rpc(used, 'eth_getFilterLogs', [old.filter])).toBeNull()
      expect(await rpc(used, 'eth_getFilterChanges', [old.filter])).toBeNull()
      expect(await rpc(used, 'eth_uninstallFilter', [old.filter])).toBe(false)
      await used.close()
    }
  })

  test('behavior: with a database, the reset leaves the records of a fresh chain, and a reopened node resumes the chain built after it', async () => {
    const start = 1_700_000_000_000
    const dbs: MemoryLevel<string, Uint8Array>[] = []
    const options = () => {
      const db = new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' })
      dbs.push(db)
      return { clock: manualClock(start), db }
    }
    const used = await resetAgainstFresh(options)
    const [usedDb, freshDb] = dbs as [MemoryLevel<string, Uint8Array>, MemoryLevel<string, Uint8Array>]
    // Block, receipt, height, transaction, certificate and irregular-root records; trie nodes and
    // preimages are never removed (older roots stay readable).
    const records = async (db: MemoryLevel<string, Uint8Array>) => {
      const out: Record<string, string> = {}
      for await (const [key, value] of db.iterator({ keyEncoding: 'utf8', valueEncoding: 'view' })) {
        if (/^[bchrti]/.test(key)) out[key] = Buffer.from(value).toString('hex')
      }
      return out
    }
    const kept = await records(usedDb)
    expect(Object.keys(kept).some((k) => k.startsWith('t'))).toBe(true)
    expect(kept).toEqual(await records(freshDb))
    const head = await rpc<{ hash: Hex }>(used, 'eth_getBlockByNumber', ['latest', false])
    await used.close()
    const reopened = await newNode({ clock: manualClock(start), db: usedDb })
    expect(await rpc<{ hash: Hex }>(reopened, 'eth_getBlockByNumber', ['latest', false])).toMatchObject({ hash: head.hash })
    expect(await rpc(reopened, 'eth_getBlockByNumber', ['0x100', false])).toBeNull()
  })

  test('behavior: a reset of a chain at genesis changes nothing but the instance id', async () => {
    const node = await newNode({ clock: manualClock() })
    const old = { blockHashes: [] as Hex[], txHashes: [] as Hex[], contract: stranger }
    const before = await probe(node, old)
    expect(await rpc(node, 'hardhat_reset')).toBe(true)
    expect(await rpc(node, 'hardhat_reset')).toBe(true)
    expect(await probe(node, old)).toEqual(before)
  })
})
