/**
 * Compares a JSON-RPC reply with the one a fixture recorded, as the hive rpc-compat simulator does
 * (see test/fixtures/execution-apis/SOURCE.md and docs/conformance.md):
 *
 * - where the expected and the actual value both hold an `error` object under the same key path
 *   (the top-level error, or a nested one such as `eth_simulateV1`'s `calls[i].error`), `message`
 *   is dropped from both, so `code` and `data` must match but the wording may differ;
 * - JSON numbers compare as numbers (both sides are parsed, so `1`, `1.0` and `1e0` are equal);
 * - otherwise every field must match: same JSON type, same value, no field missing, none extra,
 *   arrays of the same length compared element by element.
 *
 * For a `speconly` case the recorded result is only an example: the reply passes when both hold
 * `result` and the two results have the same JSON type, or when both hold `error`.
 */

/** The JSON type of a parsed value. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null'

/** The JSON type of `value` (`undefined` and other non-JSON values are reported by name). */
export function jsonKind(value: unknown): JsonKind | 'undefined' | 'non-JSON' {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  switch (typeof value) {
    case 'object':
      return 'object'
    case 'string':
      return 'string'
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'undefined':
      return 'undefined'
    default:
      return 'non-JSON'
  }
}

type JsonObject = Record<string, unknown>

function isObject(value: unknown): value is JsonObject {
  return jsonKind(value) === 'object'
}

function has(o: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key)
}

/** A short rendering of a value for a reason. */
function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

function child(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
}

function withoutMessage(o: JsonObject): JsonObject {
  const { message: _message, ...rest } = o
  return rest
}

/** The first difference between `expected` and `actual` below `path`, or undefined. */
function diff(expected: unknown, actual: unknown, path: string): string | undefined {
  const ek = jsonKind(expected)
  const ak = jsonKind(actual)
  if (ek !== ak) return `${path}: expected ${ek} ${show(expected)}, got ${ak} ${show(actual)}`
  if (ek === 'array') {
    const e = expected as unknown[]
    const a = actual as unknown[]
    if (e.length !== a.length) return `${path}: expected ${e.length} elements, got ${a.length}`
    for (let i = 0; i < e.length; i++) {
      const reason = diff(e[i], a[i], `${path}[${i}]`)
      if (reason !== undefined) return reason
    }
    return undefined
  }
  if (ek === 'object') {
    const e = expected as JsonObject
    const a = actual as JsonObject
    for (const key of Object.keys(e)) {
      if (!has(a, key)) return `${child(path, key)}: missing (expected ${show(e[key])})`
    }
    for (const key of Object.keys(a)) {
      if (!has(e, key)) return `${child(path, key)}: unexpected field (got ${show(a[key])})`
    }
    for (const key of Object.keys(e)) {
      let ev = e[key]
      let av = a[key]
      // Both hold an error object here: the wording is free, code and data are not.
      if (key === 'error' && isObject(ev) && isObject(av)) {
        ev = withoutMessage(ev)
        av = withoutMessage(av)
      }
      const reason = diff(ev, av, child(path, key))
      if (reason !== undefined) return reason
    }
    return undefined
  }
  // string, number, boolean, null: parsed JSON scalars compare by value.
  if (expected !== actual) return `${path}: expected ${show(expected)}, got ${show(actual)}`
  return undefined
}

/** Whether a spec-only reply is of the right kind (see the module comment). */
function specOnlyDiff(expected: unknown, actual: unknown): string | undefined {
  if (!isObject(expected)) return `$: the fixture's reply is not an object (${jsonKind(expected)})`
  if (!isObject(actual)) return `$: expected a reply object, got ${jsonKind(actual)} ${show(actual)}`
  if (has(expected, 'error')) {
    return has(actual, 'error') ? undefined : `$: expected an error, got ${show(actual)}`
  }
  if (!has(expected, 'result')) return `$: the fixture's reply has neither result nor error`
  if (!has(actual, 'result')) return has(actual, 'error') ? `$: expected a result, got error ${show(actual.error)}` : `$.result: missing, got ${show(actual)}`
  const ek = jsonKind(expected.result)
  const ak = jsonKind(actual.result)
  return ek === ak ? undefined : `$.result: expected a result of type ${ek}, got ${ak} ${show(actual.result)}`
}

/**
 * Compares a reply with the fixture's: undefined when it passes, else a short reason naming the
 * first difference (`$.result.calls[0].error.code: expected 3, got -32000`).
 */
export function compareReply(expected: unknown, actual: unknown, specOnly: boolean): string | undefined {
  if (specOnly) return specOnlyDiff(expected, actual)
  // An error where a result was expected: name the error rather than the missing result.
  if (isObject(expected) && isObject(actual) && has(expected, 'result') && !has(actual, 'result') && has(actual, 'error')) {
    return `$: expected a result, got error ${show(actual.error)}`
  }
  return diff(expected, actual, '$')
}
