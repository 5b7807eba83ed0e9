/**
 * Whether the node's output goes out: hardhat_setLoggingEnabled / anvil_setLoggingEnabled turn
 * all of it off, and the log level (debug_verbosity, debug_vmodule) decides per source. The
 * console.log callback, the node's log (`onLog`) and the transports' request logs all ask here.
 */
import type { LogLevel, LogSource } from '../profiling/log-level.js'

export class LogSwitch {
  /** Off: nothing is written, whatever the level (`*_setLoggingEnabled`). */
  on = true

  constructor(private readonly level: LogLevel) {}

  /** Whether a line of `source` is written now. */
  allows(source: LogSource): boolean {
    return this.on && this.level.enabled(source)
  }
}
