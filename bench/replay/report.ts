/** The replay's report: the time table, the failure-set agreement and the per-method profile. */
import os from 'node:os'
import path from 'node:path'
import type { ReplayClock } from './clock.js'
import type { ReplayResult } from './runner.js'
import { finalityOptions, loadScenario, unmappedSettings } from './scenario.js'

/** Runs of one scenario on one core setting under one Node. */
export interface Entry {
  /** The Node both contestants ran under (`v24.22.3`). */
  node: string
  scenario: string
  cores: string
  edr: ReplayResult[]
  finality: ReplayResult[]
}
export type Runs = Record<string, Entry>

/**
 * Which of `wanted`'s option names the build's createNode knows: each is tried alone, and a name
 * answered "option <name> is unknown" is left out (the rest of its checks pass or fail on values).
 */
export async function knownOptions(finalityUrl: string, wanted: Record<string, unknown>): Promise<string[]> {
  const mod = (await import(finalityUrl)) as { createNode(o: Record<string, unknown>): Promise<{ close(): Promise<void> }> }
  const known: string[] = []
  for (const [name, value] of Object.entries(wanted)) {
    try {
      await (await mod.createNode({ [name]: value })).close()
      known.push(name)
    } catch (e) {
      if (!(e as Error).message.includes(`option ${name} is unknown`)) known.push(name)
    }
  }
  return known
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** Per-method CPU figures of one run (`ReplayResult.perMethod`, a pass's). */
export type PerMethod = Record<string, { n: number; ms: number; cpuMs: number }>

/**
 * The methods whose CPU medians differ most between two sets of runs (A and B: two builds, or
 * finality and EDR), `top` lines: `name (count): A x ms, B y ms, a → b µs each`. A method a run
 * lacks counts 0 ms there. `BENCH_REPLAY_PER_REQUEST` undercounts on one core (V8's background
 * compiles land in whatever request runs); these sums count every request's CPU, all threads.
 */
export function perMethodLines(a: readonly PerMethod[], b: readonly PerMethod[], labels: [string, string] = ['A', 'B'], top = 8): string[] {
  const methods = new Set([...a, ...b].flatMap((r) => Object.keys(r)))
  const rows = [...methods].map((m) => {
    const per = (runs: readonly PerMethod[]) => median(runs.map((r) => r[m]?.cpuMs ?? 0))
    return { m, n: a[0]?.[m]?.n ?? b[0]?.[m]?.n ?? 0, a: per(a), b: per(b) }
  })
  rows.sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a))
  const [la, lb] = labels
  return rows.slice(0, top).map((r) => `  ${r.m} (${r.n}): ${la} ${r.a.toFixed(0)} ms, ${lb} ${r.b.toFixed(0)} ms, ${((1000 * r.a) / Math.max(r.n, 1)).toFixed(0)} → ${((1000 * r.b) / Math.max(r.n, 1)).toFixed(0)} µs each`)
}

const f = (x: number, d = 0): string => (Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : '—')
const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}×` : '—')

/** `+3 −1`: requests failing here and not in the reference, and the reverse. */
function diff(ours: readonly number[], reference: readonly number[]): { extra: number[]; missing: number[] } {
  const r = new Set(reference)
  const o = new Set(ours)
  return { extra: ours.filter((i) => !r.has(i)), missing: reference.filter((i) => !o.has(i)) }
}

function agreement(ours: readonly number[], reference: readonly number[] | undefined): string {
  if (reference === undefined) return 'no snapshot'
  const { extra, missing } = diff(ours, reference)
  return extra.length === 0 && missing.length === 0 ? 'same' : `+${extra.length} −${missing.length}`
}

interface ReportInput {
  runs: Runs
  snapshot: Record<string, number[]> | undefined
  reps: number
  known: string[]
  load: string
  scenarios: string[]
  dir: string
  /** Which EDR was replayed: `@nomicfoundation/edr <version>` or Hardhat 2's in-process network. */
  reference: string
  clock: ReplayClock
  /** The Node versions replayed under, in order: a section of the report each. */
  nodes: ReadonlyArray<{ version: string; from: string }>
}

export function renderReport(input: ReportInput): string {
  const out: string[] = []
  out.push(`Real suites: EDR's recorded request streams, finality against ${input.reference}: medians of ${input.reps} runs, fresh process each, alternating`)
  out.push(
    input.clock === 'frozen'
      ? "clock: frozen at each suite's recorded genesis time (libfaketime, both processes): the chains' times do not depend on the replay's speed"
      : "clock: the wall clock from each suite's recorded genesis time: a replay much slower than EDR's own may see the suites' absolute timestamps fall behind (BENCH_REPLAY_CLOCK=frozen)",
  )
  out.push(`load average at the end: ${input.load} (${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? 'unknown CPU'}); Node versions: ${input.nodes.map((n) => `${n.version} (${n.from})`).join(', ')}, EDR and finality under the same one in each row`)
  for (const node of input.nodes) {
    const runs = Object.fromEntries(Object.entries(input.runs).filter(([, e]) => e.node === node.version))
    out.push('', `## Node ${node.version} (${node.from})`, '', ...nodeSection(node.version, runs, input))
  }
  if (input.nodes.length > 1) out.push(...acrossNodes(input))
  return out.join('\n')
}

