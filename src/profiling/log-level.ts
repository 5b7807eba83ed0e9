/**
 * The node's log level, in geth's verbosity numbers (0 silent … 5 trace) with a per-source override
 * (`debug_vmodule`). The node's log sources are `rpc` (the request log of node.listen, and the
 * node's log, createNode's `onLog`, which the CLI prints; at info) and `console` (Solidity console.log lines, at info); a line is written when the level
 * of its source is at least the line's.
 */
import { Refused } from '../domain-errors.js'

/** geth's levels (log.LevelCrit … log.LevelTrace as `--verbosity` numbers). */
export const LEVELS = { silent: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 } as const

/** The node's log sources. */
export const LOG_SOURCES = ['rpc', 'console'] as const
export type LogSource = (typeof LOG_SOURCES)[number]

/** geth's default verbosity (info). */
export const DEFAULT_VERBOSITY = LEVELS.info

/** The level of each log source. */
export class LogLevel {
  verbosity: number = DEFAULT_VERBOSITY
  readonly #modules = new Map<LogSource, number>()

  /** debug_verbosity: geth accepts any int and clamps nothing; levels past 5 log everything. */
  setVerbosity(level: number): void {
    this.verbosity = level
  }

  /**
   * debug_vmodule: `source=level[,source=level…]`, as geth's `pattern=level` list with this node's
   * sources as patterns; the empty string clears every override.
   */
  setModules(spec: string): void {
    const next = new Map<LogSource, number>()
    for (const rule of spec.split(',').map((r) => r.trim()).filter((r) => r !== '')) {
      const m = /^([^=]+)=(\d+)$/.exec(rule)
      if (m === null) throw new Refused(`expect comma-separated list of filename=N, got ${rule}`)
      const source = m[1] as string
      if (!(LOG_SOURCES as readonly string[]).includes(source)) throw new Refused(`unknown log source ${source}: this node's sources are ${LOG_SOURCES.join(', ')}`)
      next.set(source as LogSource, Number(m[2]))
    }
    this.#modules.clear()
    for (const [k, v] of next) this.#modules.set(k, v)
  }

  /** Whether a line of `level` from `source` is written. */
  enabled(source: LogSource, level: number = LEVELS.info): boolean {
    return (this.#modules.get(source) ?? this.verbosity) >= level
  }
}
