/**
 * Validator keys, the crypto of consensus: as in CometBFT, a validator signs with an ed25519 key
 * and is named by the first 20 bytes of sha256(public key); its fee recipient (the block's
 * `miner`) is the Ethereum-style address of that key, so fees never land in a prefunded test
 * account. Only the hosts of the state machine (the engine, the in-process network) use this:
 * the machine itself signs and verifies nothing.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { ed25519Key, ed25519Verify } from '../crypto/ed25519.js'
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import { concat, data } from '../hex.js'
import type { Validator } from './validator.js'

/** Checks an ed25519 signature by a raw public key. */
export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  return ed25519Verify(publicKey, message, signature)
}

/** Creates a validator from a 32-byte ed25519 seed. */
export function createValidator(seed: Uint8Array, power = 10n): Validator {
  if (seed.length !== 32) throw new Error('validator seed must be 32 bytes')
  const key = ed25519Key(seed)
  return {
    address: data(sha256(key.publicKey).subarray(0, 20)),
    publicKey: key.publicKey,
    power,
    feeRecipient: data(keccak_256(key.publicKey).subarray(12)),
    sign: (message) => key.sign(message),
  }
}

/** The seed of validator `index` of a node, derived from the node's BIP-39 seed. */
export function validatorSeed(nodeSeed: Uint8Array, index: number): Uint8Array {
  return keccak_256(concat(new TextEncoder().encode(`finality/validator/${index}`), nodeSeed))
}
