/**
 * The layers point one way: the services under src/ (chain, consensus, execution, state, txpool,
 * controls, filters, accounts, crypto, app) import nothing from rpc/ or adapters/, type-only
 * imports included; consensus reaches the EVM only through the application seam; and no module
 * of src/ reaches itself again through its imports.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src')
const LOWER = ['chain', 'consensus', 'producer', 'execution', 'state', 'txpool', 'controls', 'filters', 'accounts', 'crypto', 'app', 'profiling', 'fork']
const UPPER = ['rpc', 'adapters']

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** The module specifiers of a file's import and export-from statements, `import type` and `import('…')` types included. */
export function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const out: string[] = []
  const patterns = [
    /\bimport\s+(?:type\s+)?[^'";]*?\s+from\s+['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?(?:\*|\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+['"]([^'"]+)['"]/g,
    /\bimport\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const re of patterns) for (const m of code.matchAll(re)) out.push(m[1] as string)
  return out
}

/** The src file a relative specifier names (`./x.js` → `x.ts`), or undefined for packages. */
function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined
  const base = resolve(dirname(from), spec)
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate
    } catch {
      // next candidate
    }
  }
  return undefined
}

function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>()
  for (const file of sources(SRC)) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .map((spec) => resolveSpecifier(file, spec))
      .filter((t): t is string => t !== undefined)
    edges.set(rel(file), [...new Set(targets.map(rel))])
  }
  return edges
}

const rel = (path: string) => relative(SRC, path).split('\\').join('/')

/** Every import cycle, each listed once from its first module in sorted order (Tarjan's components). */
export function cycles(edges: Map<string, string[]>): string[][] {
  let index = 0
  const stack: string[] = []
  const on = new Set<string>()
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const found: string[][] = []
  const visit = (v: string) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        component.push(w)
      } while (w !== v)
      const self = (edges.get(v) ?? []).includes(v)
      if (component.length > 1 || self) found.push(path(edges, component.sort()))
    }
  }
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v)
  return found
}

/** One concrete cycle through a strongly connected component: a → … → a. */
function path(edges: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component)
  const start = component[0] as string
  const prev = new Map<string, string>()
  const queue = [start]
  const seen = new Set([start])
  while (queue.length > 0) {
    const v = queue.shift() as string
    for (const w of edges.get(v) ?? []) {
      if (!members.has(w)) continue
      if (w === start) {
        const out = [start]
        for (let at = v; at !== start; at = prev.get(at) as string) out.splice(1, 0, at)
        return [...out, start]
      }
      if (!seen.has(w)) {
        seen.add(w)
        prev.set(w, v)
        queue.push(w)
      }
    }
  }
  return component
}

/** Lower-layer files that import `errors.ts` (the JSON-RPC errors) instead of `domain-errors.ts`. */
function errorClassImports(edges: Map<string, string[]>): string[] {
  const bad: string[] = []
  for (const [file, targets] of edges) {
    if (!LOWER.includes(file.split('/')[0] as string)) continue
    for (const t of targets) if (t === 'errors.ts') bad.push(`${file} → ${t}`)
  }
  return bad
}

describe('architecture', () => {
  const edges = graph()

  it('reads the import statements of src/', () => {
    expect(edges.size).toBeGreaterThan(100)
    expect(edges.get('node.ts')).toContain('chain/chain.ts')
    expect(specifiers("import type { A } from './a.js'\nexport * from \"./b.js\"\nexport { c } from './c.js'\nconst d: import('./d.js').D")).toEqual([
      './a.js',
      './b.js',
      './c.js',
      './d.js',
    ])
  })

  it('lower layers import nothing from rpc/ or adapters/, types included', () => {
    const bad: string[] = []
    for (const [file, targets] of edges) {
      if (!LOWER.includes(file.split('/')[0] as string)) continue
      for (const t of targets) if (UPPER.includes(t.split('/')[0] as string)) bad.push(`${file} → ${t}`)
    }
    expect(bad).toEqual([])
  })

  it('services throw domain errors: no lower layer imports the JSON-RPC error classes of errors.ts', () => {
    expect(errorClassImports(edges)).toEqual([])
  })

  it('finds a lower layer that imports errors.ts', () => {
    const g = new Map([
      ['txpool/pool.ts', ['domain-errors.ts', 'errors.ts']],
      ['rpc/eth.ts', ['errors.ts']],
      ['domain-errors.ts', ['errors.ts']],
    ])
    expect(errorClassImports(g)).toEqual(['txpool/pool.ts → errors.ts'])
  })

  it('consensus decides on opaque proposals: it imports nothing from execution/, state/ or the application', () => {
    const bad: string[] = []
    for (const [file, targets] of edges) {
      if (!file.startsWith('consensus/')) continue
      for (const t of targets) if (['execution', 'state', 'app'].includes(t.split('/')[0] as string)) bad.push(`${file} → ${t}`)
    }
    expect(bad).toEqual([])
  })

  it('no import cycle among the modules of src/', () => {
    expect(cycles(edges).map((c) => c.join(' → '))).toEqual([])
  })

  it('finds a cycle it is given', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ])
    expect(cycles(g)).toEqual([['a', 'b', 'c', 'a']])
  })
})
