/**
 * Garbage collections as V8 reports them to `PerformanceObserver` ('gc' entries): count, pauses and
 * their end times, kept as Go's runtime keeps them (the last 256 in a ring) for debug_memStats and
 * debug_gcStats. Only collections after the observer started are seen.
 */
import type { PerformanceEntry, PerformanceObserver } from 'node:perf_hooks'
import { nodePerfHooks } from '../builtins.js'

/** Go's runtime.MemStats keeps this many recent pauses. */
export const PAUSE_RING = 256

export interface GcPause {
  /** Nanoseconds the collection paused JavaScript. */
  readonly ns: bigint
  /** When it ended, nanoseconds since the Unix epoch. */
  readonly endNs: bigint
}

/** Collects the process's GC pauses while started. */
export class GcObserver {
  count = 0
  forced = 0
  totalNs = 0n
  /** Oldest first, at most {@link PAUSE_RING}. */
  readonly recent: GcPause[] = []
  /** When observation began, milliseconds since the Unix epoch. */
  readonly since = Date.now()
  #observer: PerformanceObserver | undefined

  start(): void {
    if (this.#observer !== undefined) return
    this.#observer = new (nodePerfHooks().PerformanceObserver)((list) => {
      for (const entry of list.getEntries()) this.#record(entry)
    })
    this.#observer.observe({ entryTypes: ['gc'] })
  }

  stop(): void {
    this.#observer?.disconnect()
    this.#observer = undefined
  }

  #record(entry: PerformanceEntry): void {
    const ns = BigInt(Math.round(entry.duration * 1e6))
    const endNs = BigInt(Math.round((nodePerfHooks().performance.timeOrigin + entry.startTime + entry.duration) * 1e6))
    const flags = (entry as PerformanceEntry & { detail?: { flags?: number } }).detail?.flags ?? 0
    this.count++
    if ((flags & nodePerfHooks().constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0) this.forced++
    this.totalNs += ns
    this.recent.push({ ns, endNs })
    if (this.recent.length > PAUSE_RING) this.recent.shift()
  }
}
