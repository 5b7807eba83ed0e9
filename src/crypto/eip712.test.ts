/**
 * EIP-712 hashing (src/crypto/eip712.ts) against viem's `hashTypedData`: fixed cases that name
 * each type's corner (negative ints, short bytesN, fixed and nested arrays, the domain as primary
 * type) and a few hundred typed-data documents generated from a seed; bad values are refused
 * with the field named.
 */
import { describe, expect, it } from 'vitest'
import { bytesToHex, hashTypedData, type TypedDataDefinition } from 'viem'
import { ENCODER_CACHE_SIZE, encoderFor, typedDataHash, TypedDataError, type TypedData } from './eip712.js'

const DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
]
const domain = { name: 'Test', version: '1', chainId: 31337, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' }

function ours(t: TypedData): string {
  return bytesToHex(typedDataHash(t))
}
function viems(t: TypedData): string {
  const { EIP712Domain: _omit, ...types } = t.types
  return hashTypedData({ ...t, types } as unknown as TypedDataDefinition)
}

describe('EIP-712 hashing', () => {
  it('agrees with viem on every corner of the types', () => {
    const cases: TypedData[] = [
      {
        types: {
          EIP712Domain: DOMAIN_TYPE,
          Inner: [
            { name: 'flag', type: 'bool' },
            { name: 'tag', type: 'bytes4' },
          ],
          Outer: [
            { name: 'small', type: 'int8' },
            { name: 'neg', type: 'int256' },
            { name: 'big', type: 'uint256' },
            { name: 'hexNum', type: 'uint64' },
            { name: 'blob', type: 'bytes' },
            { name: 'text', type: 'string' },
            { name: 'who', type: 'address' },
            { name: 'fixed', type: 'uint16[3]' },
            { name: 'nested', type: 'Inner[][]' },
            { name: 'word', type: 'bytes32' },
          ],
        },
        primaryType: 'Outer',
        domain,
        message: {
          small: -128,
          neg: '-1',
          big: (1n << 256n) - 1n,
          hexNum: '0xffffffffffffffff',
          blob: '0x',
          text: 'héllo',
          who: '0x000000000000000000000000000000000000dEaD',
          fixed: [1, 2, 65535],
          nested: [[{ flag: true, tag: '0x01020304' }], [], [{ flag: false, tag: '0xdeadbeef' }, { flag: true, tag: '0x00000000' }]],
          word: `0x${'ab'.repeat(32)}`,
        },
      },
      { types: { EIP712Domain: DOMAIN_TYPE }, primaryType: 'EIP712Domain', domain, message: {} },
    ]
    for (const c of cases) expect(ours(c)).toBe(viems(c))
  })

  it('agrees with viem on 300 generated documents', () => {
    let seed = 0x9e3779b9
    const rand = (n: number): number => {
      seed = (Math.imul(seed ^ (seed >>> 15), 0x85ebca6b) + 0x6b43a9b5) >>> 0
      return seed % n
    }
    const hex = (bytes: number): string => `0x${Array.from({ length: bytes }, () => rand(256).toString(16).padStart(2, '0')).join('')}`
    const atomic = ['bool', 'address', 'string', 'bytes', 'uint8', 'uint256', 'int32', 'int256', 'bytes1', 'bytes20', 'bytes32']
    const valueOf = (type: string, types: TypedData['types']): unknown => {
      const array = /^(.*)\[(\d*)\]$/.exec(type)
      if (array) return Array.from({ length: array[2] === '' ? rand(3) : Number(array[2]) }, () => valueOf(array[1]!, types))
      if (types[type]) return Object.fromEntries(types[type]!.map((f) => [f.name, valueOf(f.type, types)]))
      if (type === 'bool') return rand(2) === 1
      if (type === 'address') return hex(20)
      if (type === 'string') return 'x'.repeat(rand(40))
      if (type === 'bytes') return hex(rand(70))
      if (type.startsWith('bytes')) return hex(Number(type.slice(5)))
      const bits = BigInt(type.replace(/^u?int/, ''))
      const v = BigInt(hex(Number(bits) / 8)) >> BigInt(rand(Number(bits)))
      return type.startsWith('int') ? (rand(2) === 1 ? -(v >> 1n) : v >> 1n) : rand(2) === 1 ? v : `0x${v.toString(16)}`
    }
    for (let doc = 0; doc < 300; doc++) {
      const types: TypedData['types'] = { EIP712Domain: DOMAIN_TYPE }
      const structs = 1 + rand(4)
      for (let s = structs - 1; s >= 0; s--) {
        const fields = Array.from({ length: 1 + rand(5) }, (_, i) => {
          const later = s + 1 + rand(structs)
          let type = later < structs && rand(3) === 0 ? `S${later}` : atomic[rand(atomic.length)]!
          if (rand(4) === 0) type += rand(2) === 0 ? '[]' : `[${1 + rand(2)}]`
          return { name: `f${i}`, type }
        })
        types[`S${s}`] = fields
      }
      const typed: TypedData = { types, primaryType: 'S0', domain, message: valueOf('S0', types) as Record<string, unknown> }
      expect(ours(typed), JSON.stringify(typed, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toBe(viems(typed))
    }
  })

  it('refuses values that do not fit their type, naming the field', () => {
    const base = (type: string, value: unknown): TypedData => ({
      types: { EIP712Domain: DOMAIN_TYPE, T: [{ name: 'v', type }] },
      primaryType: 'T',
      domain,
      message: { v: value },
    })
    const refused: Array<[string, unknown, RegExp]> = [
      ['uint8', 256, /message\.v: 256 is out of range for uint8/],
      ['uint256', -1, /out of range/],
      ['int8', 128, /out of range/],
      ['uint256', 'lots', /message\.v: "lots" is not a valid uint256/],
      ['address', '0x1234', /not a valid address/],
      ['bytes2', '0x010203', /3 bytes do not fit bytes2/],
      ['bytes', 'not hex', /not a valid bytes/],
      ['bool', 'true', /not a valid bool/],
      ['uint7', 1, /unknown type uint7/],
      ['Missing', {}, /unknown type Missing/],
      ['uint8[2]', [1], /needs 2 elements, got 1/],
      ['string', undefined, /message\.v: missing value for string/],
    ]
    for (const [type, value, message] of refused) {
      expect(() => typedDataHash(base(type, value)), type).toThrow(TypedDataError)
      expect(() => typedDataHash(base(type, value)), type).toThrow(message)
    }
  })

  it(`keeps the encoders of the ${ENCODER_CACHE_SIZE} type sets used last, each for an equal set`, () => {
    const typesOf = (i: number): TypedData['types'] => ({ EIP712Domain: DOMAIN_TYPE, [`T${i}`]: [{ name: 'v', type: 'uint256' }] })
    const kept = [encoderFor(typesOf(0))]
    // An equal set (a new object, as every request's JSON gives) finds the same encoder.
    expect(encoderFor(typesOf(0))).toBe(kept[0])
    for (let i = 1; i < ENCODER_CACHE_SIZE; i++) kept.push(encoderFor(typesOf(i)))
    // At the bound: every set is still kept; using 0 again makes 1 the least recently used.
    for (let i = ENCODER_CACHE_SIZE - 1; i >= 2; i--) expect(encoderFor(typesOf(i))).toBe(kept[i])
    expect(encoderFor(typesOf(0))).toBe(kept[0])
    // Past it: one more set drops the least recently used (1) and only it.
    encoderFor(typesOf(ENCODER_CACHE_SIZE))
    expect(encoderFor(typesOf(0))).toBe(kept[0])
    for (let i = 2; i < ENCODER_CACHE_SIZE; i++) expect(encoderFor(typesOf(i))).toBe(kept[i])
    expect(encoderFor(typesOf(1))).not.toBe(kept[1])
    // Sets that differ only in a field's type are not equal.
    expect(encoderFor({ EIP712Domain: DOMAIN_TYPE, T0: [{ name: 'v', type: 'uint128' }] })).not.toBe(kept[0])
  })

  it('a kept encoder holds its own copy of the types: a caller changing theirs later changes no hash', () => {
    const fresh = (): TypedData['types'] => ({ EIP712Domain: DOMAIN_TYPE, Mail: [{ name: 'body', type: 'string' }] })
    const typed: TypedData = { types: fresh(), primaryType: 'Mail', domain, message: { body: 'hi' } }
    const before = ours(typed)
    expect(before).toBe(viems(typed))
    ;(typed.types.Mail as Array<{ name: string; type: string }>)[0]!.type = 'bytes'
    expect(ours({ ...typed, types: fresh() })).toBe(before)
  })

  it('checks the shape of every type before any cache is read', () => {
    expect(() => encoderFor({ EIP712Domain: DOMAIN_TYPE, T: 'x' as never })).toThrow('type T: its fields must be a list')
    expect(() => encoderFor({ EIP712Domain: DOMAIN_TYPE, T: [{ name: 'v' }] as never })).toThrow('type T: every field needs a name and a type')
  })
})
