/**
 * Concurrent eth_sendTransaction from one node account: every send is mined, with consecutive
 * nonces in the order the sends arrived, in every mining mode, with and without `gas` (as on
 * Hardhat and Anvil). A send that fails before the pool leaves no nonce gap.
 */
import { createTestClient, custom, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { createNode, type FinalityNode, type RpcTransactionRequest } from '../../src/index.js'
import type { Clock } from '../../src/clock.js'
import { trackNodes } from '../helpers/nodes.js'
import { finalityChain, publicClientOf, walletClientOf } from '../helpers/viem.js'
import { artifact, calldata, deploy, sender } from '../helpers/execution.js'

const newNode = trackNodes()
const RECIPIENT: Hex = '0x00000000000000000000000000000000000000aa'

interface Tx { nonce: Hex; blockNumber: Hex | null }
interface Receipt { status: Hex; blockNumber: Hex }

async function nonceOf(node: FinalityNode, hash: Hex): Promise<bigint> {
  const tx = (await node.request({ method: 'eth_getTransactionByHash', params: [hash] })) as Tx
  return BigInt(tx.nonce)
}

async function receipt(node: FinalityNode, hash: Hex): Promise<Receipt | null> {
  return (await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as Receipt | null
}

function sends(node: FinalityNode, count: number, extra: RpcTransactionRequest = {}): Promise<Hex[]> {
  const from = sender(node)
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      node.request({ method: 'eth_sendTransaction', params: [{ from, to: RECIPIENT, value: `0x${(i + 1).toString(16)}`, ...extra }] }),
    ),
  )
}

/** Every hash mined with status 1, nonces 0..n-1 in request order, and the balances add up. */
async function expectAllMined(node: FinalityNode, hashes: Hex[]): Promise<void> {
  expect(new Set(hashes).size).toBe(hashes.length)
  for (const [i, hash] of hashes.entries()) {
    expect(await nonceOf(node, hash)).toBe(BigInt(i))
    expect((await receipt(node, hash))?.status).toBe('0x1')
  }
  const n = BigInt(hashes.length)
  expect(BigInt((await node.request({ method: 'eth_getBalance', params: [RECIPIENT, 'latest'] })) as Hex)).toBe((n * (n + 1n)) / 2n)
  expect(BigInt((await node.request({ method: 'eth_getTransactionCount', params: [sender(node), 'latest'] })) as Hex)).toBe(n)
}

/** A clock whose timers fire only when the test says so. */
function manualClock(): Clock & { fire(): void } {
  let timer: (() => void) | undefined
  return {
    now: () => 1_700_000_000_000,
    setTimer(fn: () => void) {
      timer = fn
      return () => {
        if (timer === fn) timer = undefined
      }
    },
    fire() {
      const fn = timer
      timer = undefined
      fn?.()
    },
  }
}

describe('concurrent eth_sendTransaction from one account', () => {
  it('automine, without gas: ten sends, ten blocks, nonces in request order', async () => {
    const node = await newNode()
    await expectAllMined(node, await sends(node, 10))
    expect(BigInt((await node.request({ method: 'eth_blockNumber' })) as Hex)).toBe(10n)
  })

  it('automine, with gas', async () => {
    const node = await newNode()
    await expectAllMined(node, await sends(node, 10, { gas: '0x5208' }))
  })

  it('manual mining, with and without gas: all pooled, then one block holds them all', async () => {
    for (const extra of [{}, { gas: '0x5208' }] satisfies RpcTransactionRequest[]) {
      const node = await newNode({ mining: { mode: 'manual' } })
      const hashes = await sends(node, 10, extra)
      const status = (await node.request({ method: 'txpool_status' })) as { pending: Hex; queued: Hex }
      expect(status).toEqual({ pending: '0xa', queued: '0x0' })
      await node.mine()
      await expectAllMined(node, hashes)
      expect(BigInt((await node.request({ method: 'eth_blockNumber' })) as Hex)).toBe(1n)
    }
  })

  it('interval mining, with and without gas', async () => {
    for (const extra of [{}, { gas: '0x5208' }] satisfies RpcTransactionRequest[]) {
      const clock = manualClock()
      const node = await createNode({ mining: { mode: 'interval', blockTime: 1000 }, clock })
      try {
        const hashes = await sends(node, 10, extra)
        clock.fire()
        // The timer's block is under way; a second mine() queues behind it.
        await node.mine()
        await expectAllMined(node, hashes)
      } finally {
        await node.close()
      }
    }
  })

  it('a send whose estimate fails in the middle leaves no nonce gap', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const from = sender(node)
    const reverter = await (async () => {
      await node.request({ method: 'evm_setAutomine', params: [true] })
      const at = await deploy(node, 'Reverter')
      await node.request({ method: 'evm_setAutomine', params: [false] })
      return at
    })()
    const ok = (i: number) => node.request({ method: 'eth_sendTransaction', params: [{ from, to: RECIPIENT, value: `0x${i.toString(16)}` }] })
    const bad = node.request({ method: 'eth_sendTransaction', params: [{ from, to: reverter, input: calldata('Reverter', 'revertWithReason') }] })
    const results = await Promise.allSettled([ok(1), ok(2), bad, ok(3), ok(4)])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'])
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 3, message: 'execution reverted: nope' })
    const hashes = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
    // The deployment took nonce 0.
    expect(await Promise.all(hashes.map((h) => nonceOf(node, h)))).toEqual([1n, 2n, 3n, 4n])
    expect(await node.request({ method: 'txpool_status' })).toEqual({ pending: '0x4', queued: '0x0' })
    await node.mine()
    for (const h of hashes) expect((await receipt(node, h))?.status).toBe('0x1')
  })

  it('viem: writeContract twice at once from one JSON-RPC account', async () => {
    const node = await newNode()
    const token = await deploy(node, 'Token', ['T', 'T', 1_000_000n])
    const wallet = walletClientOf(node, sender(node))
    const client = publicClientOf(node)
    const abi = artifact('Token').abi
    const [a, b] = await Promise.all([
      wallet.writeContract({ address: token, abi, functionName: 'transfer', args: [RECIPIENT, 1n], chain: finalityChain }),
      wallet.writeContract({ address: token, abi, functionName: 'transfer', args: [RECIPIENT, 2n], chain: finalityChain }),
    ])
    const receipts = await Promise.all([a, b].map((hash) => client.waitForTransactionReceipt({ hash })))
    expect(receipts.map((r) => r.status)).toEqual(['success', 'success'])
    expect(await client.readContract({ address: token, abi, functionName: 'balanceOf', args: [RECIPIENT] })).toBe(3n)
  })

  it('viem: sendTransaction ten at once in manual mode, then a test client mines them', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    const wallet = walletClientOf(node, sender(node))
    const hashes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => wallet.sendTransaction({ to: RECIPIENT, value: BigInt(i + 1), chain: finalityChain })),
    )
    const test = createTestClient({ chain: finalityChain, mode: 'hardhat', transport: custom(node.provider, { retryCount: 0 }) })
    await test.mine({ blocks: 1 })
    await expectAllMined(node, hashes)
  })
})
