/**
 * Node-held accounts: derived from a BIP-39 mnemonic on m/44'/60'/0'/0/i (the accounts Hardhat
 * and Anvil users know) or given as private keys.
 */
import { pbkdf2Sync } from 'node:crypto'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import { data, keyOf, type Hex } from '../hex.js'
import { publicKeyOf } from '../crypto/secp256k1.js'
import { deriveChild, derivePath, type ExtendedKey } from './hd.js'

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

const seeds = new Map<string, Uint8Array>()
const derived = new Map<string, LocalAccount>()

/**
 * The BIP-39 seed of a mnemonic; throws on an invalid phrase. PBKDF2 runs in node:crypto
 * (native; @scure/bip39's JS version takes ~150 ms) and the result is memoised per process.
 */
export function seedOf(mnemonic: string): Uint8Array {
  const normalized = mnemonic.normalize('NFKD')
  const hit = seeds.get(normalized)
  if (hit !== undefined) return hit
  if (!validateMnemonic(normalized, wordlist)) throw new Error('invalid BIP-39 mnemonic')
  const seed = new Uint8Array(pbkdf2Sync(normalized, 'mnemonic', 2048, 64, 'sha512'))
  seeds.set(normalized, seed)
  return seed
}

/** `count` accounts from a seed on m/44'/60'/0'/0/i, memoised: nodes share the same keys. */
export function deriveAccounts(seed: Uint8Array, count: number): LocalAccount[] {
  const seedKey = keyOf(seed)
  const out: LocalAccount[] = []
  let parent: ExtendedKey | undefined
  for (let i = 0; i < count; i++) {
    const cacheKey = `${seedKey}/${i}`
    let account = derived.get(cacheKey)
    if (account === undefined) {
      parent ??= derivePath(seed, "m/44'/60'/0'/0")
      const key = deriveChild(parent, i).privateKey
      account = { address: addressOf(key), privateKey: key }
      derived.set(cacheKey, account)
    }
    out.push({ address: account.address, privateKey: account.privateKey.slice() })
  }
  return out
}
