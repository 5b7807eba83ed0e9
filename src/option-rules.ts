/**
 * The building blocks of option checking: a rule checks one value and says what it wants; an
 * object rule checks an object's keys against a table of rules and refuses unknown keys with a
 * suggestion. `createNode`, `http()`, `ws()` and `listen()` each check their options with one
 * table (src/options-check.ts, src/adapters/transport-options.ts).
 */
import { MAX_CHAIN_ID } from './chain/common.js'

/** Thrown for a bad option: `option` is its path (`mining.blockTime`, `alloc.0x12…`). */
export class InvalidOptionError extends TypeError {
  readonly option: string
  constructor(where: string, option: string, reason: string) {
    super(`${where}: option ${option} ${reason}`)
    this.name = 'InvalidOptionError'
    this.option = option
  }
}

/** Reports a failure at a path; thrown by rules. */
export type Fail = (reason: string, path?: string) => never

/** Checks one value (never `undefined`: absent options take their default unchecked). */
export type Rule = (value: unknown, fail: Fail, path: string) => void

/** A short description of a value for messages: its type, and the value itself when small. */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
    case 'number':
      return `the number ${value}`
    case 'bigint':
      return `${value}n`
    case 'boolean':
      return String(value)
    case 'function':
      return 'a function'
    default:
      return `a ${typeof value}`
  }
}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const here = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = here
    }
  }
  return row[b.length]!
}

/** The known name closest to `name`, if it is close enough to be a typo. */
export function suggest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase()
  let best: string | undefined
  // A typo is a few edits away: two, or a third of the name for long names.
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1
  for (const k of known) {
    const d = k.toLowerCase() === lower ? 0 : distance(lower, k.toLowerCase())
    if (d < bestDistance) {
      best = k
      bestDistance = d
    }
  }
  return best
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array)

/** An object whose keys are checked by `fields`; unknown keys are refused (with a suggestion). */
export function object(fields: Readonly<Record<string, Rule>>, shape?: string): Rule {
  return (value, fail, path) => {
    if (!isPlainObject(value)) return fail(`must be an object${shape === undefined ? '' : ` ${shape}`}, got ${describe(value)}`)
    checkFields(fields, value, fail, path)
  }
}

/** Checks `value`'s keys against `fields`; `path` prefixes the names in messages. */
export function checkFields(fields: Readonly<Record<string, Rule>>, value: Record<string, unknown>, fail: Fail, path: string): void {
  const known = Object.keys(fields)
  for (const key of Object.keys(value)) {
    const name = path === '' ? key : `${path}.${key}`
    if (!Object.hasOwn(fields, key)) {
      const near = suggest(key, known)
      fail(near === undefined ? `is unknown; known: ${known.join(', ')}` : `is unknown; did you mean ${path === '' ? near : `${path}.${near}`}?`, name)
    }
    const v = value[key]
    if (v !== undefined) fields[key]!(v, (reason, at) => fail(reason, at ?? name), name)
  }
}

/** Runs a table over an options object at an entry point (`createNode`, `listen`, …). */
export function checkOptions(where: string, fields: Readonly<Record<string, Rule>>, options: unknown): void {
  const fail: Fail = (reason, path) => {
    throw new InvalidOptionError(where, path ?? '', reason)
  }
  if (options === undefined) return
  if (!isPlainObject(options)) throw new TypeError(`${where}: options must be an object, got ${describe(options)}`)
  checkFields(fields, options, fail, '')
}

export const boolean: Rule = (v, fail) => {
  if (typeof v !== 'boolean') fail(`must be true or false, got ${describe(v)}`)
}

export const string: Rule = (v, fail) => {
  if (typeof v !== 'string' || v === '') fail(`must be a non-empty string, got ${describe(v)}`)
}

export const func: Rule = (v, fail) => {
  if (typeof v !== 'function') fail(`must be a function, got ${describe(v)}`)
}

/** A bigint at least `min` (wei, gas: bigint as the type says, so `10n ** 18n`, not `1e18`). */
export function bigint(min: bigint): Rule {
  return (v, fail) => {
    if (typeof v !== 'bigint') {
      const hint = typeof v === 'number' && Number.isSafeInteger(v) ? ` (write ${v}n)` : ''
      return fail(`must be a bigint, got ${describe(v)}${hint}`)
    }
    if (v < min) fail(`must be at least ${min}, got ${v}`)
  }
}

/** A safe integer number at least `min`. */
export function integer(min: number): Rule {
  return (v, fail) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return fail(`must be an integer number, got ${describe(v)}`)
    if (v < min) fail(`must be at least ${min}, got ${v}`)
  }
}

/** An integer given as a number or a bigint, at least `min`. */
export function integerOrBigint(min: bigint): Rule {
  return (v, fail) => {
    if (typeof v === 'number' ? !Number.isSafeInteger(v) : typeof v !== 'bigint') fail(`must be an integer (number or bigint), got ${describe(v)}`)
    if (BigInt(v as number | bigint) < min) fail(`must be at least ${min}, got ${String(v)}`)
  }
}

/** A chain id: an integer (a number or a bigint) from 1 to 2^64 - 1, the uint64 of EDR and Anvil. */
export const chainIdRule: Rule = (v, fail, path) => {
  integerOrBigint(1n)(v, fail, path)
  if (BigInt(v as number | bigint) > MAX_CHAIN_ID) fail(`must be at most 2^64 - 1 (${MAX_CHAIN_ID}), a uint64 as in EDR and Anvil, got ${String(v)}`)
}

/** One of the listed strings. */
export function oneOf(values: readonly string[]): Rule {
  return (v, fail) => {
    if (typeof v !== 'string' || !values.includes(v)) {
      const near = typeof v === 'string' ? suggest(v, values) : undefined
      fail(`must be one of ${values.map((x) => `'${x}'`).join(', ')}, got ${describe(v)}${near === undefined ? '' : ` (did you mean '${near}'?)`}`)
    }
  }
}

/** An array whose items each pass `item`. */
export function arrayOf(item: Rule): Rule {
  return (v, fail, path) => {
    if (!Array.isArray(v)) return fail(`must be an array, got ${describe(v)}`)
    v.forEach((x, i) => item(x, (reason, at) => fail(reason, at ?? `${path}[${i}]`), `${path}[${i}]`))
  }
}

const HEX = /^0x(?:[0-9a-fA-F]{2})*$/

/** Hex bytes, `0x`-prefixed, `bytes` long if given. */
export function hexBytes(bytes?: number): Rule {
  return (v, fail) => {
    if (typeof v !== 'string' || !HEX.test(v)) return fail(`must be 0x-prefixed hex bytes, got ${describe(v)}`)
    if (bytes !== undefined && v.length !== 2 + 2 * bytes) fail(`must be ${bytes} bytes of hex, got ${(v.length - 2) / 2}`)
  }
}
