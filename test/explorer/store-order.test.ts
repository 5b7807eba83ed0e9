/**
 * The page's store: a re-read of the faults and the partition (after a commit) that was asked
 * before a `faults` event and answered after it does not draw the older state over the event's.
 * The page's modules run here on a loopback server that holds finality_getConsensusState's answer
 * until the event has arrived.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onLoopback } from '../helpers/loopback.js'

const A = '0x026fd2244ccd3c49340989e007914cca8b545578'
const B = '0x647c0fd8d721ab86a49a6b2fb2ab5acf1c95c47e'

let release: (() => void) | undefined
let asked: (() => void) | undefined
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = ''
  req.on('data', (c) => (body += c))
  req.on('end', () => {
    const { id, method } = JSON.parse(body) as { id: number; method: string }
    const answer = (result: unknown) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }))
    }
    if (method === 'finality_getValidators') return answer([{ address: A, votingPower: '0xa', online: true }, { address: B, votingPower: '0xa', online: true }])
    // The state before the partition, answered only once the test says so.
    if (method === 'finality_getConsensusState') {
      release = () => answer({ faults: {}, partition: null })
      asked?.()
      return
    }
    res.statusCode = 404
    res.end()
  })
})

/** What the test uses of the page's store module (its types need the DOM's, checked with the page). */
interface Store {
  store: { partition: string[][] | null; validators: unknown[] }
  refreshValidators(): Promise<void>
  consensusEvent(event: { type: 'faults'; faults: object; partition: string[][] | null }): void
}
let page: Store

beforeAll(async () => {
  const port = await onLoopback(server)
  // What the page's modules read of the browser: no settings element, the page's own address.
  Object.assign(globalThis, { document: { getElementById: () => null }, location: new URL(`http://127.0.0.1:${port}/`) })
  // A path the type check does not follow: the page's files are checked with the DOM's types.
  const file = '../../src/explorer/page/store.js'
  page = (await import(file)) as Store
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

describe("the explorer page's store", () => {
  it('keeps a faults event over a re-read asked before it and answered after it', async () => {
    const held = new Promise<void>((resolve) => (asked = resolve))
    const refresh = page.refreshValidators()
    await held
    page.consensusEvent({ type: 'faults', faults: {}, partition: [[A], [B]] })
    expect(page.store.partition).toEqual([[A], [B]])
    release!()
    await refresh
    expect(page.store.validators.length).toBe(2)
    expect(page.store.partition).toEqual([[A], [B]])
  })

  it('takes a re-read asked after the last event', async () => {
    const held = new Promise<void>((resolve) => (asked = resolve))
    const refresh = page.refreshValidators()
    await held
    release!()
    await refresh
    expect(page.store.partition).toBeNull()
  })
})
