/**
 * Wire encoders: bigint and bytes inside, hex only on the wire.
 * One encoder per wire type of the interface spec (QTY, DATA, ADDR, HASH).
 */
import { hexToBytes as nobleHexToBytes } from '@noble/hashes/utils.js'

/** A `0x`-prefixed hex string. */
export type Hex = `0x${string}`

/** QTY: most compact hex, zero is `0x0`. */
export function quantity(value: bigint | number): Hex {
  return `0x${value.toString(16)}`
}

/** The two ASCII hex digits of each byte value: high digit, then low digit. */
const HIGH = new Uint8Array(256)
const LOW = new Uint8Array(256)
for (let i = 0; i < 256; i++) {
  const digits = i.toString(16).padStart(2, '0')
  HIGH[i] = digits.charCodeAt(0)
  LOW[i] = digits.charCodeAt(1)
}
/** Where short inputs' digits are written before they become one string (hex is synchronous). */
const SCRATCH_BYTES = 256
const scratch = Buffer.allocUnsafeSlow(2 * SCRATCH_BYTES)
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice(this: Buffer, start: number, end: number): string }).latin1Slice

/**
 * Lower-case hex of bytes, as one flat string. Short inputs (keys, hashes, addresses: the keys
 * of every in-memory map, made many times a block) get their digits from a table into a scratch
 * buffer that Node turns into a string natively: handing the input itself to Node's encoder made
 * V8 move a small array's bytes off the heap into an ArrayBuffer of its own first (~0.4 µs, and
 * garbage that the young-generation GC has to track). A JavaScript string built digit by digit
 * would be a chain of concatenations that V8 keeps as such inside Maps. Long inputs go to Node's
 * encoder directly.
 */
function hexOf(bytes: Uint8Array, start = 0): string {
  const n = bytes.length - start
  if (n > SCRATCH_BYTES) return Buffer.from(bytes.buffer, bytes.byteOffset + start, n).toString('hex')
  for (let i = 0; i < n; i++) {
    const b = bytes[start + i] as number
    scratch[2 * i] = HIGH[b] as number
    scratch[2 * i + 1] = LOW[b] as number
  }
  return latin1Slice.call(scratch, 0, 2 * n)
}

/** DATA: two hex digits per byte, `0x` for empty. */
export function data(bytes: Uint8Array): Hex {
  return `0x${hexOf(bytes)}`
}

/** Bytes from a hex string that the codecs already validated. */
export function fromHex(hex: string): Uint8Array {
  const body = hex.startsWith('0x') ? hex.slice(2) : hex
  const even = body.length % 2 === 1 ? `0${body}` : body
  // Long inputs (raw transactions, calldata) by Node's native decoder, copied out of its shared
  // pool; anything that is not hex still goes to noble, which says what is wrong with it.
  if (even.length > 128 && HEX_DIGITS_ONLY.test(even)) return new Uint8Array(Buffer.from(even, 'hex'))
  return nobleHexToBytes(even)
}

const HEX_DIGITS_ONLY = /^[0-9a-fA-F]*$/

/** Each hex digit's value by character code (below 128), either case; 255 for any other character. */
export const NIBBLE = new Uint8Array(128).fill(255)
for (let i = 0; i < 16; i++) {
  NIBBLE[i.toString(16).charCodeAt(0)] = i
  NIBBLE[i.toString(16).toUpperCase().charCodeAt(0)] = i
}

/**
 * Bytes from the digits of a hex string already checked (an even number of hex digits, no
 * prefix: the codecs check each param once). Long inputs (raw transactions, calldata) are written
 * by Node's native decoder straight into the result; short ones (hashes, addresses) digit by
 * digit from a table, without a view of the result that would move its bytes off V8's heap.
 */
export function fromCheckedHex(digits: string): Uint8Array {
  const out = new Uint8Array(digits.length >> 1)
  if (out.length > 64) {
    Buffer.from(out.buffer, out.byteOffset, out.length).write(digits, 'hex')
    return out
  }
  for (let i = 0, j = 0; i < out.length; i++, j += 2) {
    out[i] = ((NIBBLE[digits.charCodeAt(j)] as number) << 4) | (NIBBLE[digits.charCodeAt(j + 1)] as number)
  }
  return out
}

/** Lower-case, unprefixed hex: the key form used by every in-memory map. */
export function keyOf(bytes: Uint8Array): string {
  return hexOf(bytes)
}

/** A bigint as a 32-byte big-endian word. */
export function word(value: bigint): Uint8Array {
  if (value < 0n || value >= TWO_256) return fromHex(value.toString(16).padStart(64, '0'))
  // Without a trip through `fromHex` (the EVM's MSTORE, SLOAD and LOG convert words this way too).
  const out = new Uint8Array(32)
  writeBigEndian(out, 32, value)
  return out
}

