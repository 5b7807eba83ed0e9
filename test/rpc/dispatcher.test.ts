/**
 * The JSON-RPC 2.0 envelope, as RELIABILITY.md states it: invalid requests, batches, notifications,
 * method lookup (no prototype lookups), namespaces, positional params and prototype safety.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { RpcError, type FinalityNode, type Hex, type RpcResponse } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { requestRaw } from '../helpers/raw-request.js'
import { buildRegistry } from '../../src/rpc/registry.js'
import { DEFAULT_LIMITS } from '../../src/limits.js'

type ErrorResponse = { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string; data?: unknown } }
type ResultResponse = { jsonrpc: '2.0'; id: string | number | null; result: unknown }

let node: FinalityNode
const newNode = trackNodes()

beforeAll(async () => {
  node = await newNode()
})


/** One response, asserted not to be a batch answer or nothing. */
function single(r: RpcResponse | RpcResponse[] | undefined): RpcResponse {
  expect(r).toBeDefined()
  expect(Array.isArray(r)).toBe(false)
  return r as RpcResponse
}

function many(r: RpcResponse | RpcResponse[] | undefined): RpcResponse[] {
  expect(Array.isArray(r)).toBe(true)
  return r as RpcResponse[]
}

function asError(r: RpcResponse | undefined): ErrorResponse {
  expect(r).toBeDefined()
  expect(r).toHaveProperty('error')
  expect(r).not.toHaveProperty('result')
  expect(r!.jsonrpc).toBe('2.0')
  return r as ErrorResponse
}

function asResult(r: RpcResponse | undefined): ResultResponse {
  expect(r).toBeDefined()
  expect(r).toHaveProperty('result')
  expect(r).not.toHaveProperty('error')
  expect(r!.jsonrpc).toBe('2.0')
  return r as ResultResponse
}

async function rejection(p: Promise<unknown>): Promise<RpcError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(RpcError)
    return e as RpcError
  }
  throw new Error('expected the request to reject')
}

async function blockNumber(n: FinalityNode = node): Promise<string> {
  return (await n.request({ method: 'eth_blockNumber' })) as string
}

async function balance(address: Hex, n: FinalityNode = node): Promise<bigint> {
  return BigInt(await n.request({ method: 'eth_getBalance', params: [address, 'latest'] }))
}

function transfer(n: FinalityNode, from: number, to: number, value: bigint) {
  return {
    from: n.accounts[from]!.address,
    to: n.accounts[to]!.address,
    value: `0x${value.toString(16)}`,
  }
}

describe('a valid request', () => {
  it('answers with jsonrpc 2.0, the same id and a result', async () => {
    for (const id of [1, 0, 'abc', '', null, 2 ** 40, -1]) {
      const r = asResult(single(await node.handle({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] })))
      expect(r.id).toBe(id)
      expect(r.result).toBe('0x7a69')
    }
  })

  it('absent or null params count as []', async () => {
    expect(asResult(single(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }))).result).toBe('0x7a69')
    expect(asResult(single(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: null }))).result).toBe('0x7a69')
  })
})

describe('invalid requests → -32600', () => {
  it.each([
    ['1', 1],
    ['null', null],
    ['"x"', 'x'],
    ['true', true],
  ])('top-level %s', async (_label, payload) => {
    const r = asError(single(await node.handle(payload)))
    expect(r.error.code).toBe(-32600)
    expect(r.id).toBeNull()
  })

  it('jsonrpc missing', async () => {
    const r = asError(single(await node.handle({ id: 7, method: 'eth_chainId', params: [] })))
    expect(r.error.code).toBe(-32600)
    expect(r.id).toBe(7)
  })

  it.each([['1.0'], ['2'], [2], [null]])('jsonrpc %j', async (version) => {
    const r = asError(single(await node.handle({ jsonrpc: version, id: 8, method: 'eth_chainId', params: [] })))
    expect(r.error.code).toBe(-32600)
    expect(r.id).toBe(8)
  })

  it.each([
    ['an object', { a: 1 }],
    ['an array', [1]],
    ['an empty object', {}],
  ])('id as %s', async (_label, id) => {
    const r = asError(single(await node.handle({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] })))
    expect(r.error.code).toBe(-32600)
    // The bad id is not echoed back.
    expect(r.id).toBeNull()
  })

  it.each([
    ['missing', undefined],
    ['a number', 42],
    ['null', null],
    ['an array', ['eth_chainId']],
    ['an object', { name: 'eth_chainId' }],
  ])('method %s', async (_label, method) => {
    const request: Record<string, unknown> = { jsonrpc: '2.0', id: 9, params: [] }
    if (method !== undefined) request.method = method
    const r = asError(single(await node.handle(request)))
    expect(r.error.code).toBe(-32600)
    expect(r.id).toBe(9)
  })

  it('an invalid request with side effects does not run', async () => {
    const before = await blockNumber()
    const r = asError(
      single(
        await node.handle({ jsonrpc: '1.0', id: 1, method: 'eth_sendTransaction', params: [transfer(node, 0, 1, 1n)] }),
      ),
    )
    expect(r.error.code).toBe(-32600)
    expect(await blockNumber()).toBe(before)
  })
})

