/**
 * secp256k1 for transactions and `eth_sign`: the native libsecp256k1 binding (the optional
 * `secp256k1` package, ~30x faster at public-key recovery) where it loads, `@noble/curves`
 * everywhere else. Both paths produce identical results; `FINALITY_SECP256K1=noble` forces noble.
 */
import { createRequire } from 'node:module'
import { secp256k1 as noble } from '@noble/curves/secp256k1.js'
import type { CustomCrypto } from '@ethereumjs/common'
import { keccak256 } from './keccak.js'
import { lazyKzg } from './kzg.js'

interface NativeSecp256k1 {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed?: boolean): Uint8Array
  ecdsaSign(msg32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number }
  publicKeyCreate(privateKey: Uint8Array, compressed?: boolean): Uint8Array
}

/** Which implementation is in use. */
export type Secp256k1Backend = 'native' | 'noble'

function loadNative(): NativeSecp256k1 | undefined {
  if (process.env.FINALITY_SECP256K1 === 'noble') return undefined
  try {
    const require = createRequire(import.meta.url)
    // The package's own entry falls back to a slow pure-JS `elliptic`; only its binding is worth having.
    const binding = require('secp256k1/bindings') as NativeSecp256k1
    return binding
  } catch {
    return undefined
  }
}

const native = loadNative()

/** The backend chosen at load time. */
export const secp256k1Backend: Secp256k1Backend = native === undefined ? 'noble' : 'native'

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** Inputs of the native recovery, outside V8's heap (see `ecrecover`). */
const nativeSignature = Buffer.alloc(64)
const nativeHash = Buffer.alloc(32)

function recoveryId(v: bigint, chainId?: bigint): number {
  if (v === 0n || v === 1n) return Number(v)
  if (chainId === undefined) return Number(v - 27n)
  return Number(v - (chainId * 2n + 35n))
}

function pad32(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 32) return bytes
  if (bytes.length > 32) throw new Error('invalid signature component length')
  const out = new Uint8Array(32)
  out.set(bytes, 32 - bytes.length)
  return out
}

/**
 * Public key recovery with ethereumjs' `ecrecover` signature: returns the 64-byte uncompressed
 * key without its 0x04 prefix, throws on an invalid signature.
 */
export function ecrecover(
  msgHash: Uint8Array,
  v: bigint,
  r: Uint8Array,
  s: Uint8Array,
  chainId?: bigint,
): Uint8Array {
  const recid = recoveryId(v, chainId)
  if (recid !== 0 && recid !== 1) throw new Error('invalid signature v value')
  if (native !== undefined) {
    // The binding reads its inputs through their buffers: small arrays on V8's heap would first be
    // moved off it (~0.3 µs each), so they are copied into buffers outside the heap, reused.
    if (r.length > 32 || s.length > 32) throw new Error('invalid signature component length')
    if (msgHash.length !== 32) throw new Error('message hash must be 32 bytes')
    nativeSignature.fill(0)
    nativeSignature.set(r, 32 - r.length)
    nativeSignature.set(s, 64 - s.length)
    nativeHash.set(msgHash)
    return native.ecdsaRecover(nativeSignature, recid, nativeHash, false).subarray(1)
  }
  const signature = new Uint8Array(64)
  signature.set(pad32(r), 0)
  signature.set(pad32(s), 32)
  const sig = noble.Signature.fromBytes(signature, 'compact').addRecoveryBit(recid)
  return sig.recoverPublicKey(msgHash).toBytes(false).subarray(1)
}

/**
 * Signs a 32-byte hash; returns 65 bytes `[recovery, r, s]`, the layout of noble's
 * `format: 'recovered'` that ethereumjs' `ecsign` hook expects. Deterministic (RFC 6979).
 */
export function ecsign(msgHash: Uint8Array, privateKey: Uint8Array): Uint8Array {
  if (native !== undefined) {
    const { signature, recid } = native.ecdsaSign(msgHash, privateKey)
    const out = new Uint8Array(65)
    out[0] = recid
    out.set(signature, 1)
    return out
  }
  return noble.sign(msgHash, privateKey, { format: 'recovered', prehash: false, extraEntropy: false })
}

/** Signs a hash and returns `{ r, s, recovery }` as bigints / number. */
export function signHash(msgHash: Uint8Array, privateKey: Uint8Array): { r: bigint; s: bigint; recovery: number } {
  const sig = ecsign(msgHash, privateKey)
  let r = 0n
  let s = 0n
  for (let i = 1; i < 33; i++) r = (r << 8n) | BigInt(sig[i] as number)
  for (let i = 33; i < 65; i++) s = (s << 8n) | BigInt(sig[i] as number)
  if (s > SECP256K1_N / 2n) throw new Error('non-canonical signature')
  return { r, s, recovery: sig[0] as number }
}

/** The 64-byte uncompressed public key (no prefix) of a private key. */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  if (native !== undefined) return native.publicKeyCreate(privateKey, false).subarray(1)
  return noble.getPublicKey(privateKey, false).subarray(1)
}

/** The 33-byte compressed public key of a private key (BIP-32 derivation). */
export function compressedPublicKeyOf(privateKey: Uint8Array): Uint8Array {
  if (native !== undefined) return native.publicKeyCreate(privateKey, true)
  return noble.getPublicKey(privateKey, true)
}

/** The `customCrypto` hooks for `@ethereumjs/common`: fast keccak, native secp256k1, KZG loaded at its first use. */
export function customCrypto(): CustomCrypto {
  return {
    keccak256,
    kzg: lazyKzg,
    ecrecover,
    ecsign: ((msgHash: Uint8Array, privateKey: Uint8Array) => ecsign(msgHash, privateKey)) as CustomCrypto['ecsign'],
  }
}
