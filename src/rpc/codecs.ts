/**
 * Param codecs: decode and validate at the edge, so handlers see bigint, bytes and resolved
 * values, never raw hex. A bad value fails as geth does: `invalid argument N: <reason>`.
 */
import type { BlockTag } from '../chain/block-tag.js'
import { InvalidParamsError } from '../errors.js'
import { fromCheckedHex, type Hex } from '../hex.js'

/** Decodes one positional param; `index` names it in errors. */
export interface Codec<T> {
  /** Human name for docs and errors. */
  readonly name: string
  /** True when the param may be absent (then `decode` receives undefined). */
  readonly optional: boolean
  decode(value: unknown, index: number): T
}

/** Thrown by a codec with just the reason; the dispatcher prefixes the argument index. */
export class CodecError extends Error {}

function fail(reason: string): never {
  throw new CodecError(reason)
}

/** Runs a codec, turning a reason into geth's `invalid argument N: …`. */
export function decodeParam<T>(codec: Codec<T>, value: unknown, index: number): T {
  try {
    return codec.decode(value, index)
  } catch (error) {
    if (error instanceof CodecError) throw InvalidParamsError.argument(index, error.message)
    throw error
  }
}

const HEX_BODY = /^[0-9a-fA-F]*$/

/**
 * Max characters of a hex param; bounds the work any single value can cause. Codecs are
 * synchronous, so the dispatcher sets it for the duration of one call's decoding
 * ({@link withHexLimit}) and nodes with different limits never see each other's.
 */
let maxHexLength = 2 * 5 * 1024 * 1024 + 2

/** Runs synchronous decoding under a node's hex length limit. */
export function withHexLimit<T>(limit: number, decode: () => T): T {
  const previous = maxHexLength
  maxHexLength = limit
  try {
    return decode()
  } finally {
    maxHexLength = previous
  }
}

/**
 * Decodes a call's positional params by its codecs under a node's hex length limit: what
 * {@link withHexLimit} and {@link decodeParam} do for each, in one loop (no closure a call).
 * An absent or null value of a required param fails with geth's `missing value for required
 * argument N`.
 */
export function decodeParams(codecs: readonly Codec<unknown>[], args: readonly unknown[], limit: number): unknown[] {
  const previous = maxHexLength
  maxHexLength = limit
  try {
    const out = new Array<unknown>(codecs.length)
    for (let i = 0; i < codecs.length; i++) {
      const codec = codecs[i] as Codec<unknown>
      const value = args[i]
      if ((value === undefined || value === null) && !codec.optional) {
        throw new InvalidParamsError(`missing value for required argument ${i}`)
      }
      out[i] = decodeParam(codec, value, i)
    }
    return out
  } finally {
    maxHexLength = previous
  }
}

function hexString(value: unknown, what: string): string {
  if (typeof value !== 'string') fail(unmarshal(value, what))
  if (value.length > maxHexLength) fail('hex string too long')
  if (!value.startsWith('0x') && !value.startsWith('0X')) fail('hex string without 0x prefix')
  const body = value.slice(2)
  if (!HEX_BODY.test(body)) fail('invalid hex string')
  return body
}

/**
 * Go's `json: cannot unmarshal <kind> into Go value of type <type>`. A bigint reaches a codec only
 * in-process (JSON has none; Hardhat's in-process provider refuses it too, failing to serialize
 * it): the message says what to pass instead.
 */
function unmarshal(value: unknown, type: string): string {
  const text = `json: cannot unmarshal ${jsonKind(value)} into Go value of type ${type}`
  if (typeof value !== 'bigint') return text
  return `${text} (a bigint is not JSON: pass the hex string ${value >= 0n ? `"0x${value.toString(16)}"` : 'of the quantity'}, as over HTTP)`
}

function jsonKind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'object') return 'object'
  return typeof value === 'boolean' ? 'bool' : typeof value
}

/** QTY as bigint: no leading zeros, at most 256 bits. */
export function parseQuantity(value: unknown, bits = 256): bigint {
  const body = hexString(value, bits === 64 ? 'hexutil.Uint64' : '*hexutil.Big')
  if (body.length === 0) fail('hex string "0x"')
  if (body.length > 1 && body[0] === '0') fail('hex number with leading zero digits')
  if (body.length > bits / 4) fail(`hex number > ${bits} bits`)
  return BigInt(`0x${body}`)
}