describe('batches', () => {
  it('[] → one -32600 "empty batch" (not an array)', async () => {
    const r = asError(single(await node.handle([])))
    expect(r.error.code).toBe(-32600)
    expect(r.error.message).toBe('empty batch')
    expect(r.id).toBeNull()
  })

  it('[1,2] → two -32600', async () => {
    const rs = many(await node.handle([1, 2]))
    expect(rs).toHaveLength(2)
    for (const r of rs) {
      const e = asError(r)
      expect(e.error.code).toBe(-32600)
      expect(e.id).toBeNull()
    }
  })

  it('a mixed batch is answered element by element, in order, notifications skipped', async () => {
    const rs = many(
      await node.handle([
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        1,
        { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 'b', method: 'no_such_method', params: [] },
        { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: [] },
        { id: 4, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 5, method: 'net_version', params: [] },
      ]),
    )
    expect(rs).toHaveLength(6)
    expect(asResult(rs[0]).id).toBe(1)
    expect(asResult(rs[0]).result).toBe('0x7a69')
    expect(asError(rs[1]).id).toBeNull()
    expect(asError(rs[1]).error.code).toBe(-32600)
    expect(asError(rs[2]).id).toBe('b')
    expect(asError(rs[2]).error.code).toBe(-32601)
    expect(asError(rs[3]).id).toBe(3)
    expect(asError(rs[3]).error.code).toBe(-32602)
    expect(asError(rs[4]).id).toBe(4)
    expect(asError(rs[4]).error.code).toBe(-32600)
    expect(asResult(rs[5]).id).toBe(5)
    expect(asResult(rs[5]).result).toBe('31337')
  })

  it('batch elements run in order: a later read sees an earlier write', async () => {
    const n = await newNode()
    const to = n.accounts[1]!.address
    const before = await balance(to, n)
    const rs = many(
      await n.handle([
        { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [to, 'latest'] },
        { jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [transfer(n, 0, 1, 1000n)] },
        { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: [to, 'latest'] },
      ]),
    )
    expect(rs.map((r) => r.id)).toEqual([1, 2, 3])
    expect(BigInt(asResult(rs[0]).result as string)).toBe(before)
    expect(asResult(rs[1]).result).toMatch(/^0x[0-9a-f]{64}$/)
    expect(BigInt(asResult(rs[2]).result as string)).toBe(before + 1000n)
  })
})

describe('notifications', () => {
  it('a notification runs and gets no answer', async () => {
    const n = await newNode()
    const to = n.accounts[2]!.address
    const before = await balance(to, n)
    const height = BigInt(await blockNumber(n))
    const r = await n.handle({ jsonrpc: '2.0', method: 'eth_sendTransaction', params: [transfer(n, 0, 2, 5n)] })
    expect(r).toBeUndefined()
    expect(await balance(to, n)).toBe(before + 5n)
    expect(BigInt(await blockNumber(n))).toBe(height + 1n)
  })

  it('a failing notification gets no answer either', async () => {
    expect(await node.handle({ jsonrpc: '2.0', method: 'no_such_method', params: [] })).toBeUndefined()
    expect(await node.handle({ jsonrpc: '2.0', method: 'eth_getBalance', params: {} })).toBeUndefined()
  })

  it('a batch of only notifications answers undefined, and every one ran', async () => {
    const n = await newNode()
    const to = n.accounts[3]!.address
    const before = await balance(to, n)
    const r = await n.handle([
      { jsonrpc: '2.0', method: 'eth_sendTransaction', params: [transfer(n, 0, 3, 1n)] },
      { jsonrpc: '2.0', method: 'eth_sendTransaction', params: [transfer(n, 1, 3, 2n)] },
      { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
    ])
    expect(r).toBeUndefined()
    expect(await balance(to, n)).toBe(before + 3n)
  })

  it('a batch with notifications answers only the calls', async () => {
    const rs = many(
      await node.handle([
        { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 'only', method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
      ]),
    )
    expect(rs).toHaveLength(1)
    expect(asResult(rs[0]).id).toBe('only')
  })

  it('id: null is a call, not a notification', async () => {
    const r = asResult(single(await node.handle({ jsonrpc: '2.0', id: null, method: 'eth_chainId', params: [] })))
    expect(r.id).toBeNull()
  })
})

describe('batch size limit (limits.batchItems = 3)', () => {
  let small: FinalityNode

  beforeAll(async () => {
    small = await newNode({ limits: { batchItems: 3 } })
  })

  it('3 items are served', async () => {
    const rs = many(
      await small.handle([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] }))),
    )
    expect(rs.map((r) => asResult(r).id)).toEqual([1, 2, 3])
  })

  it('4 items → one -32600 "batch too large", nothing executed', async () => {
    const to = small.accounts[4]!.address
    const before = await balance(to, small)
    const height = await blockNumber(small)
    const r = await small.handle([
      { jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [transfer(small, 0, 4, 11n)] },
      { jsonrpc: '2.0', method: 'eth_sendTransaction', params: [transfer(small, 1, 4, 13n)] },
      { jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 4, method: 'eth_chainId', params: [] },
    ])
    // One error for the whole batch (a bare object, or geth's array of one).
    const errors = Array.isArray(r) ? r : [r]
    expect(errors).toHaveLength(1)
    const e = asError(errors[0])
    expect(e.error.code).toBe(-32600)
    expect(e.error.message).toBe('batch too large')
    expect(await balance(to, small)).toBe(before)
    expect(await blockNumber(small)).toBe(height)
  })

  it('a too-large batch of invalid items is refused as a whole too', async () => {
    const r = await small.handle([1, 2, 3, 4, 5])
    const errors = Array.isArray(r) ? r : [r]
    expect(errors).toHaveLength(1)
    expect(asError(errors[0]).error.message).toBe('batch too large')
  })
})

