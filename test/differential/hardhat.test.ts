/**
 * finality in Hardhat mode against Hardhat Network itself: the same JSON-RPC requests (a recorded
 * Hardhat project's and a generated corpus) go to Hardhat 2.29.1's own provider and to
 * `createNode({ hardhatCompat: true, hardfork: 'osaka' })`, configured alike, and every answer
 * must agree once normalised (normalise.ts), unless a known difference with its reason covers
 * it (known.ts, also listed in docs/hardhat.md). `npx tsx test/differential/report.ts` prints
 * them all for people.
 */
import { readFileSync } from 'node:fs'
import { describe as suite, expect, it } from 'vitest'
import { KNOWN } from './known.js'
import { corpora, describe, runCorpus, type Classified } from './run.js'

const found: Classified[] = []

suite('finality against Hardhat Network, answer by answer', async () => {
  for (const corpus of await corpora()) {
    it(`${corpus.name} (${corpus.steps.length} requests): every difference is a known one`, async () => {
      const diffs = await runCorpus(corpus)
      found.push(...diffs)
      expect(diffs.filter((d) => d.known === undefined).map(describe)).toEqual([])
    }, 60_000)
  }

  it('every known difference is in docs/hardhat.md, by its name', () => {
    const docs = readFileSync(new URL('../../docs/hardhat.md', import.meta.url), 'utf8')
    expect(KNOWN.filter((k) => !docs.includes(`- **${k.id}**`)).map((k) => k.id)).toEqual([])
  })

  it('every known difference still occurs (a fixed one leaves the list and docs/hardhat.md)', () => {
    const seen = new Set(found.map((d) => d.known?.id))
    const expected = KNOWN.filter((k) => (k.fullOnly !== true || process.env.DIFF_FULL === '1') && k.providerOnly !== true)
    expect(expected.filter((k) => !seen.has(k.id)).map((k) => k.id)).toEqual([])
  })
})
