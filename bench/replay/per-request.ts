/**
 * Where finality spends more CPU than EDR, request by request: reads the per-request CPU files two
 * replay runs wrote (`BENCH_REPLAY_PER_REQUEST=/tmp/r npm run bench:replay`, one EDR and one
 * finality file of the same suite and core setting) and prints the difference by method, sends
 * split into deployments and calls, by tenth of the suite (the warm-up shows in the first), and
 * the requests with the largest differences. A finality run made with `BENCH_REPLAY_MAIN_THREAD=1`
 * as well also wrote its main thread's share (`<file>.main.json`, read when present): the rest of a
 * request's CPU is V8's background threads, which on one core land in whichever request runs.
 *
 *   npx tsx bench/replay/per-request.ts <scenario.jsonl.gz> <edr.json> <finality.json> [top=20]
 */
import { existsSync, readFileSync } from 'node:fs'
import { loadScenario } from './scenario.js'

const [file, edrFile, finFile, top = '20'] = process.argv.slice(2)
if (file === undefined || edrFile === undefined || finFile === undefined) throw new Error('usage: per-request.ts <scenario.jsonl.gz> <edr.json> <finality.json> [top=20]')
const { requests } = loadScenario(file)
const edr = JSON.parse(readFileSync(edrFile, 'utf8')) as number[]
const fin = JSON.parse(readFileSync(finFile, 'utf8')) as number[]
// The finality run's main-thread figures, when it wrote them (BENCH_REPLAY_MAIN_THREAD=1).
const mainFile = finFile.replace(/\.json$/, '.main.json')
const main = existsSync(mainFile) ? (JSON.parse(readFileSync(mainFile, 'utf8')) as number[]) : undefined
if (edr.length !== requests.length || fin.length !== requests.length) throw new Error(`${requests.length} requests, ${edr.length} and ${fin.length} figures: files of another suite?`)

/** A request's kind: its method, a send split into deployment and call. */
function kind(i: number): string {
  const r = requests[i]!
  if (r.method !== 'eth_sendTransaction' && r.method !== 'eth_estimateGas' && r.method !== 'eth_call') return r.method
  const tx = (r.params?.[0] ?? {}) as { to?: string | null }
  return `${r.method} (${tx.to === undefined || tx.to === null ? 'deployment' : 'call'})`
}

const ms = (us: number): string => (us / 1000).toFixed(1).padStart(9)
const groups = new Map<string, { n: number; edr: number; fin: number }>()
const add = (key: string, i: number): void => {
  const g = groups.get(key) ?? { n: 0, edr: 0, fin: 0 }
  g.n++
  g.edr += edr[i]!
  g.fin += fin[i]!
  groups.set(key, g)
}
for (let i = 0; i < requests.length; i++) add(kind(i), i)
console.log('by kind (CPU ms; largest finality − EDR first):')
console.log(`${'kind'.padEnd(40)} ${'n'.padStart(7)} ${'EDR'.padStart(9)} ${'finality'.padStart(9)} ${'diff'.padStart(9)}  µs/req EDR → finality`)
for (const [k, g] of [...groups].sort((a, b) => b[1].fin - b[1].edr - (a[1].fin - a[1].edr))) {
  console.log(`${k.padEnd(40)} ${String(g.n).padStart(7)} ${ms(g.edr)} ${ms(g.fin)} ${ms(g.fin - g.edr)}  ${(g.edr / g.n).toFixed(0)} → ${(g.fin / g.n).toFixed(0)}`)
}
console.log('\nby tenth of the suite (CPU ms):')
for (let t = 0; t < 10; t++) {
  const from = Math.floor((t * requests.length) / 10)
  const to = Math.floor(((t + 1) * requests.length) / 10)
  let e = 0
  let f = 0
  for (let i = from; i < to; i++) {
    e += edr[i]!
    f += fin[i]!
  }
  console.log(`  requests ${String(from).padStart(6)}–${String(to - 1).padEnd(6)} EDR ${ms(e)}  finality ${ms(f)}  ${(f / e).toFixed(2)}×`)
}
if (main !== undefined) {
  const all = fin.reduce((a, b) => a + b, 0)
  const own = main.reduce((a, b) => a + b, 0)
  console.log(`\nfinality's main thread: ${ms(own).trim()} of ${ms(all).trim()} ms of CPU; other threads ${ms(all - own).trim()} ms`)
}
console.log(`\nthe ${top} requests with the largest difference:`)
const order = requests.map((_, i) => i).sort((a, b) => fin[b]! - edr[b]! - (fin[a]! - edr[a]!))
for (const i of order.slice(0, Number(top))) {
  const data = ((requests[i]!.params?.[0] ?? {}) as { data?: string }).data
  const ownThread = main === undefined ? '' : ` (main thread ${(main[i]! / 1000).toFixed(2)})`
  console.log(`  #${i} ${kind(i)}${data === undefined ? '' : `, ${(data.length - 2) / 2} bytes of data`}: EDR ${(edr[i]! / 1000).toFixed(2)} ms, finality ${(fin[i]! / 1000).toFixed(2)} ms${ownThread}`)
}
