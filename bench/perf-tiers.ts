/**
 * Splits one replay's main-thread CPU by V8 tier and by layer of the code, from a Linux `perf`
 * record with V8's jitdump (so code V8 frees and reuses the address of is still named right),
 * interpreted frames included (`--interpreted-frames-native-stack` gives each interpreted function
 * its own trampoline copy, named `~`): `~` interpreted, `^` baseline (Sparkplug), `+` Maglev,
 * `*` TurboFan (Node 24 writes `+'` / `*'`), `w` WebAssembly. A sample is charged to the innermost
 * JavaScript frame of its stack (so an IC miss or a runtime call counts for the function that made
 * it), unless a V8 GC, deoptimisation or compiler frame lies below that frame: then to that.
 * Positions in the bundle are mapped to sources through `<dist>/finality.cjs.map`.
 *
 * Record (the runner and job files from `BENCH_AB_KEEP=<dir> npx tsx bench/replay/ab.ts safe A B 1`;
 * the environment is the frozen clock's, `<dir>/env.json`), in a scratch directory:
 *
 *   perf record -k 1 -F 2000 -e cpu-clock -g -o perf.data -- env <env.json's variables> \
 *     taskset -c 0 node --perf-prof --interpreted-frames-native-stack <dir>/runner.mjs \
 *     <scenario .jsonl.gz> finality <dir>/A.job.json > out.txt
 *   perf inject --jit -i perf.data -o perf.jit.data
 *   perf script -i perf.jit.data -F tid,time,ip,sym,dso > script.txt
 *   npx tsx bench/perf-tiers.ts script.txt <the process's pid: first column of script.txt> <dist> [top=40]
 *
 * Run it twice under one Node version and keep the second: the first rewrites the entry's compile
 * cache (it is keyed by V8's version), which adds a parse of the bundle and the cache's write to
 * that run. The window is the first sample under the runner's `createFinality`/`replayPass` to the
 * last under finality's bundle or `replayPass`: provider creation to the last answer, as the
 * runner's `mainCpuMs` (which it matches within 1%). `CALLERS=<regex>` (with `DEPTH`) prints the
 * JavaScript callers of the frames that match; `COMPILE_SPLIT=1` splits the main thread's compile
 * samples by kind. The layers are this file's `LAYERS`, by source path.
 */
import { readFileSync } from 'node:fs'
import { readPerfSamples, replayWindow } from './perf-script.js'
import { SourceMap } from 'node:module'

const [file, pidArg, dist, topArg = '40'] = process.argv.slice(2)
if (file === undefined || pidArg === undefined || dist === undefined) throw new Error('usage: perf-tiers.ts <perf script output> <pid> <dist> [top]')
const pid = Number(pidArg)
const sourceMap = new SourceMap(JSON.parse(readFileSync(`${dist}/finality.cjs.map`, 'utf8')) as never)

const samples = readPerfSamples(file)
const main = samples.filter((s) => s.tid === pid)
const { first, last } = replayWindow(main)
if (first === undefined || last === undefined) throw new Error('no sample under the runner: is this a replay of finality, and the pid its process?')
const win = main.filter((s) => s.time >= first.time && s.time <= last.time)

/** `src/…:line` (or `node_modules/…`) of a `file:line:column` in the bundle; the file's name otherwise. */
function source(loc: string): string {
  const m = /(\S+):(\d+):(\d+)$/.exec(loc)
  if (m === null) return loc
  if (m[1]!.endsWith('finality.cjs')) {
    const e = sourceMap.findEntry(Number(m[2]) - 1, Number(m[3]) - 1) as { originalSource?: string; originalLine?: number }
    if (e.originalSource !== undefined) return `${e.originalSource.replace(/^.*?((src|node_modules)\/)/, '$1')}:${(e.originalLine ?? 0) + 1}`
  }
  return `${m[1]!.replace(/^.*\//, '')}:${m[2]}`
}

