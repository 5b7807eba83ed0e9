/**
 * BIP-32 derivation (hd.ts) against @scure/bip32, and the accounts derived from a mnemonic
 * (accounts.ts). The `mnemonic` option over a node: test/node/accounts.test.ts.
 */
import { randomBytes } from 'node:crypto'
import { HDKey } from '@scure/bip32'
import { describe, expect, it } from 'vitest'
import { DEFAULT_ACCOUNTS, DEFAULT_MNEMONIC, DEFAULT_SEED_HEX, addressOf, deriveAccounts, deriveAddress, deriveSeed, seedOf } from './accounts.js'
import { deriveChild, derivePath } from './hd.js'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

describe('BIP-32 derivation of the node accounts', () => {
  it('matches @scure/bip32 on random seeds, hardened and normal children', () => {
    for (let round = 0; round < 8; round++) {
      const seed = new Uint8Array(randomBytes(64))
      const path = "m/44'/60'/0'/0"
      const ours = derivePath(seed, path)
      const theirs = HDKey.fromMasterSeed(seed).derive(path)
      expect(hex(ours.privateKey)).toBe(hex(theirs.privateKey!))
      expect(hex(ours.chainCode)).toBe(hex(theirs.chainCode!))
      for (const i of [0, 1, 7, 0x80000000, 0x80000005]) {
        expect(hex(deriveChild(ours, i).privateKey)).toBe(hex(theirs.deriveChild(i).privateKey!))
      }
    }
  })

  it("derives Hardhat's and Anvil's default accounts, and BIP-44's for another mnemonic", () => {
    const [first] = deriveAccounts(seedOf(DEFAULT_MNEMONIC), 1)
    expect(first?.address.toLowerCase()).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
    expect(hex(first!.privateKey)).toBe('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
    const [other] = deriveAccounts(seedOf('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'), 1)
    expect(other?.address.toLowerCase()).toBe('0x9858effd232b4033e47d90003d41ec34ecaeda94')
  })

  it("the default mnemonic's written-out seed is its BIP-39 seed", () => {
    expect(hex(deriveSeed(DEFAULT_MNEMONIC))).toBe(DEFAULT_SEED_HEX)
    expect(hex(seedOf(DEFAULT_MNEMONIC))).toBe(DEFAULT_SEED_HEX)
    expect(() => seedOf('test test test test test test test test test test test test')).toThrow(/invalid BIP-39 mnemonic/)
  })

  it("the default mnemonic's written-out accounts are its first 20 derived, and addressOf answers them", () => {
    const parent = derivePath(deriveSeed(DEFAULT_MNEMONIC), "m/44'/60'/0'/0")
    expect(DEFAULT_ACCOUNTS).toHaveLength(20)
    DEFAULT_ACCOUNTS.forEach(([key, address], i) => {
      const derived = deriveChild(parent, i).privateKey
      expect(hex(derived)).toBe(key)
      expect(deriveAddress(derived)).toBe(address)
      expect(addressOf(derived)).toBe(address)
    })
    expect(deriveAccounts(seedOf(DEFAULT_MNEMONIC), 21).map((a) => [hex(a.privateKey), a.address])).toEqual([
      ...DEFAULT_ACCOUNTS,
      [hex(deriveChild(parent, 20).privateKey), deriveAddress(deriveChild(parent, 20).privateKey)],
    ])
    // A key outside the table is worked out.
    const other = new Uint8Array(32).fill(7)
    expect(addressOf(other)).toBe(deriveAddress(other))
  })

  it('refuses malformed paths', () => {
    const seed = new Uint8Array(64)
    for (const path of ['', "44'/60'", "m/x'", 'm/2147483648', "m/1''"]) {
      expect(() => derivePath(seed, path)).toThrow(/invalid derivation path/)
    }
  })
})
