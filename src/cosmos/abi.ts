/**
 * The Solidity ABI for the Cosmos precompiles' calls, answers and events: the types their
 * interfaces use (unsigned and signed integers, bool, address, string, bytes, tuples and dynamic
 * arrays of them), head/tail encoded as the ABI specification lays out. Types are written as in
 * a Solidity signature: `uint256`, `string`, `(string,uint256)[]`.
 */
import { keccak256 } from '../crypto/keccak.js'
import { concat, toBigInt, word } from '../hex.js'

/** A decoded value: bigint for integers, 20 bytes for an address, string, bytes, bool, or a list. */
export type AbiValue = bigint | boolean | string | Uint8Array | readonly AbiValue[]

/** A call's input or an answer could not be read. */
export class AbiError extends Error {}

type Kind =
  | { t: 'uint' | 'int'; bits: number }
  | { t: 'bool' | 'address' | 'string' | 'bytes' }
  | { t: 'tuple'; items: Kind[] }
  | { t: 'array'; item: Kind }

/** Splits `a,b,(c,d)` at its top-level commas. */
function split(list: string): string[] {
  const out: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < list.length; i++) {
    const c = list[i]
    if (c === '(') depth++
    else if (c === ')') depth--
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i))
      start = i + 1
    }
  }
  if (list.length > 0) out.push(list.slice(start))
  return out
}

const kinds = new Map<string, Kind>()

function parse(type: string): Kind {
  const known = kinds.get(type)
  if (known !== undefined) return known
  let kind: Kind
  if (type.endsWith('[]')) kind = { t: 'array', item: parse(type.slice(0, -2)) }
  else if (type.startsWith('(')) kind = { t: 'tuple', items: split(type.slice(1, -1)).map(parse) }
  else if (type === 'bool' || type === 'address' || type === 'string' || type === 'bytes') kind = { t: type }
  else {
    const m = /^(u?int)(\d+)$/.exec(type)
    if (m === null) throw new Error(`ABI type ${type} is not supported`)
    kind = { t: m[1] as 'uint' | 'int', bits: Number(m[2]) }
  }
  kinds.set(type, kind)
  return kind
}

const dynamic = (k: Kind): boolean => k.t === 'string' || k.t === 'bytes' || k.t === 'array' || (k.t === 'tuple' && k.items.some(dynamic))

/** The bytes a type takes in its tuple's head: an offset word when dynamic, a static tuple inline (each of its items' heads). */
const headSize = (k: Kind): number => (k.t === 'tuple' && !dynamic(k) ? k.items.reduce((n, item) => n + headSize(item), 0) : 32)

function padded(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(bytes.length / 32) * 32)
  out.set(bytes)
  return out
}

function encodeOne(k: Kind, v: AbiValue): Uint8Array {
  switch (k.t) {
    case 'uint':
      return word(v as bigint)
    case 'int': {
      const n = v as bigint
      return word(n < 0n ? (1n << 256n) + n : n)
    }
    case 'bool':
      return word(v === true ? 1n : 0n)
    case 'address': {
      const out = new Uint8Array(32)
      out.set(v as Uint8Array, 12)
      return out
    }
    case 'string':
    case 'bytes': {
      const bytes = typeof v === 'string' ? new TextEncoder().encode(v) : (v as Uint8Array)
      return concat(word(BigInt(bytes.length)), padded(bytes))
    }
    case 'tuple':
      return encodeList(k.items, v as readonly AbiValue[])
    case 'array': {
      const items = v as readonly AbiValue[]
      return concat(word(BigInt(items.length)), encodeList(items.map(() => k.item), items))
    }
  }
}

function encodeList(types: readonly Kind[], values: readonly AbiValue[]): Uint8Array {
  if (types.length !== values.length) throw new Error(`ABI: ${values.length} values for ${types.length} types`)
  const heads: Uint8Array[] = []
  const tails: Uint8Array[] = []
  let offset = BigInt(types.reduce((n, k) => n + headSize(k), 0))
  for (let i = 0; i < types.length; i++) {
    const k = types[i] as Kind
    const encoded = encodeOne(k, values[i] as AbiValue)
    if (dynamic(k)) {
      heads.push(word(offset))
      tails.push(encoded)
      offset += BigInt(encoded.length)
    } else heads.push(encoded)
  }
  return concat(...heads, ...tails)
}

/** ABI-encodes `values` as the tuple of `types`. */
export function encode(types: readonly string[], values: readonly AbiValue[]): Uint8Array {
  return encodeList(types.map(parse), values)
}

function at(data: Uint8Array, offset: number): bigint {
  if (offset + 32 > data.length) throw new AbiError('input too short')
  return toBigInt(data.subarray(offset, offset + 32))
}

function small(value: bigint): number {
  if (value > 0xffffffffn) throw new AbiError('offset or length out of range')
  return Number(value)
}

function decodeOne(k: Kind, data: Uint8Array, offset: number): AbiValue {
  switch (k.t) {
    case 'uint': {
      const v = at(data, offset)
      if (v >> BigInt(k.bits) !== 0n) throw new AbiError(`uint${k.bits} out of range`)
      return v
    }
    case 'int': {
      const raw = at(data, offset)
      const v = raw >> 255n === 1n ? raw - (1n << 256n) : raw
      const bound = 1n << BigInt(k.bits - 1)
      if (v < -bound || v >= bound) throw new AbiError(`int${k.bits} out of range`)
      return v
    }
    case 'bool': {
      const v = at(data, offset)
      if (v > 1n) throw new AbiError('bool out of range')
      return v === 1n
    }
    case 'address': {
      const v = at(data, offset)
      if (v >> 160n !== 0n) throw new AbiError('address out of range')
      return data.slice(offset + 12, offset + 32)
    }
    case 'string':
    case 'bytes': {
      const length = small(at(data, offset))
      if (offset + 32 + length > data.length) throw new AbiError('input too short')
      const bytes = data.slice(offset + 32, offset + 32 + length)
      return k.t === 'string' ? new TextDecoder().decode(bytes) : bytes
    }
    case 'tuple':
      return decodeList(k.items, data, offset)
    case 'array': {
      const length = small(at(data, offset))
      if (length > data.length) throw new AbiError('array longer than the input')
      return decodeList(Array.from({ length }, () => k.item), data, offset + 32)
    }
  }
}

function decodeList(types: readonly Kind[], data: Uint8Array, base: number): AbiValue[] {
  let head = base
  return types.map((k) => {
    const value = dynamic(k) ? decodeOne(k, data, base + small(at(data, head))) : decodeOne(k, data, head)
    head += headSize(k)
    return value
  })
}

/** Decodes `data` as the tuple of `types`; throws {@link AbiError} for input that does not fit. */
export function decode(types: readonly string[], data: Uint8Array): AbiValue[] {
  return decodeList(types.map(parse), data, 0)
}

/** The 4-byte selector of `name(types…)`. */
export function selector(signature: string): string {
  return Buffer.from(keccak256(new TextEncoder().encode(signature)).subarray(0, 4)).toString('hex')
}

/** An event's first topic. */
export function eventTopic(signature: string): Uint8Array {
  return keccak256(new TextEncoder().encode(signature))
}

/** The revert data of Solidity's `Error(string)`. */
export function errorData(message: string): Uint8Array {
  return concat(new Uint8Array([0x08, 0xc3, 0x79, 0xa0]), encode(['string'], [message]))
}
