/**
 * Every fenced block of docs/*.md is checked by a test: `CHECKED` (test/docs/blocks.ts) lists each
 * block with the test that reads it, and this file holds that list equal to the blocks the pages
 * have and to what those tests read. A block added to a page without a test fails here.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHECKED, ROOT, docBlocks } from './blocks.js'

describe('the blocks of docs/*.md', () => {
  const blocks = docBlocks()

  it('every block is listed with its test, and every listed block exists', () => {
    const keys = blocks.map((b) => `${b.file}#${b.index}`)
    const where = Object.fromEntries(blocks.map((b) => [`${b.file}#${b.index}`, `docs/${b.file}:${b.line} \`\`\`${b.info}`]))
    expect(keys.filter((k) => !(k in CHECKED)).map((k) => where[k]), 'blocks no test checks: add a test, then list it in CHECKED').toEqual([])
    expect(Object.keys(CHECKED).filter((k) => !keys.includes(k)), 'listed blocks the pages no longer have').toEqual([])
  })

  it('each block is read by the test listed for it', () => {
    const missing: string[] = []
    for (const [key, test] of Object.entries(CHECKED)) {
      const [file, index] = key.split('#') as [string, string]
      if (test.startsWith('test/')) {
        // Another test of the repository: it reads the page and holds the text named after its path.
        const [testFile, marker] = test.split(': ') as [string, string]
        const source = existsSync(path.join(ROOT, testFile)) ? readFileSync(path.join(ROOT, testFile), 'utf8') : ''
        if (!source.includes(`'${file}'`) || !source.includes(marker)) missing.push(`${key}: ${testFile} does not read it`)
      } else {
        const testFile = path.join(ROOT, 'test', 'docs', `${test}.test.ts`)
        const source = existsSync(testFile) ? readFileSync(testFile, 'utf8') : ''
        if (!new RegExp(`block\\('${file.replace('.', '\\.')}', ${index}\\b`).test(source)) missing.push(`${key}: test/docs/${test}.test.ts does not read it`)
      }
    }
    expect(missing).toEqual([])
  })
})
