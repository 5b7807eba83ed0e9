/**
 * The explorer page in a real browser (Debian's Chromium, headless), served by the CLI at `/`:
 * blocks and transactions appear live as they are sent, a transaction shows its receipt and call
 * trace, a halt is drawn when faults leave no quorum and the resume after the heal, and a commit
 * certificate verifies in the page. Screenshots are taken at two points; with FINALITY_SCREENSHOTS=1 they go to docs/images/
 * (docs/explorer.md shows them).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { buildExplorerPage } from '../../tsup.config.js'
import { EPHEMERAL, startCli, type RunningCli } from '../helpers/cli.js'
import { HAS_CHROMIUM, openBrowser } from './browser.js'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { trackNodes } from '../helpers/nodes.js'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { block, pointAtSources, shellWords } from '../docs/blocks.js'
import { encodeFunctionData } from 'viem'
import { loadArtifacts } from '../helpers/compile.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const newNode = trackNodes()
// docs/images/ takes the screenshots with FINALITY_SCREENSHOTS=1 (how the docs' pictures are made);
// otherwise they go to a temporary folder, so that a test run leaves the tree as it found it.
const IMAGES = process.env.FINALITY_SCREENSHOTS === '1' ? path.join(ROOT, 'docs', 'images') : mkdtempSync(path.join(tmpdir(), 'finality-explorer-'))
const SCRATCH = mkdtempSync(path.join(tmpdir(), 'finality-explorer-artifacts-'))
const ARTIFACT = path.join(SCRATCH, 'Emitter.json')
afterAll(() => {
  if (process.env.FINALITY_SCREENSHOTS !== '1') rmSync(IMAGES, { recursive: true, force: true })
  rmSync(SCRATCH, { recursive: true, force: true })
})

if (!HAS_CHROMIUM) console.warn('test/explorer/page.test.ts: skipped, /usr/bin/chromium is not installed (apt-get install chromium)')

describe.skipIf(!HAS_CHROMIUM)('the explorer page in Chromium', () => {
  let cli: RunningCli
  let browser: Awaited<ReturnType<typeof openBrowser>>
  let page: Page
  const errors: string[] = []
  const rpc = async (method: string, ...params: unknown[]): Promise<any> => {
    const res = await fetch(cli.http, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    return ((await res.json()) as { result?: unknown; error?: unknown }).result ?? (await Promise.reject(new Error(JSON.stringify(method))))
  }

  beforeAll(async () => {
    await buildExplorerPage(path.join(ROOT, 'dist'))
    // HTTP and WebSocket on servers of their own: the page learns the WebSocket's URL from the settings written into it.
    // docs/explorer.md's command line, on free ports.
    const [npx, name, ...args] = shellWords(block('explorer.md', 1, 'sh').trim())
    expect([npx, name]).toEqual(['npx', 'finality'])
    // The Emitter's artifact, so the page can show its logs decoded (finality_decodeLogs).
    writeFileSync(ARTIFACT, JSON.stringify({ contractName: 'Emitter', ...loadArtifacts().Emitter }))
    ;[cli, browser] = await Promise.all([startCli([...EPHEMERAL, ...args, '--artifacts', ARTIFACT]), openBrowser()])
    page = await browser.context.newPage()
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await cli?.stop()
  })

  it('GET / with Accept: text/html is the page; without, the empty 200 of health checks', async () => {
    const html = await fetch(`${cli.http}/`, { headers: { accept: 'text/html' } })
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const text = await html.text()
    expect(text).toContain(`"ws":"${cli.ws}"`)
    expect(text).not.toMatch(/<script[^>]+src=/)
    const health = await fetch(`${cli.http}/`)
    expect([health.status, await health.text()]).toEqual([200, ''])
    expect(cli.out()).toContain(`Explorer: open ${cli.http}/ in a browser`)
  })

  it('shows blocks and transactions live as they are sent, each transaction with its receipt and call trace', async () => {
    await page.goto(`${cli.http}/`)
    await page.locator('#status', { hasText: 'live open' }).waitFor()
    const [from, to] = (await rpc('eth_accounts')) as string[]
    const hashes: string[] = []
    for (let i = 0; i < 3; i++) {
      hashes.push(await rpc('eth_sendTransaction', { from, to, value: '0x' + (10n ** 17n * BigInt(i + 1)).toString(16) }))
      await page.locator(`#transactions tr[data-hash="${hashes[i]}"]`).waitFor({ timeout: 5000 })
    }
    const head = BigInt(await rpc('eth_blockNumber'))
    await page.locator(`#blocks tr[data-number="${head}"]`).waitFor()
    expect(await page.locator('#status').textContent()).toContain(`head #${head}`)
    await page.screenshot({ path: path.join(IMAGES, 'explorer-blocks.png') })
    await page.click(`#transactions tr[data-hash="${hashes[2]}"] a`)
    await page.locator('#tx-status', { hasText: 'success' }).waitFor()
    expect(await page.locator('#trace').textContent()).toMatch(/^CALL /)
    await page.fill('#search', to!)
    await page.click('header button')
    await page.locator('#balance').waitFor()
    const balance = BigInt(await rpc('eth_getBalance', to, 'latest'))
    expect(await page.locator('#balance').textContent()).toBe(`${balance / 10n ** 18n}.${(balance % 10n ** 18n).toString().padStart(18, '0').slice(0, 6).replace(/0+$/, '')} ETH`)
  })

  it("a reverted transaction: its status, the revert reason from the call trace, and the contract's code", async () => {
    const { Reverter } = loadArtifacts()
    const [from] = (await rpc('eth_accounts')) as string[]
    const deploy = await rpc('eth_sendTransaction', { from, data: Reverter!.bytecode })
    const { contractAddress } = await rpc('eth_getTransactionReceipt', deploy)
    const data = encodeFunctionData({ abi: Reverter!.abi, functionName: 'revertWithReason' })
    const hash = await rpc('eth_sendTransaction', { from, to: contractAddress, data, gas: '0x100000' })
    expect((await rpc('eth_getTransactionReceipt', hash)).status).toBe('0x0')
    await page.goto(`${cli.http}/#/tx/${hash}`)
    await page.locator('#tx-status', { hasText: 'reverted' }).waitFor()
    expect(await page.locator('#revert-reason').textContent()).toBe('nope')
    expect(await page.locator('#trace').textContent()).toMatch(/^CALL .*\(execution reverted: nope\)/)
    await page.goto(`${cli.http}/#/address/${contractAddress}`)
    const code = (await rpc('eth_getCode', contractAddress, 'latest')) as string
    await page.locator('dd', { hasText: `${(code.length - 2) / 2} bytes` }).waitFor()
    await page.click('text=Read slot')
    expect(await page.locator('#slot-value').textContent()).toBe(await rpc('eth_getStorageAt', contractAddress, '0x0', 'latest'))
  })

  it('logs decoded by the ABI the node knows: event and named arguments, as finality_decodeLogs answers; an anonymous event as topics and data', async () => {
    const { Emitter } = loadArtifacts()
    const [from] = (await rpc('eth_accounts')) as string[]
    const { contractAddress } = await rpc('eth_getTransactionReceipt', await rpc('eth_sendTransaction', { from, data: Emitter!.bytecode }))
    const hash = await rpc('eth_sendTransaction', { from, to: contractAddress, data: encodeFunctionData({ abi: Emitter!.abi, functionName: 'fire' }) })
    const decoded = await rpc('finality_decodeLogs', hash)
    const receipt = await rpc('eth_getTransactionReceipt', hash)
    await page.goto(`${cli.http}/#/tx/${hash}`)
    await page.locator('#logs li').nth(2).waitFor()
    const items = await page.locator('#logs li').allTextContents()
    const expected = decoded.logs.slice(0, 2).map((l: { event: { name: string; args: Array<{ name: string; value: string }> } }) => `${l.event.name}(${l.event.args.map((a) => `${a.name}: ${a.value}`).join(', ')})`)
    expect(expected[0]!.toLowerCase()).toBe(`Transfer2(from: ${from}, to: ${contractAddress}, value: 1)`.toLowerCase())
    for (const [i, text] of items.slice(0, 2).entries()) expect(text).toContain(`(Emitter) ${expected[i]}`)
    expect(items[1]).toContain('text: fired')
    // Anonymous(7): no topic at all, its data the one word.
    expect(receipt.logs[2].topics).toEqual([])
    expect(items[2]).toMatch(/ topics +data 0x0{10}…0{9}7$/)
    expect(await page.locator('#logs-note').count()).toBe(0)
    await page.screenshot({ path: path.join(IMAGES, 'explorer-logs.png') })
  })

  it('snapshot, send, revert: the reverted block leaves the list; +1 hour moves the next block an hour on', async () => {
    await page.goto(`${cli.http}/`)
    await page.locator('#status', { hasText: 'live open' }).waitFor()
    await page.click('text=Snapshot')
    await page.locator('#control-result', { hasText: 'snapshot: "0x' }).waitFor()
    const before = BigInt(await rpc('eth_blockNumber'))
    await page.click('text=Send 0.01 ETH')
    await page.locator(`#blocks tr[data-number="${before + 1n}"]`).waitFor()
    await page.click('button:has-text("Revert to")')
    await page.locator('#control-result', { hasText: 'revert: true' }).waitFor()
    await page.locator(`#blocks tr[data-number="${before + 1n}"]`).waitFor({ state: 'detached' })
    expect(BigInt(await rpc('eth_blockNumber'))).toBe(before)
    const last = BigInt((await rpc('eth_getBlockByNumber', 'latest', false)).timestamp)
    await page.click('text=+1 hour')
    await page.locator('#control-result', { hasText: 'increase time:' }).waitFor()
    await page.click('text=Mine a block')
    await page.locator(`#blocks tr[data-number="${before + 1n}"]`).waitFor()
    expect(BigInt((await rpc('eth_getBlockByNumber', 'latest', false)).timestamp) - last).toBeGreaterThanOrEqual(3600n)
  })

  it('draws a halt when two of four validators go offline, and the resume after the heal', async () => {
    await page.goto(`${cli.http}/#/consensus`)
    await page.locator('#validators tbody tr').nth(3).waitFor()
    const validators = (await rpc('finality_getValidators')) as Array<{ address: string }>
    for (const v of validators.slice(0, 2)) await page.click(`button[data-offline="${v.address}"]`)
    await page.locator('#validators td.error', { hasText: 'offline' }).nth(1).waitFor()
    await page.click('text=Mine a block')
    await page.locator('#halt-banner').waitFor()
    expect(await page.locator('#halt-banner').textContent()).toMatch(/Halted at height \d+: .*20 of 40 voting power/)
    expect(await page.locator('#control-result').textContent()).toMatch(/the chain is halted/)
    await page.click('text=Heal all')
    await page.click('text=Mine a block')
    await page.locator('#halts li.ok', { hasText: 'resumed' }).waitFor()
    await page.locator('#halt-banner').waitFor({ state: 'detached' })
    expect(await page.locator('#halts li').count()).toBe(2)
    // Two groups of two: neither holds more than 2/3.
    await page.click('text=Partition in two')
    await page.click('text=Mine a block')
    await page.locator('#halt-banner').waitFor()
    const addresses = validators.map((v) => v.address)
    const { partition } = await rpc('finality_getConsensusState')
    expect(partition).toEqual([addresses.slice(0, 2), addresses.slice(2)])
    // The groups drawn as the node reports them: each with half the power, neither able to decide.
    await page.locator('#network .group').nth(1).waitFor()
    expect(await page.locator('#network .group').count()).toBe(2)
    for (const [i, group] of (partition as string[][]).entries()) {
      const drawn = page.locator(`#network .group[data-group="${i}"]`)
      expect(await drawn.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-validator')))).toEqual(group.map((a) => a.toLowerCase()))
      expect(await drawn.locator('div').first().textContent()).toBe(`group ${i + 1}: 20 of 40 voting power, no quorum`)
    }
    await page.screenshot({ path: path.join(IMAGES, 'explorer-partition.png'), fullPage: true })
    await page.click('text=Heal all')
    await page.click('text=Mine a block')
    await page.locator('#halts li.ok').nth(1).waitFor()
    expect(await page.locator('#halts li').count()).toBe(4)
    await page.locator('#network .group').nth(1).waitFor({ state: 'detached' })
    expect(await page.locator('#network .group').textContent()).toMatch(/^group 1: 40 of 40 voting power, can decide/)
    // Set by another client, with nothing done in the page: the subscription's faults event draws it.
    await rpc('finality_partition', [[addresses[0]]])
    await page.locator('#network .group').nth(1).waitFor()
    expect(await page.locator('#network .group[data-group="0"] li').evaluateAll((els) => els.map((e) => e.getAttribute('data-validator')))).toEqual([addresses[0]!.toLowerCase()])
    await rpc('finality_heal')
    await page.locator('#network .group').nth(1).waitFor({ state: 'detached' })
    // A fault shows in the validators' table until healed.
    await page.locator('#controls tr').nth(2).locator('text=Silence').click()
    await page.locator('#validators tbody tr').nth(2).locator('td', { hasText: '{"silent":true}' }).waitFor()
    await page.locator('#controls tr').nth(2).locator('text=Heal').click()
    await page.locator('#validators tbody tr').nth(2).locator('td', { hasText: '{"silent":true}' }).waitFor({ state: 'detached' })
  })

  it('shows the evidence of an equivocating validator as the node reports it: kind, validator, height', async () => {
    await page.goto(`${cli.http}/#/consensus`)
    await page.locator('#validators tbody tr').nth(3).waitFor()
    const validators = (await rpc('finality_getValidators')) as Array<{ address: string }>
    const cheat = validators[2]!.address
    await page.click(`button[data-equivocate="${cheat}"]`)
    await page.locator('#validators td', { hasText: '{"equivocate":true}' }).waitFor()
    let evidence: Array<{ type: string; validator: string; height: string; round: string; step: string }> = []
    for (let i = 0; i < 6 && evidence.length === 0; i++) {
      await page.click('text=Mine a block')
      await page.locator('#control-result', { hasText: 'mine: ' }).waitFor()
      evidence = await rpc('finality_getEvidence')
    }
    await page.click('text=Heal all')
    await page.locator('#validators td', { hasText: '{"equivocate":true}' }).waitFor({ state: 'detached' })
    evidence = await rpc('finality_getEvidence')
    expect(evidence.length).toBeGreaterThan(0)
    await page.locator('#evidence li').nth(evidence.length - 1).waitFor()
    const shown = await page.locator('#evidence li').evaluateAll((els) => els.map((e) => [e.getAttribute('data-validator'), e.getAttribute('data-height'), e.textContent]))
    expect(shown).toEqual(evidence.map((e) => [cheat.toLowerCase(), BigInt(e.height).toString(), `duplicate vote: two ${e.step}s by ${e.validator} at height ${BigInt(e.height)}, round ${BigInt(e.round)}`]))
    expect(evidence.every((e) => e.type === 'duplicateVote' && e.validator === cheat)).toBe(true)
  })

  it('draws the rounds of a height whose proposer is offline, and verifies its certificate in the page', async () => {
    // With equal power the proposer of height h, round 0 is validator (h - 1) mod 4 by address.
    const next = BigInt(await rpc('eth_blockNumber')) + 1n
    const validators = (await rpc('finality_getValidators')) as Array<{ address: string }>
    const proposer = validators[Number((next - 1n) % 4n)]!.address
    await page.click(`button[data-offline="${proposer}"]`)
    await page.locator('#validators td.error', { hasText: 'offline' }).waitFor()
    await page.click('text=Send 0.01 ETH')
    await page.locator(`.height[data-height="${next}"] .ok`, { hasText: 'committed in round 1' }).waitFor()
    expect(await page.locator(`.height[data-height="${next}"] caption`).allTextContents()).toEqual([expect.stringMatching(/^round 0/), expect.stringMatching(/^round 1/)])
    const cert = await rpc('finality_getCommitCertificate', '0x' + next.toString(16))
    expect([cert.round, cert.precommits.length]).toEqual(['0x1', 3])
    await page.goto(`${cli.http}/#/consensus/${next}`)
    await page.click('text=Verify in this browser')
    const result = page.locator('#certificate-result')
    await result.waitFor()
    expect(await result.textContent()).toBe('verified: 3 of 3 signatures (ed25519), 30 of 40 voting power, more than 2/3')
    expect(await page.locator('#certificate td.ok').count()).toBe(3)
    await page.locator('.height').first().waitFor()
    await page.screenshot({ path: path.join(IMAGES, 'explorer-consensus.png'), fullPage: true })
    expect(errors).toEqual([])
  })

  it("mounted on the user's Express server with the default namespaces: live blocks, and the views that need more say which namespace is off", async () => {
    const node = await newNode({ validators: 4 })
    const app = express()
    app.use('/rpc', node.http())
    app.get('/', node.explorer({ rpc: '/rpc', ws: '/ws' }))
    const server = createServer(app)
    node.ws(server, { path: '/ws' })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const own = await browser.context.newPage()
    try {
      await own.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/#/consensus`)
      await own.locator('#status', { hasText: 'live open' }).waitFor()
      await own.locator('#controls .error', { hasText: 'the evm and finality namespaces are off on this server' }).waitFor()
      await own.locator('.error', { hasText: 'the finality namespace is off on this server' }).first().waitFor()
      await node.request({ method: 'eth_sendTransaction', params: [{ from: node.accounts[0]!.address, to: node.accounts[1]!.address, value: '0x1' }] })
      await own.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
      await own.locator('#blocks tr[data-number="1"]').waitFor()
      // Logs without the finality namespace: topics and data, and why they are not decoded.
      const { Emitter } = loadArtifacts()
      const from = node.accounts[0]!.address
      const deployed = await node.request({ method: 'eth_getTransactionReceipt', params: [await node.request({ method: 'eth_sendTransaction', params: [{ from, data: Emitter!.bytecode }] })] })
      const fired = await node.request({ method: 'eth_sendTransaction', params: [{ from, to: deployed!.contractAddress!, data: encodeFunctionData({ abi: Emitter!.abi, functionName: 'fire' }) }] })
      await own.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/#/tx/${fired}`)
      await own.locator('#logs li').nth(2).waitFor({ timeout: 10_000 })
      expect(await own.locator('#logs-note').textContent()).toBe('not decoded: the finality namespace is off on this server, and finality_decodeLogs is in it (CLI: add finality to --json-rpc.api)')
      expect(await own.locator('#logs li', { hasText: 'data 0x' }).count()).toBe(3)
      expect(await own.locator('#logs li', { hasText: 'topics 0x' }).count()).toBe(2)
    } finally {
      // Closed first, whatever failed: its WebSocket would hold the server open.
      await own.close()
      // The browser may keep a connection open (its pool): the test, owner of the server, ends it.
      await new Promise((r) => {
        server.close(r)
        server.closeAllConnections()
      })
    }
  })

  it("docs/explorer.md's mount on Express: consensus and the controls served, blocks live", async () => {
    mkdirSync(path.join(ROOT, '.cache'), { recursive: true })
    const dir = mkdtempSync(path.join(ROOT, '.cache', 'explorer-mount-'))
    const file = path.join(dir, 'mount.mts')
    const source = block('explorer.md', 2, 'ts')
    expect(source).toContain("server.listen(8545, '127.0.0.1')")
    writeFileSync(file, `${pointAtSources(source.replace("server.listen(8545, '127.0.0.1')", "server.listen(0, '127.0.0.1')"))}\nexport { node, server }\n`)
    const { node, server } = (await import(pathToFileURL(file).href)) as { node: import('../../src/index.js').FinalityNode; server: import('node:http').Server }
    try {
      await new Promise((r) => (server.listening ? r(undefined) : server.once('listening', r)))
      const own = await browser.context.newPage()
      await own.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/#/consensus`)
      await own.locator('#status', { hasText: 'live open' }).waitFor()
      await own.locator('#validators tbody tr').nth(3).waitFor()
      await own.click('text=Send 0.01 ETH')
      await own.locator('.height[data-height="1"] .ok', { hasText: 'committed in round 0' }).waitFor()
      expect(await own.locator('#controls .error').count()).toBe(0)
      await own.close()
    } finally {
      // The browser may keep a connection open (its pool): the test, owner of the server, ends it.
      await new Promise((r) => {
        server.close(r)
        server.closeAllConnections()
      })
      await node.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('without a WebSocket server the page polls for blocks and says what needs the WebSocket; close() does not wait on the open tab', async () => {
    const node = await newNode()
    const served = await node.listen({ address: '127.0.0.1:0', wsAddress: false, explorer: true })
    const tab = await browser.context.newPage()
    await tab.goto(`${served.http}/`)
    await tab.locator('header .error', { hasText: 'blocks are polled, consensus events need it' }).waitFor()
    await node.request({ method: 'evm_mine' })
    await tab.locator('#blocks tr[data-number="1"]').waitFor()
    // The tab stays open, polling: the browser's sockets to the server are ended, not waited on.
    const started = Date.now()
    await served.close()
    expect(Date.now() - started).toBeLessThan(5000)
    await tab.close()
  })
})