const TWO_256 = 1n << 256n
const MAX_48 = 0xffffffffffffn

/** Each hex digit's value by character code (lower case, as `bigint.toString(16)` writes). */
const DIGIT = new Uint8Array(128)
for (let i = 0; i < 16; i++) DIGIT[i.toString(16).charCodeAt(0)] = i

/** How many bytes a non-negative bigint takes without leading zeros (0 for zero). */
export function byteLength(value: bigint): number {
  if (value <= MAX_48) {
    let length = 0
    for (let n = Number(value); n > 0; n = Math.floor(n / 256)) length++
    return length
  }
  return (value.toString(16).length + 1) >> 1
}

/**
 * Writes a non-negative bigint's big-endian bytes so that they end just before `end`; returns
 * where they start. Up to 48 bits through a number; larger values through their hex digits, one
 * native conversion instead of a bigint division (a new bigint) per limb: ~260 against ~700 ns
 * for a 256-bit word.
 */
export function writeBigEndian(out: Uint8Array, end: number, value: bigint): number {
  let i = end
  if (value <= MAX_48) {
    for (let n = Number(value); n > 0; n = Math.floor(n / 256)) out[--i] = n % 256
    return i
  }
  const digits = value.toString(16)
  let j = digits.length
  for (; j > 1; j -= 2) out[--i] = ((DIGIT[digits.charCodeAt(j - 2)] as number) << 4) | (DIGIT[digits.charCodeAt(j - 1)] as number)
  if (j === 1) out[--i] = DIGIT[digits.charCodeAt(0)] as number
  return i
}

/** A bigint as big-endian bytes without leading zeros (empty for zero), as RLP wants integers. */
export function unpadded(value: bigint): Uint8Array {
  if (value < 0n) throw new RangeError('unpadded: negative value')
  const out = new Uint8Array(byteLength(value))
  writeBigEndian(out, out.length, value)
  return out
}

/** Big-endian unsigned bytes to bigint (empty = 0). */
export function toBigInt(bytes: Uint8Array): bigint {
  let i = 0
  while (i < bytes.length && bytes[i] === 0) i++
  if (i === bytes.length) return 0n
  if (bytes.length - i <= 6) {
    // Up to 48 bits fit a number exactly.
    let n = 0
    for (; i < bytes.length; i++) n = n * 256 + (bytes[i] as number)
    return BigInt(n)
  }
  if (bytes.length === 32) return wordToBigInt(bytes, i)
  // From an offset rather than a subarray: a view of a small array moves its bytes off the heap.
  return BigInt(`0x${hexOf(bytes, i)}`)
}

/** The 32-byte big-endian word at `at` of `bytes` (which holds at least `at + 32` bytes) as a bigint. */
export function wordAt(bytes: Uint8Array, at: number): bigint {
  let i = at
  const end = at + 32
  while (i < end && bytes[i] === 0) i++
  if (i === end) return 0n
  if (end - i <= 6) {
    let n = 0
    for (; i < end; i++) n = n * 256 + (bytes[i] as number)
    return BigInt(n)
  }
  for (let j = 0; j < 32; j++) WORD[j] = bytes[at + j] as number
  return wordFromScratch(i - at)
}

/** Scratch for {@link wordToBigInt}: its own buffer, so reading it never moves a caller's bytes. */
const WORD = new Uint8Array(new ArrayBuffer(32))
const WORD_VIEW = new DataView(WORD.buffer)

/**
 * A 32-byte word (the EVM's stack words, storage values, hashes) as a bigint from 64-bit limbs,
 * the bytes copied first into a scratch buffer: ~300 against ~560 ns through a hex string for
 * a fresh 32-byte array, which lives on the heap (a DataView of the word's own `.buffer` would
 * move it off). `first` is the index of its first non-zero byte.
 */
function wordToBigInt(bytes: Uint8Array, first: number): bigint {
  for (let j = 0; j < 32; j++) WORD[j] = bytes[j] as number
  return wordFromScratch(first)
}

/** The word in {@link WORD} as a bigint; `first` is the index of its first non-zero byte. */
function wordFromScratch(first: number): bigint {
  if (first >= 24) return WORD_VIEW.getBigUint64(24)
  const low = (WORD_VIEW.getBigUint64(16) << 64n) | WORD_VIEW.getBigUint64(24)
  if (first >= 16) return low
  return (((WORD_VIEW.getBigUint64(0) << 64n) | WORD_VIEW.getBigUint64(8)) << 128n) | low
}

/** Concatenate byte arrays. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  let length = 0
  for (const p of parts) length += p.length
  const out = new Uint8Array(length)
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}

/** Byte-wise equality. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
