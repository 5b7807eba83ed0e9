/** JSON text checks every transport shares: UTF-8, nesting depth in linear time, parse errors. */
import { ParseError } from '../errors.js'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Decodes bytes as strict UTF-8; invalid sequences are a parse error (-32700). */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes)
  } catch {
    throw new ParseError('parse error: invalid UTF-8')
  }
}

/**
 * True when `text` nests arrays and objects deeper than `max`. One pass, no recursion, so a
 * hostile `[[[[…` costs linear time and never reaches the recursive parser.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

/** The depth check for a value another parser already built (express.json()), with an explicit stack. */
export function valueDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number]
    if (typeof v !== 'object' || v === null) continue
    if (d + 1 > max) return true
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1])
  }
  return false
}

/** Parses a JSON-RPC payload under the depth limit; throws {@link ParseError}. */
export function parsePayload(text: string, maxDepth: number): unknown {
  if (nestsDeeperThan(text, maxDepth)) throw new ParseError(`parse error: JSON nested deeper than ${maxDepth}`)
  try {
    return JSON.parse(text)
  } catch {
    throw new ParseError('parse error')
  }
}

/** The method names of a payload's text, for request logs (a scan, not a second parse). */
export function methodNames(text: string): string[] {
  const out: string[] = []
  const re = /"method"\s*:\s*"([^"]{1,64})"/g
  for (let m = re.exec(text); m !== null && out.length < 16; m = re.exec(text)) out.push(m[1] as string)
  return out
}

function skipWs(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i));
  return i
}

/** The index after the string that starts at `i` (a `"`). */
function endOfString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 92) i++
    else if (c === 34) return i + 1
  }
  return i
}

/** The index after the value that starts at `i`; `text` is known to be valid JSON. */
function endOfValue(text: string, i: number): number {
  const c = text.charCodeAt(i)
  if (c === 34) return endOfString(text, i)
  if (c === 91 || c === 123) {
    let depth = 0
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i)
      if (d === 34) i = endOfString(text, i) - 1
      else if (d === 91 || d === 123) depth++
      else if ((d === 93 || d === 125) && --depth === 0) return i + 1
    }
    return i
  }
  for (; i < text.length; i++) {
    const d = text.charCodeAt(i)
    if (d === 44 || d === 93 || d === 125 || d === 32 || d === 9 || d === 10 || d === 13) break
  }
  return i
}

/** The raw text of the `id` member of the object at `i` (the last one, as JSON.parse keeps), and the index after it. */
function idOfObject(text: string, i: number): [string | undefined, number] {
  let id: string | undefined
  i = skipWs(text, i + 1)
  if (text.charCodeAt(i) === 125) return [undefined, i + 1]
  for (;;) {
    const keyEnd = endOfString(text, i)
    const rawKey = text.slice(i, keyEnd)
    const key = rawKey.includes('\\') ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1)
    i = skipWs(text, skipWs(text, keyEnd) + 1)
    const end = endOfValue(text, i)
    if (key === 'id') id = text.slice(i, end)
    i = skipWs(text, end)
    if (text.charCodeAt(i++) !== 44) return [id, i]
    i = skipWs(text, i)
  }
}

/**
 * The `id` members of a payload exactly as the client wrote them (geth keeps the raw JSON), so a
 * number past 2^53, `1.50` or `1e400` is echoed byte for byte. For a batch, one entry per item
 * (undefined where the item is not an object or has no id). Call only on text that parsed.
 */
export function rawIds(text: string): string | undefined | Array<string | undefined> {
  let i = skipWs(text, 0)
  const c = text.charCodeAt(i)
  if (c === 123) return idOfObject(text, i)[0]
  if (c !== 91) return undefined
  const out: Array<string | undefined> = []
  i = skipWs(text, i + 1)
  if (text.charCodeAt(i) === 93) return out
  for (;;) {
    if (text.charCodeAt(i) === 123) {
      const [id, end] = idOfObject(text, i)
      out.push(id)
      i = end
    } else {
      out.push(undefined)
      i = endOfValue(text, i)
    }
    i = skipWs(text, i)
    if (text.charCodeAt(i++) !== 44) return out
    i = skipWs(text, i)
  }
}
