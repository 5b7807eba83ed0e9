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

/**
 * The first 20 accounts of {@link DEFAULT_MNEMONIC} (m/44'/60'/0'/0/i): private key and address,
 * written out. A node's accounts are these unless it is given others (a default node derives
 * them; Hardhat's config and the recorded suites hand the same keys in), and each cost a public
 * key (libsecp256k1) and a keccak at a process's first node, the derivation an HMAC-SHA512 more.
 * src/accounts/hd.test.ts derives them again and compares.
 */
export const DEFAULT_ACCOUNTS: ReadonlyArray<readonly [privateKey: string, address: Hex]> = [
  ['ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'],
  ['59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'],
  ['5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'],
  ['7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6', '0x90f79bf6eb2c4f870365e785982e1f101e93b906'],
  ['47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a', '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65'],
  ['8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba', '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc'],
  ['92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e', '0x976ea74026e726554db657fa54763abd0c3a0aa9'],
  ['4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356', '0x14dc79964da2c08b23698b3d3cc7ca32193d9955'],
  ['dbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97', '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f'],
  ['2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6', '0xa0ee7a142d267c1f36714e4a8f75612f20a79720'],
  ['f214f2b2cd398c806f84e317254e0f0b801d0643303237d97a22a48e01628897', '0xbcd4042de499d14e55001ccbb24a551f3b954096'],
  ['701b615bbdfb9de65240bc28bd21bbc0d996645a3dd57e7b12bc2bdf6f192c82', '0x71be63f3384f5fb98995898a86b02fb2426c5788'],
  ['a267530f49f8280200edf313ee7af6b827f2a8bce2897751d06a843f644967b1', '0xfabb0ac9d68b0b445fb7357272ff202c5651694a'],
  ['47c99abed3324a2707c28affff1267e45918ec8c3f20b8aa892e8b065d2942dd', '0x1cbd3b2770909d4e10f157cabc84c7264073c9ec'],
  ['c526ee95bf44d8fc405a158bb884d9d1238d99f0612e9f33d006bb0789009aaa', '0xdf3e18d64bc6a983f673ab319ccae4f1a57c7097'],
  ['8166f546bab6da521a8369cab06c5d2b9e46670292d85c875ee9ec20e84ffb61', '0xcd3b766ccdd6ae721141f452c550ca635964ce71'],
  ['ea6c44ac03bff858b476bba40716402b03e41b8e97e276d1baec7c37d42484a0', '0x2546bcd3c84621e976d8185a91a922ae77ecec30'],
  ['689af8efa8c651a91ad287602527f3af2fe9f6501a7ac4b061667b5a93e037fd', '0xbda5747bfd65f08deb54cb465eb87d40e51b197e'],
  ['de9be858da4a475276426320d5e9262ecfc3ba460bfac56360bfa6c4c28b4ee0', '0xdd2fd4581271e230360230f9337d5c0430bf44c0'],
  ['df57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e', '0x8626f6940e2eb28930efb4cef49b2d1f2c9c1199'],
]

/** The written-out addresses by private key (unprefixed hex), for {@link addressOf}. */
const knownAddresses = new Map<string, Hex>(DEFAULT_ACCOUNTS.map(([key, address]) => [key, address]))

/** The address of a private key. */
export function addressOf(privateKey: Uint8Array): Hex {
  return knownAddresses.get(keyOf(privateKey)) ?? deriveAddress(privateKey)
}

/** {@link addressOf} worked out: keccak256 of the public key, its last 20 bytes. */
export function deriveAddress(privateKey: Uint8Array): Hex {
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
/** Derived accounts by seed (unprefixed hex) and index; the default mnemonic's are known from the start. */
const derived = new Map<string, LocalAccount>(
  DEFAULT_ACCOUNTS.map(([key, address], i) => [`${DEFAULT_SEED_HEX}/${i}`, { address, privateKey: new Uint8Array(Buffer.from(key, 'hex')) }]),
)

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
