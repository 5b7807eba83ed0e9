/**
 * The bytes one request of a recorded suite allocates, and who allocates them: replays the
 * scenario up to the `nth` request of `method` on a build, repeats that request 200 times to warm
 * up, then `times` times counting scavenges and CPU (no profiler), then `times` times under V8's
 * sampling heap profiler with the objects the collectors freed kept in the profile, so its sizes
 * estimate everything allocated, not what survived. Prints bytes allocated a request, scavenges
 * per 1,000 requests, CPU µs a request, and the top allocating functions (self bytes a request,
 * mapped to the sources through dist's source maps).
 *
 *   npx tsup && npx tsx bench/replay/alloc.ts <scenario.jsonl.gz> eth_sendTransaction 3000 2000
 *
 * `BENCH_DIST=<dir>` loads another build (keep it inside the repository: `.scratch/`, see
 * docs/performance.md "Measuring traps"); `BENCH_ALLOC_INTERVAL` is the sampling interval in bytes
 * (default 512); `BENCH_ALLOC_TOP` the number of functions listed (default 30). `evm_revert` is
 * measured as a pair: an `evm_snapshot`, then the revert to it. A repeated send goes again as
 * recorded (the next nonce), so it measures the same work on a slightly later state; check that
 * it does not fail (the answer's error is printed when it does).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { SourceMap } from 'node:module'
import path from 'node:path'
import { PerformanceObserver, constants } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { scenarioNode } from './scenario-node.js'

const [file, method, nth = '1', times = '1000'] = process.argv.slice(2)
if (file === undefined || method === undefined) throw new Error('usage: alloc.ts <scenario.jsonl.gz> <method> [nth=1] [times=1000]')
const n = Number(times)
const { root, distDir, node, requests } = await scenarioNode(file)

type Req = { method: string; params?: unknown[] }
let lastError: unknown
const once = async (r: Req): Promise<void> => {
  if (r.method === 'evm_revert') {
    const id = await node.request({ method: 'evm_snapshot', params: [] })
    await node.request({ method: 'evm_revert', params: [id] })
    return
  }
  await node.request(r).catch((e: unknown) => {
    lastError = e
  })
}

interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }
interface HeapNode { callFrame: CallFrame; selfSize: number; children: HeapNode[] }

const maps = new Map<string, SourceMap | undefined>()
/** The build file's source map (its `.map` beside it; the bundle names two, so Node finds neither). */
function sourceMap(file: string): SourceMap | undefined {
  if (!maps.has(file)) maps.set(file, existsSync(`${file}.map`) ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as never) : undefined)
  return maps.get(file)
}

/** A frame as `function (source:line)`, mapped through the build's source map when it has one. */
function where(f: CallFrame): string {
  const name = f.functionName === '' ? '(anonymous)' : f.functionName
  if (f.url === '') return `${name} (native)`
  const file = f.url.startsWith('file://') ? fileURLToPath(f.url) : f.url
  const entry = sourceMap(file)?.findEntry(f.lineNumber, f.columnNumber) as { originalSource?: string; originalLine?: number } | undefined
  if (entry?.originalSource !== undefined) {
    const src = entry.originalSource.replace(/^.*?\/(src|node_modules)\//, '$1/')
    return `${name} (${src}:${(entry.originalLine ?? 0) + 1})`
  }
  const nm = file.lastIndexOf('node_modules/')
  return `${name} (${nm >= 0 ? file.slice(nm + 13) : path.relative(root, file)}:${f.lineNumber + 1})`
}

let seen = 0
let target: Req | undefined
for (const r of requests as Req[]) {
  if (r.method === method && ++seen === Number(nth)) {
    target = r
    break
  }
  await node.request(r).catch(() => {})
}
if (target === undefined) throw new Error(`the scenario has ${seen} ${method} requests, not ${nth}`)
for (let i = 0; i < 200; i++) await once(target)

let scavenges = 0
let majors = 0
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++
    else majors++
  }
})
obs.observe({ entryTypes: ['gc'] })
const cpu0 = process.cpuUsage()
for (let i = 0; i < n; i++) await once(target)
const cpu = process.cpuUsage(cpu0)
await new Promise((r) => setTimeout(r, 10))
obs.disconnect()

const session = new Session()
session.connect()
await session.post('HeapProfiler.enable')
const interval = Number(process.env.BENCH_ALLOC_INTERVAL ?? 512)
await session.post('HeapProfiler.startSampling', { samplingInterval: interval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never)
for (let i = 0; i < n; i++) await once(target)
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: HeapNode } }
if (process.env.BENCH_ALLOC_PROFILE !== undefined) writeFileSync(process.env.BENCH_ALLOC_PROFILE, JSON.stringify(profile))

const self = new Map<string, number>()
const inclusive = new Map<string, number>()
const byFile = new Map<string, number>()
let total = 0
// A native allocation (Map, slice, subarray…) is named with its caller, where the cut would be.
const walk = (h: HeapNode, parent: string, above: Set<string>): void => {
  const here = where(h.callFrame)
  const fn = h.callFrame.functionName
  const added = fn !== '' && !above.has(fn)
  if (added) above.add(fn)
  const sub = (x: HeapNode): number => x.selfSize + x.children.reduce((a, c) => a + sub(c), 0)
  if (added) inclusive.set(fn, (inclusive.get(fn) ?? 0) + sub(h))
  if (h.selfSize > 0) {
    const k = h.callFrame.url === '' ? `${here} <- ${parent}` : here
    self.set(k, (self.get(k) ?? 0) + h.selfSize)
    const source = /\(([^:()]+)(?::\d+)?\)$/.exec(h.callFrame.url === '' ? parent : here)?.[1] ?? '(native)'
    byFile.set(source, (byFile.get(source) ?? 0) + h.selfSize)
    total += h.selfSize
  }
  for (const c of h.children) walk(c, h.callFrame.url === '' ? parent : here, above)
  if (added) above.delete(fn)
}
walk(profile.head, '(root)', new Set())
const top = Number(process.env.BENCH_ALLOC_TOP ?? 30)
console.log(`${method} #${nth} (${path.relative(root, distDir)}): ${(total / n / 1024).toFixed(1)} KB allocated a request, ` +
  `${((scavenges * 1000) / n).toFixed(1)} scavenges and ${((majors * 1000) / n).toFixed(2)} other GCs per 1,000, ` +
  `${((cpu.user + cpu.system) / n).toFixed(0)} µs CPU a request (${n} each)`)
if (lastError !== undefined) console.log(`  the request failed: ${String((lastError as Error).message ?? lastError).slice(0, 200)}`)
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${(v / n).toFixed(0).padStart(9)} B  ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`)
}
console.log('by source file (a native allocation counts to its caller\'s):')
for (const [k, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${(v / n).toFixed(0).padStart(9)} B  ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`)
}
const named = (process.env.BENCH_ALLOC_INCLUSIVE ?? '').split(',').filter((x) => x !== '')
if (named.length > 0) console.log('inclusive (bytes a request):')
for (const fn of named) console.log(`${((inclusive.get(fn) ?? 0) / n).toFixed(0).padStart(9)} B  ${(((100 * (inclusive.get(fn) ?? 0)) / total)).toFixed(1).padStart(5)} %  ${fn}`)
await node.close()
