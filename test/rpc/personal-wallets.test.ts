/**
 * personal_signTransaction (geth's `{ raw, tx }`, signed with the passphrase, nothing sent) and
 * personal_listWallets (the keyring as geth lists a keystore), over node.request, HTTP and
 * WebSocket.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { keccak256, parseTransaction, recoverTransactionAddress, type TransactionSerialized } from 'viem'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { FakeClock, WsClient, rpc as httpRpc } from '../helpers/loopback.js'

const newNode = trackNodes()
const rpc = (node: FinalityNode, method: string, params: unknown[] = []) => node.request({ method, params })
const to = '0x00000000000000000000000000000000000beef2'
const KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'

describe('personal_signTransaction', () => {
  let node: FinalityNode
  let sealed: string
  beforeAll(async () => {
    node = await newNode()
    sealed = (await rpc(node, 'personal_importRawKey', [KEY, 'pw'])) as string
  })

  const full = (from: string) => ({ from, to, value: '0x1', gas: '0x5208', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1', nonce: '0x7' })

  test('default: signs a locked account with its passphrase; { raw, tx }; nothing is sent; the account stays locked', async () => {
    const answer = (await rpc(node, 'personal_signTransaction', [full(sealed), 'pw'])) as { raw: TransactionSerialized; tx: Record<string, string> }
    expect(Object.keys(answer).sort()).toEqual(['raw', 'tx'])
    expect((await recoverTransactionAddress({ serializedTransaction: answer.raw })).toLowerCase()).toBe(sealed.toLowerCase())
    const parsed = parseTransaction(answer.raw)
    expect(parsed).toMatchObject({ type: 'eip1559', nonce: 7, gas: 21000n, to, value: 1n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n, chainId: 31337 })
    expect(answer.tx).toMatchObject({ type: '0x2', nonce: '0x7', gas: '0x5208', to, value: '0x1', chainId: '0x7a69' })
    expect(answer.tx.hash).toBe(keccak256(answer.raw))
    expect(await rpc(node, 'eth_getTransactionByHash', [answer.tx.hash])).toBe(null)
    await expect(rpc(node, 'eth_sign', [sealed, '0x01'])).rejects.toMatchObject({ message: 'authentication needed: password or unlock' })
  })

  test('default: a legacy gasPrice transaction; the node\'s own account with its empty passphrase', async () => {
    const own = node.accounts[0]!.address
    const { raw } = (await rpc(node, 'personal_signTransaction', [{ from: own, to, gas: '0x5208', gasPrice: '0x3b9aca00', nonce: '0x0' }, ''])) as { raw: TransactionSerialized }
    expect(parseTransaction(raw)).toMatchObject({ type: 'legacy', gasPrice: 1_000_000_000n, nonce: 0 })
    expect((await recoverTransactionAddress({ serializedTransaction: raw })).toLowerCase()).toBe(own.toLowerCase())
  })

  test.each([
    [{ to, gas: '0x5208', gasPrice: '0x1', nonce: '0x0' }, 'sender not specified'],
    [{ from: 'SEALED', to, gasPrice: '0x1', nonce: '0x0' }, 'gas not specified'],
    [{ from: 'SEALED', to, gas: '0x5208', nonce: '0x0' }, 'missing gasPrice or maxFeePerGas/maxPriorityFeePerGas'],
    [{ from: 'SEALED', to, gas: '0x5208', maxFeePerGas: '0x1', nonce: '0x0' }, 'missing gasPrice or maxFeePerGas/maxPriorityFeePerGas'],
    [{ from: 'SEALED', to, gas: '0x5208', gasPrice: '0x1' }, 'nonce not specified'],
  ])('error: geth\'s messages for a missing field (%j)', async (req, message) => {
    const withFrom = (req as { from?: string }).from === 'SEALED' ? { ...req, from: sealed } : req
    await expect(rpc(node, 'personal_signTransaction', [withFrom, 'pw'])).rejects.toMatchObject({ code: -32000, message })
  })

  test('error: wrong passphrase, unknown account, fee over the cap, bad types', async () => {
    await expect(rpc(node, 'personal_signTransaction', [full(sealed), 'wrong'])).rejects.toMatchObject({ code: -32000, message: 'could not decrypt key with given password' })
    await expect(rpc(node, 'personal_signTransaction', [full('0x000000000000000000000000000000000000dead'), 'pw'])).rejects.toMatchObject({ code: -32000, message: 'unknown account' })
    await expect(rpc(node, 'personal_signTransaction', [{ ...full(sealed), gas: '0xffffff', maxFeePerGas: '0xe8d4a51000', maxPriorityFeePerGas: '0x1' }, 'pw'])).rejects.toMatchObject({ code: -32000, message: expect.stringMatching(/^tx fee \(.* ether\) exceeds the configured cap \(1\.00 ether\)$/) })
    await expect(rpc(node, 'personal_signTransaction', [full(sealed), 5])).rejects.toMatchObject({ code: -32602, message: 'invalid argument 1: json: cannot unmarshal number into Go value of type string' })
    await expect(rpc(node, 'personal_signTransaction', [full(sealed)])).rejects.toMatchObject({ code: -32602, message: 'missing value for required argument 1' })
    await expect(rpc(node, 'personal_signTransaction', ['tx', 'pw'])).rejects.toMatchObject({ code: -32602 })
  })
})

describe('personal_listWallets', () => {
  test('default: one wallet per account, sorted by URL, with its lock state following unlock, lock and expiry', async () => {
    const clock = new FakeClock()
    const node = await newNode({ clock, accountCount: 2 })
    const sealed = ((await rpc(node, 'personal_importRawKey', [KEY, 'pw'])) as string).toLowerCase()
    type Wallet = { url: string; status: string; accounts: Array<{ address: string; url: string }> }
    const list = async () => (await rpc(node, 'personal_listWallets')) as Wallet[]
    const wallets = await list()
    expect(wallets).toHaveLength(3)
    expect(wallets.map((w) => w.url)).toEqual([...wallets.map((w) => w.url)].sort())
    for (const w of wallets) {
      expect(Object.keys(w).sort()).toEqual(['accounts', 'status', 'url'])
      expect(w.accounts).toEqual([{ address: w.url.slice('memory://'.length), url: w.url }])
    }
    const statusOf = async (address: string) => (await list()).find((w) => w.accounts[0]!.address === address)?.status
    expect(await statusOf(sealed)).toBe('Locked')
    expect(await statusOf(node.accounts[0]!.address.toLowerCase())).toBe('Unlocked')
    await rpc(node, 'personal_unlockAccount', [sealed, 'pw', 10])
    expect(await statusOf(sealed)).toBe('Unlocked')
    clock.advance(10_000)
    expect(await statusOf(sealed)).toBe('Locked')
    await rpc(node, 'personal_lockAccount', [node.accounts[1]!.address])
    expect(await statusOf(node.accounts[1]!.address.toLowerCase())).toBe('Locked')
    await expect(rpc(node, 'personal_listWallets', [1])).rejects.toMatchObject({ code: -32602, message: 'too many arguments, want at most 0' })
  })
})

describe('over HTTP and WebSocket', () => {
  let node: FinalityNode
  let served: Awaited<ReturnType<FinalityNode['listen']>>
  let ws: WsClient
  beforeAll(async () => {
    node = await newNode({ accountCount: 1 })
    served = await node.listen({ address: '127.0.0.1:0', wsAddress: '127.0.0.1:0', api: ['eth', 'personal'] })
    ws = await WsClient.connect(served.ws!)
  })
  afterAll(async () => {
    ws.close()
    await served.close()
  })

  test('personal_listWallets and personal_signTransaction', async () => {
    const own = node.accounts[0]!.address.toLowerCase()
    const wallets = [{ url: `memory://${own}`, status: 'Unlocked', accounts: [{ address: own, url: `memory://${own}` }] }]
    expect((await httpRpc(served.http!, 'personal_listWallets')).result).toEqual(wallets)
    expect((await ws.call('personal_listWallets')).result).toEqual(wallets)
    const req = { from: own, to, gas: '0x5208', gasPrice: '0x1', nonce: '0x0' }
    const overHttp = (await httpRpc(served.http!, 'personal_signTransaction', [req, ''])).result
    const overWs = (await ws.call('personal_signTransaction', [req, ''])).result
    expect(overHttp.raw).toMatch(/^0x/)
    expect(overWs).toEqual(overHttp)
    expect((await ws.call('personal_signTransaction', [{ ...req, nonce: undefined }, ''])).error).toEqual({ code: -32000, message: 'nonce not specified' })
  })
})
