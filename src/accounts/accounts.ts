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

/**
 * The BIP-39 seed of {@link DEFAULT_MNEMONIC} (PBKDF2-HMAC-SHA512, 2,048 rounds, salt "mnemonic"),
 * written out: every node without a mnemonic of its own needs it (its validator keys, and its
 * accounts unless given as keys), and a process's first node paid ~3.3 ms of CPU for it (the
 * phrase's checksum through a cold SHA-256 ~2.3 ms, PBKDF2 ~1 ms). src/accounts/hd.test.ts
 * checks it against the derivation.
 */
export const DEFAULT_SEED_HEX = '9dfc3c64c2f8bede1533b6a79f8570e5943e0b8fd1cf77107adf7b72cef42185d564a3aee24cab43f80e3c4538087d70fc824eabbad596a23c97b6ee8322ccc0'

const seeds = new Map<string, Uint8Array>([[DEFAULT_MNEMONIC, new Uint8Array(Buffer.from(DEFAULT_SEED_HEX, 'hex'))]])
const derived = new Map<string, LocalAccount>()

/**
 * The BIP-39 seed of a mnemonic; throws on an invalid phrase. PBKDF2 runs in node:crypto
 * (native; @scure/bip39's JS version takes ~150 ms) and the result is memoised per process
 * (the default mnemonic's is known from the start).
 */
export function seedOf(mnemonic: string): Uint8Array {
  const normalized = mnemonic.normalize('NFKD')
  const hit = seeds.get(normalized)
  if (hit !== undefined) return hit
  const seed = deriveSeed(normalized)
  seeds.set(normalized, seed)
  return seed
}

/** {@link seedOf} worked out each time, no memo (the written-out default is checked against it). */
export function deriveSeed(normalized: string): Uint8Array {
  if (!validateMnemonic(normalized, wordlist)) throw new Error('invalid BIP-39 mnemonic')
  return new Uint8Array(pbkdf2Sync(normalized, 'mnemonic', 2048, 64, 'sha512'))
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
