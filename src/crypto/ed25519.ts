/**
 * ed25519 for consensus votes: libsodium through the optional `sodium-native` binding where it
 * loads (~20 µs a signature here), `node:crypto` (OpenSSL, ~42 µs) everywhere else. ed25519
 * signatures are deterministic (RFC 8032), so both paths produce the same bytes;
 * `FINALITY_ED25519=node` forces `node:crypto`.
 */
import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from 'node:crypto'
import { createRequire } from 'node:module'
import { concat } from '../hex.js'

interface Sodium {
  crypto_sign_seed_keypair(publicKey: Uint8Array, secretKey: Uint8Array, seed: Uint8Array): void
  crypto_sign_detached(signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array): void
  crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean
}

/** Which implementation is in use. */
export type Ed25519Backend = 'sodium' | 'node'

/** Read at load, as before the binding itself was deferred. */
const forceNode = process.env.FINALITY_ED25519 === 'node'

function loadSodium(): Sodium | undefined {
  if (forceNode) return undefined
  try {
    return createRequire(import.meta.url)('sodium-native') as Sodium
  } catch {
    return undefined
  }
}

/** The binding, loaded at the first signature or verification (null: not available). */
let sodiumBinding: Sodium | null | undefined
function sodium(): Sodium | undefined {
  if (sodiumBinding === undefined) sodiumBinding = loadSodium() ?? null
  return sodiumBinding ?? undefined
}

/** The backend in use (loads the binding if it is not loaded yet). */
export function ed25519Backend(): Ed25519Backend {
  return sodium() === undefined ? 'node' : 'sodium'
}

// PKCS#8 and SPKI prefixes for a raw ed25519 key (RFC 8410), so node:crypto can use it.
const PKCS8_PREFIX = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20])
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00])

const SLAB_SIZE = 8192
let slab = Buffer.allocUnsafeSlow(SLAB_SIZE)
let used = 0

/** 64 bytes of their own for a signature, cut out of a shared slab. */
function signatureSlot(): Uint8Array {
  if (used + 64 > SLAB_SIZE) {
    slab = Buffer.allocUnsafeSlow(SLAB_SIZE)
    used = 0
  }
  const slot = new Uint8Array(slab.buffer, slab.byteOffset + used, 64)
  used += 64
  return slot
}

/** A key pair from a 32-byte seed. */
export interface Ed25519Key {
  /** Raw 32-byte public key. */
  readonly publicKey: Uint8Array
  sign(message: Uint8Array): Uint8Array
}

/**
 * The key pair of a 32-byte ed25519 seed. The public key comes from node:crypto (a node's
 * validator keys exist before anything is signed); the binding loads at the first signature.
 */
export function ed25519Key(seed: Uint8Array): Ed25519Key {
  if (seed.length !== 32) throw new Error('ed25519 seed must be 32 bytes')
  const privateKey = createPrivateKey({ key: Buffer.from(concat(PKCS8_PREFIX, seed)), format: 'der', type: 'pkcs8' })
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' })
  const publicKey = new Uint8Array(spki.subarray(spki.length - 32))
  // libsodium's secret key is the seed followed by the public key.
  let secretKey: Uint8Array | undefined
  return {
    publicKey,
    sign(message) {
      const binding = sodium()
      if (binding === undefined) return new Uint8Array(nodeSign(null, message, privateKey))
      secretKey ??= concat(seed, publicKey)
      // A view of a slab outside V8's heap: the binding would move a fresh 64-byte array off
      // the heap before writing into it.
      const signature = signatureSlot()
      binding.crypto_sign_detached(signature, message, secretKey)
      return signature
    },
  }
}

/** Checks an ed25519 signature by a raw public key. */
export function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false
  const binding = sodium()
  if (binding !== undefined) return binding.crypto_sign_verify_detached(signature, message, publicKey)
  const key = createPublicKey({ key: Buffer.from(concat(SPKI_PREFIX, publicKey)), format: 'der', type: 'spki' })
  return nodeVerify(null, message, key, signature)
}
