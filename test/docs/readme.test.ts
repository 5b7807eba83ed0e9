/**
 * The README's code blocks, run or checked as written: the in-process program runs (its imports
 * pointed at the sources), every `npx finality …` line parses with the command line's own parser,
 * the Hardhat config lines are those of the repository's Hardhat project, and the quick start's
 * scripts exist.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parseCli } from '../../src/cli/config.js'

const run = promisify(execFile)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8')

function blocks(lang: string): string[] {
  return [...README.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] as string)
}

describe('README', () => {
  it('runs its in-process program as written', async () => {
    const [program] = blocks('ts')
    expect(program).toContain("from 'finality-evm'")
    const dir = mkdtempSync(path.join(ROOT, '.readme-'))
    try {
      const file = path.join(dir, 'program.ts')
      const source = (program as string)
        .replace("from 'finality-evm/viem'", `from ${JSON.stringify(path.join(ROOT, 'src', 'adapters', 'viem.ts'))}`)
        .replace("from 'finality-evm'", `from ${JSON.stringify(path.join(ROOT, 'src', 'index.ts'))}`)
      writeFileSync(file, source)
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: ROOT })
      expect(stdout.trim()).toBe('success 10001000000000000000000n')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it("gives the command line only flags it takes", () => {
    const lines = blocks('sh').flatMap((b) => b.split('\n')).filter((l) => l.startsWith('npx finality'))
    expect(lines.length).toBeGreaterThanOrEqual(3)
    for (const line of lines) {
      const args = line.replace(/#.*$/, '').trim().split(/\s+/).slice(2)
      expect(() => parseCli(args), line).not.toThrow()
    }
  })

  it('starts with the two set-up commands, whose scripts exist', () => {
    const [quick] = blocks('sh')
    expect(quick).toMatch(/^npm ci && npm start\b/m)
    expect(quick).toMatch(/^npm test\b/m)
    const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
    expect(scripts.start).toBeDefined()
    expect(scripts.test).toBeDefined()
    expect(scripts.quickstart).toBeDefined()
    expect(README.indexOf('## Quick start')).toBeLessThan(README.indexOf('## Install'))
  })

  it("shows the Hardhat 2 plugin as the repository's Hardhat project loads it", () => {
    const [config] = blocks('js')
    const project = readFileSync(path.join(ROOT, 'test', 'hardhat', 'project', 'hardhat.config.js'), 'utf8')
    const lines = (config as string).split('\n').filter((l) => l.startsWith('require('))
    expect(lines.length).toBe(3)
    for (const line of lines) {
      // The project takes the plugin's specifier from the environment, with the package's as default.
      if (line.includes('finality-evm/hardhat')) expect(project).toContain("?? 'finality-evm/hardhat'")
      else expect(project).toContain(line.replace(/\s*\/\/.*$/, ''))
    }
  })
})
