/**
 * Aggregates V8 .cpuprofile files (from `node --cpu-prof`) into the top self-time functions.
 *
 *   npx tsx bench/cpuprofile-top.ts <file-or-dir> [top=15]
 *
 * With a directory, every .cpuprofile in it is aggregated; note that `node --import tsx
 * --cpu-prof` also writes one for the module-loader hooks thread (mostly idle), so pass the
 * main thread's file (`...<pid>.0.001.cpuprofile`) to see only the main thread.
 * Percentages are of the non-idle sampled time.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; hitCount?: number; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

const target = process.argv[2]
const top = Number(process.argv[3] ?? 15)
if (target === undefined) throw new Error('usage: cpuprofile-top.ts <file-or-dir> [top]')
const files = statSync(target).isDirectory()
  ? readdirSync(target).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(target, f))
  : [target]

const short = (url: string): string => {
  if (url === '') return '(native)'
  const u = url.replace(/^file:\/\//, '')
  const nm = u.lastIndexOf('node_modules/')
  if (nm >= 0) return u.slice(nm + 'node_modules/'.length)
  const cwd = process.cwd() + '/'
  return u.startsWith(cwd) ? u.slice(cwd.length) : u
}

const selfUs = new Map<string, number>()
const byFile = new Map<string, number>()
let totalUs = 0
let idleUs = 0
for (const file of files) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  for (let i = 0; i < p.samples.length; i++) {
    const node = byId.get(p.samples[i]!)
    const dt = p.timeDeltas[i] ?? 0
    if (node === undefined) continue
    const cf = node.callFrame
    if (cf.functionName === '(idle)') {
      idleUs += dt
      continue
    }
    const key = `${cf.functionName || '(anonymous)'}  ${short(cf.url)}${cf.url ? `:${cf.lineNumber + 1}` : ''}`
    selfUs.set(key, (selfUs.get(key) ?? 0) + dt)
    const pkg = cf.url === '' ? cf.functionName || '(native)' : short(cf.url).split('/').slice(0, short(cf.url).startsWith('@') ? 2 : 1).join('/')
    byFile.set(pkg, (byFile.get(pkg) ?? 0) + dt)
    totalUs += dt
  }
}

const print = (title: string, m: Map<string, number>, k: number): void => {
  console.log(`\n${title} (${(totalUs / 1000).toFixed(0)} ms busy + ${(idleUs / 1000).toFixed(0)} ms idle sampled, ${files.length} profile(s))`)
  console.log(`${'self ms'.padStart(9)}  ${'self %'.padStart(6)}  function  location`)
  for (const [key, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, k)) {
    console.log(`${(us / 1000).toFixed(1).padStart(9)}  ${((us / totalUs) * 100).toFixed(1).padStart(6)}  ${key}`)
  }
}
print(`Top ${top} functions by self time`, selfUs, top)
print('Self time by package / top-level directory', byFile, 15)
