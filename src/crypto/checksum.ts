/**
 * EIP-55 mixed-case checksum of an address, hashed by the node's keccak (WebAssembly once a node
 * has started). @ethereumjs/util's `toChecksumAddress` hashes with @noble/hashes: the first node's
 * twenty accounts through its not yet compiled keccak cost ~3 ms of every cold start.
 */
import { keccak256 } from './keccak.js'
import type { Hex } from '../hex.js'

const LOWER = /^0x[0-9a-f]{40}$/

/** The EIP-55 form of a `0x`-prefixed 20-byte address (any case in, checksummed out). */
export function checksumAddress(address: string): Hex {
  const lower = address.toLowerCase()
  if (!LOWER.test(lower)) throw new Error(`not an address: ${address}`)
  const digits = lower.slice(2)
  const hash = keccak256(Buffer.from(digits, 'latin1'))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const c = digits[i] as string
    // The i-th nibble of the hash: 8 or more makes a letter upper case.
    const nibble = ((hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0)) & 0xf
    out += nibble >= 8 ? c.toUpperCase() : c
  }
  return out as Hex
}
