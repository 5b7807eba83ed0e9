/** node.accounts: EIP-55 checksummed addresses, equal to what viem derives and returns. */
import { createWalletClient, custom, getAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createNode, type FinalityNode } from '../../src/index.js'

let node: FinalityNode
beforeAll(async () => {
  node = await createNode({ accountCount: 5 })
})
afterAll(() => node.close())

describe('node.accounts', () => {
  test('default: addresses are checksummed, as viem gives them', async () => {
    expect(node.accounts[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    for (const a of node.accounts) {
      expect(a.address).toBe(getAddress(a.address))
      expect(a.address).toBe(privateKeyToAccount(a.privateKey).address)
    }
    const wallet = createWalletClient({ transport: custom(node.provider, { retryCount: 0 }) })
    expect(await wallet.getAddresses()).toEqual(node.accounts.map((a) => a.address))
  })

  test('mnemonic: the accounts are BIP-44\'s for it, as eth_accounts answers', async () => {
    const other = await createNode({ mnemonic: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about' })
    try {
      expect(other.accounts[0]!.address).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94')
      expect(await other.request({ method: 'eth_accounts' })).toEqual(other.accounts.map((a) => a.address.toLowerCase()))
    } finally {
      await other.close()
    }
  })

  test('behavior: a checksummed account sends, signs and is found by every method that takes an address', async () => {
    const [a, b] = node.accounts
    const hash = await node.request({ method: 'eth_sendTransaction', params: [{ from: a!.address, to: b!.address, value: '0x1' }] })
    const receipt = await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })
    expect(receipt?.from).toBe(a!.address.toLowerCase())
    expect(await node.request({ method: 'eth_sign', params: [a!.address, '0x1234'] })).toMatch(/^0x[0-9a-f]{130}$/)
    await node.impersonate(b!.address)
    await node.stopImpersonating(b!.address)
    await node.setBalance(a!.address, 5n)
    expect(await node.request({ method: 'eth_getBalance', params: [a!.address, 'latest'] })).toBe('0x5')
  })
})
