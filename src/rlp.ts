/**
 * RLP written straight into one buffer, for the hot paths that know their items' sizes (trie
 * nodes, blocks): the generic encoder of @ethereumjs/rlp allocates per item and per list.
 */
import { byteLength, writeBigEndian } from './hex.js'

/** Length of a byte string's RLP. */
export function stringLength(b: Uint8Array): number {
  return b.length === 1 && (b[0] as number) < 0x80 ? 1 : headerLength(b.length) + b.length
}

/** Length of the header of an RLP string or list whose payload is `length` bytes. */
export function headerLength(length: number): number {
  if (length <= 55) return 1
  let n = 1
  for (let l = length; l > 255; l = Math.floor(l / 256)) n++
  return 1 + n
}

/** Writes an RLP string (base 0x80) or list (base 0xc0) header; returns the next position. */
export function writeHeader(out: Uint8Array, pos: number, base: number, length: number): number {
  if (length <= 55) {
    out[pos] = base + length
    return pos + 1
  }
  const size = headerLength(length) - 1
  out[pos] = base + 55 + size
  for (let i = size, l = length; i > 0; i--, l = Math.floor(l / 256)) out[pos + i] = l & 0xff
  return pos + 1 + size
}

/** Writes an RLP byte string; returns the next position. */
export function writeString(out: Uint8Array, pos: number, b: Uint8Array): number {
  if (b.length === 1 && (b[0] as number) < 0x80) {
    out[pos] = b[0] as number
    return pos + 1
  }
  pos = writeHeader(out, pos, 0x80, b.length)
  out.set(b, pos)
  return pos + b.length
}

/** Length of the RLP of a non-negative integer (as a byte string without leading zeros). */
export function uintLength(value: bigint): number {
  if (value < 0x80n) return 1
  const n = byteLength(value)
  return headerLength(n) + n
}

/** Writes the RLP of a non-negative integer without an intermediate array; returns the next position. */
export function writeUint(out: Uint8Array, pos: number, value: bigint): number {
  if (value === 0n) {
    out[pos] = 0x80
    return pos + 1
  }
  if (value < 0x80n) {
    out[pos] = Number(value)
    return pos + 1
  }
  const n = byteLength(value)
  pos = writeHeader(out, pos, 0x80, n)
  writeBigEndian(out, pos + n, value)
  return pos + n
}

/**
 * The RLP list of items that are already RLP-encoded (each embedded as it is).
 */
export function encodeList(items: readonly Uint8Array[]): Uint8Array {
  let payload = 0
  for (const item of items) payload += item.length
  const out = new Uint8Array(headerLength(payload) + payload)
  let pos = writeHeader(out, 0, 0xc0, payload)
  for (const item of items) {
    out.set(item, pos)
    pos += item.length
  }
  return out
}

/** The RLP of a byte string. */
export function encodeString(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(stringLength(bytes))
  writeString(out, 0, bytes)
  return out
}

/** Where an RLP item starts its payload and where it ends, read at `pos`. */
export function itemBounds(bytes: Uint8Array, pos: number): { payload: number; end: number } {
  const b = bytes[pos]
  if (b === undefined) throw new Error('RLP: truncated input')
  if (b < 0x80) return { payload: pos, end: pos + 1 }
  if (b < 0xb8) return { payload: pos + 1, end: pos + 1 + b - 0x80 }
  if (b >= 0xc0 && b < 0xf8) return { payload: pos + 1, end: pos + 1 + b - 0xc0 }
  const size = b < 0xc0 ? b - 0xb7 : b - 0xf7
  let length = 0
  for (let i = 1; i <= size; i++) length = length * 256 + (bytes[pos + i] ?? 0)
  return { payload: pos + 1 + size, end: pos + 1 + size + length }
}

/** The start offsets of the items of the RLP list at `pos`, and where the list ends. */
export function listItems(bytes: Uint8Array, pos: number): { starts: number[]; end: number } {
  if ((bytes[pos] ?? 0) < 0xc0) throw new Error('RLP: not a list')
  const { payload, end } = itemBounds(bytes, pos)
  if (end > bytes.length) throw new Error('RLP: truncated input')
  const starts: number[] = []
  for (let at = payload; at < end; at = itemBounds(bytes, at).end) starts.push(at)
  return { starts, end }
}

/** The RLP list of byte strings (a header's or an account's fields), written into one buffer. */
export function encodeStrings(items: readonly Uint8Array[]): Uint8Array {
  let payload = 0
  for (const item of items) payload += stringLength(item)
  const out = new Uint8Array(headerLength(payload) + payload)
  let pos = writeHeader(out, 0, 0xc0, payload)
  for (const item of items) pos = writeString(out, pos, item)
  return out
}
