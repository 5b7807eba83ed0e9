/**
 * The browser dApp setup, as the README shows it: a node served by node.listen(), which answers
 * local pages by default, called as a browser calls it (a preflight, then a POST with Origin).
 */
import { createNode, type FinalityNode } from 'finality-evm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const PAGE = 'http://localhost:5173'

let node: FinalityNode
let served: Awaited<ReturnType<FinalityNode['listen']>>

beforeAll(async () => {
  node = await createNode()
  served = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
})

afterAll(async () => {
  await served.close()
  await node.close()
})

const call = (origin: string) =>
  fetch(served.http!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }),
  })

describe('a page on http://localhost:5173', () => {
  it('passes the preflight', async () => {
    const res = await fetch(served.http!, {
      method: 'OPTIONS',
      headers: { origin: PAGE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })
    expect(res.ok).toBe(true)
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE)
  })

  it('reads the answer', async () => {
    const res = await call(PAGE)
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
  })

  it('another origin gets no CORS header, so its browser withholds the answer', async () => {
    const res = await call('http://evil.example')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })
})
