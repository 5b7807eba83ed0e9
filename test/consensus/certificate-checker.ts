/**
 * An independent check of a commit certificate, written from docs/consensus.md ("The bytes
 * validators sign") with @noble's ed25519 and sha256 and a hand-written RLP: nothing of the
 * node's own signing or encoding code is used.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'

const DOMAIN = new TextEncoder().encode('finality/consensus/v1')

function rlpInt(n: bigint): Uint8Array {
  if (n === 0n) return Uint8Array.of(0x80)
  const hex = n.toString(16)
  const bytes = Uint8Array.from((hex.length % 2 ? '0' + hex : hex).match(/../g)!.map((b) => parseInt(b, 16)))
  return bytes.length === 1 && bytes[0]! < 0x80 ? bytes : Uint8Array.of(0x80 + bytes.length, ...bytes)
}

function rlpBytes(b: Uint8Array): Uint8Array {
  if (b.length === 1 && b[0]! < 0x80) return b
  if (b.length < 56) return Uint8Array.of(0x80 + b.length, ...b)
  throw new Error('not needed here')
}

/** "finality/consensus/v1" ‖ RLP([step, chainId, height, round, blockHash]). */
export function docSignBytes(step: 1 | 2 | 3, chainId: bigint, height: bigint, round: number, blockHash: Uint8Array): Uint8Array {
  const items = [rlpInt(BigInt(step)), rlpInt(chainId), rlpInt(height), rlpInt(BigInt(round)), rlpBytes(blockHash)]
  const payload = items.reduce((n, i) => n + i.length, 0)
  const header = payload < 56 ? Uint8Array.of(0xc0 + payload) : Uint8Array.of(0xf8, payload)
  const out = new Uint8Array(DOMAIN.length + header.length + payload)
  out.set(DOMAIN)
  let at = DOMAIN.length
  out.set(header, at)
  at += header.length
  for (const i of items) {
    out.set(i, at)
    at += i.length
  }
  return out
}

export interface CheckedMember {
  publicKey: Uint8Array
  power: bigint
}

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex')

/**
 * True when distinct members of `set` holding more than 2/3 of its power signed the precommit
 * (step 3) of the certificate's height, round and block.
 */
export function checkCertificate(
  cert: { height: bigint; round: number; blockHash: Uint8Array; precommits: Array<{ validator: string; signature: Uint8Array }> },
  set: CheckedMember[],
  chainId: bigint,
): boolean {
  const byAddress = new Map(set.map((m) => [hex(sha256(m.publicKey).subarray(0, 20)), m]))
  const total = set.reduce((s, m) => s + m.power, 0n)
  const message = docSignBytes(3, chainId, cert.height, cert.round, cert.blockHash)
  const seen = new Set<string>()
  let power = 0n
  for (const p of cert.precommits) {
    const address = p.validator.toLowerCase()
    const member = byAddress.get(address)
    if (member === undefined || seen.has(address)) return false
    if (!ed25519.verify(p.signature, message, member.publicKey)) return false
    seen.add(address)
    power += member.power
  }
  return power * 3n > total * 2n
}
