/**
 * Validators as consensus names them: address, key and power (the keys and their crypto are in
 * `keys.ts`, used by the hosts of the state machine only).
 */
import type { Hex } from '../hex.js'

/**
 * One member of the validator set, as `node.validators` lists it: with `online`, read from the
 * validator set (which alone changes it, through `node.setValidatorOnline`).
 */
export interface ValidatorStatus extends Validator {
  /** An offline validator neither proposes nor votes. */
  readonly online: boolean
}

/** One member of the validator set: its key and power. Whether it is online is the set's. */
export interface Validator {
  /** sha256(publicKey)[0..20], hex. */
  readonly address: Hex
  /** Raw 32-byte ed25519 public key. */
  readonly publicKey: Uint8Array
  readonly power: bigint
  /** Where this validator's proposed blocks send their fees (`miner`). */
  readonly feeRecipient: Hex
  /**
   * Signs consensus bytes; only validators whose key this node holds can. Called by the hosts
   * (the engine, the in-process network), never by the state machine.
   */
  sign(message: Uint8Array): Uint8Array
}
