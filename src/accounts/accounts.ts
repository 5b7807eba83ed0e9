/**
 * Node-held accounts: derived from a BIP-39 mnemonic on m/44'/60'/0'/0/i (the accounts Hardhat
 * and Anvil users know) or given as private keys.
 */
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { data, keyOf, type Hex } from '../hex.js'
import { publicKeyOf } from '../crypto/secp256k1.js'

/** The mnemonic of Hardhat's and Anvil's default accounts. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk'

/** A key the node holds. */
export interface LocalAccount {
  address: Hex
  privateKey: Uint8Array
}

/** The address of a private key. */
export function addressOf(privateKey: Uint8Array): Hex {
  return data(keccak_256(publicKeyOf(privateKey)).subarray(12))
}

/** The BIP-39 seed of a mnemonic; throws on an invalid phrase. */
export function seedOf(mnemonic: string): Uint8Array {
  if (!validateMnemonic(mnemonic, wordlist)) throw new Error('invalid BIP-39 mnemonic')
  return mnemonicToSeedSync(mnemonic)
}

/** `count` accounts from a seed on m/44'/60'/0'/0/i. */
export function deriveAccounts(seed: Uint8Array, count: number): LocalAccount[] {
  const root = HDKey.fromMasterSeed(seed)
  const out: LocalAccount[] = []
  for (let i = 0; i < count; i++) {
    const key = root.derive(`m/44'/60'/0'/0/${i}`).privateKey
    if (key == null) throw new Error(`cannot derive account ${i}`)
    out.push({ address: addressOf(key), privateKey: key })
  }
  return out
}

/** Keys by lower-case address. */
export class Keyring {
  private readonly keys = new Map<string, LocalAccount>()
  constructor(accounts: LocalAccount[]) {
    for (const a of accounts) this.keys.set(keyOf(Buffer.from(a.address.slice(2), 'hex')), a)
  }
  get(address: string): LocalAccount | undefined {
    return this.keys.get(address.toLowerCase().replace(/^0x/, ''))
  }
  addresses(): Hex[] {
    return [...this.keys.values()].map((a) => a.address)
  }
}