const LAYERS: readonly [RegExp, string][] = [
  [/runner\.mjs/, 'harness (runner)'],
  [/^index\.js:258$/, 'ECDSA signatures (the secp256k1 binding\'s ecdsaSign, native code included)'],
  [/^index\.js:302$/, 'EVM (engine, interpreter)'],
  [/^src\/(rpc|adapters)\/|^src\/node\.ts|^src\/node\/|src\/node-helpers|src\/errors|src\/domain-errors|src\/hex\.ts|src\/limits|src\/rpc-types/, 'rpc dispatch, params, handlers'],
  [/^src\/txpool\//, 'pool'],
  [/^src\/accounts\/|^src\/crypto\/|@ethereumjs\/tx|src\/execution\/(tx-fields|request-tx|transactions|transaction-failure)|@noble\/curves/, 'tx decode/sign/impersonation'],
  [/^src\/chain\/receipts|^src\/filters\//, 'receipts and logs'],
  [/^src\/producer\/|^src\/consensus\/|^src\/app\/|^src\/execution\/(build-block|builder|block-hooks|system-calls|blockhashes)|^src\/chain\/|src\/execution\/engine\/header|@ethereumjs\/block/, 'builder, producer, chain commit'],
  [/^src\/state\/|@ethereumjs\/mpt|src\/execution\/engine\/(fast-storage|fast-journal|frame-state)/, 'state/trie'],
  [/^src\/execution\/|@ethereumjs\/(evm|vm|common)/, 'EVM (engine, interpreter)'],
  [/@noble\/hashes|@ethereumjs\/util|ethereum-cryptography|src\/rlp|src\/arrays|@ethereumjs\/rlp/, 'shared (keccak, rlp, bytes)'],
  [/^node:|^internal\//, 'node internals (promises, timers, modules)'],
]
const layerOf = (s: string): string => LAYERS.find(([re]) => re.test(s))?.[1] ?? `other: ${s.replace(/:\d+$/, '')}`

const TIERS: Record<string, string> = { '~': 'interpreted', '^': 'baseline (Sparkplug)', '+': 'Maglev', '*': 'TurboFan', w: 'WebAssembly' }
const GC = /Heap::|Scavenge|MarkCompact|Sweeper|Marking|GCTracer|Evacuat|IncrementalMarking|MinorMC|PagedSpace|Heap_/i
const COMPILE =
  /v8::internal::(compiler|maglev|baseline|interpreter)::|v8::internal::(Parser|PreParser|Scanner|BytecodeGenerator|Compiler|AstValueFactory|DeclarationScope|Scope|FuncNameInferrer|AstNodeFactory|CodeGenerator|Zone)\b|ScriptCompiler|CompileLazy|CompileOptimized|CalculateLineEnds|FinalizeFinishedJobs|InstallOptimizedFunctions|InstallBatch|CompileFunction/
const DEOPT = /Deoptimiz|TranslatedState/

const add = <K>(m: Map<K, number>, k: K): void => {
  m.set(k, (m.get(k) ?? 0) + 1)
}
const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0)
const byTier = new Map<string, number>()
const byLayer = new Map<string, Map<string, number>>()
const byFunction = new Map<string, number>()
const nativeLeaf = new Map<string, number>()
const jsFrame = (f: string): { tier: string; name: string; where: string } => {
  const [, name = '', loc = ''] = /^JS:.'?(\S*) (.*?)@@/.exec(f) ?? []
  return { tier: f[3]!, name, where: source(loc) }
}
for (const s of win) {
  const ji = s.frames.findIndex((f) => f.startsWith('JS:'))
  const below = ji < 0 ? s.frames : s.frames.slice(0, ji)
  let cat: string | undefined
  if (below.some((f) => GC.test(f))) cat = 'GC (main thread)'
  else if (below.some((f) => DEOPT.test(f))) cat = 'deoptimisation'
  else if (below.some((f) => COMPILE.test(f))) cat = 'compile on the main thread (parse, bytecode, Sparkplug, Maglev/TurboFan finalise)'
  else if (ji < 0) {
    cat = 'native, no JavaScript frame found (a broken frame chain)'
    add(nativeLeaf, s.frames[0]?.replace(/@@.*/, '').slice(0, 90) ?? '?')
  }
  if (cat !== undefined) {
    add(byTier, cat)
    const m = byLayer.get(cat) ?? new Map<string, number>()
    byLayer.set(cat, m)
    add(m, cat)
    continue
  }
  const { tier, name, where } = jsFrame(s.frames[ji]!)
  const layer = tier === 'w' ? 'keccak (hash-wasm, WebAssembly)' : layerOf(where)
  const t = TIERS[tier] ?? `tier ${tier}`
  add(byTier, t)
  const m = byLayer.get(layer) ?? new Map<string, number>()
  byLayer.set(layer, m)
  add(m, t)
  add(byFunction, `${tier} ${name} ${where}  [${layer}]`)
}
const total = win.length
const pct = (n: number): string => `${n} (${((100 * n) / total).toFixed(1)}%)`
const sorted = <K>(m: Map<K, number>): [K, number][] => [...m].sort((a, b) => b[1] - a[1])
console.log(`main-thread samples from provider creation to the last answer: ${total} (of ${main.length} on the main thread, ${samples.length} on all); ${(last.time - first.time).toFixed(2)} s wall`)
console.log('\nby tier:')
for (const [k, v] of sorted(byTier)) console.log(`  ${k}: ${pct(v)}`)
console.log('\nby layer (tiers):')
for (const [l, m] of [...byLayer].sort((a, b) => sum(b[1]) - sum(a[1]))) {
  console.log(`  ${l}: ${pct(sum(m))}  ${sorted(m).map(([t, n]) => `${t} ${n}`).join(', ')}`)
}
console.log('\ntop functions:')
for (const [k, v] of sorted(byFunction).slice(0, Number(topArg))) console.log(`  ${v}  ${k}`)
console.log('\nnative leaves without a JavaScript frame:')
for (const [k, v] of sorted(nativeLeaf).slice(0, 15)) console.log(`  ${v}  ${k}`)

const callers = process.env.CALLERS
if (callers !== undefined && callers !== '') {
  const re = new RegExp(callers)
  const chains = new Map<string, number>()
  for (const s of win) {
    const i = s.frames.findIndex((f) => re.test(f))
    if (i < 0) continue
    const js = s.frames
      .slice(i)
      .filter((f) => f.startsWith('JS:'))
      .slice(0, Number(process.env.DEPTH ?? 5))
      .map((f) => {
        const { tier, name, where } = jsFrame(f)
        return `${tier}${name} ${where}`
      })
    add(chains, js.join(' < '))
  }
  console.log(`\ncallers of ${callers}:`)
  for (const [k, v] of sorted(chains).slice(0, 25)) console.log(`  ${v}  ${k}`)
}
if (process.env.COMPILE_SPLIT === '1') {
  const kinds: readonly [RegExp, string][] = [
    [/maglev::/, 'Maglev (finalise, main-thread phases)'],
    [/compiler::|OptimizedFunctions/, 'TurboFan (finalise, install)'],
    [/baseline::|InstallBatch/, 'Sparkplug'],
    [/BytecodeGenerator|interpreter::/, 'bytecode'],
    [/Parser|Scanner|AstValueFactory|Scope|FuncNameInferrer|AstNodeFactory/, 'parse'],
    [/LineEnds/, 'line ends'],
  ]
  const k = new Map<string, number>()
  for (const s of win) {
    const ji = s.frames.findIndex((f) => f.startsWith('JS:'))
    const below = ji < 0 ? s.frames : s.frames.slice(0, ji)
    if (below.some((f) => GC.test(f) || DEOPT.test(f)) || !below.some((f) => COMPILE.test(f))) continue
    add(k, kinds.find(([re]) => below.some((f) => re.test(f)))?.[1] ?? 'other (lazy compile, script compile)')
  }
  console.log('\ncompile on the main thread, by kind:')
  for (const [a, b] of sorted(k)) console.log(`  ${b}  ${a}`)
}
