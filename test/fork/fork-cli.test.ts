/**
 * The CLI forks: `--fork-url`, `--fork-block-number` (negative counts back from the remote's
 * head), repeatable `--fork-header`, the same keys in the TOML file, and a banner that says what
 * was forked.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode, Listening } from '../../src/index.js'
import { parseCli } from '../../src/cli/config.js'
import { EPHEMERAL, startCli } from '../helpers/cli.js'
import { trackNodes } from '../helpers/nodes.js'
import { rpc, serve } from '../helpers/loopback.js'

const newNode = trackNodes()
let remote: FinalityNode
let served: Listening
let proxy: Awaited<ReturnType<typeof serve>>
const seen: Array<string | undefined> = []

beforeAll(async () => {
  remote = await newNode()
  served = await remote.listen({ address: '127.0.0.1:0', wsAddress: false })
  await remote.request({ method: 'hardhat_mine', params: ['0x5'] })
  // Forwards to the remote and remembers the x-api-key header of each request.
  proxy = await serve(async (req, res) => {
    seen.push(req.headers['x-api-key'] as string | undefined)
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const upstream = await fetch(served.http!, { method: 'POST', body: Buffer.concat(chunks), headers: { 'content-type': 'application/json' } })
    res.setHeader('content-type', 'application/json')
    res.end(await upstream.text())
  })
})
afterAll(async () => proxy.close())

describe('the CLI forks a remote', () => {
  it('--fork-url with --fork-block-number and --fork-header: the banner names the fork, the chain starts there, the header is sent', async () => {
    const cli = await startCli([...EPHEMERAL, '--quiet', '--fork-url', proxy.url, '--fork-block-number', '-2', '--fork-header', 'x-api-key: secret-1', '--fork-header', 'x-other: 2'])
    try {
      expect(cli.out()).toMatch(new RegExp(`Fork: +${proxy.url.replace(/[.]/g, '\\.')}\\S* at block 3 \\(0x[0-9a-f]{64}\\)`))
      expect((await rpc(cli.http, 'eth_blockNumber')).result).toBe('0x3')
      const head = (await rpc(served.http!, 'eth_getBlockByNumber', ['0x3', false])).result as { hash: string }
      expect((await rpc(cli.http, 'eth_getBlockByNumber', ['latest', false])).result.hash).toBe(head.hash)
      expect(seen.length).toBeGreaterThan(0)
      expect(seen.every((h) => h === 'secret-1')).toBe(true)
    } finally {
      expect(await cli.stop()).toBe(0)
    }
  }, 60_000)

  it('reads the same settings from the TOML file; bad values are refused naming the setting', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'finality-fork-'))
    const file = path.join(dir, 'node.toml')
    writeFileSync(file, `fork-url = "http://127.0.0.1:1"\nfork-block-number = 12\nfork-header = ["Authorization: Bearer t"]\nfork-cache-dir = "${dir}"\nfork-history-entries = 50\nfork-walk-fetches = 7\n`)
    const c = parseCli(['--config', file])
    expect(c.forkUrl).toBe('http://127.0.0.1:1')
    expect(c.forkBlockNumber).toBe(12n)
    expect(c.forkHeaders).toEqual({ Authorization: 'Bearer t' })
    expect(c.forkCacheDir).toBe(dir)
    expect(c.forkHistoryEntries).toBe(50)
    expect(c.forkWalkFetches).toBe(7)
    expect(() => parseCli(['--fork-walk-fetches', 'many'])).toThrow(/fork-walk-fetches: want an integer >= 0, got many/)
    expect(() => parseCli(['--fork-block-number', 'latest'])).toThrow(/fork-block-number: want a block number/)
    expect(() => parseCli(['--fork-header', 'no colon'])).toThrow(/fork-header: want "Name: value"/)
  })
})
