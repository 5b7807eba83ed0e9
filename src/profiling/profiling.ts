/**
 * The debug runtime of a node on Node.js: the `enableProfiling` setting, the directory profiles
 * are written to, and the process-wide tools behind geth's profiling and runtime methods (GC
 * statistics, CPU profiler, trace recorder, log level). docs/debug.md maps each method.
 */
import { nodeV8 } from '../builtins.js'
import { runInNewContext } from 'node:vm'
import { Refused } from '../domain-errors.js'
import { GcObserver } from './gc-observer.js'
import { LogLevel } from './log-level.js'
import { pathInside } from './paths.js'
import { CpuProfiler, TraceRecorder } from './sessions.js'

/** What the profiling methods answer while `enableProfiling` is off. */
export const PROFILING_OFF = 'profiling is disabled: start the node with enableProfiling: true (CLI --enable-profiling, TOML enable-profiling = true)'

let collect: (() => void) | undefined

/**
 * A full garbage collection. `global.gc` exists only under `--expose-gc`; setting the flag at run
 * time and reading `gc` from a fresh context gives the same function without restarting Node.
 */
export function fullGc(): void {
  if (collect === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc
    if (typeof exposed === 'function') collect = exposed
    else {
      nodeV8().setFlagsFromString('--expose-gc')
      collect = runInNewContext('gc') as () => void
    }
  }
  collect()
}

/** A node's profiling settings and tools. */
export class Profiling {
  readonly gc = new GcObserver()
  readonly cpu = new CpuProfiler()
  readonly trace = new TraceRecorder()
  readonly log = new LogLevel()

  constructor(
    readonly enabled: boolean,
    /** Absolute; where files are written (the working directory unless configured). */
    readonly dir: string,
  ) {
    if (enabled) this.gc.start()
  }

  /** Throws unless profiling is on. */
  check(): void {
    if (!this.enabled) throw new Refused(PROFILING_OFF)
  }

  /** The checked absolute path of `file` inside the profiling directory, to write or to read. */
  path(file: string, verb: 'write' | 'read' = 'write'): string {
    this.check()
    return pathInside(this.dir, file, verb)
  }

  /** Ends whatever runs (node.close()): a running profile or trace is written, the observer stops. */
  async close(): Promise<void> {
    this.gc.stop()
    if (this.cpu.running) await this.cpu.stop().catch(() => undefined)
    if (this.trace.running) await this.trace.stop().catch(() => undefined)
  }
}
