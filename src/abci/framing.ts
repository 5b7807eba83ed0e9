/**
 * The framing of CometBFT's ABCI socket protocol: each protobuf message is preceded by its length
 * as an unsigned varint (CometBFT's `libs/protoio` delimited writer and reader, as
 * `abci/types/messages.go` uses them).
 */
import { concat } from '../hex.js'

/**
 * The largest message the server reads unless told otherwise: 64 MiB, room for a FinalizeBlock
 * of CometBFT's default block size (`max_bytes` 21 MiB) with its overhead.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024

/** The bounds of the setting: a message of 1 KiB up to 2 GiB − 1 (a length CometBFT's int32 sizes can carry). */
export const MAX_MESSAGE_BYTES_RANGE = { min: 1024, max: 2 ** 31 - 1 } as const

/** Throws, naming `name` and the bounds, unless `value` is an integer within {@link MAX_MESSAGE_BYTES_RANGE}. */
export function checkMaxMessageBytes(value: unknown, name = 'maxMessageBytes'): number {
  const { min, max } = MAX_MESSAGE_BYTES_RANGE
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max} (bytes), not ${String(value)}`)
  }
  return value
}

/** `message` with its varint length before it. */
export function frame(message: Uint8Array): Uint8Array {
  const prefix: number[] = []
  let n = message.length
  while (n >= 0x80) {
    prefix.push((n & 0x7f) | 0x80)
    n >>>= 7
  }
  prefix.push(n)
  const out = new Uint8Array(prefix.length + message.length)
  out.set(prefix, 0)
  out.set(message, prefix.length)
  return out
}

/** Splits a byte stream into the messages it carries, however the chunks cut it. */
export class FrameReader {
  /** The chunks not yet read, and their length; joined only once a whole message is there. */
  private chunks: Uint8Array[] = []
  private held = 0
  /** The bytes the message under way needs (prefix included), once its prefix was read. */
  private needed = 0

  /** `maxMessageBytes`: a longer message is refused (checked with {@link checkMaxMessageBytes}). */
  constructor(private readonly maxMessageBytes: number = DEFAULT_MAX_MESSAGE_BYTES) {
    checkMaxMessageBytes(maxMessageBytes)
  }

  /** Adds `chunk` and answers every message now complete, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    this.chunks.push(chunk)
    this.held += chunk.length
    if (this.held < this.needed) return []
    // A plain Uint8Array view (a socket's chunks are Buffers, whose slices would be Buffers too).
    const joined = this.chunks.length === 1 ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length) : concat(...this.chunks)
    const messages: Uint8Array[] = []
    let at = 0
    this.needed = 0
    for (;;) {
      let length = 0
      let shift = 0
      let i = at
      let complete = false
      while (i < joined.length) {
        const byte = joined[i++] as number
        length += (byte & 0x7f) * 2 ** shift
        shift += 7
        if ((byte & 0x80) === 0) {
          complete = true
          break
        }
        if (shift > 35) throw new Error('ABCI: malformed message length (varint too long)')
      }
      if (!complete) break
      if (length > this.maxMessageBytes) throw new Error(`ABCI: message of ${length} bytes is over the limit of ${this.maxMessageBytes} (maxMessageBytes)`)
      if (joined.length - i < length) {
        this.needed = i - at + length
        break
      }
      messages.push(joined.slice(i, i + length))
      at = i + length
    }
    const rest = joined.subarray(at)
    this.chunks = rest.length === 0 ? [] : [rest]
    this.held = rest.length
    return messages
  }
}
