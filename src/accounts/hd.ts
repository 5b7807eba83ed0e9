/**
 * BIP-32 private-key derivation (the part the node's accounts need): HMAC-SHA512 in node:crypto
 * and the public keys of the secp256k1 backend (native libsecp256k1 where it loads). @scure/bip32
 * did the same through @noble/curves, whose first public key builds its precomputed tables
 * (~45 ms of a process's first createNode()).
 */
import { createHmac } from 'node:crypto'
import { compressedPublicKeyOf } from '../crypto/secp256k1.js'

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const HARDENED = 0x80000000

/** A private extended key: the key and its chain code. */
export interface ExtendedKey {
  privateKey: Uint8Array
  chainCode: Uint8Array
}

function toBigInt(bytes: Uint8Array): bigint {
  let out = 0n
  for (const b of bytes) out = (out << 8n) | BigInt(b)
  return out
}

function toBytes32(value: bigint): Uint8Array {
  const out = new Uint8Array(32)
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(value & 0xffn)
    value >>= 8n
  }
  return out
}

function split(digest: Buffer): { left: bigint; chainCode: Uint8Array } {
  return { left: toBigInt(digest.subarray(0, 32)), chainCode: new Uint8Array(digest.subarray(32)) }
}

/** The master key of a BIP-39 seed. */
export function masterKey(seed: Uint8Array): ExtendedKey {
  const { left, chainCode } = split(createHmac('sha512', 'Bitcoin seed').update(seed).digest())
  if (left === 0n || left >= N) throw new Error('invalid master key: derive from another seed')
  return { privateKey: toBytes32(left), chainCode }
}

/** The child `index` of a key; `index` ≥ 2^31 is a hardened child. */
export function deriveChild(parent: ExtendedKey, index: number): ExtendedKey {
  if (!Number.isInteger(index) || index < 0 || index > 0xffffffff) throw new Error(`invalid child index ${index}`)
  const data = new Uint8Array(37)
  if (index >= HARDENED) data.set(parent.privateKey, 1)
  else data.set(compressedPublicKeyOf(parent.privateKey), 0)
  new DataView(data.buffer).setUint32(33, index)
  const { left, chainCode } = split(createHmac('sha512', parent.chainCode).update(data).digest())
  const key = (left + toBigInt(parent.privateKey)) % N
  if (left >= N || key === 0n) throw new Error(`invalid child key at index ${index}: use the next index`)
  return { privateKey: toBytes32(key), chainCode }
}

/** The key at a path such as `m/44'/60'/0'/0`. */
export function derivePath(seed: Uint8Array, path: string): ExtendedKey {
  const parts = path.split('/')
  if (parts[0] !== 'm') throw new Error(`invalid derivation path ${path}`)
  let key = masterKey(seed)
  for (const part of parts.slice(1)) {
    const match = /^(\d+)('?)$/.exec(part)
    if (match === null) throw new Error(`invalid derivation path ${path}`)
    const n = Number(match[1])
    if (n >= HARDENED) throw new Error(`invalid derivation path ${path}`)
    key = deriveChild(key, match[2] === "'" ? n + HARDENED : n)
  }
  return key
}
