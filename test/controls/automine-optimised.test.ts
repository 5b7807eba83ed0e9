/**
 * Code that reads the mining mode keeps its optimised code across a suite's first
 * evm_setAutomine: the producer's mode field is written twice from its construction on, so V8
 * holds it as a field that changes and never compiles the mode as a constant of the code that
 * reads it (producer.ts `MODE_BEFORE_CONSTRUCTION`). Written once, the first change of mode threw
 * away the send's admission and the automine check inlined in it. Checked in a process of its
 * own (v8/automine.ts), on the sources bundled as the build bundles them.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const dir = path.dirname(fileURLToPath(import.meta.url))

describe('the mining mode under optimised code', () => {
  it('behavior: the automine check inlined in optimised code stays optimised when the mode changes', async () => {
    // In the test's own folder, so that the bundle finds the packages it leaves out.
    const out = mkdtempSync(path.join(dir, 'v8', '.bundle-'))
    try {
      const file = path.join(out, 'automine.mjs')
      // The build's settings for the code (tsup.config.ts): Node 20, one ES module; the packages stay outside.
      await build({ entryPoints: [path.join(dir, 'v8', 'automine.ts')], outfile: file, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'error' })
      const result = JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8' })) as { answers: boolean[]; before: number; after: number }
      expect(result.answers).toEqual([true, false, true])
      // V8's status bit 4 (16): the function runs optimised code.
      expect(result.before & 16).toBe(16)
      expect(result.after & 16).toBe(16)
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })
})
