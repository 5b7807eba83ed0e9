/**
 * Matching code found on chain to a compiled contract. What solc leaves open differs between a
 * deployment and its artifact, so those bytes are masked before comparing: library addresses
 * (link references), immutables (filled by the constructor), a library's own address (the
 * `PUSH20 <address> ADDRESS EQ` guard its deployed code starts with) and the metadata hash at the
 * end (a CBOR map and its 2-byte length: the same source compiled from another path or with other
 * comments differs only there).
 */
import type { CodeMetadata } from './artifacts.js'

/** A compiled code, ready to compare: its bytes and which bytes to ignore. */
export interface MaskedCode {
  readonly bytes: Uint8Array
  /** 1 where the byte is compared, 0 where it is masked. */
  readonly compared: Uint8Array
}

const PLACEHOLDER = /__\$[0-9a-fA-F]{34}\$__|__[^_][^\s]{0,36}__/g

/** The length of the CBOR metadata tail (with its 2 length bytes), or 0 when there is none. */
export function metadataTailLength(bytes: Uint8Array): number {
  if (bytes.length < 2) return 0
  const n = (bytes[bytes.length - 2]! << 8) | bytes[bytes.length - 1]!
  const start = bytes.length - 2 - n
  // A CBOR map of 1 to 5 entries (solc writes `ipfs`/`bzzr0`/`bzzr1`, `experimental`, `solc`).
  if (n === 0 || start < 0 || bytes[start]! < 0xa1 || bytes[start]! > 0xa5) return 0
  return n + 2
}

/** Masks the data of every `PUSH32 0` (solc's placeholder for an immutable) of the instructions. */
function maskZeroPush32(bytes: Uint8Array, compared: Uint8Array): void {
  for (let pc = 0; pc < bytes.length; ) {
    const op = bytes[pc]!
    if (op === 0x7f && pc + 33 <= bytes.length && bytes.subarray(pc + 1, pc + 33).every((b) => b === 0)) compared.fill(0, pc + 1, pc + 33)
    pc += op >= 0x60 && op <= 0x7f ? op - 0x5e : 1
  }
}

/** A compiled code with its open bytes masked. */
export function maskCode(code: CodeMetadata, runtime: boolean): MaskedCode {
  const bytes = Buffer.from(code.hex.replace(PLACEHOLDER, (p) => '0'.repeat(p.length)), 'hex')
  const compared = new Uint8Array(bytes.length).fill(1)
  for (const r of code.filled) compared.fill(0, r.start, r.start + r.length)
  if (code.immutablesUnknown === true) maskZeroPush32(bytes, compared)
  // A library's deployed code checks it is called by DELEGATECALL against its own address.
  if (runtime && bytes[0] === 0x73 && bytes.length > 22 && bytes[21] === 0x30 && bytes.subarray(1, 21).every((b) => b === 0)) compared.fill(0, 1, 21)
  const tail = metadataTailLength(bytes)
  if (tail > 0) compared.fill(0, bytes.length - tail)
  return { bytes, compared }
}

/**
 * Whether `found` is `compiled`: the same length for deployed code, or for creation code at
 * least the compiled length (the constructor's arguments follow it), every compared byte equal.
 */
export function codeMatches(compiled: MaskedCode, found: Uint8Array, runtime: boolean): boolean {
  const n = compiled.bytes.length
  if (runtime ? found.length !== n : found.length < n) return false
  const { bytes, compared } = compiled
  for (let i = 0; i < n; i++) if (compared[i] === 1 && bytes[i] !== found[i]) return false
  return true
}
