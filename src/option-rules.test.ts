/**
 * The rules options are checked with (option-rules.ts), without a node: what each accepts, the
 * words and path of each refusal, and the "did you mean" of unknown names. createNode's own table
 * over the path users take: test/options/node-options.test.ts.
 */
import { describe, expect, it } from 'vitest'
import {
  InvalidOptionError,
  arrayOf,
  bigint,
  boolean,
  chainIdRule,
  checkOptions,
  describe as describeValue,
  hexBytes,
  integer,
  object,
  oneOf,
  suggest,
  type Rule,
} from './option-rules.js'

/** The error `checkOptions('f', fields, options)` throws, or undefined when it accepts. */
function refusal(fields: Record<string, Rule>, options: unknown): { option: string; message: string } | undefined {
  try {
    checkOptions('f', fields, options)
    return undefined
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidOptionError)
    return { option: (e as InvalidOptionError).option, message: (e as Error).message }
  }
}

describe('describe', () => {
  it('default: the type, and the value when small', () => {
    expect([null, [1], 'ab', 3, 5n, true, () => 0, {}, undefined].map(describeValue)).toEqual([
      'null',
      'an array',
      'the string "ab"',
      'the number 3',
      '5n',
      'true',
      'a function',
      'a object',
      'a undefined',
    ])
  })

  it('behavior: a long string is cut at 40 characters', () => {
    expect(describeValue('x'.repeat(41))).toBe(`the string "${'x'.repeat(40)}…"`)
  })
})

describe('suggest', () => {
  it('default: the closest known name within a few edits, whatever the case', () => {
    expect(suggest('chainID', ['chainId', 'hardfork'])).toBe('chainId')
    expect(suggest('acountCount', ['accountCount', 'balance'])).toBe('accountCount')
    expect(suggest('HARDFORK', ['chainId', 'hardfork'])).toBe('hardfork')
  })

  it('behavior: nothing for a name that is no typo', () => {
    expect(suggest('automine', ['chainId', 'hardfork', 'mining'])).toBeUndefined()
    expect(suggest('x', [])).toBeUndefined()
  })
})

describe('checkOptions', () => {
  const fields = { on: boolean, count: integer(0), wei: bigint(1n), mode: oneOf(['auto', 'manual']), keys: arrayOf(hexBytes(2)), inner: object({ size: integer(1) }) }

  it('default: absent options, undefined values and valid values are accepted', () => {
    expect(refusal(fields, undefined)).toBeUndefined()
    expect(refusal(fields, { on: undefined, count: undefined })).toBeUndefined()
    expect(refusal(fields, { on: true, count: 0, wei: 1n, mode: 'manual', keys: ['0xabcd'], inner: { size: 1 } })).toBeUndefined()
  })

  it('error: options that are no object', () => {
    expect(() => checkOptions('f', fields, 'on')).toThrow(new TypeError('f: options must be an object, got the string "on"'))
    expect(() => checkOptions('f', fields, [])).toThrow(/got an array/)
  })

  it('error: an unknown name, with the known name it resembles or the known names', () => {
    expect(refusal(fields, { conut: 1 })).toEqual({ option: 'conut', message: 'f: option conut is unknown; did you mean count?' })
    expect(refusal(fields, { zzzzzz: 1 })).toEqual({ option: 'zzzzzz', message: 'f: option zzzzzz is unknown; known: on, count, wei, mode, keys, inner' })
    expect(refusal(fields, { inner: { sise: 2 } })).toEqual({ option: 'inner.sise', message: 'f: option inner.sise is unknown; did you mean inner.size?' })
  })

  it("error: a prototype's names are unknown names, not rules", () => {
    expect(refusal(fields, { toString: 1 })?.option).toBe('toString')
    expect(refusal(fields, { constructor: 1 })?.option).toBe('constructor')
    expect(refusal(fields, JSON.parse('{"__proto__": 1}'))?.option).toBe('__proto__')
  })

  it('error: each rule names the value it got, at its path', () => {
    expect(refusal(fields, { on: 'yes' })).toEqual({ option: 'on', message: 'f: option on must be true or false, got the string "yes"' })
    expect(refusal(fields, { count: 1.5 })?.message).toBe('f: option count must be an integer number, got the number 1.5')
    expect(refusal(fields, { count: -1 })?.message).toBe('f: option count must be at least 0, got -1')
    expect(refusal(fields, { wei: 5 })?.message).toBe('f: option wei must be a bigint, got the number 5 (write 5n)')
    expect(refusal(fields, { wei: 0n })?.message).toBe('f: option wei must be at least 1, got 0')
    expect(refusal(fields, { mode: 'manul' })?.message).toBe("f: option mode must be one of 'auto', 'manual', got the string \"manul\" (did you mean 'manual'?)")
    expect(refusal(fields, { keys: ['0xabcd', '0x12'] })).toEqual({ option: 'keys[1]', message: 'f: option keys[1] must be 2 bytes of hex, got 1' })
    expect(refusal(fields, { keys: ['0xabc'] })?.message).toBe('f: option keys[0] must be 0x-prefixed hex bytes, got the string "0xabc"')
    expect(refusal(fields, { inner: 3 })?.message).toBe('f: option inner must be an object, got the number 3')
    expect(refusal(fields, { inner: { size: 0 } })?.option).toBe('inner.size')
  })

  it('limit: a chain id from 1 to 2^64 - 1, as a number or a bigint', () => {
    const chain = { chainId: chainIdRule }
    expect(refusal(chain, { chainId: 1 })).toBeUndefined()
    expect(refusal(chain, { chainId: 2n ** 64n - 1n })).toBeUndefined()
    expect(refusal(chain, { chainId: 0 })?.message).toBe('f: option chainId must be at least 1, got 0')
    expect(refusal(chain, { chainId: 2n ** 64n })?.message).toMatch(/must be at most 2\^64 - 1 \(18446744073709551615\)/)
  })
})
