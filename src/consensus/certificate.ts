/** Storage and wire forms of commit certificates. */
import { data, fromHex, quantity, toBigInt, type Hex } from '../hex.js'
import { encodeList, encodeString, itemBounds, listItems, uintLength, writeUint } from '../rlp.js'
import type { CommitCertificate } from './votes.js'
import type { Validator } from './validator.js'

/**
 * RLP bytes for the database: `[height, round, blockHash, proposer, [[validator, signature], …]]`,
 * integers as minimal big-endian strings (the bytes @ethereumjs/rlp wrote for the same list, so
 * stores written before read the same).
 */
export function encodeCertificate(c: CommitCertificate): Uint8Array {
  return encodeList([
    encodeUint(c.height),
    encodeUint(BigInt(c.round)),
    encodeString(c.blockHash),
    encodeString(fromHex(c.proposer)),
    encodeList(c.precommits.map((p) => encodeList([encodeString(fromHex(p.validator)), encodeString(p.signature)]))),
  ])
}

/** Inverse of {@link encodeCertificate}; throws on bytes of another shape. */
export function decodeCertificate(bytes: Uint8Array): CommitCertificate {
  const top = listItems(bytes, 0)
  if (top.end !== bytes.length || top.starts.length !== 5) throw new Error('RLP: not a commit certificate')
  const [height, round, blockHash, proposer, precommits] = top.starts as [number, number, number, number, number]
  return {
    height: toBigInt(stringAt(bytes, height)),
    round: Number(toBigInt(stringAt(bytes, round))),
    blockHash: stringAt(bytes, blockHash),
    proposer: data(stringAt(bytes, proposer)),
    precommits: listItems(bytes, precommits).starts.map((at) => {
      const pair = listItems(bytes, at).starts
      if (pair.length !== 2) throw new Error('RLP: a precommit is [validator, signature]')
      return { validator: data(stringAt(bytes, pair[0] as number)), signature: stringAt(bytes, pair[1] as number) }
    }),
  }
}

function encodeUint(value: bigint): Uint8Array {
  const out = new Uint8Array(uintLength(value))
  writeUint(out, 0, value)
  return out
}

/** The byte string at `pos` (a copy: the certificate outlives the bytes it was read from). */
function stringAt(bytes: Uint8Array, pos: number): Uint8Array {
  if ((bytes[pos] ?? 0) >= 0xc0) throw new Error('RLP: a list where a string belongs')
  const { payload, end } = itemBounds(bytes, pos)
  if (end > bytes.length) throw new Error('RLP: truncated input')
  return bytes.slice(payload, end)
}

/** The JSON shape returned by `finality_getCommitCertificate`. */
/**
 * ABCI's decided last commit from a block's certificate: each validator of the block's set and
 * whether its precommit is in the certificate (none for genesis, which has no certificate).
 */
export function commitVotes(certificate: CommitCertificate | undefined, set: readonly Validator[]): Array<{ validator: string; signed: boolean }> {
  if (certificate === undefined) return []
  const signed = new Set(certificate.precommits.map((p) => p.validator.toLowerCase()))
  return set.map((v) => ({ validator: v.address, signed: signed.has(v.address.toLowerCase()) }))
}

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
