/**
 * Reads V8's `--trace-opt --trace-deopt` output: how many optimising compiles each function had
 * at each tier and how long their compile jobs took, and every deoptimisation with its kind and
 * reason. A function compiled several times at one tier is one that deoptimised (or was
 * invalidated) and was compiled again: on one core each compile is CPU the suite pays
 * (docs/performance.md, "V8's optimising compiles"). Node 20's V8 (11.3) compiles with TurboFan
 * only (`target TURBOFAN`); Node 22 and later also with Maglev first (`target MAGLEV`, and
 * TurboFan's `target TURBOFAN_JS`). Compiles on stack replacement (`OSR`, a long loop's running
 * frame) are counted apart and left out of the totals, so the totals are each function's compiles
 * for its calls.
 */

/** One function's optimising compiles (one shared function info: several functions may share a name). */
export interface CompiledFunction {
  name: string
  /** The optimising tier (`TURBOFAN_JS` is counted as TurboFan). */
  tier: 'TurboFan' | 'Maglev'
  /** Compiles on stack replacement: a loop's running frame moved into optimised code. */
  osr: boolean
  compiles: number
  /** The compile jobs' summed times as V8 prints them (prepare + execute + finalize, ms, wall). */
  ms: number
}

/** Deoptimisations of one function for one reason. */
export interface Deopt {
  name: string
  kind: string
  reason: string
  count: number
}

export interface V8Trace {
  compiles: CompiledFunction[]
  deopts: Deopt[]
  totalCompiles: number
  totalCompileMs: number
  totalDeopts: number
  /** Compiles and their summed times by tier, `TurboFan`, `Maglev`, `TurboFan OSR`, `Maglev OSR`. */
  byTier: Record<string, { compiles: number; ms: number }>
}

const COMPILED = /^\[completed compiling 0x[0-9a-f]+ <JSFunction ?(.*?) \(sfi = (0x[0-9a-f]+)\)> \(target (TURBOFAN|TURBOFAN_JS|MAGLEV)\)( OSR)?(?: - took ([\d.]+), ([\d.]+), ([\d.]+) ms)?\]/
const DEOPT = /^\[bailout \(kind: ([a-z-]+), reason: (.*?)\): begin\. deoptimizing 0x[0-9a-f]+ <JSFunction ?(.*?) \(sfi = 0x[0-9a-f]+\)>/

/** Parses the trace's lines; other lines are ignored. An anonymous function is `(anonymous)`. */
export function parseV8Trace(text: string): V8Trace {
  const compiles = new Map<string, CompiledFunction>()
  const deopts = new Map<string, Deopt>()
  let totalCompiles = 0
  let totalCompileMs = 0
  let totalDeopts = 0
  const byTier: Record<string, { compiles: number; ms: number }> = {}
  for (const line of text.split('\n')) {
    const c = COMPILED.exec(line)
    if (c !== null) {
      const name = c[1] || '(anonymous)'
      const tier = c[3] === 'MAGLEV' ? 'Maglev' : 'TurboFan'
      const osr = c[4] !== undefined
      const ms = c[5] === undefined ? 0 : Number(c[5]) + Number(c[6]) + Number(c[7])
      // One function is one shared function info: functions of one name are told apart by it.
      const key = `${name}\0${c[2]}\0${tier}\0${osr}`
      const f = compiles.get(key) ?? { name, tier, osr, compiles: 0, ms: 0 }
      f.compiles++
      f.ms += ms
      compiles.set(key, f)
      const t = `${tier}${osr ? ' OSR' : ''}`
      const sum = (byTier[t] ??= { compiles: 0, ms: 0 })
      sum.compiles++
      sum.ms += ms
      if (!osr) {
        totalCompiles++
        totalCompileMs += ms
      }
      continue
    }
    const d = DEOPT.exec(line)
    if (d !== null) {
      const name = d[3] || '(anonymous)'
      const key = `${name}\0${d[1]}\0${d[2]}`
      const e = deopts.get(key) ?? { name, kind: d[1]!, reason: d[2]!, count: 0 }
      e.count++
      deopts.set(key, e)
      totalDeopts++
    }
  }
  return {
    compiles: [...compiles.values()].sort((a, b) => b.ms - a.ms),
    deopts: [...deopts.values()].sort((a, b) => b.count - a.count),
    totalCompiles,
    totalCompileMs,
    totalDeopts,
    byTier,
  }
}
