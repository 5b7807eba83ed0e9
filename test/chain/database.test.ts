import { describe, expect, test } from 'vitest'
import { MemoryLevel } from 'memory-level'
import { createNode } from '../../src/index.js'

describe('the db option', () => {
  test('behavior: a caller-supplied abstract-level database receives the blocks, receipts and trie nodes', async () => {
    const db = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' })
    const node = await createNode({ db })
    const [a, b] = node.accounts
    const hash = (await node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1' }] })) as string
    const block = (await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: string }
    const get = (key: string) => db.get(key, { keyEncoding: 'utf8', valueEncoding: 'view' })
    expect(Buffer.from((await get('head'))!).toString('hex')).toBe(block.hash.slice(2))
    expect(await get(`b${block.hash.slice(2)}`)).toBeDefined()
    expect(await get(`r${block.hash.slice(2)}`)).toBeDefined()
    expect(await get(`c${block.hash.slice(2)}`)).toBeDefined()
    expect(await get(`t${hash.slice(2)}`)).toBeDefined()
    let nodes = 0
    for await (const key of db.keys({ gte: 'n', lt: 'o', keyEncoding: 'utf8' })) if (key.startsWith('n')) nodes++
    expect(nodes).toBeGreaterThan(10)
    await node.close()
  })

  test('behavior: a node on a database that holds a chain resumes it: blocks, receipts, state, history', async () => {
    const db = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' })
    const first = await createNode({ db })
    const [a, b] = first.accounts
    const hash = await first.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x7' }] })
    await first.request({ method: 'hardhat_setStorageAt', params: [b!.address, '0x1', `0x${'00'.repeat(31)}2a`] })
    await first.request({ method: 'hardhat_setBalance', params: ['0x00000000000000000000000000000000000000aa', '0x55'] })
    const before = {
      height: await first.request({ method: 'eth_blockNumber' }),
      balance: await first.request({ method: 'eth_getBalance', params: [b!.address, 'latest'] }),
      genesis: await first.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] }),
    }
    await first.close()

    const second = await createNode({ db })
    expect(await second.request({ method: 'eth_blockNumber' })).toBe(before.height)
    expect(await second.request({ method: 'eth_getBalance', params: [b!.address, 'latest'] })).toBe(before.balance)
    expect(await second.request({ method: 'eth_getBalance', params: ['0x00000000000000000000000000000000000000aa', 'latest'] })).toBe('0x55')
    expect(await second.request({ method: 'eth_getStorageAt', params: [b!.address, '0x1', 'latest'] })).toBe(`0x${'00'.repeat(31)}2a`)
    expect(await second.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })).toEqual(before.genesis)
    expect(((await second.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string }).status).toBe('0x1')
    // History: the balance before the transfer is still readable at genesis.
    expect(await second.request({ method: 'eth_getBalance', params: [b!.address, '0x0'] })).toBe('0x21e19e0c9bab2400000')
    // The chain goes on, with the nonce where it was.
    const next = await second.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1' }] })
    const tx = (await second.request({ method: 'eth_getTransactionByHash', params: [next] })) as { nonce: string; blockNumber: string }
    expect(tx).toMatchObject({ nonce: '0x1', blockNumber: '0x2' })
    // reset still knows the genesis state.
    await second.request({ method: 'hardhat_reset' })
    expect(await second.request({ method: 'eth_getBalance', params: [b!.address, 'latest'] })).toBe('0x21e19e0c9bab2400000')
    await second.close()
  })

  test('behavior: evm_revert of several blocks leaves in the database only the chain before them, which a resumed node continues', async () => {
    const db = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' })
    const first = await createNode({ db })
    const [a, b] = first.accounts
    const rpc = (node: typeof first, method: string, ...params: unknown[]) => node.request({ method, params })
    await rpc(first, 'hardhat_setBalance', '0x00000000000000000000000000000000000000aa', '0x55')
    const kept = (await rpc(first, 'eth_getBlockByNumber', 'latest', false)) as { hash: string; number: string }
    const id = await rpc(first, 'evm_snapshot')
    // Blocks with transactions, empty blocks and a write at a head in between (an irregular root).
    const sent = [await rpc(first, 'eth_sendTransaction', { from: a!.address, to: b!.address, value: '0x7' })]
    await rpc(first, 'hardhat_mine', '0x3')
    await rpc(first, 'hardhat_setBalance', '0x00000000000000000000000000000000000000aa', '0x66')
    sent.push(await rpc(first, 'eth_sendTransaction', { from: a!.address, to: b!.address, value: '0x8' }))
    const dropped = (await rpc(first, 'eth_getBlockByNumber', 'latest', false)) as { hash: string; number: string }
    expect(BigInt(dropped.number) - BigInt(kept.number)).toBe(5n)
    expect(await rpc(first, 'evm_revert', id)).toBe(true)
    await first.close()

    await db.open()
    const keys: string[] = []
    for await (const key of db.keys({ keyEncoding: 'utf8' })) if (!key.startsWith('n')) keys.push(key)
    const height = (n: bigint) => `h${n.toString(16).padStart(16, '0')}`
    expect(keys).toContain(height(BigInt(kept.number)))
    expect(keys).not.toContain(height(BigInt(kept.number) + 1n))
    expect(keys.filter((k) => k.startsWith('t'))).toEqual([])
    expect(keys.filter((k) => k.startsWith('i'))).toEqual([])
    for (const prefix of ['b', 'r', 'c']) expect(keys).not.toContain(`${prefix}${dropped.hash.slice(2)}`)

    const second = await createNode({ db })
    expect(await rpc(second, 'eth_getBlockByNumber', 'latest', false)).toMatchObject({ hash: kept.hash })
    expect(await rpc(second, 'eth_getBlockByHash', dropped.hash, false)).toBeNull()
    for (const hash of sent) expect(await rpc(second, 'eth_getTransactionReceipt', hash)).toBeNull()
    expect(await rpc(second, 'eth_getBalance', '0x00000000000000000000000000000000000000aa', 'latest')).toBe('0x55')
    // The heights are mined again, with the nonce the first transaction had.
    const again = await rpc(second, 'eth_sendTransaction', { from: a!.address, to: b!.address, value: '0x1' })
    expect(await rpc(second, 'eth_getTransactionByHash', again)).toMatchObject({ nonce: '0x0', blockNumber: `0x${(BigInt(kept.number) + 1n).toString(16)}` })
    await second.close()
  })

  test('error: a database that holds a chain with another chain id is refused, with what to do; without chainId it resumes under its own', async () => {
    const db = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' })
    const first = await createNode({ db, chainId: 1337 })
    const [a, b] = first.accounts
    // A signed transaction in a stored block: decoding it under another chain id must not be what fails.
    await first.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1' }] })
    await first.close()
    await expect(createNode({ db, chainId: 1 })).rejects.toThrow(
      'the database holds a chain with chain id 1337, not 1: to resume it, leave chainId out or pass 1337 (CLI: --chain-id); for a new chain, use another database directory',
    )
    const again = await createNode({ db })
    expect(again.chainId).toBe(1337n)
    expect(await again.request({ method: 'eth_blockNumber' })).toBe('0x1')
    await again.close()
  })
})