/** The table, each run, the failures' agreement and the per-method profile of one Node's runs. */
function nodeSection(node: string, runs: Runs, input: ReportInput): string[] {
  const { snapshot } = input
  const out: string[] = []
  out.push('| suite | cores | requests | EDR wall ms | finality wall ms | finality / EDR | EDR cpu ms | finality cpu ms | cpu finality / EDR | failing: snapshot / EDR / finality | finality vs snapshot | EDR vs snapshot |')
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |')
  for (const e of Object.values(runs)) {
    const ew = median(e.edr.map((r) => r.wallMs))
    const fw = median(e.finality.map((r) => r.wallMs))
    const ec = median(e.edr.map((r) => r.cpuMs))
    const fc = median(e.finality.map((r) => r.cpuMs))
    const ref = snapshot?.[e.scenario]
    const fin = e.finality[0]!
    const edr = e.edr[0]!
    out.push(`| ${e.scenario} | ${e.cores} | ${f(fin.requests)} | ${f(ew)} | ${f(fw)} | ${ratio(fw, ew)} | ${f(ec)} | ${f(fc)} | ${ratio(fc, ec)} | ${ref?.length ?? '—'} / ${edr.failures.length} / ${fin.failures.length} | ${agreement(fin.failures, ref)} | ${agreement(edr.failures, ref)} |`)
  }
  out.push('')
  out.push(`each run, node ${node}, wall ms (EDR | finality):`)
  for (const e of Object.values(runs)) out.push(`  ${e.scenario}, ${e.cores} core(s): ${e.edr.map((r) => f(r.wallMs)).join(' ')} | ${e.finality.map((r) => f(r.wallMs)).join(' ')}`)
  out.push('')
  for (const name of input.scenarios) out.push(...agreementDetail(name, runs, snapshot, input))
  // Per method for every core setting: the one-core rows are the ones a parallel runner's worker feels.
  for (const e of Object.values(runs)) out.push(...profile(e))
  return out
}

/** Each suite and core setting's CPU medians under every Node, side by side. */
function acrossNodes(input: ReportInput): string[] {
  const out = ['## CPU by Node version (medians, ms: finality / EDR)', '']
  out.push(`| suite | cores | ${input.nodes.map((n) => `${n.version} finality | ${n.version} EDR | ${n.version} ratio`).join(' | ')} |`)
  out.push(`| --- | ---: | ${input.nodes.map(() => '---: | ---: | ---:').join(' | ')} |`)
  const rows = new Map<string, Entry[]>()
  for (const e of Object.values(input.runs)) rows.set(`${e.scenario}|${e.cores}`, [...(rows.get(`${e.scenario}|${e.cores}`) ?? []), e])
  for (const entries of rows.values()) {
    const cells = input.nodes.map((n) => {
      const e = entries.find((x) => x.node === n.version)
      if (e === undefined) return '— | — | —'
      const fc = median(e.finality.map((r) => r.cpuMs))
      const ec = median(e.edr.map((r) => r.cpuMs))
      return `${f(fc)} | ${f(ec)} | ${ratio(fc, ec)}`
    })
    out.push(`| ${entries[0]!.scenario} | ${entries[0]!.cores} | ${cells.join(' | ')} |`)
  }
  out.push('')
  return out
}

