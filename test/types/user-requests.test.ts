/**
 * tsc on a user's code (test/types/user-requests.ts), with the project's compiler options: it
 * compiles clean, so every `@ts-expect-error` in it is used; and with those lines taken out, each
 * call under one fails with the message its `(tsc: …)` names and nothing else fails. A request of
 * a served method with wrong params is an error users see at compile time, worded as tsc words a
 * wrong element, never resolved by an untyped fallback.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const FILE = path.join(ROOT, 'test', 'types', 'user-requests.ts')
const STRIPPED = path.join(ROOT, 'test', 'types', 'user-requests.stripped.ts')
const MARKER = /^\s*\/\/ @ts-expect-error .*\(tsc: (.+)\)\s*$/

function compilerOptions(): ts.CompilerOptions {
  const { config, error } = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile)
  if (error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'))
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options
}

/**
 * One program of the file and of `stripped` (its text under a name beside it), checked by one
 * checker: the types of the package and of viem are resolved once for both.
 */
function compile(options: ts.CompilerOptions, stripped: string): { original: string[]; stripped: string[] } {
  const host = ts.createCompilerHost(options)
  const read = host.getSourceFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (name) => path.resolve(name) === STRIPPED || fileExists(name)
  host.getSourceFile = (name, language, ...rest) => (path.resolve(name) === STRIPPED ? ts.createSourceFile(name, stripped, language) : read(name, language, ...rest))
  const program = ts.createProgram({ rootNames: [FILE, STRIPPED], options, host })
  const general = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map((d) => `0: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)
  const of = (name: string): string[] => {
    const file = program.getSourceFile(name)
    if (file === undefined) throw new Error(`${name} not in the program`)
    return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) => {
      const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line + 1
      return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`
    })
  }
  return { original: [...general, ...of(FILE)], stripped: of(STRIPPED) }
}

describe("tsc on a user's requests", () => {
  const options = compilerOptions()
  const source = ts.sys.readFile(FILE) ?? ''
  const lines = source.split('\n')
  const marked = lines.flatMap((line, i) => {
    const m = MARKER.exec(line)
    return m === null ? [] : [{ line: i + 2, message: m[1]! }]
  })
  let result: { original: string[]; stripped: string[] }
  beforeAll(() => {
    // The same text with each marker line emptied: the line numbers stay.
    result = compile(options, lines.map((l) => (MARKER.test(l) ? '' : l)).join('\n'))
  }, 120_000)

  it('compiles clean: every call typed right, every @ts-expect-error used', () => {
    expect(result.original).toEqual([])
    // The markers are the file's only @ts-expect-error lines, and there are enough of them to mean something.
    expect(lines.filter((l) => /^\s*\/\/ @ts-expect-error/.test(l))).toHaveLength(marked.length)
    expect(marked.length).toBeGreaterThanOrEqual(20)
  })

  it('without the @ts-expect-error lines, each call under one fails with the message it names, and no other line fails', () => {
    const byLine = new Map<number, string[]>()
    for (const f of result.stripped) {
      const line = Number(f.slice(0, f.indexOf(':')))
      byLine.set(line, [...(byLine.get(line) ?? []), f.slice(f.indexOf(':') + 2)])
    }
    expect([...byLine.keys()].sort((a, b) => a - b)).toEqual(marked.map((m) => m.line))
    for (const m of marked) expect(byLine.get(m.line)?.join(' | '), `line ${m.line}: ${lines[m.line - 1]?.trim()}`).toContain(m.message)
  })
})
