/**
 * Validators and their keys. As in CometBFT, a validator signs votes with an ed25519 key and is
 * named by the first 20 bytes of sha256(public key); its fee recipient (the block's `miner`) is
 * the Ethereum-style address of that key, so fees never land in a prefunded test account.
 */
import { createPrivateKey, createPublicKey, sign as edSign, verify as edVerify, type KeyObject } from 'node:crypto'
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import { concat, data, type Hex } from '../hex.js'

// PKCS#8 and SPKI prefixes for a raw ed25519 key (RFC 8410), so node:crypto can use it.
const PKCS8_PREFIX = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20])
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00])

/** One member of the validator set. */
export interface Validator {
  /** sha256(publicKey)[0..20], hex. */
  readonly address: Hex
  /** Raw 32-byte ed25519 public key. */
  readonly publicKey: Uint8Array
  readonly power: bigint
  /** Where this validator's proposed blocks send their fees (`miner`). */
  readonly feeRecipient: Hex
  /** An offline validator neither proposes nor votes. */
  online: boolean
  /** Signs consensus bytes; only validators whose key this node holds can. */
  sign(message: Uint8Array): Uint8Array
}

/** Checks an ed25519 signature by a raw public key. */
export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({ key: Buffer.from(concat(SPKI_PREFIX, publicKey)), format: 'der', type: 'spki' })
  return edVerify(null, message, key, signature)
}

/** Creates a validator from a 32-byte ed25519 seed. */
export function createValidator(seed: Uint8Array, power = 10n): Validator {
  if (seed.length !== 32) throw new Error('validator seed must be 32 bytes')
  const privateKey: KeyObject = createPrivateKey({ key: Buffer.from(concat(PKCS8_PREFIX, seed)), format: 'der', type: 'pkcs8' })
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' })
  const publicKey = new Uint8Array(spki.subarray(spki.length - 32))
  return {
    address: data(sha256(publicKey).subarray(0, 20)),
    publicKey,
    power,
    feeRecipient: data(keccak_256(publicKey).subarray(12)),
    online: true,
    sign: (message) => new Uint8Array(edSign(null, message, privateKey)),
  }
}

/** The seed of validator `index` of a node, derived from the node's BIP-39 seed. */
export function validatorSeed(nodeSeed: Uint8Array, index: number): Uint8Array {
  return keccak_256(concat(new TextEncoder().encode(`finality/validator/${index}`), nodeSeed))
}