/** Mapping notes and every request where finality's failures differ from the snapshot's. */
function agreementDetail(name: string, runs: Runs, snapshot: Record<string, number[]> | undefined, input: ReportInput): string[] {
  const entry = Object.values(runs).find((e) => e.scenario === name)
  if (entry === undefined) return []
  const out: string[] = [`${name}, node ${entry.node}:`]
  const { config, requests } = loadScenario(path.join(input.dir, `${name}.jsonl.gz`))
  const dropped = Object.keys(finalityOptions(config, () => '0x')).filter((k) => !input.known.includes(k))
  if (dropped.includes('initialDate')) dropped.splice(dropped.indexOf('initialDate'), 1, 'initialDate (mapped onto a clock shifted to the recorded genesis time)')
  const unmapped = [...dropped, ...unmappedSettings(config)]
  out.push(`  not mapped onto createNode: ${unmapped.length === 0 ? 'nothing' : unmapped.join('; ')}`)
  const fin = entry.finality[0]!
  const differing = Object.entries(fin.idsDiffering).map(([m, n]) => `${m} ${n}`).join(', ')
  out.push(`  ids: answers that differed from EDR's: ${differing === '' ? 'none' : differing}; ${fin.translated} later requests sent finality's instead`)
  const ref = snapshot?.[name]
  const unstable = entry.finality.some((r) => agreement(r.failures, fin.failures) !== 'same')
  if (unstable) out.push('  finality failed different requests in different runs (first run shown)')
  if (ref !== undefined) {
    const { extra, missing } = diff(fin.failures, ref)
    const show = (label: string, idx: number[]): void => {
      if (idx.length === 0) return
      const byMethod = new Map<string, number[]>()
      for (const i of idx) {
        const m = requests[i]?.method ?? '?'
        byMethod.set(m, [...(byMethod.get(m) ?? []), i])
      }
      for (const [m, is] of byMethod) {
        const sample = is.slice(0, 12).join(', ') + (is.length > 12 ? `, … (${is.length})` : '')
        const message = messages[is[0]!]
        out.push(`  ${label} ${m}: ${sample}${message !== undefined ? `  [#${is[0]}: ${message}]` : ''}`)
      }
    }
    // The message of each group's first request, from the side where it failed (EDR's run for the snapshot's).
    let messages = fin.failureMessages
    show('fails on finality, not in the snapshot:', extra)
    messages = entry.edr[0]!.failureMessages
    show('fails in the snapshot, not on finality:', missing)
  }
  out.push('')
  return out
}

/** Time per method, medians over the runs, largest finality − EDR first. */
function profile(e: Entry): string[] {
  const methods = new Set([...e.edr, ...e.finality].flatMap((r) => Object.keys(r.perMethod)))
  const rows = [...methods].map((m) => {
    const edr = median(e.edr.map((r) => r.perMethod[m]?.ms ?? 0))
    const fin = median(e.finality.map((r) => r.perMethod[m]?.ms ?? 0))
    const edrCpu = median(e.edr.map((r) => r.perMethod[m]?.cpuMs ?? 0))
    const finCpu = median(e.finality.map((r) => r.perMethod[m]?.cpuMs ?? 0))
    const n = e.finality[0]!.perMethod[m]?.n ?? e.edr[0]!.perMethod[m]?.n ?? 0
    return { m, n, edr, fin, edrCpu, finCpu }
  })
  // By CPU time: on a loaded machine the wall time is mostly waiting for a core.
  rows.sort((a, b) => b.finCpu - b.edrCpu - (a.finCpu - a.edrCpu))
  const out = [`per method, ${e.scenario}, ${e.cores} core(s), node ${e.node} (ms summed over the requests, medians of the runs, largest CPU difference first; creation: EDR ${f(median(e.edr.map((r) => r.createMs)), 1)} ms, finality ${f(median(e.finality.map((r) => r.createMs)), 1)} ms):`]
  out.push('| method | requests | EDR cpu ms | finality cpu ms | EDR cpu µs/req | finality cpu µs/req | cpu finality / EDR | cpu finality − EDR ms | wall EDR ms | wall finality ms |')
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const r of rows.slice(0, 12)) {
    out.push(`| ${r.m} | ${f(r.n)} | ${f(r.edrCpu, 1)} | ${f(r.finCpu, 1)} | ${f((r.edrCpu * 1000) / r.n)} | ${f((r.finCpu * 1000) / r.n)} | ${ratio(r.finCpu, r.edrCpu)} | ${f(r.finCpu - r.edrCpu, 1)} | ${f(r.edr, 1)} | ${f(r.fin, 1)} |`)
  }
  out.push('')
  return out
}
