/**
 * A fork's history: blocks, transactions, receipts and logs at or below the fork block come from
 * the remote; eth_getLogs ranges across the fork point are stitched in order; calls at an older
 * block run on the remote's state at that block.
 */
import { encodeAbiParameters, encodeFunctionData, keccak256, toHex, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, RpcMethodTypes } from '../../src/index.js'
import { loadArtifacts } from '../helpers/compile.js'
import { faultProxy } from '../helpers/fault-proxy.js'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
const Token = loadArtifacts().Token!
const receiver = privateKeyToAccount(keccak256(toHex('fork history receiver'))).address
const transfer = (to: Address, amount: bigint): Hex => encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [to, amount] })
const balanceOf = (who: Address): Hex => encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [who] })

let remote: FinalityNode
let fork: FinalityNode
let token: Address
let dev: Address
let forkNumber: bigint
const sent: Hex[] = []

beforeAll(async () => {
  remote = await newNode()
  dev = remote.accounts[0]!.address
  const args = encodeAbiParameters([{ type: 'string' }, { type: 'string' }, { type: 'uint256' }], ['Hist', 'HST', 10n ** 24n])
  const hash = (await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, data: `${Token.bytecode}${args.slice(2)}`, gas: '0x300000' }] })) as Hex
  token = ((await remote.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: Address }).contractAddress
  for (const amount of [1n, 2n, 3n]) sent.push((await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(receiver, amount) }] })) as Hex)
  forkNumber = BigInt((await remote.request({ method: 'eth_blockNumber', params: [] })) as Hex)
  fork = await newNode({ fork: { provider: remote.provider } })
  // The remote goes on after the fork block: that is not the fork's history.
  sent.push((await remote.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(receiver, 100n) }] })) as Hex)
})

