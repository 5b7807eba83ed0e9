/** Storage and wire forms of commit certificates. */
import { RLP } from '@ethereumjs/rlp'
import { data, fromHex, quantity, toBigInt, type Hex } from '../hex.js'
import type { CommitCertificate } from './votes.js'
import type { Validator } from './validator.js'

/** RLP bytes for the database. */
export function encodeCertificate(c: CommitCertificate): Uint8Array {
  return RLP.encode([
    c.height,
    c.round,
    c.blockHash,
    fromHex(c.proposer),
    c.precommits.map((p) => [fromHex(p.validator), p.signature]),
  ])
}

/** Inverse of {@link encodeCertificate}. */
export function decodeCertificate(bytes: Uint8Array): CommitCertificate {
  const [height, round, blockHash, proposer, precommits] = RLP.decode(bytes) as unknown as [
    Uint8Array, Uint8Array, Uint8Array, Uint8Array, Array<[Uint8Array, Uint8Array]>,
  ]
  return {
    height: toBigInt(height),
    round: Number(toBigInt(round)),
    blockHash,
    proposer: data(proposer),
    precommits: precommits.map(([v, s]) => ({ validator: data(v), signature: s })),
  }
}

/** The JSON shape returned by `finality_getCommitCertificate`. */
export interface CommitCertificateJson {
  height: Hex
  round: Hex
  blockHash: Hex
  proposer: Hex
  precommits: Array<{ validator: Hex; signature: Hex }>
}

/** Wire form. */
export function certificateToJson(c: CommitCertificate): CommitCertificateJson {
  return {
    height: quantity(c.height),
    round: quantity(c.round),
    blockHash: data(c.blockHash),
    proposer: c.proposer,
    precommits: c.precommits.map((p) => ({ validator: p.validator, signature: data(p.signature) })),
  }
}

/** A member of the set that signed a certificate, as served with it. */
export interface SignerJson {
  address: Hex
  publicKey: Hex
  votingPower: Hex
}

/** A certificate with the validator set of its height (the set it is verified against). */
export interface CertificateWithSetJson extends CommitCertificateJson {
  validatorSet: SignerJson[]
}

/** Wire form with the set of the certificate's height. */
export function certificateWithSetToJson(c: CommitCertificate, set: readonly Validator[]): CertificateWithSetJson {
  return { ...certificateToJson(c), validatorSet: set.map((v) => ({ address: v.address, publicKey: data(v.publicKey), votingPower: quantity(v.power) })) }
}
