/**
 * Splits a whole process's CPU samples by thread and, off the main thread, by the kind of work
 * the native frames show: TurboFan's compile jobs (`v8::internal::compiler::`), Maglev's
 * (`v8::internal::maglev::`), the collector's (scavenge, concurrent marking, sweeping, evacuation,
 * the unmapper), parse and bytecode on a background thread, Sparkplug's batch compiles, and the
 * rest (its most frequent innermost frames printed). A sample counts for the first kind any frame
 * of its stack matches, in that order (Maglev before TurboFan: Maglev's jobs call into parts of
 * `compiler::`). Node's binary has no frame pointers in all of its C++, so a stack may stop short:
 * the innermost frame is then all there is, and a job's helper (`Zone::New`, `malloc`, a page
 * fault) with no named caller falls under "other".
 *
 * Record all threads of the process (no `-t`), as `bench/perf-tiers.ts` describes, then:
 *
 *   perf script -i perf.jit.data -F comm,pid,tid,time,ip,sym,dso > script.txt
 *   npx tsx bench/perf-threads.ts script.txt <the process's pid> [top=15]
 *
 * Prints two spans: the process's whole life, and the replay's window (the first main-thread sample
 * under the runner's `createFinality`/`replayPass` to the last under finality's bundle or
 * `replayPass`, as `perf-tiers.ts`; all threads' samples inside it, which is what the runner's
 * `cpuMs` measures). One sample is 0.5 ms of CPU at 2 kHz.
 */
import { hasFrame, readPerfSamples, replayWindow, type PerfSample } from './perf-script.js'

const [file, pidArg, topArg = '15'] = process.argv.slice(2)
if (file === undefined || pidArg === undefined) throw new Error('usage: perf-threads.ts <perf script output> <pid> [top]')
const pid = Number(pidArg)

const samples = readPerfSamples(file)
const main = samples.filter((s) => s.tid === pid)
if (main.length === 0) throw new Error(`no sample of thread ${pid}: is it the process's pid (first column after the name)?`)
const { first, last } = replayWindow(main)

const KINDS: readonly [RegExp, string][] = [
  [/v8::internal::maglev::/, 'Maglev compile jobs'],
  [/v8::internal::compiler::|TurbofanCompilationJob|OptimizedCompilationJob|OptimizingCompileDispatcher/, 'TurboFan compile jobs'],
  [
    /Scaveng|ConcurrentMarking|Sweeper|MarkCompact|Marking|Evacuat|Unmapper|MinorMC|MinorMS|PointersUpdat|ArrayBufferSweeper|Heap::|GCTracer|MemoryAllocator|MemoryReducer|RememberedSet|SlotSet|TypedSlot|Compactor|EphemeronTable/,
    'GC (scavenge, marking, sweeping, evacuation, unmapper)',
  ],
  [/v8::internal::baseline::|BaselineBatchCompiler/, 'Sparkplug (baseline) compiles'],
  [/Parser|PreParser|Scanner|BytecodeGenerator|interpreter::|BackgroundCompileTask|BackgroundDeserializeTask|CodeSerializer/, 'parse, bytecode, code cache'],
  [/v8::internal::wasm::/, 'WebAssembly compile'],
  [/uv__work_done|uv__worker|worker\b|napi_|node::/, 'libuv / Node internals'],
]
const kindOf = (s: PerfSample): string => KINDS.find(([re]) => hasFrame(s, re))?.[1] ?? 'other'

const report = (title: string, set: PerfSample[]): void => {
  const mainN = set.filter((s) => s.tid === pid).length
  console.log(`\n${title}: ${set.length} samples (${(set.length / 2).toFixed(0)} ms at 2 kHz), main thread ${mainN}, other threads ${set.length - mainN}`)
  const byThread = new Map<number, { comm: string; n: number; kinds: Map<string, number> }>()
  const byKind = new Map<string, number>()
  const otherLeaves = new Map<string, number>()
  for (const s of set) {
    if (s.tid === pid) continue
    const t = byThread.get(s.tid) ?? { comm: s.comm, n: 0, kinds: new Map<string, number>() }
    byThread.set(s.tid, t)
    t.n++
    const k = kindOf(s)
    t.kinds.set(k, (t.kinds.get(k) ?? 0) + 1)
    byKind.set(k, (byKind.get(k) ?? 0) + 1)
    if (k === 'other') {
      const leaf = (s.frames[0] ?? '?').replace(/\(.*$/, '').slice(0, 100)
      otherLeaves.set(leaf, (otherLeaves.get(leaf) ?? 0) + 1)
    }
  }
  const off = set.length - mainN
  const pct = (n: number): string => `${n} (${(n / 2).toFixed(0)} ms, ${((100 * n) / Math.max(1, off)).toFixed(1)}% of the other threads)`
  console.log('other threads, by kind:')
  for (const [k, n] of [...byKind].sort((a, b) => b[1] - a[1])) console.log(`  ${k}: ${pct(n)}`)
  console.log('by thread:')
  for (const [tid, t] of [...byThread].sort((a, b) => b[1].n - a[1].n)) {
    const kinds = [...t.kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k.replace(/ \(.*/, '')} ${n}`)
    console.log(`  ${tid} ${t.comm}: ${t.n}  ${kinds.join(', ')}`)
  }
  console.log('"other": innermost frames')
  for (const [k, n] of [...otherLeaves].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) console.log(`  ${n}  ${k}`)
}

const own = samples.filter((s) => s.pid === pid)
report('whole process', own)
if (first !== undefined && last !== undefined) {
  report(`replay window (${(last.time - first.time).toFixed(2)} s wall)`, own.filter((s) => s.time >= first.time && s.time <= last.time))
} else console.log('\nno sample under the runner: the window is not known (not a replay of finality?)')