describe('history of a fork', () => {
  it('blocks at and below the fork block are the remote\'s, by number and by hash, with their transactions', async () => {
    for (const n of [forkNumber - 1n, forkNumber]) {
      const theirs = await remote.request({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, true] })
      expect(await fork.request({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, true] })).toEqual(theirs)
      const hash = (theirs as { hash: Hex }).hash
      expect(await fork.request({ method: 'eth_getBlockByHash', params: [hash, false] })).toEqual(await remote.request({ method: 'eth_getBlockByHash', params: [hash, false] }))
      expect(await fork.request({ method: 'eth_getBlockTransactionCountByNumber', params: [`0x${n.toString(16)}`] })).toBe('0x1')
    }
    expect(await fork.request({ method: 'eth_getBlockByNumber', params: ['earliest', false] })).toEqual(await remote.request({ method: 'eth_getBlockByNumber', params: ['earliest', false] }))
    // While the fork block is the head, `latest` is the remote's fork block too.
    const fresh = await newNode({ fork: { provider: remote.provider, blockNumber: forkNumber } })
    expect(await fresh.request({ method: 'eth_getBlockByNumber', params: ['latest', true] })).toEqual(await remote.request({ method: 'eth_getBlockByNumber', params: [toHex(forkNumber), true] }))
  })

  it('transactions and receipts mined at or below the fork block are found; one the remote mined after it is not', async () => {
    const old = sent[1]!
    expect(await fork.request({ method: 'eth_getTransactionByHash', params: [old] })).toEqual(await remote.request({ method: 'eth_getTransactionByHash', params: [old] }))
    expect(await fork.request({ method: 'eth_getTransactionReceipt', params: [old] })).toEqual(await remote.request({ method: 'eth_getTransactionReceipt', params: [old] }))
    const later = sent[3]!
    expect(await fork.request({ method: 'eth_getTransactionByHash', params: [later] })).toBeNull()
    expect(await fork.request({ method: 'eth_getTransactionReceipt', params: [later] })).toBeNull()
  })

  it('eth_getLogs stitches the remote\'s logs and the fork\'s, in block order', async () => {
    const hash = (await fork.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(receiver, 7n) }] })) as Hex
    const logs = (await fork.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', address: token }] })) as Array<{ blockNumber: Hex; transactionHash: Hex }>
    const theirs = (await remote.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: toHex(forkNumber), address: token }] })) as unknown[]
    expect(logs.slice(0, theirs.length)).toEqual(theirs)
    expect(logs).toHaveLength(theirs.length + 1)
    expect(logs.at(-1)!.transactionHash).toBe(hash)
    const numbers = logs.map((l) => BigInt(l.blockNumber))
    expect([...numbers].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(numbers)
    // Only the remote part, and a single remote block by hash.
    const block = (await remote.request({ method: 'eth_getBlockByNumber', params: [toHex(forkNumber), false] })) as { hash: Hex }
    expect(await fork.request({ method: 'eth_getLogs', params: [{ blockHash: block.hash }] })).toEqual(await remote.request({ method: 'eth_getLogs', params: [{ blockHash: block.hash }] }))
  })

  it('eth_call at a block below the fork block runs on the remote\'s state at that block', async () => {
    const at = toHex(forkNumber - 2n)
    const theirs = await remote.request({ method: 'eth_call', params: [{ to: token, data: balanceOf(receiver) }, at] })
    expect(BigInt(theirs as Hex)).toBe(1n)
    expect(await fork.request({ method: 'eth_call', params: [{ to: token, data: balanceOf(receiver) }, at] })).toBe(theirs)
    expect(await fork.request({ method: 'eth_getBalance', params: [dev, at] })).toBe(await remote.request({ method: 'eth_getBalance', params: [dev, at] }))
  })

  it('debug_traceCall at a block below the fork block traces on the remote\'s state at that block', async () => {
    const at = toHex(forkNumber - 2n)
    const params: RpcMethodTypes['debug_traceCall']['params'] = [{ to: token, data: balanceOf(receiver) }, at, { tracer: 'callTracer' }]
    const theirs = (await remote.request({ method: 'debug_traceCall', params })) as { output: Hex }
    expect(BigInt(theirs.output)).toBe(1n)
    expect(await fork.request({ method: 'debug_traceCall', params })).toEqual(theirs)
  })

  it('traces of the remote\'s blocks and transactions are replays on their parent\'s state read from the remote, equal to the remote\'s', async () => {
    for (const n of [toHex(forkNumber), toHex(forkNumber - 1n)]) {
      for (const config of [{}, { tracer: 'callTracer' }, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]) {
        expect(await fork.request({ method: 'debug_traceBlockByNumber', params: [n, config] })).toEqual(await remote.request({ method: 'debug_traceBlockByNumber', params: [n, config] }))
      }
      const { hash } = (await remote.request({ method: 'eth_getBlockByNumber', params: [n, false] })) as { hash: Hex }
      expect(await fork.request({ method: 'debug_traceBlockByHash', params: [hash, { tracer: 'callTracer' }] })).toEqual(await remote.request({ method: 'debug_traceBlockByHash', params: [hash, { tracer: 'callTracer' }] }))
      const rlp = (await remote.request({ method: 'debug_getRawBlock', params: [n] }))!
      expect(await fork.request({ method: 'debug_traceBlock', params: [rlp, { tracer: 'callTracer' }] })).toEqual(await remote.request({ method: 'debug_traceBlock', params: [rlp, { tracer: 'callTracer' }] }))
      expect(await fork.request({ method: 'debug_intermediateRoots', params: [hash] })).toEqual(await remote.request({ method: 'debug_intermediateRoots', params: [hash] }))
    }
    for (const tx of sent.slice(0, 3)) {
      expect(await fork.request({ method: 'debug_traceTransaction', params: [tx, {}] })).toEqual(await remote.request({ method: 'debug_traceTransaction', params: [tx, {}] }))
    }
    // One the remote mined after the fork block is not this chain's.
    await expect(fork.request({ method: 'debug_traceTransaction', params: [sent[3]!, {}] })).rejects.toMatchObject({ message: 'transaction not found' })
  })

  it('raw blocks, receipts and transactions of the remote\'s blocks are built from its answers and checked against its headers', async () => {
    for (const n of [toHex(forkNumber), toHex(forkNumber - 1n), '0x0']) {
      for (const method of ['debug_getRawBlock', 'debug_getRawReceipts', 'debug_getRawHeader']) {
        expect(await fork.request({ method, params: [n] })).toEqual(await remote.request({ method, params: [n] }))
      }
    }
    for (const tx of sent.slice(0, 3)) {
      expect(await fork.request({ method: 'debug_getRawTransaction', params: [tx] })).toBe(await remote.request({ method: 'debug_getRawTransaction', params: [tx] }))
    }
    expect(await fork.request({ method: 'debug_getRawTransaction', params: [sent[3]!] })).toBe('0x')
  })

  it('eth_feeHistory with rewards below the fork block is the remote\'s, stitched with the fork\'s own blocks', async () => {
    const node = await newNode({ fork: { provider: remote.provider, blockNumber: forkNumber } })
    const tip = 3_000_000_000n
    await node.request({ method: 'eth_sendTransaction', params: [{ from: dev, to: token, data: transfer(receiver, 1n), maxPriorityFeePerGas: `0x${tip.toString(16)}` }] })
    const below: RpcMethodTypes['eth_feeHistory']['params'] = ['0x4', toHex(forkNumber), [10, 50, 90]]
    const theirs = (await remote.request({ method: 'eth_feeHistory', params: below })) as { reward: Hex[][] }
    expect(await node.request({ method: 'eth_feeHistory', params: below })).toEqual(theirs)
    expect(theirs.reward.some((r) => r.some((v) => BigInt(v) > 0n))).toBe(true)
    const across = (await node.request({ method: 'eth_feeHistory', params: ['0x5', 'latest', [10, 50, 90]] })) as { oldestBlock: Hex; reward: Hex[][]; baseFeePerGas: Hex[] }
    expect(across.oldestBlock).toBe(toHex(forkNumber - 3n))
    expect(across.reward.slice(0, 4)).toEqual(theirs.reward)
    expect(across.reward[4]).toEqual([tip, tip, tip].map((t) => `0x${t.toString(16)}`))
  })

  it('eth_feeHistory below the fork block, with a remote that does not answer it, reads the remote\'s blocks and receipts', async () => {
    const served = await remote.listen({ address: '127.0.0.1:0', wsAddress: false })
    const proxy = await faultProxy(served.http!)
    try {
      const node = await newNode({ fork: { url: proxy.url, blockNumber: forkNumber } })
      proxy.rewrite = (answer, arrival) => {
        if (!arrival.methods.includes('eth_feeHistory')) return answer
        return (Array.isArray(answer) ? answer : [answer]).map((item: { id: unknown }) => ({ jsonrpc: '2.0', id: item.id, error: { code: -32601, message: 'the method eth_feeHistory does not exist/is not available' } }))[0]
      }
      const below: RpcMethodTypes['eth_feeHistory']['params'] = ['0x4', toHex(forkNumber), [10, 50, 90]]
      expect(await node.request({ method: 'eth_feeHistory', params: below })).toEqual(await remote.request({ method: 'eth_feeHistory', params: below }))
      expect(proxy.arrivals.some((a) => a.methods.includes('eth_feeHistory'))).toBe(true)
    } finally {
      await proxy.close()
      await served.close()
    }
  })

  it('eth_getProof at a block below the fork block is the remote\'s, verified against that block\'s root', async () => {
    const at = toHex(forkNumber - 1n)
    const slot = keccak256(`0x${receiver.slice(2).toLowerCase().padStart(64, '0')}${'0'.repeat(64)}`)
    const theirs = await remote.request({ method: 'eth_getProof', params: [token, [slot], at] })
    expect(await fork.request({ method: 'eth_getProof', params: [token, [slot], at] })).toEqual(theirs)
  })
})