describe('method lookup', () => {
  it('every method is declared in one shape (namespace, params, run), so the lookup reads one hidden class', () => {
    const shapes = new Set([...buildRegistry(DEFAULT_LIMITS).values()].map((m) => Object.keys(m).join()))
    expect([...shapes]).toEqual(['namespace,params,run'])
  })

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'])(
    '%s → -32601, no prototype lookup',
    async (method) => {
      const r = asError(single(await node.handle({ jsonrpc: '2.0', id: 1, method, params: [] })))
      expect(r.error.code).toBe(-32601)
      const e = await rejection(node.request({ method, params: [] }))
      expect(e.code).toBe(-32601)
    },
  )

  it('an unknown method → -32601 naming it', async () => {
    const r = asError(single(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_doesNotExist', params: [] })))
    expect(r.error.code).toBe(-32601)
    expect(r.error.message).toBe('the method eth_doesNotExist does not exist/is not available')
    const e = await rejection(node.request({ method: 'eth_doesNotExist' }))
    expect(e.code).toBe(-32601)
    expect(e.message).toContain('eth_doesNotExist')
  })

  it('method names are case-sensitive', async () => {
    const r = asError(single(await node.handle({ jsonrpc: '2.0', id: 1, method: 'ETH_CHAINID', params: [] })))
    expect(r.error.code).toBe(-32601)
  })

  it('a method name longer than limits.methodNameLength → -32600; at the limit it is looked up', async () => {
    const atLimit = `eth_${'x'.repeat(256 - 4)}`
    expect(atLimit).toHaveLength(256)
    const ok = asError(single(await node.handle({ jsonrpc: '2.0', id: 1, method: atLimit, params: [] })))
    expect(ok.error.code).toBe(-32601)
    const tooLong = asError(single(await node.handle({ jsonrpc: '2.0', id: 2, method: `${atLimit}y`, params: [] })))
    expect(tooLong.error.code).toBe(-32600)
    expect(tooLong.id).toBe(2)
  })

  it('a configured methodNameLength is honoured', async () => {
    const n = await newNode({ limits: { methodNameLength: 11 } })
    // 'eth_chainId' is 11 characters: served.
    expect(asResult(single(await n.handle({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }))).result).toBe('0x7a69')
    const r = asError(single(await n.handle({ jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] })))
    expect(r.error.code).toBe(-32600)
  })

  it('a namespace that is not enabled → -32601', async () => {
    const ethOnly = await newNode({ api: ['eth'] })
    const r = asError(single(await ethOnly.handle({ jsonrpc: '2.0', id: 1, method: 'web3_clientVersion', params: [] })))
    expect(r.error.code).toBe(-32601)
    const e = await rejection(ethOnly.request({ method: 'web3_clientVersion' }))
    expect(e.code).toBe(-32601)
    expect((await rejection(ethOnly.request({ method: 'net_version' }))).code).toBe(-32601)
    expect((await rejection(ethOnly.request({ method: 'finality_getValidators' }))).code).toBe(-32601)
    // The enabled namespace still works, and the default node serves web3.
    expect(await ethOnly.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(await node.request({ method: 'web3_clientVersion' })).toMatch(/^finality\//)
  })
})

describe('positional params', () => {
  it('params as an object → -32602 "non-array args"', async () => {
    const r = asError(
      single(
        await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: { address: node.accounts[0]!.address } }),
      ),
    )
    expect(r.error.code).toBe(-32602)
    expect(r.error.message).toBe('non-array args')
    const e = await rejection(requestRaw(node, 'eth_blockNumber', {}))
    expect(e.code).toBe(-32602)
    expect(e.message).toBe('non-array args')
  })

  it.each([['a string', 'latest'], ['a number', 1], ['a boolean', true]])('params as %s → -32602', async (_label, params) => {
    const r = asError(single(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params })))
    expect(r.error.code).toBe(-32602)
  })

  it('too many arguments → -32602 "too many arguments, want at most N"', async () => {
    const r0 = asError(single(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: ['0x1'] })))
    expect(r0.error.code).toBe(-32602)
    expect(r0.error.message).toBe('too many arguments, want at most 0')
    const e = await rejection(
      requestRaw(node, 'eth_getBalance', [node.accounts[0]!.address, 'latest', 'extra']),
    )
    expect(e.code).toBe(-32602)
    expect(e.message).toBe('too many arguments, want at most 2')
  })

  it('a missing required argument → -32602 "missing value for required argument N"', async () => {
    const r = asError(single(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [] })))
    expect(r.error.code).toBe(-32602)
    expect(r.error.message).toBe('missing value for required argument 0')
    const e = await rejection(requestRaw(node, 'eth_getStorageAt', [node.accounts[0]!.address]))
    expect(e.code).toBe(-32602)
    expect(e.message).toBe('missing value for required argument 1')
    const n = await rejection(requestRaw(node, 'eth_getBalance', [null]))
    expect(n.message).toBe('missing value for required argument 0')
  })

  it('an optional argument may be left out', async () => {
    const r = asResult(
      single(await node.handle({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [node.accounts[0]!.address] })),
    )
    expect(r.result).toMatch(/^0x[0-9a-f]+$/)
  })
})

