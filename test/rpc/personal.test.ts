/**
 * The `personal` namespace: accounts the node creates or imports, sealed under a passphrase and
 * locked until unlocked for a duration on the node's clock; the node's own accounts unlocked
 * with the empty passphrase. Messages are geth's keystore messages.
 */
import { describe, expect, test } from 'vitest'
import { getAddress, parseEther, toHex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { FinalityNode } from '../../src/index.js'
import { trackNodes } from '../helpers/nodes.js'
import { walletClientOf } from '../helpers/viem.js'
import { FakeClock } from '../helpers/loopback.js'

const newNode = trackNodes()
const rpc = (node: FinalityNode, method: string, params: unknown[] = []) => node.request({ method, params })
const to = '0x00000000000000000000000000000000000beef2'
const LOCKED = { code: -32000, message: 'authentication needed: password or unlock' }
const BAD_PASSPHRASE = { code: -32000, message: 'could not decrypt key with given password' }
/** A key used only here (not one of the mnemonic's). */
const KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'

async function funded(node: FinalityNode, address: string): Promise<void> {
  await rpc(node, 'hardhat_setBalance', [address, toHex(parseEther('10'))])
}
const transfer = (node: FinalityNode, from: string) => rpc(node, 'eth_sendTransaction', [{ from, to, value: '0x1' }])

describe('personal_newAccount and the lock state', () => {
  test('behavior: a new account is locked; a wrong passphrase is refused; unlocked it signs until the duration ends', async () => {
    const clock = new FakeClock()
    const node = await newNode({ clock })
    const address = (await rpc(node, 'personal_newAccount', ['<PASSPHRASE>'])) as string
    expect(address).toBe(getAddress(address))
    expect(await rpc(node, 'personal_listAccounts')).toContain(address.toLowerCase())
    expect(await rpc(node, 'eth_accounts')).toContain(address.toLowerCase())
    await funded(node, address)

    await expect(transfer(node, address)).rejects.toMatchObject(LOCKED)
    await expect(rpc(node, 'eth_sign', [address, '0x01'])).rejects.toMatchObject(LOCKED)
    await expect(rpc(node, 'personal_sign', ['0x01', address])).rejects.toMatchObject(LOCKED)
    await expect(rpc(node, 'eth_signTransaction', [{ from: address, to, value: '0x1' }])).rejects.toMatchObject(LOCKED)
    await expect(rpc(node, 'personal_unlockAccount', [address, 'wrong', 60])).rejects.toMatchObject(BAD_PASSPHRASE)
    await expect(transfer(node, address)).rejects.toMatchObject(LOCKED)

    expect(await rpc(node, 'personal_unlockAccount', [address, '<PASSPHRASE>', 60])).toBe(true)
    const hash = await transfer(node, address)
    expect(await rpc(node, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1', from: address.toLowerCase() })
    const signature = (await rpc(node, 'eth_sign', [address, toHex('unlocked')])) as `0x${string}`
    expect(await verifyMessage({ address: address as `0x${string}`, message: 'unlocked', signature })).toBe(true)

    clock.advance(59_000)
    await expect(transfer(node, address)).resolves.toMatch(/^0x[0-9a-f]{64}$/)
    clock.advance(1_000)
    await expect(transfer(node, address)).rejects.toMatchObject(LOCKED)
    await expect(rpc(node, 'personal_sign', ['0x01', address])).rejects.toMatchObject(LOCKED)
    expect(await rpc(node, 'eth_getTransactionCount', [address, 'latest'])).toBe('0x2')
  })

  test('behavior: the default duration is 300 s; 0 is until the node exits; personal_lockAccount locks at once', async () => {
    const clock = new FakeClock()
    const node = await newNode({ clock })
    const address = (await rpc(node, 'personal_newAccount', ['pw'])) as string
    await funded(node, address)
    await rpc(node, 'personal_unlockAccount', [address, 'pw'])
    clock.advance(299_000)
    await expect(transfer(node, address)).resolves.toBeTypeOf('string')
    clock.advance(1_000)
    await expect(transfer(node, address)).rejects.toMatchObject(LOCKED)

    await rpc(node, 'personal_unlockAccount', [address, 'pw', 0])
    clock.advance(10 * 365 * 24 * 3600 * 1000)
    await expect(transfer(node, address)).resolves.toBeTypeOf('string')
    // As geth's keystore: an account unlocked until exit stays so when unlocked with a duration.
    await rpc(node, 'personal_unlockAccount', [address, 'pw', 1])
    clock.advance(5_000)
    await expect(transfer(node, address)).resolves.toBeTypeOf('string')

    expect(await rpc(node, 'personal_lockAccount', [address])).toBe(true)
    await expect(transfer(node, address)).rejects.toMatchObject(LOCKED)
    // Unlocked again with a duration after the lock, the duration applies.
    await rpc(node, 'personal_unlockAccount', [address, 'pw', 1])
    clock.advance(1_000)
    await expect(transfer(node, address)).rejects.toMatchObject(LOCKED)
  })

  test('behavior: personal_sendTransaction unlocks for one transaction only; a wrong passphrase sends nothing', async () => {
    const node = await newNode()
    const address = (await rpc(node, 'personal_newAccount', ['pw'])) as string
    await funded(node, address)
    await expect(rpc(node, 'personal_sendTransaction', [{ from: address, to, value: '0x1' }, 'nope'])).rejects.toMatchObject(BAD_PASSPHRASE)
    expect(await rpc(node, 'eth_getTransactionCount', [address, 'pending'])).toBe('0x0')
    const hash = await rpc(node, 'personal_sendTransaction', [{ from: address, to, value: '0x1' }, 'pw'])
    expect(await rpc(node, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' })
    expect(await rpc(node, 'eth_getBalance', [to, 'latest'])).toBe('0x1')
    await expect(transfer(node, address)).rejects.toMatchObject(LOCKED)
    await expect(rpc(node, 'personal_sendTransaction', [{ from: to, to, value: '0x1' }, 'pw'])).rejects.toMatchObject({ message: 'unknown account' })
  })

  test('behavior: personal_sign with the passphrase signs for a locked account, as a local account of the key signs', async () => {
    const node = await newNode()
    const address = (await rpc(node, 'personal_importRawKey', [KEY, 'pw'])) as string
    const local = privateKeyToAccount(`0x${KEY}`)
    expect(await rpc(node, 'personal_sign', [toHex('gm'), address, 'pw'])).toBe(await local.signMessage({ message: 'gm' }))
    await expect(rpc(node, 'personal_sign', [toHex('gm'), address, 'bad'])).rejects.toMatchObject(BAD_PASSPHRASE)
    await expect(rpc(node, 'personal_sign', [toHex('gm'), address])).rejects.toMatchObject(LOCKED)
  })

  test('behavior: two new accounts are distinct keys, each with its own passphrase', async () => {
    const node = await newNode()
    const a = (await rpc(node, 'personal_newAccount', ['one'])) as string
    const b = (await rpc(node, 'personal_newAccount', ['two'])) as string
    expect(a).not.toBe(b)
    await expect(rpc(node, 'personal_unlockAccount', [a, 'two'])).rejects.toMatchObject(BAD_PASSPHRASE)
    await expect(rpc(node, 'personal_unlockAccount', [b, 'two'])).resolves.toBe(true)
    const accounts = (await rpc(node, 'personal_listAccounts')) as string[]
    expect(accounts.slice(-2)).toEqual([a.toLowerCase(), b.toLowerCase()])
  })
})

describe('personal_importRawKey', () => {
  test('error: the key is 64 hex characters without 0x, in range (geth\'s messages)', async () => {
    const node = await newNode()
    const refused = (key: unknown) => expect(rpc(node, 'personal_importRawKey', [key, 'pw'])).rejects
    await refused(`0x${KEY.slice(2)}`).toMatchObject({ code: -32000, message: "invalid hex character 'x' in private key" })
    await refused(`${KEY.slice(0, 10)}g${KEY.slice(11)}`).toMatchObject({ message: "invalid hex character 'g' in private key" })
    await refused(`${KEY.slice(0, 62)}\n1`).toMatchObject({ message: "invalid hex character '\\n' in private key" })
    await refused(KEY.slice(1)).toMatchObject({ message: 'invalid hex data for private key' })
    await refused(KEY.slice(2)).toMatchObject({ message: 'invalid length, need 256 bits' })
    await refused(`${KEY}00`).toMatchObject({ message: 'invalid length, need 256 bits' })
    await refused('00'.repeat(32)).toMatchObject({ message: 'invalid private key, zero or negative' })
    await refused('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141').toMatchObject({ message: 'invalid private key, >=N' })
    await refused(42).toMatchObject({ code: -32602, message: 'invalid argument 0: json: cannot unmarshal number into Go value of type string' })
    await expect(rpc(node, 'personal_importRawKey', [KEY])).rejects.toMatchObject({ code: -32602, message: 'missing value for required argument 1' })
    // The node's own key, or one imported already.
    await refused(node.accounts[0]!.privateKey.slice(2)).toMatchObject({ message: 'account already exists' })
    expect((await rpc(node, 'personal_listAccounts')) as string[]).toHaveLength(20)
  })

  test('behavior: an imported key answers its lower-case address, starts locked, and viem sends with it once unlocked', async () => {
    const node = await newNode()
    const address = (await rpc(node, 'personal_importRawKey', [KEY.toUpperCase(), 'pw'])) as `0x${string}`
    expect(address).toBe(privateKeyToAccount(`0x${KEY}`).address.toLowerCase())
    await expect(rpc(node, 'personal_importRawKey', [KEY, 'other'])).rejects.toMatchObject({ message: 'account already exists' })
    await funded(node, address)
    const wallet = walletClientOf(node, address)
    await expect(wallet.sendTransaction({ to, value: 1n })).rejects.toThrow(/authentication needed: password or unlock/)
    await rpc(node, 'personal_unlockAccount', [address, 'pw', 300])
    const hash = await wallet.sendTransaction({ to, value: 1n })
    expect(await rpc(node, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1', from: address })
  })
})

describe('the node\'s own accounts', () => {
  test('behavior: unlocked from the start; lockable; their passphrase is the empty string', async () => {
    const node = await newNode()
    const me = node.accounts[0]!.address
    await expect(transfer(node, me)).resolves.toBeTypeOf('string')
    expect(await rpc(node, 'personal_lockAccount', [me])).toBe(true)
    await expect(transfer(node, me)).rejects.toMatchObject(LOCKED)
    await expect(rpc(node, 'eth_sign', [me, '0x01'])).rejects.toMatchObject(LOCKED)
    await expect(rpc(node, 'personal_unlockAccount', [me, 'anything'])).rejects.toMatchObject(BAD_PASSPHRASE)
    await expect(rpc(node, 'personal_sendTransaction', [{ from: me, to, value: '0x1' }, ''])).resolves.toBeTypeOf('string')
    await expect(transfer(node, me)).rejects.toMatchObject(LOCKED)
    expect(await rpc(node, 'personal_unlockAccount', [me, ''])).toBe(true)
    await expect(transfer(node, me)).resolves.toBeTypeOf('string')
    // Other accounts were never affected.
    await expect(transfer(node, node.accounts[1]!.address)).resolves.toBeTypeOf('string')
  })

  test('error: unknown addresses and durations geth refuses', async () => {
    const node = await newNode()
    await expect(rpc(node, 'personal_unlockAccount', [to, ''])).rejects.toMatchObject({ code: -32000, message: 'no key for given address or file' })
    await expect(rpc(node, 'personal_unlockAccount', [node.accounts[0]!.address, '', 9_223_372_037])).rejects.toMatchObject({ message: 'unlock duration too large' })
    await expect(rpc(node, 'personal_unlockAccount', [node.accounts[0]!.address, '', 9_223_372_036])).resolves.toBe(true)
    // geth's lockAccount answers true for any address: afterwards it is not unlocked.
    expect(await rpc(node, 'personal_lockAccount', [to])).toBe(true)
    await expect(transfer(node, to)).rejects.toMatchObject({ message: 'unknown account' })
    for (const method of ['personal_openWallet', 'personal_deriveAccount']) {
      await expect(rpc(node, method, [])).rejects.toMatchObject({ code: -32601 })
    }
  })
})

describe('the personal namespace over HTTP', () => {
  test('behavior: off by default (personal_sign stays with eth); on when listed in api', async () => {
    const node = await newNode()
    const closed = await node.listen({ address: '127.0.0.1:0', wsAddress: false })
    const open = await node.listen({ address: '127.0.0.1:0', wsAddress: false, api: ['eth', 'personal'] })
    const post = async (url: string, method: string, params: unknown[] = []) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
      return (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
    }
    try {
      for (const [method, params] of [
        ['personal_listAccounts', []],
        ['personal_newAccount', ['pw']],
        ['personal_importRawKey', [KEY, 'pw']],
        ['personal_unlockAccount', [node.accounts[0]!.address, '']],
        ['personal_lockAccount', [node.accounts[0]!.address]],
        ['personal_sendTransaction', [{ from: node.accounts[0]!.address, to, value: '0x1' }, '']],
      ] as const) {
        expect((await post(closed.http as string, method, [...params])).error?.code).toBe(-32601)
      }
      expect(await rpc(node, 'personal_listAccounts')).toHaveLength(20)
      const created = (await post(open.http as string, 'personal_newAccount', ['pw'])).result as string
      expect(created).toMatch(/^0x[0-9a-fA-F]{40}$/)
      // The account is the node's: eth_sign over the default transport sees its lock.
      expect((await post(closed.http as string, 'eth_sign', [created, '0x01'])).error).toMatchObject(LOCKED)
    } finally {
      await closed.close()
      await open.close()
    }
  })
})
