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

  test('error: a database that already holds a chain is refused, not overwritten', async () => {
    const db = new MemoryLevel({ keyEncoding: 'utf8', valueEncoding: 'view' })
    const first = await createNode({ db })
    await first.request({ method: 'evm_mine' })
    // close() closes the database; a second node on the same store reopens it.
    await first.close()
    await expect(createNode({ db })).rejects.toThrow(/already holds a chain/)
  })
})
