/** debug_dumpBlock: geth's `state.Dump` of a block's state, 256 accounts a page, over every transport. */
import { keccak256, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { FinalityNode } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { servedOverHttpAndWs, rpc as httpRpc } from '../../helpers/loopback.js'
import { calldata, deploy, rpcError, sender } from '../../helpers/execution.js'

const newNode = trackNodes()
const call = <T>(node: FinalityNode, method: string, params: unknown[] = []) => node.request({ method, params }) as Promise<T>

interface Dump {
  root: string
  accounts: Record<string, { balance: string; nonce: number; root: Hex; codeHash: Hex; code?: Hex; storage?: Record<Hex, string>; key: Hex }>
  next?: string
}

describe('debug_dumpBlock', () => {
  let node: FinalityNode
  let counter: Hex
  beforeAll(async () => {
    node = await newNode({ accountCount: 3 })
    counter = await deploy(node, 'Counter')
    await call(node, 'eth_sendTransaction', [{ from: sender(node), to: counter, data: calldata('Counter', 'increment') }])
  })

  it('default: every account by EIP-55 address, geth\'s fields, storage by slot', async () => {
    const dump = await call<Dump>(node, 'debug_dumpBlock', ['latest'])
    const block = await call<{ stateRoot: Hex; number: Hex }>(node, 'eth_getBlockByNumber', ['latest', false])
    expect(dump.root).toBe(block.stateRoot.slice(2))
    expect(dump.next).toBeUndefined()
    const me = sender(node)
    const mine = dump.accounts[me]!
    expect(mine.balance).toBe(BigInt(await call<Hex>(node, 'eth_getBalance', [me, 'latest'])).toString())
    expect(mine.nonce).toBe(2)
    expect(mine.key).toBe(keccak256(me))
    expect(mine).not.toHaveProperty('code')
    expect(mine).not.toHaveProperty('storage')
    const checksummed = Object.keys(dump.accounts).find((a) => a.toLowerCase() === counter.toLowerCase())!
    expect(checksummed).not.toBe(counter.toLowerCase())
    const c = dump.accounts[checksummed]!
    expect(c.code).toBe(await call<Hex>(node, 'eth_getCode', [counter, 'latest']))
    expect(c.codeHash).toBe(keccak256(c.code!))
    expect(c.storage).toEqual({ [`0x${'00'.repeat(32)}`]: '01' })
    expect(c.root).toBe((await call<{ storageHash: Hex }>(node, 'eth_getProof', [counter, [], 'latest'])).storageHash)
    // Hashed-address order, as geth's trie iterator walks it.
    const keys = Object.values(dump.accounts).map((a) => a.key)
    expect(keys).toEqual([...keys].sort())
  })

  it('default: an older block dumps the state after it', async () => {
    const dump = await call<Dump>(node, 'debug_dumpBlock', ['0x1'])
    const c = Object.entries(dump.accounts).find(([a]) => a.toLowerCase() === counter.toLowerCase())![1]
    expect(c.storage).toBeUndefined()
    expect(dump.accounts[sender(node)]!.nonce).toBe(1)
    expect(dump.root).toBe((await call<{ stateRoot: Hex }>(node, 'eth_getBlockByNumber', ['0x1', false])).stateRoot.slice(2))
  })

  it('behavior: 256 accounts a page, then next (base64 of the next hashed address, as Go marshals []byte)', async () => {
    const many = await newNode({ accountCount: 300 })
    const dump = await call<Dump>(many, 'debug_dumpBlock', ['latest'])
    expect(Object.keys(dump.accounts)).toHaveLength(256)
    const next = `0x${Buffer.from(dump.next!, 'base64').toString('hex')}`
    expect(next).toMatch(/^0x[0-9a-f]{64}$/)
    const keys = Object.values(dump.accounts).map((a) => a.key)
    expect(next > keys.at(-1)!).toBe(true)
  })

  it('error: past the head, pending, bad params', async () => {
    expect(await rpcError(node, 'debug_dumpBlock', ['0x99'])).toEqual({ code: -32000, message: 'block #153 not found' })
    expect((await rpcError(node, 'debug_dumpBlock', ['pending'])).code).toBe(-32000)
    expect((await rpcError(node, 'debug_dumpBlock', [])).code).toBe(-32602)
    expect((await rpcError(node, 'debug_dumpBlock', [{}])).code).toBe(-32602)
    expect((await rpcError(node, 'debug_dumpBlock', ['0xzz'])).code).toBe(-32602)
  })

  it('debug_accountRange: pages from a hashed-address start with next; nocode and nostorage', async () => {
    const many = await newNode({ accountCount: 300 })
    const seen: string[] = []
    let start: Hex = '0x'
    for (;;) {
      const page = await call<Dump>(many, 'debug_accountRange', ['latest', start, 100, false, false, false])
      expect(Object.keys(page.accounts).length).toBeLessThanOrEqual(100)
      seen.push(...Object.values(page.accounts).map((a) => a.key))
      if (page.next === undefined) break
      start = `0x${Buffer.from(page.next, 'base64').toString('hex')}`
    }
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen).toEqual([...seen].sort())
    expect(seen.length).toBeGreaterThanOrEqual(300)
    expect(seen.length).toBeLessThan(400)
    // maxResults 0 or past 256 is geth's page of 256.
    expect(Object.keys((await call<Dump>(many, 'debug_accountRange', ['latest', '0x', 0, false, false, false])).accounts)).toHaveLength(256)
    expect(Object.keys((await call<Dump>(many, 'debug_accountRange', ['latest', '0x', 1000, false, false, false])).accounts)).toHaveLength(256)
    const bare = await call<Dump>(node, 'debug_accountRange', ['latest', '0x', 256, true, true, false])
    const c = Object.entries(bare.accounts).find(([a]) => a.toLowerCase() === counter.toLowerCase())![1]
    expect(c).not.toHaveProperty('code')
    expect(c).not.toHaveProperty('storage')
    const full = await call<Dump>(node, 'debug_accountRange', ['latest', '0x', 256, false, false, false])
    expect(full).toEqual(await call<Dump>(node, 'debug_dumpBlock', ['latest']))
    const block = await call<{ hash: Hex }>(node, 'eth_getBlockByNumber', ['0x1', false])
    expect(await call<Dump>(node, 'debug_accountRange', [block.hash, '0x', 256, false, false, false])).toEqual(await call<Dump>(node, 'debug_dumpBlock', ['0x1']))
    expect(await rpcError(node, 'debug_accountRange', [`0x${'11'.repeat(32)}`, '0x', 1, false, false, false])).toEqual({ code: -32000, message: `block 0x${'11'.repeat(32)} not found` })
    expect(await rpcError(node, 'debug_accountRange', ['latest', '0x', 1, false, false])).toMatchObject({ code: -32602, message: 'missing value for required argument 5' })
    expect((await rpcError(node, 'debug_accountRange', ['latest', '0x', '1', false, false, false])).code).toBe(-32602)
  })

  describe('over HTTP and WebSocket', () => {
    const served = servedOverHttpAndWs(() => node, ['eth', 'debug'])

    it('answers the same dump', async () => {
      const dump = await call<Dump>(node, 'debug_dumpBlock', ['0x2'])
      expect((await httpRpc(served.http, 'debug_dumpBlock', ['0x2'])).result).toEqual(dump)
      expect((await served.ws.call('debug_dumpBlock', ['0x2'])).result).toEqual(dump)
    })
  })
})
