/**
 * The vitest row: the repository's vitest runs N generated test files that each create a chain
 * (finality, EDR or Anvil, through the contest's `chains.mjs`) and N empty files; a file's cost is
 * the difference in the run's wall time divided by N. Each variant has a folder of its own with a
 * config that needs no imports (globals on; the generated files and the bundle are kept out of
 * vite's transform, as a package in node_modules would be).
 */
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { ChainSetup } from './chains.js'
import type { Contestant } from './plan.js'

const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url))

export type Variant = 'empty' | Contestant

/** Writes the variant's folder under `root` (once) and returns it. */
export function prepareVitest(root: string, variant: Variant, files: number, chainsBundle: string, setup: ChainSetup): string {
  const dir = path.join(root, `vitest-${variant}`)
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    path.join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.mjs'], globals: true, pool: 'forks', server: { deps: { external: [/finality-contest-/] } } } }\n`,
  )
  const body =
    variant === 'empty'
      ? `test('empty', () => {})\n`
      : `import { open } from ${JSON.stringify(pathToFileURL(chainsBundle).href)}\n` +
        `const setup = ${JSON.stringify(setup)}\n` +
        `test('creates a chain', async () => {\n  const { chain } = await open(${JSON.stringify(variant)}, setup)\n  await chain.close()\n})\n`
  for (let i = 0; i < files; i++) writeFileSync(path.join(dir, `file-${i}.test.mjs`), body)
  return dir
}

/** Runs vitest over a prepared folder (with `pinned`, on one core: `taskset -c 1`, its workers too); its wall time, ms. */
export function runVitest(dir: string, pinned = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const argv = [process.execPath, VITEST, 'run', '--root', dir, '--config', path.join(dir, 'vitest.config.mjs'), '--reporter=dot']
    const [cmd, ...args] = pinned ? ['taskset', '-c', '1', ...argv] : argv
    const child = spawn(cmd!, args, {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d))
    child.once('error', reject)
    child.once('exit', (code) => {
      const ms = performance.now() - t0
      if (code === 0) resolve(ms)
      else reject(new Error(`vitest in ${dir} exited with ${code}:\n${output}`))
    })
  })
}
