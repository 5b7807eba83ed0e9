import { describe, expect, test } from 'vitest'
import { createNode, type Hex, type RpcTransactionRequest } from '../../src/index.js'

type Tx = { hash: string; nonce: string; from: string; gasPrice: string; gas: string }

describe('transaction pool', () => {
  test('behavior: a nonce gap queues; filling the gap promotes; txpool shows both maps', async () => {
    const node = await createNode({ mining: { mode: 'manual' } })
    const [a, b] = node.accounts
    const send = (nonce: number) =>
      node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1', gas: '0x5208', nonce: `0x${nonce.toString(16)}` }] })
    await send(1)
    expect(await node.request({ method: 'txpool_status' })).toEqual({ pending: '0x0', queued: '0x1' })
    await send(0)
    expect(await node.request({ method: 'txpool_status' })).toEqual({ pending: '0x2', queued: '0x0' })
    const from = (await node.request({ method: 'txpool_contentFrom', params: [a!.address] })) as { pending: Record<string, Tx> }
    expect(Object.keys(from.pending)).toEqual(['0', '1'])
    await node.mine()
    expect(await node.request({ method: 'eth_getTransactionCount', params: [a!.address, 'latest'] })).toBe('0x2')
    expect(await node.request({ method: 'txpool_status' })).toEqual({ pending: '0x0', queued: '0x0' })
    await node.close()
  })

  test('behavior: eth_pendingTransactions lists node-account transactions; eth_resend replaces one', async () => {
    const node = await createNode({ mining: { mode: 'manual' } })
    const [a, b] = node.accounts
    const req: RpcTransactionRequest = { from: a!.address, to: b!.address, value: '0x1', gas: '0x5208', gasPrice: '0x77359400', nonce: '0x0' }
    const first = await node.request({ method: 'eth_sendTransaction', params: [req] })
    const pending = (await node.request({ method: 'eth_pendingTransactions' })) as Tx[]
    expect(pending.map((t) => t.hash)).toEqual([first])
    expect(await node.request({ method: 'eth_getPendingTransactions' })).toHaveLength(1)
    const second = await node.request({ method: 'eth_resend', params: [req, '0xb2d05e00', '0x6000'] })
    expect(second).not.toBe(first)
    const after = (await node.request({ method: 'eth_pendingTransactions' })) as Tx[]
    expect(after.map((t) => [t.hash, t.gasPrice, t.gas])).toEqual([[second, '0xb2d05e00', '0x6000']])
    await expect(node.request({ method: 'eth_resend', params: [{ ...req, nonce: undefined }, '0xb2d05e00'] })).rejects.toMatchObject({
      code: -32000,
      message: 'missing transaction nonce in transaction spec',
    })
    await node.close()
  })

  test('behavior: per-sender and pool-wide slot limits, at the limit and past it', async () => {
    const node = await createNode({ mining: { mode: 'manual' }, txpool: { slotsPerSender: 2, slots: 3 } })
    const [a, b, c] = node.accounts
    const send = (from: Hex, nonce: number) =>
      node.request({ method: 'eth_sendTransaction', params: [{ from, to: b!.address, value: '0x1', gas: '0x5208', nonce: `0x${nonce.toString(16)}` }] })
    await send(a!.address, 0)
    await send(a!.address, 1)
    await expect(send(a!.address, 2)).rejects.toThrow(/account limit exceeded/)
    await send(c!.address, 0)
    await expect(send(c!.address, 1)).rejects.toThrow(/txpool is full/)
    expect(await node.request({ method: 'txpool_status' })).toEqual({ pending: '0x3', queued: '0x0' })
    await node.close()
  })

  test('behavior: fees order by tip; fifo orders by arrival', async () => {
    for (const order of ['fees', 'fifo'] as const) {
      const node = await createNode({ mining: { mode: 'manual' }, txpool: { order } })
      const [a, b, c] = node.accounts
      const cheap = await node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: c!.address, gas: '0x5208', maxFeePerGas: '0x174876e800', maxPriorityFeePerGas: '0x1' }] })
      const rich = await node.request({ method: 'eth_sendTransaction', params: [{ from: b!.address, to: c!.address, gas: '0x5208', maxFeePerGas: '0x174876e800', maxPriorityFeePerGas: '0x3b9aca00' }] })
      await node.mine()
      const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { transactions: string[] }
      expect(block.transactions).toEqual(order === 'fees' ? [rich, cheap] : [cheap, rich])
      await node.close()
    }
  })

  test('behavior: a replacement needs the fee bump (setting), then replaces', async () => {
    const node = await createNode({ mining: { mode: 'manual' }, txpool: { priceBump: 50n } })
    const [a, b] = node.accounts
    const tx = (price: Hex): RpcTransactionRequest => ({ from: a!.address, to: b!.address, gas: '0x5208', gasPrice: price, nonce: '0x0' })
    await node.request({ method: 'eth_sendTransaction', params: [tx('0x3b9aca00')] })
    await expect(node.request({ method: 'eth_sendTransaction', params: [tx('0x59682eff')] })).rejects.toThrow('replacement transaction underpriced')
    await node.request({ method: 'eth_sendTransaction', params: [tx('0x59682f00')] })
    expect(await node.request({ method: 'txpool_status' })).toEqual({ pending: '0x1', queued: '0x0' })
    await node.close()
  })
})

describe('the pending tag', () => {
  test('behavior: with automine off, pending reads see pooled transactions; latest does not', async () => {
    const node = await createNode({ mining: { mode: 'manual' } })
    const [a, b] = node.accounts
    const before = (await node.request({ method: 'eth_getBalance', params: [b!.address, 'latest'] })) as string
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x3e8', gas: '0x5208' }] })
    expect(await node.request({ method: 'eth_getBalance', params: [b!.address, 'latest'] })).toBe(before)
    expect(BigInt((await node.request({ method: 'eth_getBalance', params: [b!.address, 'pending'] })) as string)).toBe(BigInt(before) + 1000n)
    expect(await node.request({ method: 'eth_getTransactionCount', params: [a!.address, 'pending'] })).toBe('0x1')
    const pending = (await node.request({ method: 'eth_getBlockByNumber', params: ['pending', true] })) as {
      number: string
      transactions: Array<{ hash: string; from: string }>
    }
    expect(pending.number).toBe('0x1')
    expect(pending.transactions.map((t) => [t.hash, t.from])).toEqual([[hash, a!.address.toLowerCase()]])
    expect(await node.request({ method: 'eth_getBlockTransactionCountByNumber', params: ['pending'] })).toBe('0x1')
    expect(await node.request({ method: 'eth_call', params: [{ to: b!.address }, 'pending'] })).toBe('0x')
    await node.mine()
    // Nothing queued: pending is the next block, empty, on the head.
    const latest = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: string; number: string }
    const nowPending = (await node.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as { parentHash: string; number: string; transactions: unknown[] }
    expect(nowPending).toMatchObject({ parentHash: latest.hash, number: '0x2', transactions: [] })
    expect(await node.request({ method: 'eth_getBalance', params: [b!.address, 'pending'] })).toBe(
      await node.request({ method: 'eth_getBalance', params: [b!.address, 'latest'] }),
    )
    await node.close()
  })
})
