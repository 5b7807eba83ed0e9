/**
 * The `miner` and `admin` namespaces: this node's block production (stop, start, etherbase, gas
 * limit, extra data, the pool's minimum tip) and what it is (node info, peers, data directory,
 * chain export and import). Results and messages are geth's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { describe, expect, test } from 'vitest'
import { toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { FakeClock } from '../helpers/loopback.js'

const newNode = trackNodes()
const rpc = (node: FinalityNode, method: string, params: unknown[] = []) => node.request({ method, params })
const other = '0x00000000000000000000000000000000000beef1'
const etherbase = '0x00000000000000000000000000000000000c0ffe'

type Block = { number: string; hash: string; miner: string; extraData: string; gasLimit: string; transactions: string[] }
const latest = async (node: FinalityNode) => (await rpc(node, 'eth_getBlockByNumber', ['latest', false])) as Block
const send = (node: FinalityNode, extra: Record<string, string> = {}) =>
  rpc(node, 'eth_sendTransaction', [{ from: node.accounts[0]!.address, to: other, value: '0x1', ...extra }]) as Promise<string>
const tmp = () => mkdtempSync(join(tmpdir(), 'finality-admin-'))

describe('miner_stop and miner_start', () => {
  test('behavior: miner_stop keeps a sent transaction pending and makes no block; miner_start mines it', async () => {
    const node = await newNode()
    await send(node)
    expect(await rpc(node, 'eth_blockNumber')).toBe('0x1')

    expect(await rpc(node, 'miner_stop')).toBeNull()
    expect(await rpc(node, 'hardhat_getAutomine')).toBe(false)
    const hash = await send(node)
    expect(await rpc(node, 'eth_getTransactionReceipt', [hash])).toBeNull()
    expect(await rpc(node, 'txpool_status')).toEqual({ pending: '0x1', queued: '0x0' })
    await new Promise((r) => setTimeout(r, 20))
    expect(await rpc(node, 'eth_blockNumber')).toBe('0x1')

    expect(await rpc(node, 'miner_start')).toBeNull()
    // miner_start answers once automine has mined what waited.
    const receipt = (await rpc(node, 'eth_getTransactionReceipt', [hash])) as { blockNumber: string; status: string }
    expect(receipt).toMatchObject({ blockNumber: '0x2', status: '0x1' })
    expect(await rpc(node, 'hardhat_getAutomine')).toBe(true)
    expect(await rpc(node, 'txpool_status')).toEqual({ pending: '0x0', queued: '0x0' })
    // Not stopped: nothing to resume, nothing changes.
    expect(await rpc(node, 'miner_start')).toBeNull()
    expect(await rpc(node, 'eth_blockNumber')).toBe('0x2')
  })

  test('behavior: stopping twice resumes the mode before the first stop; explicit mining still works while stopped', async () => {
    const node = await newNode()
    await rpc(node, 'miner_stop')
    await rpc(node, 'miner_stop')
    await send(node)
    await rpc(node, 'evm_mine')
    expect(await latest(node)).toMatchObject({ number: '0x1' })
    expect((await latest(node)).transactions).toHaveLength(1)
    await rpc(node, 'miner_start')
    expect(await rpc(node, 'hardhat_getAutomine')).toBe(true)
    await send(node)
    expect(await rpc(node, 'eth_blockNumber')).toBe('0x2')
  })

  test('behavior: interval mining stops on miner_stop and resumes on miner_start (the node clock)', async () => {
    const clock = new FakeClock()
    const node = await newNode({ clock, mining: { mode: 'interval', blockTime: 1000 } })
    const height = async () => BigInt((await rpc(node, 'eth_blockNumber')) as string)
    // The timer's block is built and committed asynchronously: poll for it (bounded).
    const reaches = async (n: bigint) => {
      for (let i = 0; i < 200 && (await height()) < n; i++) await new Promise((r) => setTimeout(r, 5))
      return height()
    }
    clock.advance(1000)
    expect(await reaches(1n)).toBe(1n)
    await rpc(node, 'miner_stop')
    clock.advance(1000)
    clock.advance(1000)
    await new Promise((r) => setTimeout(r, 50))
    expect(await height()).toBe(1n)
    await rpc(node, 'miner_start')
    clock.advance(1000)
    expect(await reaches(2n)).toBe(2n)
  })
})

describe('miner settings of later blocks', () => {
  test('behavior: miner_setEtherbase is the miner of later blocks and receives their tips; eth_coinbase answers it', async () => {
    const node = await newNode()
    expect(await rpc(node, 'miner_setEtherbase', [etherbase])).toBe(true)
    expect(await rpc(node, 'eth_coinbase')).toBe(etherbase)
    const hash = await send(node)
    expect((await latest(node)).miner).toBe(etherbase)
    const receipt = (await rpc(node, 'eth_getTransactionReceipt', [hash])) as { gasUsed: string; effectiveGasPrice: string }
    const block = (await rpc(node, 'eth_getBlockByNumber', ['latest', false])) as { baseFeePerGas: string }
    const tip = BigInt(receipt.effectiveGasPrice) - BigInt(block.baseFeePerGas)
    expect(BigInt((await rpc(node, 'eth_getBalance', [etherbase, 'latest'])) as string)).toBe(BigInt(receipt.gasUsed) * tip)
    await expect(rpc(node, 'miner_setEtherbase', ['0x1234'])).rejects.toMatchObject({ code: -32602 })
  })

  test('behavior: miner_setGasLimit is the gas limit of later blocks; below 21000 is refused', async () => {
    const node = await newNode()
    expect(await rpc(node, 'miner_setGasLimit', ['0x17d7840'])).toBe(true)
    await send(node)
    expect((await latest(node)).gasLimit).toBe('0x17d7840')
    await expect(rpc(node, 'miner_setGasLimit', ['0x5207'])).rejects.toMatchObject({ code: -32602 })
    await expect(rpc(node, 'miner_setGasLimit', ['0x5208'])).resolves.toBe(true)
  })

  test('behavior: one floor for the block gas limit, whichever method sets it (evm_, anvil_, miner_): 21000 passes, 20999 is refused and changes nothing', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    for (const method of ['evm_setBlockGasLimit', 'anvil_setBlockGasLimit', 'miner_setGasLimit']) {
      expect(await rpc(node, method, ['0x1c9c380'])).toBe(true)
      await expect(rpc(node, method, ['0x5207'])).rejects.toMatchObject({ code: -32602, message: 'invalid argument 0: block gas limit must be at least 21000' })
      await rpc(node, 'evm_mine')
      expect((await latest(node)).gasLimit).toBe('0x1c9c380')
      expect(await rpc(node, method, ['0x5208'])).toBe(true)
      await rpc(node, 'evm_mine')
      expect((await latest(node)).gasLimit).toBe('0x5208')
    }
  })

  test('behavior: miner_setExtra shows in extraData of later blocks; 32 bytes pass, 33 are refused with geth\'s message', async () => {
    const node = await newNode()
    expect(await rpc(node, 'miner_setExtra', ['finality'])).toBe(true)
    await send(node)
    expect((await latest(node)).extraData).toBe(toHex('finality'))
    const full = 'x'.repeat(32)
    expect(await rpc(node, 'miner_setExtra', [full])).toBe(true)
    // UTF-8 bytes count, not characters: 16 × "é" is 32 bytes.
    await expect(rpc(node, 'miner_setExtra', ['é'.repeat(16) + 'a'])).rejects.toMatchObject({ code: -32000, message: 'extra exceeds max length. 33 > 32' })
    await expect(rpc(node, 'miner_setExtra', ['y'.repeat(33)])).rejects.toMatchObject({ code: -32000, message: 'extra exceeds max length. 33 > 32' })
    await rpc(node, 'evm_mine')
    const block = await latest(node)
    expect(block.extraData).toBe(toHex(full))
    // The header carries it: the block hashes the same when fetched by hash.
    expect(((await rpc(node, 'eth_getBlockByHash', [block.hash, false])) as Block).extraData).toBe(toHex(full))
    await expect(rpc(node, 'miner_setExtra', [7])).rejects.toMatchObject({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal number into Go value of type string' })
    // hardhat_reset puts the default (empty) back.
    await rpc(node, 'hardhat_reset')
    await send(node)
    expect((await latest(node)).extraData).toBe('0x')
  })

  test('behavior: the pending block follows miner_setExtra and miner_setEtherbase at once', async () => {
    const node = await newNode()
    await rpc(node, 'miner_stop')
    await send(node)
    const pending = async () => (await rpc(node, 'eth_getBlockByNumber', ['pending', false])) as Block
    expect((await pending()).extraData).toBe('0x')
    await rpc(node, 'miner_setExtra', ['next'])
    await rpc(node, 'miner_setEtherbase', [etherbase])
    expect(await pending()).toMatchObject({ extraData: toHex('next'), miner: etherbase })
  })

  test('behavior: miner_setGasPrice is the pool\'s minimum tip: lower tips are refused, pooled ones dropped, fills follow it', async () => {
    const node = await newNode()
    const key = node.accounts[1]!.privateKey
    const signer = privateKeyToAccount(key)
    const raw = (nonce: number, tip: bigint) =>
      signer.signTransaction({ chainId: 31337, nonce, to: other, value: 1n, gas: 21000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: tip })
    expect(await rpc(node, 'miner_setGasPrice', ['0x77359400'])).toBe(true)
    await expect(rpc(node, 'eth_sendRawTransaction', [await raw(0, 10n ** 9n)])).rejects.toMatchObject({
      code: -32000,
      message: 'transaction gas price below minimum: gas tip cap 1000000000, minimum needed 2000000000',
    })
    await expect(rpc(node, 'eth_sendRawTransaction', [await raw(0, 2n * 10n ** 9n)])).resolves.toMatch(/^0x[0-9a-f]{64}$/)
    expect(await rpc(node, 'eth_maxPriorityFeePerGas')).toBe('0x77359400')
    // eth_sendTransaction without fees fills the minimum tip, so it is admitted.
    const filled = await send(node)
    expect(((await rpc(node, 'eth_getTransactionByHash', [filled])) as { maxPriorityFeePerGas: string }).maxPriorityFeePerGas).toBe('0x77359400')

    // Raised: pooled transactions below it are dropped.
    await rpc(node, 'miner_stop')
    const pooled = (await rpc(node, 'eth_sendRawTransaction', [await raw(1, 2n * 10n ** 9n)])) as string
    expect(await rpc(node, 'txpool_status')).toEqual({ pending: '0x1', queued: '0x0' })
    await rpc(node, 'miner_setGasPrice', ['0xb2d05e00'])
    expect(await rpc(node, 'txpool_status')).toEqual({ pending: '0x0', queued: '0x0' })
    expect(await rpc(node, 'eth_getTransactionByHash', [pooled])).toBeNull()
    // Lowered to none: a 1 gwei tip is admitted again.
    await rpc(node, 'miner_setGasPrice', ['0x0'])
    await expect(rpc(node, 'eth_sendRawTransaction', [await raw(1, 10n ** 9n)])).resolves.toMatch(/^0x[0-9a-f]{64}$/)
  })

  test('behavior: on a halted chain a pooled transaction below a raised minimum is dropped; production resumes after', async () => {
    const node = await newNode({ validators: 4 })
    // With 3 of 4 validators offline no block can be decided: the transaction waits in the pool.
    for (const v of node.validators.slice(1)) node.setValidatorOnline(v.address, false)
    const hash = await send(node, { maxPriorityFeePerGas: '0x1', maxFeePerGas: '0x2540be400' })
    expect(await rpc(node, 'txpool_status')).toEqual({ pending: '0x1', queued: '0x0' })
    await rpc(node, 'miner_setGasPrice', ['0x2'])
    expect(await rpc(node, 'eth_getTransactionByHash', [hash])).toBeNull()
    for (const v of node.validators.slice(1)) node.setValidatorOnline(v.address, true)
    await send(node)
    expect(await rpc(node, 'eth_blockNumber')).toBe('0x1')
  })
})

describe('admin', () => {
  test('behavior: admin_nodeInfo in geth\'s shape: name, id, and the eth protocol with network, genesis, head and chain config', async () => {
    const node = await newNode()
    const info = (await rpc(node, 'admin_nodeInfo')) as {
      id: string
      name: string
      enode?: string
      protocols: { eth: { network: number; genesis: string; head: string; config: Record<string, unknown> } }
    }
    expect(info.name).toBe(await rpc(node, 'web3_clientVersion'))
    expect(info.id).toMatch(/^[0-9a-f]{64}$/)
    expect(info.enode).toBeUndefined()
    const genesis = ((await rpc(node, 'eth_getBlockByNumber', ['0x0', false])) as Block).hash
    expect(info.protocols.eth).toMatchObject({ network: 31337, genesis, head: genesis })
    expect(info.protocols.eth.config).toMatchObject({
      chainId: 31337,
      londonBlock: 0,
      terminalTotalDifficulty: 0,
      shanghaiTime: 0,
      cancunTime: 0,
      pragueTime: 0,
      blobSchedule: { cancun: { target: 3, max: 6 }, prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 } },
    })
    expect(info.protocols.eth.config.osakaTime).toBeUndefined()
    await send(node)
    const head = ((await rpc(node, 'admin_nodeInfo')) as typeof info).protocols.eth.head
    expect(head).toBe((await latest(node)).hash)

    // Another validator set is another node identity; a Cancun chain has no Prague entries.
    const cancun = await newNode({ hardfork: 'cancun', validators: 4 })
    const other = (await rpc(cancun, 'admin_nodeInfo')) as typeof info
    expect(other.id).not.toBe(info.id)
    expect(other.protocols.eth.config.pragueTime).toBeUndefined()
    expect(Object.keys(other.protocols.eth.config.blobSchedule as object)).toEqual(['cancun'])
  })

  test('behavior: a geth genesis with a fork schedule answers the file\'s fork blocks, times and blob schedule', async () => {
    const dir = new URL('../fixtures/execution-apis', import.meta.url).pathname
    const genesis = JSON.parse(readFileSync(`${dir}/genesis.json`, 'utf8')) as { config: Record<string, unknown> }
    const node = await newNode({ genesis, mining: { mode: 'manual' } })
    const config = ((await rpc(node, 'admin_nodeInfo')) as { protocols: { eth: { config: Record<string, unknown> } } }).protocols.eth.config
    const forks = Object.keys(genesis.config).filter((k) => /(Block|Time)$/.test(k))
    expect(forks.length).toBeGreaterThan(15)
    for (const key of forks) expect([key, config[key]]).toEqual([key, genesis.config[key]])
    expect(config.blobSchedule).toEqual(genesis.config.blobSchedule)
    expect(config.chainId).toBe(genesis.config.chainId)
  })

  test('behavior: admin_peers is empty; admin_datadir is "" in memory and the database directory with one', async () => {
    const node = await newNode()
    expect(await rpc(node, 'admin_peers')).toEqual([])
    expect(await rpc(node, 'admin_datadir')).toBe('')
    const dir = join(tmp(), 'chain')
    const stored = await newNode({ db: new ClassicLevel<string, Uint8Array>(dir, { keyEncoding: 'utf8', valueEncoding: 'view' }) })
    expect(await rpc(stored, 'admin_datadir')).toBe(dir)
  })

  test('behavior: admin_exportChain writes RLP blocks (gzip for .gz) that admin_importChain replays into a node with the same genesis', async () => {
    const options = { genesisTimestamp: 1_700_000_000n }
    const node = await newNode(options)
    await rpc(node, 'miner_setExtra', ['exported'])
    for (let i = 0; i < 3; i++) await send(node)
    const head = await latest(node)
    const dir = tmp()
    for (const file of [join(dir, 'chain.rlp'), join(dir, 'chain.rlp.gz')]) {
      expect(await rpc(node, 'admin_exportChain', [file])).toBe(true)
      const copy = await newNode({ ...options, mining: { mode: 'manual' } })
      expect(await rpc(copy, 'admin_importChain', [file])).toBe(true)
      expect(await latest(copy)).toMatchObject({ number: head.number, hash: head.hash, extraData: toHex('exported') })
      // Importing again skips the blocks it holds.
      expect(await rpc(copy, 'admin_importChain', [file])).toBe(true)
      expect((await latest(copy)).number).toBe(head.number)
    }
    expect(readFileSync(join(dir, 'chain.rlp.gz')).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]))
    await expect(rpc(node, 'admin_exportChain', [join(dir, 'chain.rlp')])).rejects.toMatchObject({ code: -32000, message: 'location would overwrite an existing file' })
    await expect(rpc(node, 'admin_exportChain', [join(dir, 'b.rlp'), null, 2])).rejects.toMatchObject({ message: 'last cannot be specified without first' })
    await expect(rpc(node, 'admin_exportChain', [join(dir, 'b.rlp'), 3, 2])).rejects.toMatchObject({ message: 'export failed: first (3) is greater than last (2)' })
    await expect(rpc(node, 'admin_exportChain', [join(dir, 'b.rlp'), 0, 9])).rejects.toMatchObject({ message: 'export failed on #4: not found' })

    // A range: blocks 2..3 on top of a node that has block 1 only.
    const partial = join(dir, 'tail.rlp')
    expect(await rpc(node, 'admin_exportChain', [partial, 2])).toBe(true)
    const copy = await newNode({ ...options, mining: { mode: 'manual' } })
    await expect(rpc(copy, 'admin_importChain', [partial])).rejects.toMatchObject({ code: -32000, message: 'import: block 2 does not extend the head (block 0)' })
    expect(await rpc(copy, 'eth_blockNumber')).toBe('0x0')

    const garbage = join(dir, 'garbage.rlp')
    writeFileSync(garbage, Buffer.from([0xff, 0x01]))
    await expect(rpc(copy, 'admin_importChain', [garbage])).rejects.toMatchObject({ code: -32000 })
    await expect(rpc(copy, 'admin_importChain', [join(dir, 'missing.rlp')])).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('ENOENT') })
  })
})

describe('the admin and miner namespaces over HTTP', () => {
  test('behavior: private, off by default; on when listed in api', async () => {
    const node = await newNode()
    const closed = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
    const open = await node.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth', 'admin', 'miner'] })
    const post = async (url: string, method: string, params: unknown[] = []) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
      return (await res.json()) as { result?: unknown; error?: { code: number } }
    }
    try {
      for (const method of ['admin_nodeInfo', 'admin_peers', 'admin_datadir', 'miner_stop', 'miner_setExtra']) {
        expect((await post(closed.http as string, method, method === 'miner_setExtra' ? ['x'] : [])).error?.code).toBe(-32601)
      }
      expect(await rpc(node, 'hardhat_getAutomine')).toBe(true)
      expect((await post(open.http as string, 'admin_peers')).result).toEqual([])
      expect((await post(open.http as string, 'miner_stop')).result).toBeNull()
      expect(await rpc(node, 'hardhat_getAutomine')).toBe(false)
    } finally {
      await closed.close()
      await open.close()
    }
  })

  test('behavior: the p2p methods geth has are absent', async () => {
    const node = await newNode()
    for (const method of ['admin_addPeer', 'admin_removePeer', 'miner_setRecommitInterval', 'miner_getHashrate']) {
      await expect(rpc(node, method, [])).rejects.toMatchObject({ code: -32601 })
    }
  })
})