describe('replays of the remote\'s blocks checked against its answers', () => {
  /** Each JSON-RPC answer of a (batched) answer, changed in place by `change`. */
  const each = (answer: unknown, change: (item: { result?: unknown }) => void): unknown => {
    for (const item of Array.isArray(answer) ? answer : [answer]) change(item as { result?: unknown })
    return answer
  }

  it('a receipt whose gas used the replay does not reproduce is an error that says the remote runs other rules', async () => {
    const served = await remote.listen({ address: '127.0.0.1:0', wsAddress: false })
    const proxy = await faultProxy(served.http!)
    try {
      const lying = await newNode({ fork: { url: proxy.url, blockNumber: forkNumber } })
      // gasUsed is not under the receipts root (the cumulative gas is): only the replay can tell.
      proxy.rewrite = (answer) =>
        each(answer, (item) => {
          const answers = (Array.isArray(item.result) ? item.result : [item.result]) as Array<{ gasUsed?: Hex; transactionHash?: Hex } | null>
          // Receipts only (a block has a gasUsed too, under its hash).
          for (const r of answers) if (r !== null && typeof r === 'object' && typeof r.transactionHash === 'string' && 'cumulativeGasUsed' in r) r.gasUsed = '0x5208'
        })
      await expect(lying.request({ method: 'debug_traceTransaction', params: [sent[1]!, {}] })).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(/^replaying transaction 0x[0-9a-f]{64} used \d+ gas, its receipt says 21000: .* is the remote's, replayed here under hardfork \w+ .*the remote runs other rules/),
      })
      // A log changed is under the receipts root: refused before any replay.
      const other = await newNode({ fork: { url: proxy.url, blockNumber: forkNumber } })
      proxy.rewrite = (answer) =>
        each(answer, (item) => {
          for (const r of (Array.isArray(item.result) ? item.result : []) as Array<{ logs: Array<{ data: Hex }> }>) for (const l of r.logs) l.data = `0x${'11'.repeat(32)}`
        })
      await expect(other.request({ method: 'debug_getRawReceipts', params: [toHex(forkNumber - 1n)] })).rejects.toMatchObject({
        code: -32000,
        message: expect.stringMatching(/^fork: the receipts the remote http:\/\/127\.0\.0\.1:\d+ answered for block \d+ do not match its receipts root$/),
      })
      // A transaction changed does not match the transactions root.
      const third = await newNode({ fork: { url: proxy.url, blockNumber: forkNumber } })
      proxy.rewrite = (answer) =>
        each(answer, (item) => {
          const block = item.result as { transactions?: Array<{ value: Hex }> } | null
          for (const tx of block?.transactions ?? []) if (typeof tx === 'object') tx.value = '0x1'
        })
      await expect(third.request({ method: 'debug_getRawBlock', params: [toHex(forkNumber - 1n)] })).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/^fork: /) })
    } finally {
      await proxy.close()
      await served.close()
    }
  })
})

