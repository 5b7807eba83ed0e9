/**
 * The JSON examples of the docs read as templates of what the node answers, and matched against
 * a real answer. The docs write them as JSON with a few marks:
 *
 * - `…` inside a string is any text (`"0x…"`, `"0x00…2a"`); a string `"…"` or `"<what>"`, a bare
 *   `<what>`, a bare `…` or `{…}` as a value is any value.
 * - a bare `…` among an object's entries: other keys may be there; without it the keys are exactly
 *   the template's. A key with `…` or `<…>` (`"0xe7f1…"`) stands for keys that match it.
 * - a bare `…` among an array's items: other items may come before, between and after; without
 *   it the items are exactly the template's.
 * - `"key": value?` (or `"key"?`): the key may be absent; `"key"` alone: present with any value;
 *   `"a": x | "b": y`: one of the two.
 *
 * Hex text compares without regard to case (checksummed and lower-case addresses alike).
 */

/** A parsed template. */
export type Template =
  | { kind: 'any' }
  | { kind: 'string'; text: string }
  | { kind: 'literal'; value: number | boolean | null }
  | { kind: 'object'; entries: Entry[]; open: boolean }
  | { kind: 'array'; items: Template[]; open: boolean }

/** An object's entry: its key (or keys, when alternatives) and value(s). */
export interface Entry {
  keys: string[]
  values: Template[]
  optional: boolean
}

type Token = { t: 'punct'; v: string } | { t: 'string'; v: string } | { t: 'number'; v: number } | { t: 'word'; v: string } | { t: 'any' }

function tokens(text: string): Token[] {
  const out: Token[] = []
  for (let i = 0; i < text.length; ) {
    const c = text[i] as string
    if (/\s/.test(c)) i++
    else if ('{}[]:,|?'.includes(c)) {
      out.push({ t: 'punct', v: c })
      i++
    } else if (c === '"') {
      let j = i + 1
      let s = ''
      while (text[j] !== '"') {
        if (j >= text.length) throw new Error(`unclosed string at ${i}`)
        if (text[j] === '\\') j++
        s += text[j]
        j++
      }
      out.push({ t: 'string', v: s })
      i = j + 1
    } else if (c === '…') {
      out.push({ t: 'any' })
      i++
    } else if (c === '<') {
      const j = text.indexOf('>', i)
      out.push({ t: 'any' })
      i = j + 1
    } else {
      const m = /^-?\d+(\.\d+)?|^[A-Za-z_]+/.exec(text.slice(i))
      if (m === null) throw new Error(`unexpected ${JSON.stringify(text.slice(i, i + 20))}`)
      if (/^-?\d/.test(m[0])) out.push({ t: 'number', v: Number(m[0]) })
      else out.push({ t: 'word', v: m[0] })
      i += m[0].length
    }
  }
  return out
}

/** Parses a docs JSON template (the marks above). */
export function parseTemplate(text: string): Template {
  const toks = tokens(text)
  let i = 0
  const peek = (): Token | undefined => toks[i]
  const isPunct = (v: string): boolean => {
    const t = peek()
    return t?.t === 'punct' && t.v === v
  }
  const expect = (v: string): void => {
    if (!isPunct(v)) throw new Error(`expected ${v} at token ${i}: ${JSON.stringify(peek())}`)
    i++
  }
  const value = (): Template => {
    const t = toks[i++]
    if (t === undefined) throw new Error('unexpected end')
    if (t.t === 'any') return { kind: 'any' }
    if (t.t === 'string') return /^<.*>$/.test(t.v) || t.v === '…' ? { kind: 'any' } : { kind: 'string', text: t.v }
    if (t.t === 'number') return { kind: 'literal', value: t.v }
    if (t.t === 'word') {
      if (t.v === 'true' || t.v === 'false') return { kind: 'literal', value: t.v === 'true' }
      if (t.v === 'null') return { kind: 'literal', value: null }
      throw new Error(`unknown word ${t.v}`)
    }
    if (t.v === '{') {
      const entries: Entry[] = []
      let open = false
      while (!isPunct('}')) {
        if (peek()?.t === 'any') {
          i++
          open = true
        } else {
          const entry: Entry = { keys: [], values: [], optional: false }
          for (;;) {
            const key = toks[i++]
            if (key?.t !== 'string') throw new Error(`expected a key at token ${i - 1}`)
            entry.keys.push(key.v)
            if (isPunct(':')) {
              i++
              entry.values.push(value())
            } else entry.values.push({ kind: 'any' })
            if (isPunct('?')) {
              i++
              entry.optional = true
            }
            if (!isPunct('|')) break
            i++
          }
          entries.push(entry)
        }
        if (!isPunct(',')) break
        i++
      }
      expect('}')
      return entries.length === 0 && open ? { kind: 'any' } : { kind: 'object', entries, open }
    }
    if (t.v === '[') {
      const items: Template[] = []
      let open = false
      while (!isPunct(']')) {
        if (peek()?.t === 'any' && (toks[i + 1]?.t === 'punct' && (toks[i + 1] as { v: string }).v !== ':')) {
          i++
          open = true
        } else items.push(value())
        if (!isPunct(',')) break
        i++
      }
      expect(']')
      return { kind: 'array', items, open }
    }
    throw new Error(`unexpected ${t.v}`)
  }
  const result = value()
  if (i !== toks.length) throw new Error(`text after the value at token ${i}`)
  return result
}

