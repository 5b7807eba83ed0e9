/**
 * The fork's disk cache: layout, limits, two processes sharing a folder, and a warm run that
 * works with the remote (a real finality node over HTTP) stopped.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { cachedRemote, immutableAt, openForkCache } from '../../src/fork/disk-cache.js'
import { createRemote } from '../../src/fork/remote/index.js'
import { createNode, InvalidOptionError } from '../../src/index.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'finality-fork-cache-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** Every file under `dir`, relative. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort()
}

const ADDR = '0x00000000000000000000000000000000000000Aa'

describe('openForkCache', () => {
  it('default: stores under <dir>/<chainId>/<blockNumber>/<method>/, reads back, creates nothing before a write', async () => {
    const dir = tempDir()
    const cache = openForkCache(dir, { chainId: 10n, blockNumber: 123n })
    expect(cache.dir).toBe(path.join(dir, '10', '123'))
    expect(await cache.get('eth_getBalance', [ADDR, '0x7b'])).toBeUndefined()
    expect(files(dir)).toEqual([])
    await cache.put('eth_getBalance', [ADDR, '0x7b'], '0x10')
    const [file] = files(dir)
    expect(file).toMatch(/^10\/123\/eth_getBalance\/[0-9a-f]{2}\/[0-9a-f]{64}\.json$/)
    expect(JSON.parse(readFileSync(path.join(dir, file!), 'utf8'))).toEqual({ method: 'eth_getBalance', params: [ADDR.toLowerCase(), '0x7b'], result: '0x10' })
    // Hex in either case is the same entry; another fork point is another folder.
    expect(await cache.get('eth_getBalance', [ADDR.toLowerCase(), '0x7B'])).toEqual({ result: '0x10' })
    expect(await openForkCache(dir, { chainId: 10n, blockNumber: 124n }).get('eth_getBalance', [ADDR, '0x7b'])).toBeUndefined()
    expect(cache.stats()).toEqual({ hits: 1, misses: 1, writes: 1, skipped: 0 })
  })

  it('behavior: a damaged or foreign file is a miss, not an error', async () => {
    const dir = tempDir()
    const cache = openForkCache(dir, { chainId: 1n, blockNumber: 1n })
    await cache.put('eth_getCode', [ADDR, '0x1'], '0x6000')
    const file = path.join(dir, files(dir)[0]!)
    writeFileSync(file, '{"method":"eth_getCode","par')
    expect(await cache.get('eth_getCode', [ADDR, '0x1'])).toBeUndefined()
    writeFileSync(file, JSON.stringify({ method: 'eth_getCode', params: [ADDR, '0x2'], result: '0xff' }))
    expect(await cache.get('eth_getCode', [ADDR, '0x1'])).toBeUndefined()
  })

  it('limits: maxEntries is reached and not passed, also by a later process reading the same folder', async () => {
    const dir = tempDir()
    const cache = openForkCache(dir, { chainId: 1n, blockNumber: 1n }, { maxEntries: 3 })
    await Promise.all([0, 1, 2, 3, 4].map((i) => cache.put('eth_getBalance', [ADDR, `0x${i}`], '0x1')))
    expect(cache.stats()).toMatchObject({ writes: 3, skipped: 2 })
    expect(files(dir)).toHaveLength(3)
    const again = openForkCache(dir, { chainId: 1n, blockNumber: 1n }, { maxEntries: 4 })
    await again.put('eth_getBalance', [ADDR, '0x10'], '0x1')
    await again.put('eth_getBalance', [ADDR, '0x11'], '0x1')
    expect(again.stats()).toMatchObject({ writes: 1, skipped: 1 })
    const none = openForkCache(dir, { chainId: 1n, blockNumber: 2n }, { maxEntries: 0 })
    await none.put('eth_getBalance', [ADDR, '0x1'], '0x1')
    expect(none.stats()).toMatchObject({ writes: 0, skipped: 1 })
  })

  it('limits: maxEntryBytes stores an answer of exactly that size and skips one byte more', async () => {
    const dir = tempDir()
    const size = Buffer.byteLength(`{"method":"eth_getCode","params":["${ADDR.toLowerCase()}","0x1"],"result":"0x6000"}\n`)
    const at = openForkCache(dir, { chainId: 1n, blockNumber: 1n }, { maxEntryBytes: size })
    await at.put('eth_getCode', [ADDR, '0x1'], '0x6000')
    const past = openForkCache(dir, { chainId: 1n, blockNumber: 2n }, { maxEntryBytes: size - 1 })
    await past.put('eth_getCode', [ADDR, '0x1'], '0x6000')
    expect([at.stats().writes, past.stats().skipped]).toEqual([1, 1])
  })

  it('error: bad arguments are named', () => {
    expect(() => openForkCache('', { chainId: 1n, blockNumber: 1n })).toThrow('openForkCache: dir must be a non-empty path')
    expect(() => openForkCache('/tmp', { chainId: 1, blockNumber: 1n } as never)).toThrow('openForkCache: key must be { chainId: bigint, blockNumber: bigint }')
    expect(() => openForkCache('/tmp', { chainId: 1n, blockNumber: 1n }, { maxEntries: -1 })).toThrow(new InvalidOptionError('openForkCache', 'maxEntries', 'must be at least 0, got -1'))
    expect(() => openForkCache('/tmp', { chainId: 1n, blockNumber: 1n }, { maxEntrys: 1 } as never)).toThrow('did you mean maxEntries?')
  })

  it('behavior: two processes writing the same answers into one folder leave every entry intact and no temporary file', async () => {
    const dir = tempDir()
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, 'test', 'helpers', 'cache-writer.ts'), dir, '200'], { cwd: ROOT })
        let out = ''
        child.stdout.on('data', (d) => (out += d))
        child.stderr.on('data', (d) => (out += d))
        child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(out))))
      })
    const outputs = await Promise.all([run(), run()])
    for (const out of outputs) expect(JSON.parse(out)).toMatchObject({ intact: 200, hits: 200, skipped: 0 })
    const all = files(dir)
    expect(all.filter((f) => f.endsWith('.tmp'))).toEqual([])
    expect(all).toHaveLength(200)
  })
})

describe('cachedRemote', () => {
  it('behavior: a warm run answers from the cache with the remote stopped; what it never fetched fails clearly', async () => {
    const dir = tempDir()
    const node = await createNode({ chainId: 1337n })
    const [a, b] = (await node.request({ method: 'eth_accounts' })) as string[]
    await node.mineBlocks(3)
    const listening = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
    const url = listening.http!
    const pinned = '0x2'
    const cacheable = immutableAt(2n)
    const asks = [
      { method: 'eth_getBalance', params: [a, pinned] },
      { method: 'eth_getProof', params: [b, [], pinned] },
      { method: 'eth_getTransactionCount', params: [a, pinned] },
    ]

    const cold = cachedRemote(createRemote({ url }), openForkCache(dir, { chainId: 1337n, blockNumber: 2n }), cacheable)
    const answers = await Promise.all(asks.map((q) => cold.request(q)))
    // The same request asked twice at once goes out once.
    await Promise.all([cold.request({ method: 'eth_getCode', params: [a, pinned] }), cold.request({ method: 'eth_getCode', params: [a, pinned] })])
    expect(cold.stats()).toMatchObject({ requests: 4 })
    await cold.close()
    await listening.close()
    await node.close()

    const warmCache = openForkCache(dir, { chainId: 1337n, blockNumber: 2n })
    const warm = cachedRemote(createRemote({ url, retries: 0 }), warmCache, cacheable)
    expect(await Promise.all(asks.map((q) => warm.request(q)))).toEqual(answers)
    expect(warm.stats()).toMatchObject({ requests: 0, httpRequests: 0 })
    expect(warmCache.stats()).toMatchObject({ hits: 3, misses: 0 })
    await expect(warm.request({ method: 'eth_getBalance', params: [b, pinned] })).rejects.toThrow(new RegExp(`^fork remote ${url}: eth_getBalance failed: fetch failed: .*ECONNREFUSED`))
    await expect(warm.request({ method: 'eth_blockNumber' })).rejects.toThrow(/ECONNREFUSED/)
    await warm.close()
  })

  it('behavior: a null answer and an error are not stored', async () => {
    const dir = tempDir()
    const node = await createNode()
    const cache = openForkCache(dir, { chainId: 1n, blockNumber: 0n })
    const c = cachedRemote(createRemote({ provider: node.provider }), cache, () => true)
    expect(await c.request({ method: 'eth_getTransactionByHash', params: [`0x${'11'.repeat(32)}`] })).toBeNull()
    await expect(c.request({ method: 'eth_getBalance', params: ['0x12', '0x0'] })).rejects.toMatchObject({ remoteCode: -32602 })
    expect(files(dir)).toEqual([])
    await c.close()
    await node.close()
  })
})

describe('immutableAt', () => {
  const at = immutableAt(100n)
  const HASH = `0x${'ab'.repeat(32)}`
  it('default: state, blocks and logs at or below the fork block by number, lookups by hash', () => {
    expect(at('eth_chainId', [])).toBe(true)
    expect(at('eth_getBalance', [ADDR, '0x64'])).toBe(true)
    expect(at('eth_getCode', [ADDR, '0x0'])).toBe(true)
    expect(at('eth_call', [{ to: ADDR }, '0x63'])).toBe(true)
    expect(at('eth_getStorageAt', [ADDR, '0x0', '0x64'])).toBe(true)
    expect(at('eth_getProof', [ADDR, [], '0x64'])).toBe(true)
    expect(at('eth_getBlockByNumber', ['0x64', false])).toBe(true)
    expect(at('eth_getBlockByHash', [HASH, true])).toBe(true)
    expect(at('eth_getTransactionReceipt', [HASH])).toBe(true)
    expect(at('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x64', address: ADDR }])).toBe(true)
  })
  it('behavior: never a tag, a block above the fork, an open log range, or another method', () => {
    expect(at('eth_getBalance', [ADDR, '0x65'])).toBe(false)
    expect(at('eth_getBalance', [ADDR, 'latest'])).toBe(false)
    expect(at('eth_getBalance', [ADDR])).toBe(false)
    expect(at('eth_getBalance', [ADDR, { blockHash: HASH }])).toBe(false)
    expect(at('eth_getStorageAt', [ADDR, '0x0', 'safe'])).toBe(false)
    expect(at('eth_getBlockByNumber', ['finalized', false])).toBe(false)
    expect(at('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x65' }])).toBe(false)
    expect(at('eth_getLogs', [{ fromBlock: '0x1' }])).toBe(false)
    expect(at('eth_getLogs', [{ blockHash: HASH }])).toBe(false)
    expect(at('eth_blockNumber', [])).toBe(false)
    expect(at('eth_gasPrice', [])).toBe(false)
    expect(at('eth_getTransactionByHash', ['0x12'])).toBe(false)
  })
})
