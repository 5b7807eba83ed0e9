/**
 * listen(), http() and ws() options: `listen({ port: 0 })` serves HTTP and WebSocket on one free
 * port (never silently on 8545); unknown keys and bad values are refused, naming the option.
 */
import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createNode, InvalidOptionError, type FinalityNode, type ListenOptions } from '../../src/index.js'
import { rpc, WsClient } from '../helpers/loopback.js'

let node: FinalityNode
beforeAll(async () => {
  node = await createNode()
})
afterAll(() => node.close())

const portOf = (url: string) => Number(new URL(url).port)

describe('listen({ port, host })', () => {
  test('default: port 0 binds one free port for HTTP and WebSocket on 127.0.0.1', async () => {
    const served = await node.listen({ port: 0 })
    try {
      expect(served.http).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(portOf(served.http!)).not.toBe(8545)
      expect(served.ws).toBe(served.http!.replace('http:', 'ws:'))
      expect((await rpc(served.http!, 'eth_chainId')).result).toBe('0x7a69')
      const ws = await WsClient.connect(served.ws!)
      try {
        expect((await ws.call('eth_chainId')).result).toBe('0x7a69')
      } finally {
        ws.close()
      }
    } finally {
      await served.close()
    }
  })

  test('args: host, and a WebSocket server of its own or none', async () => {
    const apart = await node.listen({ host: '127.0.0.1', port: 0, wsAddress: '127.0.0.1:0' })
    try {
      expect(portOf(apart.ws!)).not.toBe(portOf(apart.http!))
      const ws = await WsClient.connect(apart.ws!)
      ws.close()
    } finally {
      await apart.close()
    }
    const httpOnly = await node.listen({ port: 0, wsAddress: false })
    try {
      expect(httpOnly.ws).toBeUndefined()
      expect((await rpc(httpOnly.http!, 'eth_blockNumber')).result).toBe('0x0')
    } finally {
      await httpOnly.close()
    }
  })

  test('error: unknown keys, bad ports and port with address are refused before anything binds', async () => {
    const refused = async (options: unknown, option: string, message: RegExp) => {
      const error = await node.listen(options as ListenOptions).then(
        async (s) => {
          await s.close()
          return undefined
        },
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(InvalidOptionError)
      expect(error).toMatchObject({ option, message: expect.stringMatching(message) })
    }
    await refused({ prot: 0 }, 'prot', /^listen: option prot is unknown; did you mean port\?$/)
    await refused({ port: -1 }, 'port', /at least 0/)
    await refused({ port: 70000 }, 'port', /at most 65535/)
    await refused({ port: '8545' }, 'port', /integer/)
    await refused({ port: 0, address: '127.0.0.1:0' }, 'address', /cannot be given with port\/host/)
    await refused({ address: '127.0.0.1' }, 'address', /<host>:<port>/)
    await refused({ api: ['eth', 'evmm'] }, 'api[1]', /did you mean 'evm'/)
    await refused({ wsPath: 'ws' }, 'wsPath', /starting with '\/'/)
    await refused({ jwtSecret: '0x1234' }, 'jwtSecret', /32 bytes/)
  })
})

describe('http() and ws() options', () => {
  test('error: unknown keys and bad values throw, naming the option', () => {
    expect(() => node.http({ cros: ['*'] } as never)).toThrow(/^http: option cros is unknown; did you mean cors\?$/)
    expect(() => node.http({ hosts: 'localhost' } as never)).toThrow(InvalidOptionError)
    const server = createServer()
    expect(() => node.ws(server, { pth: '/ws' } as never)).toThrow(/^ws: option pth is unknown; did you mean path\?$/)
    expect(() => node.ws(server, { path: 'ws' })).toThrow(/option path must be a path starting with '\/'/)
    expect(() => node.ws(undefined as never)).toThrow(/the first argument must be a node:http Server/)
    expect(server.listenerCount('upgrade')).toBe(0)
  })
})