function pattern(text: string): RegExp | undefined {
  if (!text.includes('…') && !/<[^>]*>/.test(text)) return undefined
  const parts = text.split(/…|<[^>]*>/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`, /^0x/i.test(text) ? 'i' : '')
}

function keyMatches(key: string, actual: string): boolean {
  const p = pattern(key)
  return p === undefined ? key === actual : p.test(actual)
}

/** Where `actual` differs from `template`: one line per difference, none when it matches. */
export function mismatches(template: Template, actual: unknown, at = '$'): string[] {
  switch (template.kind) {
    case 'any':
      return []
    case 'literal':
      return Object.is(template.value, actual) ? [] : [`${at}: ${JSON.stringify(template.value)} expected, got ${JSON.stringify(actual)}`]
    case 'string': {
      if (typeof actual !== 'string') return [`${at}: a string like ${JSON.stringify(template.text)} expected, got ${JSON.stringify(actual)}`]
      const p = pattern(template.text)
      const same = p === undefined ? (/^0x[0-9a-f]*$/i.test(actual) ? actual.toLowerCase() === template.text.toLowerCase() : actual === template.text) : p.test(actual)
      return same ? [] : [`${at}: ${JSON.stringify(template.text)} expected, got ${JSON.stringify(actual)}`]
    }
    case 'array': {
      if (!Array.isArray(actual)) return [`${at}: an array expected, got ${JSON.stringify(actual)}`]
      if (!template.open) {
        if (actual.length !== template.items.length) return [`${at}: ${template.items.length} item(s) expected, got ${actual.length}`]
        return template.items.flatMap((item, k) => mismatches(item, actual[k], `${at}[${k}]`))
      }
      // Open: the template's items in order, each matching a later item than the one before.
      let from = 0
      for (const [k, item] of template.items.entries()) {
        let found = -1
        for (let j = from; j < actual.length && found < 0; j++) if (mismatches(item, actual[j]).length === 0) found = j
        if (found < 0) return [`${at}: no item from ${from} on matches the template's item ${k}: ${mismatches(item, actual[from], `${at}[${from}]`).join('; ')}`]
        from = found + 1
      }
      return []
    }
    case 'object': {
      if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return [`${at}: an object expected, got ${JSON.stringify(actual)}`]
      const record = actual as Record<string, unknown>
      const errors: string[] = []
      const covered = new Set<string>()
      for (const entry of template.entries) {
        const options = entry.keys.map((key, k) => {
          const names = Object.keys(record).filter((name) => keyMatches(key, name))
          names.forEach((n) => covered.add(n))
          if (names.length === 0) return [`${at}: no key ${JSON.stringify(key)} (keys: ${Object.keys(record).join(', ')})`]
          const value = entry.values[k] as Template
          const fits = names.filter((n) => mismatches(value, record[n], `${at}.${n}`).length === 0)
          return fits.length > 0 ? [] : mismatches(value, record[names[0] as string], `${at}.${names[0]}`)
        })
        if (options.some((o) => o.length === 0)) continue
        const absent = entry.keys.every((key) => !Object.keys(record).some((name) => keyMatches(key, name)))
        if (entry.optional && absent) continue
        errors.push(...(options[0] as string[]))
      }
      if (!template.open) {
        const extra = Object.keys(record).filter((k) => !covered.has(k))
        if (extra.length > 0) errors.push(`${at}: keys the template does not have: ${extra.join(', ')}`)
      }
      return errors
    }
  }
}

/** The differences between the docs JSON template `text` and `actual` (none: it matches). */
export function matchTemplate(text: string, actual: unknown): string[] {
  return mismatches(parseTemplate(text), actual)
}

/** The keys a template names at any depth (the wildcards' patterns aside). */
export function templateKeys(text: string): string[] {
  const keys: string[] = []
  const walk = (t: Template): void => {
    if (t.kind === 'object') for (const e of t.entries) {
      keys.push(...e.keys.filter((k) => pattern(k) === undefined))
      e.values.forEach(walk)
    }
    if (t.kind === 'array') t.items.forEach(walk)
  }
  walk(parseTemplate(text))
  return keys
}
