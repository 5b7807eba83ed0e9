/**
 * EIP-712 hashing of typed structured data (the `eth_signTypedData_v4` encoding: arrays and
 * nested structs, what viem, ethers, MetaMask and geth sign). Signing itself is the caller's
 * (`ecsign`, native libsecp256k1 where it loads): the hash is all this file makes. Values arrive
 * as JSON gives them (numbers, decimal or hex strings) or as a program passes them (bigints,
 * bytes); anything that does not fit its type throws {@link TypedDataError} naming the field.
 */
import { concat } from '../hex.js'
import { keccak256 } from './keccak.js'

/** The typed data `eth_signTypedData_v4` takes; `types` must list `EIP712Domain`. */
export interface TypedData {
  types: Record<string, ReadonlyArray<{ name: string; type: string }>>
  primaryType: string
  domain: Record<string, unknown>
  message: Record<string, unknown>
}

/** Typed data that cannot be encoded: an unknown type, a value its type cannot hold, a missing field. */
export class TypedDataError extends Error {}

const WORD = 32
const textEncoder = new TextEncoder()

/** `0x1901 ‖ hashStruct(EIP712Domain) ‖ hashStruct(primaryType)`, hashed: the digest that is signed. */
export function typedDataHash(typed: TypedData): Uint8Array {
  const encoder = encoderFor(typed.types)
  const domainHash = encoder.hashStruct('EIP712Domain', typed.domain, 'domain')
  const parts = [Uint8Array.of(0x19, 0x01), domainHash]
  if (typed.primaryType !== 'EIP712Domain') parts.push(encoder.hashStruct(typed.primaryType, typed.message, 'message'))
  return keccak256(concat(...parts))
}

/**
 * How many type sets keep their encoder (and so their type hashes) between requests: a client
 * signs with a few (a Safe transaction, a permit), each sent again with every request.
 */
export const ENCODER_CACHE_SIZE = 32

/** Encoders by their type set's key, least recently used first. */
const encoders = new Map<string, Encoder>()

/**
 * The encoder of a type set: the one kept for an equal set, or a new one kept in place of the
 * least recently used. Checks every field first, as an encoder of its own would.
 */
export function encoderFor(types: TypedData['types']): Encoder {
  const key = typesKey(types)
  let encoder = encoders.get(key)
  if (encoder !== undefined) {
    encoders.delete(key)
  } else {
    encoder = new Encoder(types)
    if (encoders.size >= ENCODER_CACHE_SIZE) encoders.delete(encoders.keys().next().value as string)
  }
  encoders.set(key, encoder)
  return encoder
}

/** Every type's name and its fields' names and types, in their order, as one string; checks each field. */
function typesKey(types: TypedData['types']): string {
  // Each string behind its length, so no two different sets give one key.
  let key = ''
  for (const [name, fields] of Object.entries(types)) {
    if (!Array.isArray(fields)) throw new TypedDataError(`type ${name}: its fields must be a list`)
    key += `${name.length}:${name}${fields.length};`
    for (const f of fields) {
      if (typeof f?.name !== 'string' || typeof f?.type !== 'string') throw new TypedDataError(`type ${name}: every field needs a name and a type`)
      key += `${f.name.length}:${f.name}${f.type.length}:${f.type}`
    }
  }
  return key
}

/** The hashing of one type set; keeps a copy of its types, so a caller's later change to theirs cannot reach it. */
export class Encoder {
  private readonly typeHashes = new Map<string, Uint8Array>()
  /** Each atomic type's encoder, its name read once (`uint256`, `bytes32`, …). */
  private readonly atomics = new Map<string, Atomic>()
  private readonly types: TypedData['types']

  constructor(types: TypedData['types']) {
    // Own properties, as the caller's (a `__proto__` type stays a type of that name).
    this.types = Object.fromEntries(Object.entries(types).map(([name, fields]) => [name, fields.map((f) => ({ name: f.name, type: f.type }))]))
  }

  hashStruct(type: string, value: unknown, path: string): Uint8Array {
    return keccak256(this.encodeData(type, value, path))
  }

  private encodeData(type: string, value: unknown, path: string): Uint8Array {
    const fields = this.types[type]
    if (fields === undefined) throw new TypedDataError(`unknown type ${type}`)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypedDataError(`${path}: ${type} must be an object`)
    const record = value as Record<string, unknown>
    const out = new Uint8Array(WORD * (fields.length + 1))
    out.set(this.typeHash(type), 0)
    fields.forEach((f, i) => out.set(this.encodeField(f.type, record[f.name], `${path}.${f.name}`), WORD * (i + 1)))
    return out
  }

  private typeHash(type: string): Uint8Array {
    let hash = this.typeHashes.get(type)
    if (hash === undefined) {
      hash = keccak256(textEncoder.encode(this.encodeType(type)))
      this.typeHashes.set(type, hash)
    }
    return hash
  }

