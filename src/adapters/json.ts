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
