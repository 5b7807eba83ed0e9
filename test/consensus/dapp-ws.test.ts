/**
 * What a dApp sees of validator faults, through viem over a WebSocket (a real server on
 * 127.0.0.1, an ephemeral port): with up to 1/3 of the power faulty blocks keep coming; with more
 * the chain halts (sends answer their hash, receipts stay null, the block number stands still,
 * subscriptions stay open, safe = finalized = latest), and after the heal it resumes with every
 * pending transaction included exactly once. The consensus events come over finality_subscribe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPublicClient, createWalletClient, toHex, webSocket, type Hex } from 'viem'
import { createNode, type FinalityNode } from '../../src/index.js'
import type { Listening } from '../../src/adapters/listen.js'
import { finalityChain } from '../helpers/viem.js'
import { WsClient } from '../helpers/loopback.js'

/** Short time-outs on the wall clock: a round whose proposer is silent moves on in ~40 ms. */
const FAST = { timeouts: { propose: 30, proposeDelta: 10, prevote: 10, prevoteDelta: 10, precommit: 10, precommitDelta: 10 } }

describe('a dApp over WebSocket while validators misbehave', () => {
  let node: FinalityNode
  let listening: Listening
  let raw: WsClient

  beforeAll(async () => {
    node = await createNode({ validators: 4, consensus: FAST })
    listening = await node.listen({ address: false, wsAddress: '127.0.0.1:0', api: ['eth', 'net', 'web3', 'rpc', 'txpool', 'finality'] })
    raw = await WsClient.connect(listening.ws!)
  })
  afterAll(async () => {
    raw.close()
    await listening.close()
    await node.close()
  })

  const clients = () => {
    const transport = webSocket(listening.ws!, { retryCount: 0, reconnect: false })
    const from = node.accounts[0]!.address
    return {
      client: createPublicClient({ chain: finalityChain, transport, pollingInterval: 20 }),
      wallet: createWalletClient({ chain: finalityChain, transport, account: { address: from, type: 'json-rpc' } }),
      to: node.accounts[1]!.address,
    }
  }

  it('up to 1/3 faulty (a silent proposer): blocks keep coming, rounds rise, consensus events are notified', async () => {
    const { client, wallet, to } = clients()
    const sub = await raw.call('finality_subscribe', ['consensus'])
    expect(sub.result).toMatch(/^0x/)
    const unknown = await raw.call('finality_subscribe', ['rounds'])
    expect(unknown.error).toMatchObject({ code: -32601, message: expect.stringMatching(/no "rounds" subscription in finality namespace/) })
    const [silent] = (await client.request({ method: 'finality_getValidators' as never })) as Array<{ address: Hex }>
    await client.request({ method: 'finality_setFault' as never, params: [silent!.address, { silent: true }] as never })
    const start = await client.getBlockNumber()
    const rounds: Hex[] = []
    for (let i = 0; i < 4; i++) {
      const hash = await wallet.sendTransaction({ to, value: 1n })
      const receipt = await client.waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      const cert = (await client.request({ method: 'finality_getCommitCertificate' as never, params: [toHex(receipt.blockNumber)] as never })) as { round: Hex; proposer: Hex }
      expect(cert.proposer).not.toBe(silent!.address)
      rounds.push(cert.round)
    }
    expect(await client.getBlockNumber()).toBe(start + 4n)
    expect(rounds).toContain('0x1')
    const events = raw.messages.filter((m) => m.method === 'finality_subscription' && m.params.subscription === sub.result).map((m) => m.params.result)
    const types = new Set(events.map((e: { type: string }) => e.type))
    for (const t of ['newRound', 'proposal', 'vote', 'polka', 'lock', 'timeout', 'commit']) expect(types, t).toContain(t)
    expect((await raw.call('finality_unsubscribe', [sub.result])).result).toBe(true)
    await client.request({ method: 'finality_heal' as never })
  })

  it('more than 1/3 offline: the chain halts for the dApp, and resumes after the heal with each transaction once', async () => {
    const { client, wallet, to } = clients()
    const heads: bigint[] = []
    const unwatch = client.watchBlockNumber({ onBlockNumber: (n) => heads.push(n), emitOnBegin: false })
    const validators = (await client.request({ method: 'finality_getValidators' as never })) as Array<{ address: Hex }>
    // cacheTime 0: viem keeps a block number for its polling interval, and a poll just before may hold the one before the last block.
    const halted = await client.getBlockNumber({ cacheTime: 0 })
    await client.request({ method: 'finality_setFault' as never, params: [validators[1]!.address, { offline: true }] as never })
    await client.request({ method: 'finality_setFault' as never, params: [validators[2]!.address, { offline: true }] as never })

    const hashes: Hex[] = []
    for (let i = 0; i < 3; i++) hashes.push(await wallet.sendTransaction({ to, value: 1n }))
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(halted)
    for (const hash of hashes) expect(await client.request({ method: 'eth_getTransactionReceipt', params: [hash] })).toBeNull()
    const latest = await client.getBlock({ blockTag: 'latest' })
    expect((await client.getBlock({ blockTag: 'safe' })).hash).toBe(latest.hash)
    expect((await client.getBlock({ blockTag: 'finalized' })).hash).toBe(latest.hash)
    expect(await client.request({ method: 'txpool_status' as never })).toEqual({ pending: '0x3', queued: '0x0' })

    await client.request({ method: 'finality_heal' as never })
    const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })))
    expect(receipts.every((r) => r.status === 'success')).toBe(true)
    const head = await client.getBlockNumber({ cacheTime: 0 })
    // Every pending transaction exactly once in the blocks after the halt.
    const included: Hex[] = []
    for (let n = halted + 1n; n <= head; n++) included.push(...((await client.getBlock({ blockNumber: n })).transactions as Hex[]))
    expect(included.sort()).toEqual([...hashes].sort())
    expect((await client.getBlock({ blockTag: 'finalized' })).number).toBe(head)
    // The subscription stayed open across the halt and saw the new heads.
    for (let i = 0; i < 100 && !heads.includes(head); i++) await new Promise((r) => setTimeout(r, 20))
    expect(heads).toContain(head)
    unwatch()
  })
})
