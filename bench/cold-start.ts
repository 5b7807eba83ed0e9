/**
 * The cold-start rows of the contest for finality alone, quick enough to compare two builds:
 * `import` of dist/index.js, the first `createNode()` and its first answer (`eth_chainId`), each
 * timed inside a fresh process, medians over `BENCH_REPS` (default 11) processes; then the vitest
 * row (7 files that each create a node over 7 empty files, divided by 7) `BENCH_VITEST_REPS`
 * times (default 3; 0 leaves it out). Build first: `npx tsup && npx tsx bench/cold-start.ts`.
 * `BENCH_DIST` points at another build (a worktree of another commit); `BENCH_VERSUS=<dist>` runs a
 * second build in alternation with the first (A, B, A, B, …) and prints both. Beside the wall times,
 * the main thread's on-CPU time from before the import to the first answer (Linux schedstat; leaves
 * out the compiler's and GC's helper threads and waiting for a core), the figure to compare builds by
 * on a shared machine.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { runVitest } from './contest/vitest-row.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const entryOf = (dist: string): string => pathToFileURL(path.resolve(dist, 'index.js')).href
const entry = entryOf(process.env.BENCH_DIST ?? path.join(ROOT, 'dist'))
const versus = process.env.BENCH_VERSUS === undefined ? undefined : entryOf(process.env.BENCH_VERSUS)
const reps = Number(process.env.BENCH_REPS ?? 11)
const vitestReps = Number(process.env.BENCH_VITEST_REPS ?? 3)
const FILES = 7

const child = (url: string): string => `
import { readFileSync } from 'node:fs'
const cpu = () => { try { return Number(readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ')[0]) / 1e6 } catch { return NaN } }
const c0 = cpu()
const t0 = performance.now()
const { createNode } = await import(${JSON.stringify(url)})
const t1 = performance.now()
const node = await createNode()
const t2 = performance.now()
await node.request({ method: 'eth_chainId' })
const t3 = performance.now()
const c3 = cpu()
console.log(JSON.stringify({ importMs: t1 - t0, createMs: t2 - t1, totalMs: t3 - t0, cpuMs: c3 - c0 }))
await node.close()
`

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

type Run = { importMs: number; createMs: number; totalMs: number; cpuMs: number }
const once = (url: string): Run => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', child(url)], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })
  return JSON.parse(out.trim().split('\n').at(-1) as string) as Run
}
const builds = versus === undefined ? [entry] : [entry, versus]
const runs = new Map<string, Run[]>(builds.map((b) => [b, []]))
for (let i = 0; i < reps; i++) for (const b of builds) runs.get(b)?.push(once(b))
const fmt = (xs: number[]): string => `${median(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`
for (const b of builds) {
  const rs = runs.get(b) ?? []
  console.log(`${b}, ${reps} fresh processes${builds.length > 1 ? ' (alternated with the other build)' : ''}, medians:`)
  console.log(`  import                     ${fmt(rs.map((r) => r.importMs))}`)
  console.log(`  first createNode()         ${fmt(rs.map((r) => r.createMs))}`)
  console.log(`  import + node + 1st answer ${fmt(rs.map((r) => r.totalMs))}  (the contest's cold-start row)`)
  console.log(`  the same, main-thread CPU  ${fmt(rs.map((r) => r.cpuMs))}`)
}

if (vitestReps > 0) {
  const root = mkdtempSync(path.join(tmpdir(), 'finality-cold-'))
  try {
    const folder = (name: string, body: string): string => {
      const dir = path.join(root, name)
      mkdirSync(dir)
      writeFileSync(path.join(dir, 'vitest.config.mjs'), `export default { test: { include: ['*.test.mjs'], globals: true, pool: 'forks', server: { deps: { external: [/dist\\/index\\.js/] } } } }\n`)
      for (let i = 0; i < FILES; i++) writeFileSync(path.join(dir, `file-${i}.test.mjs`), body)
      return dir
    }
    const empty = folder('empty', `test('empty', () => {})\n`)
    const nodes = folder('node', `import { createNode } from ${JSON.stringify(entry)}\ntest('creates a node', async () => {\n  const node = await createNode()\n  await node.close()\n})\n`)
    const perFile: number[] = []
    for (let i = 0; i < vitestReps; i++) {
      const e = await runVitest(empty)
      const n = await runVitest(nodes)
      perFile.push((n - e) / FILES)
    }
    console.log(`  vitest: a file creating a node over an empty one, ${vitestReps} runs of ${FILES} files: ${fmt(perFile)} per file`)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