/** DATA as bytes: even number of digits. */
export function parseData(value: unknown): Uint8Array {
  if (typeof value === 'string' && value.length >= LONG_DATA) {
    const bytes = longData(value)
    if (bytes !== undefined) return bytes
  }
  const body = hexString(value, 'hexutil.Bytes')
  if (body.length % 2 === 1) fail('hex string of odd length')
  return fromCheckedHex(body)
}

/** Data of at least this many characters is checked by {@link longData}'s native passes instead of a regular expression. */
const LONG_DATA = 2048

/**
 * Long DATA (init code, large call data) checked and decoded by two native passes instead of
 * {@link HEX_BODY}'s test and the decode: ~175 µs for an 81 KB init code against ~430. Node's hex
 * decoder stops at the first pair that is not two hex digits, so all bytes written means all
 * digits are hex; but it reads a two-byte string's characters by their low byte (`İ` as `0`), so
 * the string must be ASCII first (its UTF-8 length is its length). Undefined for anything else:
 * the checks of {@link hexString} then find and word the fault, in their order.
 */
function longData(value: string): Uint8Array | undefined {
  if (value.length > maxHexLength || value.length % 2 !== 0 || value.charCodeAt(0) !== 48 || (value.charCodeAt(1) | 0x20) !== 120) return undefined
  const body = value.slice(2)
  if (Buffer.byteLength(body, 'utf8') !== body.length) return undefined
  const out = new Uint8Array(body.length >> 1)
  return Buffer.from(out.buffer, out.byteOffset, out.length).write(body, 'hex') === out.length ? out : undefined
}

function fixed(value: unknown, size: number, type: string): Uint8Array {
  const body = hexString(value, type)
  if (body.length % 2 === 1) fail('hex string of odd length')
  if (body.length !== size * 2) fail(`hex string has length ${body.length}, want ${size * 2} for ${type}`)
  return fromCheckedHex(body)
}

function codec<T>(name: string, decode: (value: unknown, index: number) => T): Codec<T> {
  return { name, optional: false, decode }
}

/** Makes a codec optional: absent or null decodes to `fallback`. */
export function optional<T, F = undefined>(inner: Codec<T>, fallback?: F): Codec<T | F> {
  return {
    name: inner.name,
    optional: true,
    decode: (value, index) => (value === undefined || value === null ? (fallback as F) : inner.decode(value, index)),
  }
}

export const quantity = codec('QTY', (v) => parseQuantity(v))
export const uint64 = codec('QTY', (v) => parseQuantity(v, 64))
export const bytes = codec('DATA', (v) => parseData(v))
export const address = codec('ADDR', (v) => fixed(v, 20, 'common.Address'))
export const hash = codec('HASH', (v) => fixed(v, 32, 'common.Hash'))
/** A JSON string (passphrases, file paths, miner_setExtra's text). */
export const text = codec('string', (v) => (typeof v === 'string' ? v : fail(unmarshal(v, 'string'))))
export const boolean = codec('boolean', (v) => {
  if (typeof v !== 'boolean') fail(unmarshal(v, 'bool'))
  return v
})

/**
 * A JSON number decoded as Go decodes it into an integer type (`uint64`, `int`): geth's older
 * debug methods take plain numbers, not hex. A string, a fraction or a value out of range fails
 * with Go's `json: cannot unmarshal … into Go value of type …`.
 */
function jsonInteger(type: string, min: bigint, max: bigint): Codec<bigint> {
  return codec(type, (v) => {
    if (typeof v !== 'number') fail(unmarshal(v, type))
    if (!Number.isInteger(v) || BigInt(v) < min || BigInt(v) > max) fail(`json: cannot unmarshal number ${v} into Go value of type ${type}`)
    return BigInt(v)
  })
}

/** A JSON number as Go's `uint64` (debug_getBlockRlp, debug_getModifiedAccountsByNumber). */
export const jsonUint64 = jsonInteger('uint64', 0n, 2n ** 64n - 1n)
/** A JSON number as Go's `uint` (64-bit; debug_cpuProfile's and debug_goTrace's seconds). */
export const jsonUint = jsonInteger('uint', 0n, 2n ** 64n - 1n)
/** A JSON number as Go's `int` (64-bit; debug_storageRangeAt's index and count). */
export const jsonInt = jsonInteger('int', -(2n ** 63n), 2n ** 63n - 1n)