describe('prototype safety', () => {
  const probe = () => ({}) as Record<string, unknown>

  it('a param object with a __proto__ key never changes Object.prototype', async () => {
    const to = node.accounts[1]!.address
    const payload = JSON.parse(
      `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"__proto__":{"polluted":"yes","from":"0x0000000000000000000000000000000000000001"},"to":"${to}"},"latest"]}`,
    ) as unknown
    const r = asResult(single(await node.handle(payload)))
    expect(r.result).toBe('0x')
    expect(probe().polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect(Object.prototype).not.toHaveProperty('from')
  })

  it('__proto__ in the envelope, in EIP-1898 objects and in a log filter changes nothing', async () => {
    const address = node.accounts[0]!.address
    const payloads = [
      `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[],"__proto__":{"polluted":1,"method":"eth_blockNumber"}}`,
      `{"jsonrpc":"2.0","id":2,"method":"eth_getBalance","params":["${address}",{"__proto__":{"polluted":2,"blockNumber":"0x0"}}]}`,
      `{"jsonrpc":"2.0","id":3,"method":"eth_getLogs","params":[{"__proto__":{"polluted":3,"fromBlock":"0x0"}}]}`,
      `[{"jsonrpc":"2.0","id":4,"method":"eth_sendTransaction","params":[{"__proto__":{"polluted":4,"from":"${address}"}}]}]`,
      `{"jsonrpc":"2.0","id":5,"method":"__proto__","params":{"__proto__":{"polluted":5}}}`,
    ]
    const height = await blockNumber()
    const answers = []
    for (const p of payloads) answers.push(await node.handle(JSON.parse(p) as unknown))
    // The envelope's own method is the one run.
    expect(asResult(single(answers[0])).result).toBe('0x7a69')
    // The inherited blockNumber is not an own field: the selector is refused.
    expect(asError(single(answers[1])).error.code).toBe(-32602)
    // eth_sendTransaction without an own `from` sends nothing.
    const sent = many(answers[3])
    expect(asError(sent[0]).error).toBeDefined()
    expect(asError(single(answers[4])).error.code).toBe(-32601)
    expect(await blockNumber()).toBe(height)
    expect(probe().polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect(Object.prototype).not.toHaveProperty('fromBlock')
    expect(Object.prototype).not.toHaveProperty('blockNumber')
  })
})

describe('the node keeps serving', () => {
  it('after all the bad input above, requests still work', async () => {
    expect(asResult(single(await node.handle({ jsonrpc: '2.0', id: 'end', method: 'eth_chainId', params: [] }))).result).toBe(
      '0x7a69',
    )
    expect(await node.request({ method: 'net_version' })).toBe('31337')
  })
})
