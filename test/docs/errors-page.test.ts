/**
 * docs/errors.md: its programs run (solc from node_modules, the package pointed at src/) and
 * print what the page shows (the error object of a failed call over HTTP among them); its command
 * line is one the CLI parses.
 */
import { describe, expect, it } from 'vitest'
import { parseCli } from '../../src/cli/config.js'
import { block, runBatch, shellWords } from './blocks.js'

describe('docs/errors.md', () => {
  it('the example prints the custom error and its Solidity frame', { timeout: 120_000 }, async () => {
    const { runs, stderr } = await runBatch([{ name: 'errors-example.ts', source: block('errors.md', 1, 'ts') }])
    const run = runs['errors-example.ts']
    expect(run?.error, stderr).toBeUndefined()
    expect(run?.stdout.trimEnd()).toBe(block('errors.md', 2, 'text').trimEnd())
  })

  it('the command line parses', () => {
    const words = shellWords(block('errors.md', 3, 'sh').trim())
    expect(words.slice(0, 2)).toEqual(['npx', 'finality'])
    const c = parseCli(words.slice(2))
    expect(c.hardhat).toBe(true)
    expect(c.artifacts).toEqual(['out/'])
  })

  it('over HTTP: the error object a failed call answers, its Solidity frames in `solidityTrace`', { timeout: 120_000 }, async () => {
    const { runs, stderr } = await runBatch([{ name: 'errors-wire.ts', source: block('errors.md', 4, 'ts') }])
    const run = runs['errors-wire.ts']
    expect(run?.error, stderr).toBeUndefined()
    expect(JSON.parse(run!.stdout)).toEqual(JSON.parse(block('errors.md', 5, 'json')))
    expect(run?.stdout.trimEnd()).toBe(block('errors.md', 5, 'json').trimEnd())
  })

  it('contracts read once by loadArtifacts serve many nodes', { timeout: 120_000 }, async () => {
    const { runs, stderr } = await runBatch([{ name: 'errors-load.ts', source: block('errors.md', 6, 'ts') }])
    const run = runs['errors-load.ts']
    expect(run?.error, stderr).toBeUndefined()
    expect(run?.stdout.trimEnd()).toBe('1 1')
  })
})
