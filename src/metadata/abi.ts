/**
 * The part of the Solidity ABI a failure message needs: an error's selector from its ABI entry,
 * its arguments decoded from revert data, and each value written as Hardhat writes it in
 * `reverted with custom error 'Name(args)'` (measured on Hardhat 2.29.1: integers in decimal,
 * `true`/`false`, addresses checksummed and quoted, strings, bytes and fixed bytes quoted, arrays
 * and tuples in brackets, all joined by `, `).
 */
import { checksumAddress } from '../crypto/checksum.js'
import { keccak256 } from '../crypto/keccak.js'
import { data, toBigInt } from '../hex.js'

/** An ABI parameter (inputs of errors, events and functions). */
export interface AbiParameter {
  readonly type: string
  readonly name?: string
  readonly components?: readonly AbiParameter[]
  readonly indexed?: boolean
}

/** An entry of a contract's ABI; only `type`, `name` and `inputs` are read. */
export interface AbiItem {
  readonly type: string
  readonly name?: string
  readonly inputs?: readonly AbiParameter[]
}

/** A decoded ABI value. */
export type AbiValue = bigint | boolean | string | Uint8Array | readonly AbiValue[]

/** Thrown for data that does not decode as the types say (out of bounds, bad offsets). */
export class AbiDecodeError extends Error {}

/** The canonical type of a parameter (`(uint8,int16)[]` for a tuple array). */
export function canonicalType(p: AbiParameter): string {
  if (!p.type.startsWith('tuple')) return p.type
  return `(${(p.components ?? []).map(canonicalType).join(',')})${p.type.slice(5)}`
}

/** An entry's signature, `Name(type,…)`. */
export function signature(item: AbiItem): string {
  return `${item.name ?? ''}(${(item.inputs ?? []).map(canonicalType).join(',')})`
}

/** The 4-byte selector of an error or function, as 8 lower-case hex digits. */
export function selectorOf(item: AbiItem): string {
  return Buffer.from(keccak256(new TextEncoder().encode(signature(item))).subarray(0, 4)).toString('hex')
}

const MAX_ITEMS = 1 << 16

function wordAt(bytes: Uint8Array, at: number): bigint {
  if (at < 0 || at + 32 > bytes.length) throw new AbiDecodeError(`word at ${at} past the data's ${bytes.length} bytes`)
  return toBigInt(bytes.subarray(at, at + 32))
}

function offsetAt(bytes: Uint8Array, at: number): number {
  const value = wordAt(bytes, at)
  if (value > BigInt(bytes.length)) throw new AbiDecodeError(`offset ${value} past the data`)
  return Number(value)
}

/** Whether a type is encoded in place (static) or behind an offset (dynamic). */
function isDynamic(p: AbiParameter): boolean {
  if (p.type === 'string' || p.type === 'bytes' || p.type.endsWith('[]')) return true
  const fixed = /\[(\d+)\]$/.exec(p.type)
  if (fixed !== null) return isDynamic(elementOf(p))
  if (p.type === 'tuple') return (p.components ?? []).some(isDynamic)
  return false
}

/** The head size of a static type in bytes. */
function staticSize(p: AbiParameter): number {
  const fixed = /\[(\d+)\]$/.exec(p.type)
  if (fixed !== null) return Number(fixed[1]) * staticSize(elementOf(p))
  if (p.type === 'tuple') return (p.components ?? []).reduce((n, c) => n + staticSize(c), 0)
  return 32
}

function elementOf(p: AbiParameter): AbiParameter {
  return { ...p, type: p.type.replace(/\[\d*\]$/, '') }
}

function decodeTuple(params: readonly AbiParameter[], bytes: Uint8Array, base: number): AbiValue[] {
  const out: AbiValue[] = []
  let head = base
  for (const p of params) {
    if (isDynamic(p)) {
      out.push(decodeValue(p, bytes, base + offsetAt(bytes, head)))
      head += 32
    } else {
      out.push(decodeValue(p, bytes, head))
      head += staticSize(p)
    }
  }
  return out
}

function decodeValue(p: AbiParameter, bytes: Uint8Array, at: number): AbiValue {
  const array = /\[(\d*)\]$/.exec(p.type)
  if (array !== null) {
    const element = elementOf(p)
    let count: number
    let start = at
    if (array[1] === '') {
      const n = wordAt(bytes, at)
      if (n > BigInt(MAX_ITEMS)) throw new AbiDecodeError(`array of ${n} items`)
      count = Number(n)
      start = at + 32
    } else count = Number(array[1])
    return decodeTuple(Array.from({ length: count }, () => element), bytes, start)
  }
  if (p.type === 'tuple') return decodeTuple(p.components ?? [], bytes, at)
  if (p.type === 'string' || p.type === 'bytes') {
    const n = wordAt(bytes, at)
    if (n > BigInt(bytes.length - at - 32)) throw new AbiDecodeError(`${p.type} of ${n} bytes past the data`)
    const body = bytes.subarray(at + 32, at + 32 + Number(n))
    return p.type === 'string' ? new TextDecoder().decode(body) : body.slice()
  }
  const value = wordAt(bytes, at)
  if (p.type === 'bool') return value !== 0n
  if (p.type === 'address') return checksumAddress(data(bytes.subarray(at + 12, at + 32)))
  const int = /^(u?)int(\d*)$/.exec(p.type)
  if (int !== null) {
    const bits = BigInt(int[2] === '' ? 256 : Number(int[2]))
    return int[1] === 'u' ? value : BigInt.asIntN(Number(bits), value)
  }
  const fixed = /^bytes(\d+)$/.exec(p.type)
  if (fixed !== null) return bytes.slice(at, at + Number(fixed[1]))
  if (p.type === 'function') return bytes.slice(at, at + 24)
  throw new AbiDecodeError(`unknown type ${p.type}`)
}

/** Decodes `bytes` (without selector) as the parameters' values. */
export function decodeParameters(params: readonly AbiParameter[], bytes: Uint8Array): AbiValue[] {
  return decodeTuple(params, bytes, 0)
}

/** A value as Hardhat writes it inside a custom error's parentheses. */
export function formatValue(value: AbiValue): string {
  if (typeof value === 'bigint' || typeof value === 'boolean') return value.toString()
  if (typeof value === 'string') return JSON.stringify(value)
  if (value instanceof Uint8Array) return `"${data(value)}"`
  return `[${value.map(formatValue).join(', ')}]`
}
