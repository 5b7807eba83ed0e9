/**
 * The blocks that draw the code (docs/architecture.md's layout and diagram, the file tables of
 * docs/transports.md and docs/conformance.md) state which files and folders exist and what they
 * export: every name they give is checked against the repository. (Which layer may import which
 * is test/architecture.test.ts's.)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, block, commandLines, shellWords } from './blocks.js'

/** Every file and folder under `dir`, as paths relative to the repository. */
function walk(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name)
    return statSync(path.join(ROOT, rel)).isDirectory() ? [`${rel}/`, ...walk(rel)] : [rel]
  })
}

const SOURCES = [...walk('src'), ...walk('scripts')]

/** The file names a block gives: `a.ts`, `dir/a.ts`, `eth/{a,b}.ts` (over line breaks too), build outputs in dist/ aside. */
function fileNames(text: string): string[] {
  const braces = [...text.matchAll(/([\w/-]*)\{([^}]*)\}\.(ts)\b/g)].flatMap((m) => (m[2] as string).split(',').map((n) => `${m[1]}${n.trim()}.${m[3]}`))
  const plain = text.replace(/[\w/-]*\{[^}]*\}\.ts\b/g, '').match(/[\w./-]+\.(?:ts|cjs|mjs)\b/g) ?? []
  return [...braces, ...plain].filter((n) => !n.startsWith('dist/'))
}

/** Whether `name` (a base name, or a path) is a file of the sources (the path itself, or a file ending in it) or a path of the repository. */
function exists(name: string): boolean {
  return SOURCES.some((file) => file === name || file.endsWith(`/${name}`)) || (name.includes('/') && existsSync(path.join(ROOT, name)))
}

describe('docs/architecture.md', () => {
  it('the layout names files that exist', () => {
    const names = fileNames(block('architecture.md', 1, ''))
    expect(names.length).toBeGreaterThan(150)
    expect(names.filter((n) => !exists(n))).toEqual([])
  })

  it('the layout names every source file (its name, or its path where two share a name)', () => {
    const names = new Set(fileNames(block('architecture.md', 1, '')).map((n) => n.replace(/^\.\//, '')))
    const files = SOURCES.filter((f) => f.startsWith('src/') && f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    const named = (file: string): boolean => [...names].some((n) => file === `src/${n}` || file.endsWith(`/${n}`))
    expect(files.filter((f) => !named(f))).toEqual([])
  })

  it('the layout names folders that exist', () => {
    const text = block('architecture.md', 1, '')
    // dist/ is the build's output, made by `npx tsup`.
    const folders = [...text.matchAll(/(?:^|\s)([a-z][\w-]*)\/(?=\s)/g)].map((m) => `${m[1]}/`).filter((f) => f !== 'dist/')
    expect(folders.length).toBeGreaterThan(20)
    expect(folders.filter((f) => !exists(f))).toEqual([])
  })

  it('the diagram names folders and files that exist', () => {
    const text = block('architecture.md', 2, '')
    const names = [...text.matchAll(/[a-z][\w-]*(?:\/|\.ts)/g)].map((m) => m[0])
    expect(names.length).toBeGreaterThan(12)
    expect(names.filter((n) => !exists(n))).toEqual([])
  })
})

describe('docs/transports.md', () => {
  it("the layout's files exist under src/, each where the table puts it", () => {
    const text = block('transports.md', 4, '')
    const rows = text.split('\n').filter((l) => /^\S/.test(l))
    expect(rows.length).toBeGreaterThan(10)
    for (const row of rows) {
      const [first] = row.split(/\s+/) as [string]
      if (first.endsWith('/')) {
        // A folder row lists its files in the text after it (over its continuation lines too).
        const more = text.slice(text.indexOf(row)).split('\n').slice(0, 3).join(' ')
        for (const name of fileNames(more.slice(first.length)).filter((n) => !n.includes('/'))) expect(existsSync(path.join(ROOT, 'src', first, name)), `${first}${name}`).toBe(true)
      } else expect(existsSync(path.join(ROOT, 'src', first)), first).toBe(true)
    }
  })
})

describe('docs/conformance.md', () => {
  it('each file of the table exists and exports the function the table names', () => {
    const rows = block('conformance.md', 1, '').split('\n').filter(Boolean)
    expect(rows.length).toBe(5)
    for (const row of rows) {
      const [file, ...rest] = row.split(/\s+/) as [string, ...string[]]
      const source = readFileSync(path.join(ROOT, file), 'utf8')
      for (const name of rest.join(' ').match(/\b(\w+)\(/g)?.map((n) => n.slice(0, -1)).filter((n) => n !== 'compareReply' || !file.endsWith('.test.ts')) ?? []) {
        if (file.endsWith('.test.ts')) continue
        expect(source, `${file} ${name}`).toMatch(new RegExp(`export (async )?function ${name}\\b`))
      }
    }
  })

  it('the vitest lines name folders and files that hold tests', () => {
    const lines = commandLines(block('conformance.md', 2, 'sh'))
    expect(lines).toHaveLength(2)
    for (const line of lines) {
      const words = shellWords(line)
      expect(words.slice(0, 3)).toEqual(['npx', 'vitest', 'run'])
      const filter = words[3] as string
      expect(walk('test/conformance').filter((f) => f.startsWith(filter) && f.endsWith('.test.ts')).length, filter).toBeGreaterThan(0)
    }
  })
})
