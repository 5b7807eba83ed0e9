/**
 * A commit certificate checked in the browser, as docs/validators.md describes: every precommit
 * an ed25519 signature (RFC 8032, @noble/curves: the library the node signs with) by a distinct
 * member of the height's set over "finality/consensus/v1" ‖ RLP([3, chainId, height, round,
 * blockHash]); each member's address sha256(public key)[0..20]; the signers holding more than 2/3
 * of the set's power; the block hash the chain's block of that height.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'

export interface CertificateJson {
  height: string
  round: string
  blockHash: string
  proposer: string
  precommits: Array<{ validator: string; signature: string }>
  validatorSet: Array<{ address: string; publicKey: string; votingPower: string }>
}

export interface SignatureCheck {
  validator: string
  ok: boolean
  why?: string
}

export interface CertificateCheck {
  ok: boolean
  signatures: SignatureCheck[]
  signedPower: bigint
  totalPower: bigint
  problems: string[]
}

const strip = (hex: string) => hex.replace(/^0x/, '')
const bytes = (hex: string) => hexToBytes(strip(hex).length % 2 === 1 ? `0${strip(hex)}` : strip(hex))

/** An RLP integer: minimal big-endian bytes, 0 as the empty string. */
function rlpInt(n: bigint): Uint8Array {
  if (n === 0n) return new Uint8Array()
  return bytes(n.toString(16))
}

function rlpItem(b: Uint8Array): Uint8Array {
  if (b.length === 1 && (b[0] as number) < 0x80) return b
  if (b.length > 55) throw new Error('item too long for this encoder')
  return new Uint8Array([0x80 + b.length, ...b])
}

function rlpList(items: Uint8Array[]): Uint8Array {
  const body = items.flatMap((i) => [...rlpItem(i)])
  if (body.length > 55) throw new Error('list too long for this encoder')
  return new Uint8Array([0xc0 + body.length, ...body])
}

/** The bytes a validator signs for `step` (1 proposal, 2 prevote, 3 precommit). */
export function signBytes(step: number, chainId: bigint, height: bigint, round: bigint, blockHash: string): Uint8Array {
  const prefix = new TextEncoder().encode('finality/consensus/v1')
  const list = rlpList([rlpInt(BigInt(step)), rlpInt(chainId), rlpInt(height), rlpInt(round), bytes(blockHash)])
  return new Uint8Array([...prefix, ...list])
}

/** Checks `cert` for the chain's block `blockHash` on `chainId`. */
export function checkCertificate(cert: CertificateJson, blockHash: string, chainId: bigint): CertificateCheck {
  const problems: string[] = []
  if (cert.blockHash.toLowerCase() !== blockHash.toLowerCase()) problems.push(`the certificate is for ${cert.blockHash}, the block is ${blockHash}`)
  const members = new Map<string, { key: Uint8Array; power: bigint }>()
  let totalPower = 0n
  for (const v of cert.validatorSet) {
    const key = bytes(v.publicKey)
    const address = `0x${bytesToHex(sha256(key).subarray(0, 20))}`
    if (address !== v.address.toLowerCase()) problems.push(`${v.address}: its public key hashes to ${address}`)
    members.set(v.address.toLowerCase(), { key, power: BigInt(v.votingPower) })
    totalPower += BigInt(v.votingPower)
  }
  const message = signBytes(3, chainId, BigInt(cert.height), BigInt(cert.round), cert.blockHash)
  const seen = new Set<string>()
  let signedPower = 0n
  const signatures = cert.precommits.map(({ validator, signature }): SignatureCheck => {
    const member = members.get(validator.toLowerCase())
    if (member === undefined) return { validator, ok: false, why: 'not in the set' }
    if (seen.has(validator.toLowerCase())) return { validator, ok: false, why: 'counted twice' }
    seen.add(validator.toLowerCase())
    let ok = false
    try {
      ok = ed25519.verify(bytes(signature), message, member.key)
    } catch {
      ok = false
    }
    if (ok) signedPower += member.power
    return ok ? { validator, ok } : { validator, ok, why: 'bad signature' }
  })
  if (signatures.some((s) => !s.ok)) problems.push('a precommit does not verify')
  if (signedPower * 3n <= totalPower * 2n) problems.push(`signers hold ${signedPower} of ${totalPower} voting power, not more than 2/3`)
  return { ok: problems.length === 0, signatures, signedPower, totalPower, problems }
}
