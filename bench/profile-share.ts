/**
 * The share of a .cpuprofile (from `node --cpu-prof`, or BENCH_PROFILE's timed loop) spent in
 * source files whose path contains a fragment: self time (the samples in those files) and
 * inclusive time (the samples with one of those files anywhere on the stack, so calls they make
 * into libraries count too). Used to show that the `cosmos` option's code (src/cosmos/) is off
 * the default node's hot paths:
 *
 *   BENCH_SOURCE=src BENCH_N=1000 BENCH_PROFILE=/tmp/prof/eth.cpuprofile npx tsx bench/eth-transfers.ts
 *   npx tsx bench/profile-share.ts /tmp/prof/eth.cpuprofile src/cosmos/
 *
 * Percentages are of the non-idle sampled time.
 */
import { readFileSync } from 'node:fs'

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const [file, fragment] = process.argv.slice(2)
if (file === undefined || fragment === undefined) throw new Error('usage: profile-share.ts <file.cpuprofile> <path fragment>')
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile

const parent = new Map<number, number>()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const matches = (n: ProfileNode): boolean => n.callFrame.url.includes(fragment)

/** Whether a node or one of its callers is in a matching file (memoized per node). */
const inclusive = new Map<number, boolean>()
function under(id: number): boolean {
  const known = inclusive.get(id)
  if (known !== undefined) return known
  const n = byId.get(id)
  const up = parent.get(id)
  const result = n !== undefined && (matches(n) || (up !== undefined && under(up)))
  inclusive.set(id, result)
  return result
}

let busy = 0
let self = 0
let incl = 0
const functions = new Map<string, number>()
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i]!
  const n = byId.get(id)
  const dt = profile.timeDeltas[i] ?? 0
  if (n === undefined || n.callFrame.functionName === '(idle)') continue
  busy += dt
  if (matches(n)) {
    self += dt
    const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.slice(n.callFrame.url.indexOf(fragment))}:${n.callFrame.lineNumber + 1}`
    functions.set(key, (functions.get(key) ?? 0) + dt)
  }
  if (under(id)) incl += dt
}

const pct = (us: number): string => `${((100 * us) / Math.max(busy, 1)).toFixed(3)} %`
console.log(`${file}: ${(busy / 1000).toFixed(0)} ms busy sampled`)
console.log(`files matching ${fragment}: self ${(self / 1000).toFixed(1)} ms (${pct(self)}), inclusive ${(incl / 1000).toFixed(1)} ms (${pct(incl)})`)
for (const [key, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${(us / 1000).toFixed(1).padStart(7)} ms  ${key}`)
