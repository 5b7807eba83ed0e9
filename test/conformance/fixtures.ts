/**
 * Loads the execution-apis rpc-compat fixtures: `test/fixtures/execution-apis/<method>/<case>.io`.
 *
 * A file is made of comment lines (`// …`; one containing `speconly` marks the case as spec-only),
 * request lines (`>> {json}`) and, after each request, the expected reply (`<< {json}`). Blank
 * lines are ignored. Anything else, a reply without a request, or a request without a reply is a
 * format error and throws, so a parsing problem can never silently drop a case.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder of the fixtures. */
export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'execution-apis')

/** One request and the reply it must get. */
export interface Exchange {
  request: unknown
  expected: unknown
}

/** One `.io` file. */
export interface ConformanceCase {
  /** The folder: the method under test. */
  method: string
  /** The file name without `.io`. */
  name: string
  /** A `speconly` case: the recorded result is only an example, any result of the right kind passes. */
  specOnly: boolean
  exchanges: Exchange[]
}

/** Byte-order comparison (Go's `filepath.Walk` order, which hive runs the cases in). */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Every `<method>/<case>.io` path under `dir`, relative, in hive's (lexical) order. */
export function listCaseFiles(dir: string = FIXTURES_DIR): string[] {
  const files: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => byteOrder(a.name, b.name))) {
    if (!entry.isDirectory()) continue
    for (const file of readdirSync(join(dir, entry.name)).sort(byteOrder)) {
      if (file.endsWith('.io')) files.push(`${entry.name}/${file}`)
    }
  }
  return files
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new Error(`${where}: invalid JSON (${(error as Error).message})`)
  }
}

/** Parses the text of one `.io` file. */
export function parseCase(method: string, name: string, text: string): ConformanceCase {
  const exchanges: Exchange[] = []
  let specOnly = false
  let pending: { request: unknown } | undefined
  const lines = text.split(/\r?\n/)
  lines.forEach((raw, i) => {
    const line = raw.trim()
    const where = `${method}/${name}.io:${i + 1}`
    if (line === '') return
    if (line.startsWith('//')) {
      if (line.includes('speconly')) specOnly = true
      return
    }
    if (line.startsWith('>>')) {
      if (pending !== undefined) throw new Error(`${where}: a request follows a request that has no reply`)
      pending = { request: parseJson(line.slice(2).trim(), where) }
      return
    }
    if (line.startsWith('<<')) {
      if (pending === undefined) throw new Error(`${where}: a reply without a request`)
      exchanges.push({ request: pending.request, expected: parseJson(line.slice(2).trim(), where) })
      pending = undefined
      return
    }
    throw new Error(`${where}: not a comment, request or reply: ${line.slice(0, 60)}`)
  })
  if (pending !== undefined) throw new Error(`${method}/${name}.io: the last request has no reply`)
  if (exchanges.length === 0) throw new Error(`${method}/${name}.io: no request`)
  return { method, name, specOnly, exchanges }
}

/** Every case of the fixtures folder, in hive's order (by method, then by file name). */
export function loadCases(dir: string = FIXTURES_DIR): ConformanceCase[] {
  return listCaseFiles(dir).map((path) => {
    const [method = '', file = ''] = path.split('/')
    return parseCase(method, file.slice(0, -'.io'.length), readFileSync(join(dir, path), 'utf8'))
  })
}
