/**
 * Prints every difference between Hardhat Network and finality in Hardhat mode, grouped by method,
 * each with the known difference that covers it (or UNKNOWN).
 *
 *   npx tsx test/differential/report.ts            the wire answers (what each server sends)
 *   DIFF_MODE=provider npx tsx …/report.ts         the in-process EIP-1193 providers' answers
 *   DIFF_FULL=1 npx tsx …/report.ts                every recorded step (long hardhat_mine too)
 */
import { corpora, describe, runCorpus, type Classified } from './run.js'
import type { Mode } from './sides.js'

const mode = (process.env.DIFF_MODE ?? 'wire') as Mode
if (mode !== 'wire' && mode !== 'provider') throw new Error(`DIFF_MODE must be wire or provider, got ${String(mode)}`)

const all: Classified[] = []
for (const corpus of await corpora()) all.push(...(await runCorpus(corpus, mode)))

const byMethod = new Map<string, Classified[]>()
for (const d of all) byMethod.set(d.method, [...(byMethod.get(d.method) ?? []), d])
for (const [method, diffs] of [...byMethod].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`\n== ${method} (${diffs.length})`)
  for (const d of diffs) console.log(`  [${d.known === undefined ? 'UNKNOWN' : d.known.id}${d.known?.owner === undefined ? '' : ', being fixed in hardhat mode'}] ${describe(d)}`)
}
const unknown = all.filter((d) => d.known === undefined).length
console.log(`\n${all.length} differences, ${unknown} not known (${mode} answers)`)
