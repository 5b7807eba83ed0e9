/**
 * tsc on a file of marked lines, with the project's compiler options: each `// @ts-expect-error
 * … (tsc: <message>)` line marks the line under it as one the types must refuse for that reason.
 * The file is compiled as it is (clean: every marker used) and with the marker lines emptied (the
 * line numbers stay), where each marked line must fail with its message and no other line may.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it, beforeAll } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const MARKER = /^\s*\/\/ @ts-expect-error .*\(tsc: (.+)\)\s*$/

function compilerOptions(): ts.CompilerOptions {
  const { config, error } = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile)
  if (error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'))
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options
}

/**
 * One program of the file and of `stripped` (its text under a name beside it), checked by one
 * checker: the types it imports are resolved once for both.
 */
function compile(file: string, options: ts.CompilerOptions, stripped: string): { original: string[]; stripped: string[] } {
  const strippedName = file.replace(/\.ts$/, '.stripped.ts')
  const host = ts.createCompilerHost(options)
  const read = host.getSourceFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (name) => path.resolve(name) === strippedName || fileExists(name)
  host.getSourceFile = (name, language, ...rest) => (path.resolve(name) === strippedName ? ts.createSourceFile(name, stripped, language) : read(name, language, ...rest))
  const program = ts.createProgram({ rootNames: [file, strippedName], options, host })
  const general = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map((d) => `0: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)
  const of = (name: string): string[] => {
    const source = program.getSourceFile(name)
    if (source === undefined) throw new Error(`${name} not in the program`)
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1
      return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`
    })
  }
  return { original: [...general, ...of(file)], stripped: of(strippedName) }
}

/** The two checks of a marked file (`path` from the repository's root), as a vitest suite. */
export function describeMarkedFile(title: string, relativePath: string, minMarkers: number): void {
  const file = path.join(ROOT, relativePath)
  describe(title, () => {
    const options = compilerOptions()
    const lines = (ts.sys.readFile(file) ?? '').split('\n')
    const marked = lines.flatMap((line, i) => {
      const m = MARKER.exec(line)
      return m === null ? [] : [{ line: i + 2, message: m[1]! }]
    })
    let result: { original: string[]; stripped: string[] }
    beforeAll(() => {
      result = compile(file, options, lines.map((l) => (MARKER.test(l) ? '' : l)).join('\n'))
    }, 120_000)

    it('compiles clean: every line typed right, every @ts-expect-error used', () => {
      expect(result.original).toEqual([])
      // The markers are the file's only @ts-expect-error lines, and there are enough of them to mean something.
      expect(lines.filter((l) => /^\s*\/\/ @ts-expect-error/.test(l))).toHaveLength(marked.length)
      expect(marked.length).toBeGreaterThanOrEqual(minMarkers)
    })

    it('without the @ts-expect-error lines, each line under one fails with the message it names, and no other line fails', () => {
      const byLine = new Map<number, string[]>()
      for (const f of result.stripped) {
        const line = Number(f.slice(0, f.indexOf(':')))
        byLine.set(line, [...(byLine.get(line) ?? []), f.slice(f.indexOf(':') + 2)])
      }
      expect([...byLine.keys()].sort((a, b) => a - b)).toEqual(marked.map((m) => m.line))
      for (const m of marked) expect(byLine.get(m.line)?.join(' | '), `line ${m.line}: ${lines[m.line - 1]?.trim()}`).toContain(m.message)
    })
  })
}
