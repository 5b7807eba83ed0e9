/**
 * The fenced code blocks of docs/*.md, read at test time, and what the tests of test/docs/ need
 * to run them: the list of every block and which test checks it (`CHECKED`), the program runner
 * (a child process under tsx, at most two at a time, imports of the package pointed at src/) and a
 * shell-line splitter for command lines. test/docs/template.ts matches the JSON examples.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/** A folder for one run's programs, inside the repository (so its packages resolve) and git-ignored. */
function workDir(): string {
  mkdirSync(path.join(ROOT, '.cache'), { recursive: true })
  return mkdtempSync(path.join(ROOT, '.cache', 'docs-block-'))
}
const DOCS = path.join(ROOT, 'docs')

/** One fenced block: its file (`validators.md`), its place among the file's blocks (1-based), info string, text. */
export interface DocBlock {
  file: string
  index: number
  line: number
  info: string
  text: string
}

/** Every fenced block of every docs/*.md file, in file order. */
export function docBlocks(): DocBlock[] {
  const blocks: DocBlock[] = []
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith('.md')).sort()) {
    const lines = readFileSync(path.join(DOCS, file), 'utf8').split('\n')
    let open: { info: string; line: number; body: string[] } | undefined
    lines.forEach((line, i) => {
      const fence = /^(\s*)(```|~~~)(.*)$/.exec(line)
      if (open === undefined) {
        if (fence) open = { info: (fence[3] ?? '').trim(), line: i + 1, body: [] }
      } else if (fence && (fence[3] ?? '').trim() === '') {
        blocks.push({ file, index: blocks.filter((b) => b.file === file).length + 1, line: open.line, info: open.info, text: `${open.body.join('\n')}\n` })
        open = undefined
      } else open.body.push(line)
    })
    if (open !== undefined) throw new Error(`docs/${file}:${open.line}: a fence that is never closed`)
  }
  return blocks
}

/** The `index`-th block of docs/`file`; fails if the block's info string is not `info`. */
export function block(file: string, index: number, info?: string): string {
  const found = docBlocks().find((b) => b.file === file && b.index === index)
  if (found === undefined) throw new Error(`docs/${file} has no block ${index}`)
  if (info !== undefined && found.info !== info) throw new Error(`docs/${file} block ${index} is \`\`\`${found.info}, not \`\`\`${info}`)
  return found.text
}

/**
 * How each block is checked: the test file of test/docs/ that calls `block(file, n)` for it, or
 * another test of the repository that reads it (named, with a text that test must hold).
 * test/docs/coverage.test.ts holds this list equal to the blocks the docs have.
 */
export const CHECKED: Readonly<Record<string, string>> = {
  'architecture.md#1': 'layouts',
  'architecture.md#2': 'layouts',
  'conformance.md#1': 'layouts',
  'conformance.md#2': 'layouts',
  'controls.md#1': 'programs',
  'controls.md#2': 'wire',
  'controls.md#3': 'wire',
  // A program of its own: a delegation through the staking precompile moves the validator set.
  'cosmos-evm.md#1': 'test/cosmos/docs.test.ts: ### A delegation moves the validator set',
  // The commands run as processes with a real cometbft (test/cli/network.test.ts).
  'devnet.md#1': 'test/cli/network.test.ts: ### A local devnet in one command',
  'devnet.md#2': 'test/cli/network.test.ts: ### Over several machines',
  'debug.md#1': 'wire',
  'debug.md#2': 'wire',
  'debug.md#3': 'wire',
  'errors.md#1': 'errors-page',
  'errors.md#2': 'errors-page',
  'errors.md#3': 'errors-page',
  'errors.md#4': 'errors-page',
  'errors.md#5': 'errors-page',
  'errors.md#6': 'errors-page',
  'errors.md#7': 'errors-page',
  'execution.md#1': 'wire',
  'execution.md#2': 'wire',
  'forking.md#1': 'programs',
  'forking.md#2': 'cli',
  'forking.md#3': 'programs',
  'forking.md#4': 'programs',
  // forge's fork test, run on finality and on Anvil by forge itself.
  'foundry.md#1': 'test/foundry/forge-fork.test.ts: ### Fork tests',
  'hardhat.md#1': 'projects',
  'hardhat.md#2': 'projects',
  'hardhat.md#3': 'projects',
  'hardhat.md#4': 'projects',
  'hardhat.md#5': 'projects',
  'hardhat.md#6': 'projects',
  'hardhat.md#7': 'projects',
  'in-process.md#1': 'programs',
  'in-process.md#2': 'programs',
  'in-process.md#3': 'programs',
  'in-process.md#4': 'programs',
  'prool.md#1': 'projects',
  'prool.md#2': 'projects',
  'tracing.md#1': 'wire',
  'tracing.md#2': 'wire',
  'tracing.md#3': 'wire',
  'tracing.md#4': 'wire',
  'tracing.md#5': 'wire',
  'tracing.md#6': 'wire',
  'tracing.md#7': 'wire',
  'tracing.md#8': 'wire',
  'transports.md#1': 'programs',
  'transports.md#2': 'cli',
  'transports.md#3': 'cli',
  'transports.md#4': 'layouts',
  'transports.md#5': 'programs',
  'transports.md#6': 'programs',
  'transports.md#7': 'cli',
  // The request log of a CLI session, compared with what the CLI prints (a CLI process and a deploy).
  'transports.md#8': 'test/cli/log.test.ts: ### The log',
  'validators.md#1': 'programs',
  'validators.md#2': 'programs',
  'explorer.md#1': "test/explorer/page.test.ts: block('explorer.md', 1",
  'explorer.md#2': "test/explorer/page.test.ts: block('explorer.md', 2",
}

/** `source` with the package's import specifiers (and `./src/…`, the repository's) pointed at the sources. */
export function pointAtSources(source: string): string {
  return source
    .replace(/(['"])finality-evm\/viem\1/g, JSON.stringify(path.join(ROOT, 'src', 'adapters', 'viem.ts')))
    .replace(/(['"])finality-evm\/prool\1/g, JSON.stringify(path.join(ROOT, 'src', 'prool.ts')))
    .replace(/(['"])finality-evm\1/g, JSON.stringify(path.join(ROOT, 'src', 'index.ts')))
    .replace(/(['"])\.\/src\//g, (_m, q: string) => `${q}${ROOT}/src/`)
}

let running = 0
const waiting: Array<() => void> = []

/** At most two programs at a time: the machine has two cores and other tests run beside. */
async function slot<T>(run: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  try {
    return await run()
  } finally {
    running--
    waiting.shift()?.()
  }
}

/** One program of a batch: its name (unique, the file name) and its source. */
export interface Program {
  name: string
  source: string
}

/** What one program of a batch printed, and what it threw (its stack), if it did. */
export interface BatchRun {
  stdout: string
  error?: string
}

const MARK = '\u0000program '

/**
 * Runs `programs` one after the other in one child process (`node --import tsx`, the sources
 * loaded once), each a module of its own imported by a driver that marks where each one's output
 * starts and what it threw. The driver exits when the last is done, servers left open or not.
 * Resolves to each program's output by name, and the child's stderr.
 */
export function runBatch(programs: Program[], timeout = 120_000): Promise<{ runs: Record<string, BatchRun>; stderr: string; code: number | null }> {
  return slot(
    () =>
      new Promise((resolve) => {
        const dir = workDir()
        for (const p of programs) writeFileSync(path.join(dir, p.name), pointAtSources(p.source))
        const driver = [
          `for (const name of ${JSON.stringify(programs.map((p) => p.name))}) {`,
          `  process.stdout.write(${JSON.stringify(MARK)} + name + '\\n')`,
          "  try { await import('./' + name) } catch (error) { process.stdout.write(" + JSON.stringify(MARK) + " + 'error ' + JSON.stringify(String(error?.stack ?? error)) + '\\n') }",
          '}',
          'process.exit(0)',
        ].join('\n')
        writeFileSync(path.join(dir, 'driver.mjs'), driver)
        const child = execFile(process.execPath, ['--import', 'tsx', path.join(dir, 'driver.mjs')], { cwd: dir, timeout, maxBuffer: 16 << 20 }, (_error, stdout, stderr) => {
          rmSync(dir, { recursive: true, force: true })
          const runs: Record<string, BatchRun> = {}
          let current: BatchRun | undefined
          for (const line of stdout.split('\n')) {
            if (line.startsWith(`${MARK}error `)) {
              if (current) current.error = JSON.parse(line.slice(MARK.length + 6)) as string
            } else if (line.startsWith(MARK)) {
              current = { stdout: '' }
              runs[line.slice(MARK.length)] = current
            } else if (current) current.stdout += `${line}\n`
          }
          for (const run of Object.values(runs)) run.stdout = run.stdout.replace(/\n$/, '')
          resolve({ runs, stderr, code: child.exitCode })
        })
      }),
  )
}

/** A command line split as a POSIX shell splits it (quotes, backslash-newline), its `# comment` dropped. */
export function shellWords(line: string): string[] {
  const words: string[] = []
  let word: string | undefined
  let quote: string | undefined
  const text = line.replace(/\\\n/g, ' ')
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (quote !== undefined) {
      if (c === quote) quote = undefined
      else word = (word ?? '') + c
    } else if (c === "'" || c === '"') {
      quote = c
      word = word ?? ''
    } else if (c === '#' && word === undefined) break
    else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else word = (word ?? '') + c
  }
  if (quote !== undefined) throw new Error(`unclosed quote in ${line}`)
  if (word !== undefined) words.push(word)
  return words
}

/** The command lines of a shell block: one per line, backslash continuations joined. */
export function commandLines(text: string): string[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() !== '')
}