/** A storage slot: a QTY or a 32-byte word, as geth accepts. */
export const storageSlot = codec('QTY|HASH', (v) => {
  const body = hexString(v, 'common.Hash')
  if (body.length > 64) fail('hex string of odd length')
  return BigInt(body.length === 0 ? '0' : `0x${body}`)
})

export type { BlockTag }

/** A block selector of EIP-1898: a tag or number, or a hash (optionally required canonical). */
export type BlockSelector = BlockTag | { kind: 'hash'; hash: Uint8Array; requireCanonical: boolean }

const TAGS = new Map<string, BlockTag>(
  (['latest', 'earliest', 'pending', 'safe', 'finalized'] as const).map((tag) => [tag, { kind: 'tag', tag }]),
)

function decodeTag(v: unknown, jsonNumbers: boolean): BlockTag {
  if (typeof v === 'string') {
    const tag = TAGS.get(v)
    if (tag !== undefined) return tag
    if (v.startsWith('0x')) return { kind: 'number', number: parseQuantity(v, 64) }
    fail(`hex string without 0x prefix`)
  }
  if (typeof v === 'number') {
    if (!jsonNumbers) fail(`block number ${v} must be a hex string such as "0x${Number.isSafeInteger(v) && v >= 0 ? v.toString(16) : '1'}" here, not a JSON number`)
    if (!Number.isSafeInteger(v) || v < 0) fail(`block number ${v} is not a non-negative integer`)
    return { kind: 'number', number: BigInt(v) }
  }
  fail(unmarshal(v, 'rpc.BlockNumber'))
}

/**
 * BLK: a number or a tag. A JSON number is taken as the block number too, as Hardhat takes it
 * for the block params that have no EIP-1898 form (`eth_getBlockByNumber` and the other
 * `…ByNumber` methods); geth refuses it.
 */
export const blockTag = codec('BLK', (v) => decodeTag(v, true))

/** EIP-1898: a tag, a number, a hash string, or `{ blockHash, requireCanonical }` / `{ blockNumber }`. */
export const blockSelector = codec('BLK|EIP-1898', (v): BlockSelector => {
  if (typeof v === 'string' && v.length === 66 && v.startsWith('0x')) return { kind: 'hash', hash: fixed(v, 32, 'common.Hash'), requireCanonical: false }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>
    const hasHash = Object.hasOwn(o, 'blockHash')
    const hasNumber = Object.hasOwn(o, 'blockNumber')
    if (hasHash && hasNumber) fail('cannot specify both BlockHash and BlockNumber, choose one or the other')
    if (hasHash) {
      const rc = o.requireCanonical
      if (rc !== undefined && typeof rc !== 'boolean') fail('invalid requireCanonical')
      return { kind: 'hash', hash: fixed(o.blockHash, 32, 'common.Hash'), requireCanonical: rc === true }
    }
    if (hasNumber) return decodeTag(o.blockNumber, false)
    fail('hex string without 0x prefix')
  }
  // EIP-1898 params take no JSON number, as in Hardhat and geth; the refusal says what to send.
  return decodeTag(v, false)
})

/** Reads an object param's own fields, never its prototype (`__proto__` is just a key). */
export function objectParam(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    fail(unmarshal(v, what))
  }
  return v as Record<string, unknown>
}

/** An optional array param: `undefined`/`null` count as absent; anything else but an array is refused with geth's text for `goType`. */
export function optionalArray(v: unknown, goType: string): unknown[] | undefined {
  if (v === undefined || v === null) return undefined
  if (!Array.isArray(v)) throw new CodecError(`json: cannot unmarshal non-array into Go value of type ${goType}`)
  return v
}

/** An own field of an object param, or undefined. */
export function field(o: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(o, name) ? o[name] : undefined
}

/** Decodes an optional field with a decoder; `null` counts as absent. */
export function optField<T>(o: Record<string, unknown>, name: string, decode: (v: unknown) => T): T | undefined {
  const v = field(o, name)
  return v === undefined || v === null ? undefined : decode(v)
}

export const decodeAddress = (v: unknown) => fixed(v, 20, 'common.Address')
export const decodeHash = (v: unknown) => fixed(v, 32, 'common.Hash')

export type { Hex }
