/**
 * Reads V8's `--trace-opt --trace-deopt` output (Node 20's V8 11.3 to Node 24's 13.6): how many
 * optimising compiles each function had in each tier and how long their compile jobs took, and
 * every deoptimisation with its kind and reason. A function compiled several times in one tier is
 * one that deoptimised (or was invalidated) and was compiled again: on one core each compile is
 * CPU the suite pays (docs/performance.md, "V8's optimising compiles"). From Node 22 on, Maglev
 * compiles a hot function before TurboFan does, so a function's first Maglev and first TurboFan
 * compile are counted apart; Node 24 names TurboFan's target `TURBOFAN_JS`. An on-stack
 * replacement (`OSR`) is a compile of its tier too.
 */

/** One function's optimising compiles (one shared function info: several functions may share a name). */
export interface CompiledFunction {
  name: string
  /** The optimising tier: TurboFan, or Maglev (on by default from Node 22). */
  tier: 'turbofan' | 'maglev'
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
}

const COMPILED = /^\[completed compiling 0x[0-9a-f]+ <JSFunction ?(.*?) \(sfi = (0x[0-9a-f]+)\)> \(target (TURBOFAN|TURBOFAN_JS|MAGLEV)\)(?: OSR)?(?: - took ([\d.]+), ([\d.]+), ([\d.]+) ms)?\]/
const DEOPT = /^\[bailout \(kind: ([a-z-]+), reason: (.*?)\): begin\. deoptimizing 0x[0-9a-f]+ <JSFunction ?(.*?) \(sfi = 0x[0-9a-f]+\)>/

/** Parses the trace's lines; other lines are ignored. An anonymous function is `(anonymous)`. */
export function parseV8Trace(text: string): V8Trace {
  const compiles = new Map<string, CompiledFunction>()
  const deopts = new Map<string, Deopt>()
  let totalCompiles = 0
  let totalCompileMs = 0
  let totalDeopts = 0
  for (const line of text.split('\n')) {
    const c = COMPILED.exec(line)
    if (c !== null) {
      const name = c[1] || '(anonymous)'
      const tier = c[3] === 'MAGLEV' ? 'maglev' : 'turbofan'
      const ms = c[4] === undefined ? 0 : Number(c[4]) + Number(c[5]) + Number(c[6])
      // One function is one shared function info: functions of one name are told apart by it.
      const key = `${name}\0${c[2]}\0${tier}`
      const f = compiles.get(key) ?? { name, tier, compiles: 0, ms: 0 }
      f.compiles++
      f.ms += ms
      compiles.set(key, f)
      totalCompiles++
      totalCompileMs += ms
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
  }
}
