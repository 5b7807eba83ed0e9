/**
 * One listen rule: an ephemeral HTTP port never leaves the WebSocket on the fixed 8546. Two nodes
 * (parallel test workers, or a test beside a running `npm start`) each listening on port 0 must
 * both bind, whatever holds 8545 / 8546; the CLI's `--port 0` is one server, as `--help` says.
 */
import { describe, expect, it } from 'vitest'
import { startCli } from '../helpers/cli.js'
import { trackNodes } from '../helpers/nodes.js'
import { rpc, WsClient } from '../helpers/loopback.js'

const newNode = trackNodes()
const portOf = (url: string) => Number(new URL(url).port)

async function servesBoth(http: string, ws: string): Promise<void> {
  expect((await rpc(http, 'eth_chainId')).result).toBe('0x7a69')
  const client = await WsClient.connect(ws)
  try {
    expect((await client.call('eth_chainId')).result).toBe('0x7a69')
  } finally {
    client.close()
  }
}

describe('listen({ address: <host>:0 })', () => {
  it('default: WebSocket on the same ephemeral server, for two nodes at once', async () => {
    const [a, b] = await Promise.all([newNode(), newNode()])
    const [one, two] = await Promise.all([a.listen({ address: '127.0.0.1:0' }), b.listen({ address: '127.0.0.1:0' })])
    try {
      for (const served of [one, two]) {
        expect(portOf(served.ws!)).toBe(portOf(served.http!))
        await servesBoth(served.http!, served.ws!)
      }
    } finally {
      await Promise.all([one.close(), two.close()])
    }
  })

  it('args: a wsAddress of port 0 is a free port of its own; false is none', async () => {
    const node = await newNode()
    const apart = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' })
    const httpOnly = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
    try {
      expect(portOf(apart.ws!)).not.toBe(portOf(apart.http!))
      await servesBoth(apart.http!, apart.ws!)
      expect(httpOnly.ws).toBeUndefined()
    } finally {
      await Promise.all([apart.close(), httpOnly.close()])
    }
  })

  it('behavior: admin_startWS without an address after such a listen() binds a free port, not 8546, on two nodes at once', async () => {
    const nodes = await Promise.all([newNode(), newNode()])
    const served = await Promise.all(nodes.map((n) => n.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'admin'] })))
    try {
      for (const s of served) expect((await rpc(s.http!, 'admin_stopWS')).result).toBe(true)
      // The defaults of admin_startWS are the last listen()'s: its WebSocket address, port 0.
      const started = await Promise.all(served.map((s) => rpc(s.http!, 'admin_startWS')))
      expect(started.map((r) => r.result ?? r.error)).toEqual([true, true])
    } finally {
      await Promise.all(served.map((s) => s.close()))
    }
    const shared = await Promise.all(nodes.map((n) => n.listen({ address: '127.0.0.1:0', api: ['eth', 'admin'] })))
    try {
      for (const s of shared) expect((await rpc(s.http!, 'admin_stopWS')).result).toBe(true)
      // stopWS closes the WebSocket side of the shared server; startWS binds a new free port each.
      const started = await Promise.all(nodes.map((n) => n.request({ method: 'admin_startWS' }).catch((e: unknown) => e)))
      expect(started).toEqual([true, true])
    } finally {
      await Promise.all(shared.map((s) => s.close()))
    }
  })
})

describe('the CLI', () => {
  it('default: --port 0 and --json-rpc.address <host>:0 serve HTTP and WebSocket on one free port', async () => {
    const clis = await Promise.all([startCli(['--port', '0', '--quiet']), startCli(['--json-rpc.address', '127.0.0.1:0', '--quiet'])])
    try {
      for (const cli of clis) {
        expect(portOf(cli.ws)).toBe(portOf(cli.http))
        expect(portOf(cli.http)).not.toBe(0)
        await servesBoth(cli.http, cli.ws)
      }
    } finally {
      expect(await Promise.all(clis.map((c) => c.stop()))).toEqual([0, 0])
    }
  })
})
