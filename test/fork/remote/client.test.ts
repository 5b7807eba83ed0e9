/**
 * The fork's remote client against a real finality node served over HTTP on loopback, and
 * through its EIP-1193 provider; failures come from a real proxy in front of it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createNode, InvalidOptionError, type FinalityNode, type Listening } from '../../../src/index.js'
import { createRemote, ForkRemoteError, redactUrl, remoteRule } from '../../../src/fork/remote/index.js'
import { remoteClients } from '../../helpers/remote-clients.js'
import { checkOptions, integerOrBigint } from '../../../src/option-rules.js'
import { faultProxy, type FaultProxy } from '../../helpers/fault-proxy.js'
import { toWireError } from '../../../src/rpc/error-map.js'

const ZERO = '0x0000000000000000000000000000000000000000'

let node: FinalityNode
let served: Listening
let proxy: FaultProxy
const remote = remoteClients()

beforeAll(async () => {
  node = await createNode({ chainId: 1337n })
  served = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
  proxy = await faultProxy(served.http!)
})

afterAll(async () => {
  await remote.closeAll()
  await proxy.close()
  await served.close()
  await node.close()
})

const fresh = () => {
  proxy.arrivals.length = 0
  proxy.fault = () => undefined
  proxy.refuseBatches = false
}

describe('createRemote over HTTP', () => {
  it('default: answers what the remote node answers', async () => {
    const c = remote({ url: served.http! })
    expect(await c.request({ method: 'eth_chainId' })).toBe('0x539')
    const [account] = await node.request({ method: 'eth_accounts' })
    expect(await c.request({ method: 'eth_getBalance', params: [account, 'latest'] })).toBe(await node.request({ method: 'eth_getBalance', params: [account!, 'latest'] }))
    expect(c.stats()).toMatchObject({ requests: 2, retries: 0, errors: 0 })
  })

  it('behavior: the remote\'s JSON-RPC error answer passes through, code and message, without retry', async () => {
    fresh()
    const c = remote({ url: proxy.url, retryBaseMs: 1 })
    const error = await c.request({ method: 'eth_getBalance', params: ['0x12', 'latest'] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ForkRemoteError)
    expect(error).toMatchObject({ remoteCode: -32602, answered: true, method: 'eth_getBalance' })
    expect((error as Error).message).toMatch(/^invalid argument 0/)
    expect(proxy.arrivals).toHaveLength(1)
    expect(c.stats()).toMatchObject({ retries: 0, errors: 1 })
  })

  it('behavior: sends the headers it is given with every request', async () => {
    fresh()
    const c = remote({ url: proxy.url, headers: { authorization: 'Bearer t0ken', 'x-api-key': 'k' } })
    await Promise.all([c.request({ method: 'eth_chainId' }), c.request({ method: 'eth_blockNumber' })])
    await c.request({ method: 'net_version' })
    expect(proxy.arrivals.length).toBeGreaterThan(0)
    for (const a of proxy.arrivals) expect(a.headers).toMatchObject({ authorization: 'Bearer t0ken', 'x-api-key': 'k' })
  })

  it('behavior: credentials in the URL become Basic authorization and stay out of messages', async () => {
    fresh()
    const withCredentials = proxy.url.replace('http://', 'http://alice:s3cret@') + '/?key=abc'
    const c = remote({ url: withCredentials })
    await c.request({ method: 'eth_chainId' })
    expect(proxy.arrivals[0]!.headers.authorization).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`)
    proxy.fault = () => ({ status: 401 })
    const error = (await c.request({ method: 'eth_chainId' }).catch((e: unknown) => e)) as ForkRemoteError
    expect(error.message).toBe(`fork remote ${proxy.url}: eth_chainId failed: HTTP 401 Unauthorized`)
    expect(error.message).not.toMatch(/alice|s3cret|abc/)
  })

  it('behavior: 429 then success is retried, honouring Retry-After', async () => {
    fresh()
    proxy.fault = (n) => (n < 2 ? { status: 429, headers: { 'retry-after': '0' } } : undefined)
    const c = remote({ url: proxy.url, retryBaseMs: 1, batchSize: 1 })
    expect(await c.request({ method: 'eth_chainId' })).toBe('0x539')
    expect(proxy.arrivals).toHaveLength(3)
    expect(c.stats()).toMatchObject({ requests: 1, httpRequests: 3, retries: 2, errors: 0 })
  })

  it('behavior: the wait before a retry is at least what Retry-After or backoff_seconds asks', async () => {
    fresh()
    proxy.fault = (n) => (n === 0 ? { status: 503, headers: { 'retry-after': '1' } } : undefined)
    const c = remote({ url: proxy.url, retryBaseMs: 1 })
    await c.request({ method: 'eth_chainId' })
    expect(proxy.arrivals[1]!.at - proxy.arrivals[0]!.at).toBeGreaterThanOrEqual(990)
    fresh()
    const infura = JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'project ID request rate exceeded', data: { backoff_seconds: 0.5 } } })
    proxy.fault = (n) => (n === 0 ? { status: 200, body: infura } : undefined)
    await c.request({ method: 'eth_chainId' })
    expect(proxy.arrivals[1]!.at - proxy.arrivals[0]!.at).toBeGreaterThanOrEqual(490)
  })

  it('behavior: 503 and a dropped socket are retried', async () => {
    fresh()
    proxy.fault = (n) => (n === 0 ? { status: 503 } : n === 1 ? { drop: true } : undefined)
    const c = remote({ url: proxy.url, retryBaseMs: 1 })
    expect(await c.request({ method: 'eth_chainId' })).toBe('0x539')
    expect(c.stats()).toMatchObject({ httpRequests: 3, retries: 2, errors: 0 })
  })

  it('error: retries exhausted gives a clear error naming the remote, the method and the cause', async () => {
    fresh()
    proxy.fault = () => ({ status: 503 })
    const c = remote({ url: proxy.url, retries: 2, retryBaseMs: 1 })
    const error = (await c.request({ method: 'eth_getCode', params: [ZERO, 'latest'] }).catch((e: unknown) => e)) as ForkRemoteError
    expect(error).toBeInstanceOf(ForkRemoteError)
    expect(error).toMatchObject({ kind: 'failed', answered: false, remote: proxy.url, method: 'eth_getCode' })
    expect(toWireError(error).code).toBe(-32000)
    expect(error.message).toBe(`fork remote ${proxy.url}: eth_getCode failed: HTTP 503 Service Unavailable, after 3 attempts`)
    expect(proxy.arrivals).toHaveLength(3)
    expect(c.stats()).toMatchObject({ retries: 2, errors: 1 })
  })

  it('error: retries: 0 sends once', async () => {
    fresh()
    proxy.fault = () => ({ status: 429 })
    const c = remote({ url: proxy.url, retries: 0 })
    await expect(c.request({ method: 'eth_chainId' })).rejects.toThrow(/HTTP 429 Too Many Requests, after 1 attempt$/)
    expect(proxy.arrivals).toHaveLength(1)
  })

  it('error: a JSON-RPC rate-limit answer is retried, and its code stays when retries run out', async () => {
    fresh()
    const infura = JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'project ID request rate exceeded', data: { backoff_seconds: 0 } } })
    proxy.fault = () => ({ status: 200, body: infura, headers: { 'content-type': 'application/json' } })
    const c = remote({ url: proxy.url, retries: 1, retryBaseMs: 1, batchSize: 1 })
    const error = (await c.request({ method: 'eth_chainId' }).catch((e: unknown) => e)) as ForkRemoteError
    expect(error).toMatchObject({ remoteCode: -32005, answered: true })
    expect(toWireError(error).code).toBe(-32005)
    expect(error.message).toMatch(/rate limited \(-32005 project ID request rate exceeded\), after 2 attempts/)
    expect(proxy.arrivals).toHaveLength(2)
  })

  it('behavior: what counts as a rate limit (retried) and what is an answer (not)', async () => {
    const answer = (error: object) => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error }), headers: { 'content-type': 'application/json' } })
    const cases: Array<[object, boolean]> = [
      [{ code: 429, message: 'Your app has exceeded its compute units per second capacity.' }, true],
      [{ code: -32016, message: 'over rate limit' }, true],
      [{ code: -32000, message: '429 Too Many Requests' }, true],
      [{ code: -32005, message: 'daily request count exceeded, request rate limited' }, true],
      [{ code: -32005, message: 'limit exceeded' }, true],
      [{ code: -32005, message: 'query returned more than 10000 results' }, false],
      [{ code: 3, message: 'execution reverted', data: '0x' }, false],
      [{ code: -32000, message: 'header not found' }, false],
    ]
    for (const [error, retried] of cases) {
      fresh()
      proxy.fault = (n) => (n === 0 ? answer(error) : undefined)
      const c = remote({ url: proxy.url, retryBaseMs: 1 })
      const outcome = await c.request({ method: 'eth_chainId' }).catch((e: unknown) => e)
      expect([error, proxy.arrivals.length], JSON.stringify(error)).toEqual([error, retried ? 2 : 1])
      if (!retried) {
        expect(outcome).toMatchObject({ answered: true })
        expect(toWireError(outcome)).toEqual(error)
      }
    }
  })

  it('behavior: 502/503/504 are retried even with a JSON-RPC body; a 500 with one is the answer, without one is retried', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'upstream down' } })
    for (const [status, withBody, retried] of [[503, true, true], [502, true, true], [504, false, true], [500, true, false], [500, false, true]] as const) {
      fresh()
      proxy.fault = (n) => (n === 0 ? { status, ...(withBody ? { body } : {}) } : undefined)
      const c = remote({ url: proxy.url, retryBaseMs: 1 })
      const outcome = await c.request({ method: 'eth_chainId' }).catch((e: unknown) => e)
      expect([status, withBody, proxy.arrivals.length]).toEqual([status, withBody, retried ? 2 : 1])
      if (!retried) expect(outcome).toMatchObject({ remoteCode: -32603, message: 'upstream down', answered: true })
    }
  })

  it('behavior: messages never show keys in the path', () => {
    expect(redactUrl('https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef')).toBe('https://mainnet.infura.io/v3/***')
    expect(redactUrl('wss://eth-mainnet.g.alchemy.com/v2/AbCdEfGhIjKlMnOpQrSt?x=1#y')).toBe('wss://eth-mainnet.g.alchemy.com/v2/***')
    expect(redactUrl('http://u:p@127.0.0.1:8545/')).toBe('http://127.0.0.1:8545')
  })

  it('error: a Retry-After past 60 s fails at once instead of waiting', async () => {
    fresh()
    proxy.fault = () => ({ status: 429, headers: { 'retry-after': '3600' } })
    const c = remote({ url: proxy.url, retryBaseMs: 1 })
    await expect(c.request({ method: 'eth_chainId' })).rejects.toThrow(/asks to wait 3600 s, more than 60 s/)
    expect(proxy.arrivals).toHaveLength(1)
  })

  it('error: an answer slower than timeoutMs fails as timed out, not a hang', async () => {
    fresh()
    proxy.fault = () => ({ delayMs: 2_000 })
    const c = remote({ url: proxy.url, timeoutMs: 50, retries: 1, retryBaseMs: 1 })
    await expect(c.request({ method: 'eth_chainId' })).rejects.toThrow(`fork remote ${proxy.url}: eth_chainId failed: timed out after 50 ms, after 2 attempts`)
    // The second attempt was aborted 50 ms after it was sent: on a busy machine the proxy may
    // record its arrival a moment after the client gave up.
    await vi.waitFor(() => expect(proxy.arrivals).toHaveLength(2), { timeout: 5_000 })
  })

  it('error: nothing listening gives a connection error after the retries', async () => {
    const gone = await faultProxy(served.http!)
    const url = gone.url
    await gone.close()
    const c = remote({ url, retries: 1, retryBaseMs: 1 })
    await expect(c.request({ method: 'eth_chainId' })).rejects.toThrow(new RegExp(`^fork remote ${url}: eth_chainId failed: fetch failed: .*ECONNREFUSED.*, after 2 attempts$`))
  })

  it('error: a 2xx answer that is not JSON-RPC is not retried', async () => {
    fresh()
    proxy.fault = () => ({ status: 200, body: '<html>captive portal</html>' })
    const c = remote({ url: proxy.url, retryBaseMs: 1 })
    await expect(c.request({ method: 'eth_chainId' })).rejects.toThrow(/not a JSON-RPC answer \(HTTP 200 OK\)$/)
    expect(proxy.arrivals).toHaveLength(1)
  })

  it('behavior: close() rejects what is pending with 4900 and later requests too', async () => {
    fresh()
    proxy.fault = () => ({ delayMs: 1_000 })
    const c = remote({ url: proxy.url })
    const pending = c.request({ method: 'eth_chainId' }).catch((e: unknown) => e)
    await new Promise((r) => setTimeout(r, 20))
    await c.close()
    const closed = await pending
    expect(closed).toMatchObject({ kind: 'closed', answered: false })
    expect(toWireError(closed).code).toBe(4900)
    await expect(c.request({ method: 'eth_chainId' })).rejects.toMatchObject({ kind: 'closed' })
  })
})

describe('createRemote over a provider', () => {
  it('default: forwards to the provider with no socket', async () => {
    const c = remote({ provider: node.provider })
    expect(await c.request({ method: 'eth_chainId' })).toBe('0x539')
    expect(await c.request({ method: 'eth_getCode', params: [ZERO, 'latest'] })).toBe('0x')
    expect(c.stats()).toMatchObject({ requests: 2, httpRequests: 2, batches: 0 })
  })

  it('behavior: the provider\'s error passes through with its code', async () => {
    const c = remote({ provider: node.provider })
    await expect(c.request({ method: 'eth_nope' })).rejects.toMatchObject({ remoteCode: -32601, answered: true })
  })

  it('behavior: a provider that never answers times out', async () => {
    const c = remote({ provider: { request: () => new Promise(() => {}) }, timeoutMs: 30, retries: 0 })
    await expect(c.request({ method: 'eth_chainId' })).rejects.toThrow('fork remote provider: eth_chainId failed: timed out after 30 ms, after 1 attempt')
  })

  it('behavior: a rate-limited provider is retried', async () => {
    let calls = 0
    const provider = {
      request: async (args: { method: string }) => {
        if (++calls <= 2) throw Object.assign(new Error('Your app has exceeded its compute units per second capacity'), { code: 429 })
        return node.provider.request(args as never)
      },
    }
    const c = remote({ provider, retryBaseMs: 1 })
    expect(await c.request({ method: 'eth_chainId' })).toBe('0x539')
    expect(c.stats()).toMatchObject({ retries: 2, httpRequests: 3 })
  })
})

describe('createRemote options', () => {
  const bad = (options: unknown, text: string) => expect(() => createRemote(options as never)).toThrow(text)
  it('error: names the option', () => {
    bad({}, 'createRemote: option url needs url (http(s):// or ws(s)://) or provider (EIP-1193)')
    bad({ url: 'http://x', provider: node.provider }, 'createRemote: option url cannot be given with provider')
    bad({ url: 'ftp://x' }, 'createRemote: option url must use http, https, ws or wss, got ftp')
    bad({ url: 'not a url' }, 'createRemote: option url is not a valid URL')
    bad({ provider: {} }, 'createRemote: option provider must be an EIP-1193 provider')
    bad({ url: 'http://x', headers: { 'bad name': 'v' } }, 'createRemote: option headers.bad name is not a valid HTTP header name')
    bad({ url: 'http://x', headers: { a: 1 } }, 'createRemote: option headers.a must be a string')
    bad({ url: 'http://x', timeoutMs: 0 }, 'createRemote: option timeoutMs must be at least 1')
    bad({ url: 'http://x', retries: -1 }, 'createRemote: option retries must be at least 0')
    bad({ url: 'http://x', requestsPerSecond: -1 }, 'createRemote: option requestsPerSecond must be a number')
    bad({ url: 'http://x', batchsize: 2 }, 'createRemote: option batchsize is unknown; did you mean batchSize?')
    bad({ provider: node.provider, headers: { a: 'b' } }, 'createRemote: option headers only apply to url: a provider sends its own')
    bad('http://x', 'createRemote: options must be an object { url | provider, … }, got the string "http://x"')
    expect(() => createRemote({ url: 'http://x', timeoutMs: 0 })).toThrow(InvalidOptionError)
  })

  it('behavior: remoteRule checks a remote nested in another option object, with the caller\'s own fields', () => {
    const rules = { fork: remoteRule({ blockNumber: integerOrBigint(0n) }) }
    expect(() => checkOptions('createNode', rules, { fork: { url: 'http://x', blockNumber: -1 } })).toThrow('createNode: option fork.blockNumber must be at least 0, got -1')
    expect(() => checkOptions('createNode', rules, { fork: { blockNumber: 1 } })).toThrow('createNode: option fork.url needs url (http(s):// or ws(s)://) or provider (EIP-1193)')
    expect(() => checkOptions('createNode', rules, { fork: { url: 'http://x', retrys: 1 } })).toThrow('createNode: option fork.retrys is unknown; did you mean fork.retries?')
    expect(() => checkOptions('createNode', rules, { fork: { provider: node.provider, blockNumber: 5n, batchSize: 10 } })).not.toThrow()
  })

  it('limits: each bounded setting at its limit is accepted, past it refused', async () => {
    const at = [
      { batchSize: 1000 },
      { retries: 20 },
      { timeoutMs: 600_000 },
      { retryBaseMs: 60_000 },
    ]
    for (const o of at) await remote({ url: 'http://127.0.0.1:1', ...o }).close()
    bad({ url: 'http://x', batchSize: 1001 }, 'createRemote: option batchSize must be at most 1000, got 1001')
    bad({ url: 'http://x', batchSize: 0 }, 'createRemote: option batchSize must be at least 1, got 0')
    bad({ url: 'http://x', retries: 21 }, 'createRemote: option retries must be at most 20, got 21')
    bad({ url: 'http://x', timeoutMs: 600_001 }, 'createRemote: option timeoutMs must be at most 600000, got 600001')
    bad({ url: 'http://x', retryBaseMs: 60_001 }, 'createRemote: option retryBaseMs must be at most 60000, got 60001')
  })
})