describe('the context of a replayed remote block', () => {
  it('BLOCKHASH, COINBASE, TIMESTAMP, BASEFEE and PREVRANDAO in a replay are the remote block\'s', async () => {
    const other = await newNode()
    const from = other.accounts[0]!.address
    // Stores BLOCKHASH(NUMBER - 1), COINBASE, TIMESTAMP, BASEFEE and PREVRANDAO in slots 0 to 4.
    const runtime = '43600190034060005541600155426002554860035544600455' + '00'
    const init = `0x601a600c600039601a6000f3${runtime}` as Hex
    const deploy = (await other.request({ method: 'eth_sendTransaction', params: [{ from, data: init, gas: '0x100000' }] })) as Hex
    const target = ((await other.request({ method: 'eth_getTransactionReceipt', params: [deploy] })) as { contractAddress: Address }).contractAddress
    await other.request({ method: 'hardhat_mine', params: ['0x3'] })
    const hash = (await other.request({ method: 'eth_sendTransaction', params: [{ from, to: target, gas: '0x100000' }] })) as Hex
    const node = await newNode({ fork: { provider: other.provider } })
    const config = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }
    const theirs = (await other.request({ method: 'debug_traceTransaction', params: [hash, config] })) as { post: Record<string, { storage?: Record<string, Hex> }> }
    const slots = Object.entries(theirs.post).find(([a]) => a.toLowerCase() === target.toLowerCase())![1].storage!
    expect(Object.keys(slots)).toHaveLength(5)
    expect(await node.request({ method: 'debug_traceTransaction', params: [hash, config] })).toEqual(theirs)
  })
})