  /** `Primary(type name,…)` followed by every struct it refers to, sorted by name. */
  private encodeType(primary: string): string {
    const found = new Set<string>()
    const visit = (type: string): void => {
      const base = baseType(type)
      if (found.has(base) || this.types[base] === undefined) return
      found.add(base)
      for (const f of this.types[base]!) visit(f.type)
    }
    visit(primary)
    found.delete(primary)
    return [primary, ...[...found].sort()].map((t) => `${t}(${this.types[t]!.map((f) => `${f.type} ${f.name}`).join(',')})`).join('')
  }

  private encodeField(type: string, value: unknown, path: string): Uint8Array {
    if (value === undefined || value === null) throw new TypedDataError(`${path}: missing value for ${type}`)
    const array = /^(.*)\[(\d*)\]$/.exec(type)
    if (array !== null) {
      const [, element, length] = array as unknown as [string, string, string]
      if (!Array.isArray(value)) throw new TypedDataError(`${path}: ${type} must be an array`)
      if (length !== '' && value.length !== Number(length)) throw new TypedDataError(`${path}: ${type} needs ${length} elements, got ${value.length}`)
      return keccak256(concat(...value.map((v, i) => this.encodeField(element, v, `${path}[${i}]`))))
    }
    if (this.types[type] !== undefined) return this.hashStruct(type, value, path)
    let atomic = this.atomics.get(type)
    if (atomic === undefined) {
      atomic = atomicOf(type)
      this.atomics.set(type, atomic)
    }
    return atomic(value, path)
  }
}

/** An atomic type's encoding of one value; `path` names the field in its error. */
type Atomic = (value: unknown, path: string) => Uint8Array

/** The value does not fit `type`. */
function mismatchOf(type: string, value: unknown, path: string): TypedDataError {
  return new TypedDataError(`${path}: ${JSON.stringify(typeof value === 'bigint' ? value.toString() : value)} is not a valid ${type}`)
}

/** The encoder of an atomic type, or of an unknown one (which throws for any value, naming the field). */
function atomicOf(type: string): Atomic {
  const int = /^(u?)int(\d+)$/.exec(type)
  if (int !== null) {
    const bits = Number(int[2])
    if (bits < 8 || bits > 256 || bits % 8 !== 0) {
      return (_value, path) => {
        throw new TypedDataError(`${path}: unknown type ${type}`)
      }
    }
    const signed = int[1] === ''
    const min = signed ? -(1n << BigInt(bits - 1)) : 0n
    const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n
    return (value, path) => {
      const n = integerOf(value, () => mismatchOf(type, value, path))
      if (n < min || n > max) throw new TypedDataError(`${path}: ${n} is out of range for ${type}`)
      return word(n < 0n ? (1n << 256n) + n : n)
    }
  }
  return (value, path) => encodeAtomic(type, value, path)
}

/** `Person[][3]` → `Person`. */
function baseType(type: string): string {
  const bracket = type.indexOf('[')
  return bracket === -1 ? type : type.slice(0, bracket)
}

/** Every atomic type but the integers (`atomicOf`'s). */
function encodeAtomic(type: string, value: unknown, path: string): Uint8Array {
  const mismatch = (): TypedDataError => mismatchOf(type, value, path)
  if (type === 'string') {
    if (typeof value !== 'string') throw mismatch()
    return keccak256(textEncoder.encode(value))
  }
  if (type === 'bytes') return keccak256(bytesOf(value, mismatch))
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw mismatch()
    return word(value ? 1n : 0n)
  }
  if (type === 'address') {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw mismatch()
    const out = new Uint8Array(WORD)
    out.set(Buffer.from(value.slice(2), 'hex'), WORD - 20)
    return out
  }
  const fixed = /^bytes(\d+)$/.exec(type)
  if (fixed !== null) {
    const size = Number(fixed[1])
    if (size < 1 || size > 32) throw new TypedDataError(`${path}: unknown type ${type}`)
    const b = bytesOf(value, mismatch)
    if (b.length > size) throw new TypedDataError(`${path}: ${b.length} bytes do not fit ${type}`)
    const out = new Uint8Array(WORD)
    out.set(b, 0)
    return out
  }
  throw new TypedDataError(`${path}: unknown type ${type}`)
}

function integerOf(value: unknown, mismatch: () => Error): bigint {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw mismatch()
    return BigInt(value)
  }
  if (typeof value === 'string' && /^-?(0x[0-9a-fA-F]+|\d+)$/.test(value)) {
    return value.startsWith('-') ? -BigInt(value.slice(1)) : BigInt(value)
  }
  throw mismatch()
}

function bytesOf(value: unknown, mismatch: () => Error): Uint8Array {
  if (value instanceof Uint8Array) return value
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw mismatch()
  return Uint8Array.from(Buffer.from(value.slice(2), 'hex'))
}

/** `n` (0 ≤ n < 2²⁵⁶) as a big-endian 32-byte word. */
function word(n: bigint): Uint8Array {
  const out = new Uint8Array(WORD)
  if (n === 0n) return out
  const hex = n.toString(16)
  out.set(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'), WORD - Math.ceil(hex.length / 2))
  return out
}
