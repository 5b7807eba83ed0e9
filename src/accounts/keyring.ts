/**
 * The keys the node holds and their lock state (the `personal` namespace, eth_sign,
 * eth_sendTransaction).
 *
 * The node's own accounts (the mnemonic's, or `createNode({ accounts })`) start unlocked, as
 * Hardhat and Anvil users expect, and their passphrase is the empty string (Ganache's rule), so a
 * locked one unlocks with `""`. Accounts added by personal_newAccount / personal_importRawKey are
 * kept encrypted as geth's keystore keeps them: AES-256-GCM under a scrypt key derived from the
 * passphrase, which is never stored. They start locked; unlocking decrypts the key for a
 * duration on the node's clock, and a wrong passphrase fails the decryption itself.
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto'
import type { Clock } from '../clock.js'
import { Refused } from '../domain-errors.js'
import { data, type Hex } from '../hex.js'
import { addressOf, type LocalAccount } from './accounts.js'

/** secp256k1's group order: a private key is in [1, N). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/**
 * scrypt cost of new keys: N = 2^14, r = 8, p = 1 (16 MiB, tens of milliseconds). geth's
 * standard N = 2^18 takes about a second per unlock, too slow for a test chain.
 */
const SCRYPT = { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const

/** geth's keystore errors (accounts/keystore), word for word. */
export const LOCKED = 'authentication needed: password or unlock'
export const BAD_PASSPHRASE = 'could not decrypt key with given password'
export const NO_KEY = 'no key for given address or file'
export const UNKNOWN_ACCOUNT = 'unknown account'

interface Sealed {
  salt: Uint8Array
  iv: Uint8Array
  ciphertext: Uint8Array
  tag: Uint8Array
}

interface Entry {
  address: Hex
  /** The plaintext key: always for the node's own accounts, only while unlocked for sealed ones. */
  key: Uint8Array | undefined
  /** Present for accounts added with a passphrase. */
  sealed: Sealed | undefined
  /** Clock milliseconds until which the key may sign; Infinity = until the node exits. */
  until: number
}

function derive(passphrase: string, salt: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase.normalize('NFKC'), salt, 32, SCRYPT, (error, key) => (error === null ? resolve(key) : reject(error))),
  )
}

async function seal(key: Uint8Array, passphrase: string): Promise<Sealed> {
  const salt = randomBytes(32)
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', await derive(passphrase, salt), iv)
  const ciphertext = Buffer.concat([cipher.update(key), cipher.final()])
  return { salt, iv, ciphertext, tag: cipher.getAuthTag() }
}

async function open(sealed: Sealed, passphrase: string): Promise<Uint8Array> {
  const decipher = createDecipheriv('aes-256-gcm', await derive(passphrase, sealed.salt), sealed.iv)
  decipher.setAuthTag(sealed.tag)
  try {
    return new Uint8Array(Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]))
  } catch {
    throw new Refused(BAD_PASSPHRASE)
  }
}

function normalize(address: string): string {
  return address.toLowerCase().replace(/^0x/, '')
}

/** A private key is valid when in [1, N); geth's messages otherwise. */
export function checkPrivateKey(key: Uint8Array): void {
  if (key.length !== 32) throw new Refused('invalid length, need 256 bits')
  const d = BigInt(data(key))
  if (d >= SECP256K1_N) throw new Refused('invalid private key, >=N')
  if (d === 0n) throw new Refused('invalid private key, zero or negative')
}

/** Keys by lower-case address, in the order they were added. */
export class Keyring {
  private readonly entries = new Map<string, Entry>()

  constructor(accounts: LocalAccount[], private readonly clock: Clock) {
    for (const a of accounts) {
      this.entries.set(normalize(a.address), { address: a.address, key: a.privateKey, sealed: undefined, until: Infinity })
    }
  }

  /** True when the node holds a key for `address` (locked or not). */
  has(address: string): boolean {
    return this.entries.has(normalize(address))
  }

  /** Every address, the node's own accounts first. */
  addresses(): Hex[] {
    return [...this.entries.values()].map((e) => e.address)
  }

  /** The key of an unlocked account; undefined when the account is unknown or locked. */
  unlocked(address: string): Uint8Array | undefined {
    const entry = this.entries.get(normalize(address))
    if (entry === undefined || entry.key === undefined) return undefined
    if (this.clock.now() < entry.until) return entry.key
    this.relock(entry)
    return undefined
  }

  /** Every account and whether it may sign now (personal_listWallets). */
  statuses(): Array<{ address: Hex; unlocked: boolean }> {
    return [...this.entries.values()].map((e) => ({ address: e.address, unlocked: this.unlocked(e.address) !== undefined }))
  }

  /** The key to sign with now; throws `unknown account`, or geth's `authentication needed…` when locked. */
  signer(address: string): Uint8Array {
    const key = this.unlocked(address)
    if (key !== undefined) return key
    throw new Refused(this.has(address) ? LOCKED : UNKNOWN_ACCOUNT)
  }

  /** The key, decrypted with `passphrase` for one use, whether or not the account is unlocked. */
  async withPassphrase(address: string, passphrase: string, unknown = UNKNOWN_ACCOUNT): Promise<Uint8Array> {
    const entry = this.entries.get(normalize(address))
    if (entry === undefined) throw new Refused(unknown)
    if (entry.sealed !== undefined) return open(entry.sealed, passphrase)
    if (passphrase !== '' || entry.key === undefined) throw new Refused(BAD_PASSPHRASE)
    return entry.key
  }

  /**
   * Unlocks for `seconds` on the node's clock (0 = until the node exits). As geth's keystore, an
   * account unlocked until exit stays so when unlocked again with a duration.
   */
  async unlock(address: string, passphrase: string, seconds: bigint): Promise<void> {
    const key = await this.withPassphrase(address, passphrase, NO_KEY)
    const entry = this.entries.get(normalize(address)) as Entry
    const indefinite = entry.key !== undefined && entry.until === Infinity
    entry.key = key
    entry.until = seconds === 0n || indefinite ? Infinity : this.clock.now() + Number(seconds) * 1000
  }

  /** Locks an account: its key can no longer sign until unlocked again. */
  lock(address: string): void {
    const entry = this.entries.get(normalize(address))
    if (entry !== undefined) this.relock(entry)
  }

  /** personal_newAccount: a new random key, sealed under `passphrase`, locked. */
  async create(passphrase: string): Promise<Hex> {
    for (;;) {
      const key = new Uint8Array(randomBytes(32))
      const d = BigInt(data(key))
      if (d === 0n || d >= SECP256K1_N) continue
      return this.add(key, passphrase)
    }
  }

  /** personal_importRawKey: an existing key, sealed under `passphrase`, locked. */
  async importKey(key: Uint8Array, passphrase: string): Promise<Hex> {
    checkPrivateKey(key)
    if (this.has(addressOf(key))) throw new Refused('account already exists')
    return this.add(key, passphrase)
  }

  private async add(key: Uint8Array, passphrase: string): Promise<Hex> {
    const address = addressOf(key)
    const sealed = await seal(key, passphrase)
    // Checked again after the await: two imports of one key may race.
    if (this.has(address)) throw new Refused('account already exists')
    this.entries.set(normalize(address), { address, key: undefined, sealed, until: 0 })
    return address
  }

  private relock(entry: Entry): void {
    entry.until = 0
    // A sealed key leaves memory; the node's own keys are derived from a printed mnemonic anyway.
    if (entry.sealed !== undefined) entry.key = undefined
  }
}
