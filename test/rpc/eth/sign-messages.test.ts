/**
 * Message signing with node-held keys: what viem's and ethers' JSON-RPC signers call
 * (personal_sign, eth_signTypedData_v4) must give exactly the signature a local account of the
 * same key gives, and the recovered signer must be that account.
 */
import { BrowserProvider, Wallet, TypedDataEncoder, verifyMessage as ethersVerify } from 'ethers'
import { describe, expect, it } from 'vitest'
import { recoverTypedDataAddress, toHex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { FinalityNode } from '../../../src/index.js'
import { trackNodes } from '../../helpers/nodes.js'
import { accountAt, walletClientOf } from '../../helpers/viem.js'

const newNode = trackNodes()
const rpc = (node: FinalityNode, method: string, params: unknown[]) => node.request({ method, params })

const MAIL = {
  domain: { name: 'Ether Mail', version: '1', chainId: 31337, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallets', type: 'address[]' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallets: ['0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826', '0xDeaDbeefdEAdbeefdEadbEEFdeadbeEFdEaDbeeF'] },
    to: [{ name: 'Bob', wallets: ['0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB'] }],
    contents: 'Hello, Bob!',
    amount: 1000000000000000000n,
  },
} as const

describe('message signing (eth_sign, personal_sign, eth_signTypedData_v4)', () => {
  it('behavior: viem signMessage through the node equals a local account signature and verifies', async () => {
    const node = await newNode()
    const { address, privateKey } = accountAt(node, 0)
    const remote = await walletClientOf(node, address).signMessage({ message: 'hello finality' })
    const local = await privateKeyToAccount(privateKey).signMessage({ message: 'hello finality' })
    expect(remote).toBe(local)
    expect(await verifyMessage({ address, message: 'hello finality', signature: remote })).toBe(true)
    // Raw bytes as the message, as well.
    const raw = await walletClientOf(node, address).signMessage({ message: { raw: '0x00ff10' } })
    expect(raw).toBe(await privateKeyToAccount(privateKey).signMessage({ message: { raw: '0x00ff10' } }))
  })

  it('behavior: ethers JsonRpcSigner.signMessage equals Wallet.signMessage', async () => {
    const node = await newNode()
    const { address, privateKey } = accountAt(node, 1)
    const signer = await new BrowserProvider(node.provider).getSigner(address)
    const remote = await signer.signMessage('gm')
    expect(remote).toBe(await new Wallet(privateKey).signMessage('gm'))
    expect(ethersVerify('gm', remote)).toBe(address)
  })

  it('behavior: eth_sign and personal_sign take their params in opposite orders and sign the same', async () => {
    const node = await newNode()
    const { address } = accountAt(node, 2)
    const message = toHex('same bytes')
    const a = await rpc(node, 'eth_sign', [address, message])
    const b = await rpc(node, 'personal_sign', [message, address])
    expect(a).toBe(b)
    expect(a).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/)
    expect((await rpc(node, 'personal_ecRecover', [message, a])) as string).toBe(address.toLowerCase())
  })

  it('behavior: viem signTypedData (eth_signTypedData_v4, nested structs and arrays) equals the local signature', async () => {
    const node = await newNode()
    const { address, privateKey } = accountAt(node, 3)
    const remote = await walletClientOf(node, address).signTypedData(MAIL)
    const local = await privateKeyToAccount(privateKey).signTypedData(MAIL)
    expect(remote).toBe(local)
    expect(await recoverTypedDataAddress({ ...MAIL, signature: remote })).toBe(address)
  })

  it('behavior: ethers signTypedData and the object form of eth_signTypedData agree', async () => {
    const node = await newNode()
    const { address, privateKey } = accountAt(node, 4)
    const types = { Person: [...MAIL.types.Person], Mail: [...MAIL.types.Mail] }
    const signer = await new BrowserProvider(node.provider).getSigner(address)
    const remote = await signer.signTypedData(MAIL.domain, types, MAIL.message)
    expect(remote).toBe(await new Wallet(privateKey).signTypedData(MAIL.domain, types, MAIL.message))
    const payload = TypedDataEncoder.getPayload(MAIL.domain, types, MAIL.message)
    expect(await rpc(node, 'eth_signTypedData', [address, payload])).toBe(remote)
  })

  it('error: accounts without a key, malformed typed data and bad signatures get clear errors', async () => {
    const node = await newNode()
    const { address } = accountAt(node, 0)
    const stranger = '0x000000000000000000000000000000000000dEaD'
    await expect(rpc(node, 'personal_sign', ['0x01', stranger])).rejects.toMatchObject({ code: -32000, message: 'unknown account' })
    await node.request({ method: 'hardhat_impersonateAccount', params: [stranger] })
    await expect(rpc(node, 'eth_sign', [stranger, '0x01'])).rejects.toMatchObject({ code: -32000, message: 'unknown account' })
    const { domain: _domain, ...noDomain } = MAIL
    await expect(rpc(node, 'eth_signTypedData_v4', [address, JSON.stringify(noDomain, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))])).rejects.toMatchObject({
      code: -32000,
      message: 'domain is undefined',
    })
    // geth's rule: a domain object with none of its fields is undefined too.
    await expect(rpc(node, 'eth_signTypedData_v4', [address, JSON.stringify({ ...noDomain, domain: {} }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))])).rejects.toMatchObject({
      code: -32000,
      message: 'domain is undefined',
    })
    await expect(rpc(node, 'eth_signTypedData_v4', [address, JSON.stringify({ ...noDomain, domain: 'x' }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))])).rejects.toMatchObject({
      code: -32602,
      message: 'invalid argument 1: typed data: domain must be an object',
    })
    await expect(rpc(node, 'eth_signTypedData_v4', [address, '{not json'])).rejects.toMatchObject({ code: -32602 })
    const wrong = { ...MAIL, message: { ...MAIL.message, amount: 'lots' } }
    await expect(rpc(node, 'eth_signTypedData_v4', [address, JSON.stringify(wrong, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))])).rejects.toMatchObject({
      code: -32000,
    })
    await expect(rpc(node, 'personal_ecRecover', ['0x01', '0x1234'])).rejects.toMatchObject({ code: -32000, message: 'signature must be 65 bytes long' })
    await expect(rpc(node, 'personal_ecRecover', ['0x01', `0x${'11'.repeat(64)}05`])).rejects.toMatchObject({ code: -32000, message: 'invalid Ethereum signature (V is not 27 or 28)' })
    await expect(rpc(node, 'personal_ecRecover', ['0x01', 5])).rejects.toMatchObject({ code: -32602 })
  })

  it('behavior: personal is a namespace of its own in rpc_modules', async () => {
    const node = await newNode()
    expect(await rpc(node, 'rpc_modules', [])).toHaveProperty('personal', '1.0')
  })
})

describe('message signing over HTTP', () => {
  it('behavior: personal_sign and eth_signTypedData_v4 answer over node.listen() with the default api, as on Hardhat', async () => {
    const node = await newNode()
    const server = await node.listen({ address: '127.0.0.1:0' })
    const { address, privateKey } = accountAt(node, 0)
    const post = async (method: string, params: unknown[]) => {
      const res = await fetch(server.http as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
      return (await res.json()) as { result?: string; error?: { code: number } }
    }
    const signed = await post('personal_sign', [toHex('over http'), address])
    expect(signed.result).toBe(await privateKeyToAccount(privateKey).signMessage({ message: 'over http' }))
    // personal_ecRecover stays in the private personal namespace, off by default.
    expect((await post('personal_ecRecover', [toHex('over http'), signed.result])).error?.code).toBe(-32601)
  })
})
