/**
 * debug_memStats and debug_gcStats: Go's `runtime.MemStats` and `debug.GCStats` field names, filled
 * from what Node.js measures (`process.memoryUsage()`, `v8.nodeV8().getHeapStatistics()`, observed GC
 * pauses). Fields Go's allocator has and V8 does not (its span and cache structures, allocation
 * counters) are 0; docs/debug.md lists each mapping.
 */
import { nodeV8 } from '../builtins.js'
import { PAUSE_RING, type GcObserver } from './gc-observer.js'

/** geth's debug_memStats answer, from this process. */
export function memStats(gc: GcObserver): Record<string, number | boolean | number[]> {
  const mem = process.memoryUsage()
  const heap = nodeV8().getHeapStatistics()
  const alloc = mem.heapUsed + mem.external
  const heapSys = heap.total_heap_size
  const heapInuse = heap.used_heap_size
  // Go's PauseNs / PauseEnd are rings indexed by NumGC; here the last pauses seen, oldest first.
  const pauseNs = new Array<number>(PAUSE_RING).fill(0)
  const pauseEnd = new Array<number>(PAUSE_RING).fill(0)
  gc.recent.forEach((p, i) => {
    const slot = (gc.count - gc.recent.length + i) % PAUSE_RING
    pauseNs[slot] = Number(p.ns)
    pauseEnd[slot] = Number(p.endNs)
  })
  const elapsedNs = Math.max(1, (Date.now() - gc.since) * 1e6)
  return {
    Alloc: alloc,
    TotalAlloc: 0,
    Sys: mem.rss,
    Lookups: 0,
    Mallocs: 0,
    Frees: 0,
    HeapAlloc: alloc,
    HeapSys: heapSys,
    HeapIdle: Math.max(0, heapSys - heapInuse),
    HeapInuse: heapInuse,
    HeapReleased: Math.max(0, heapSys - heap.total_physical_size),
    HeapObjects: 0,
    StackInuse: 0,
    StackSys: 0,
    MSpanInuse: 0,
    MSpanSys: 0,
    MCacheInuse: 0,
    MCacheSys: 0,
    BuckHashSys: 0,
    GCSys: heap.malloced_memory,
    OtherSys: Math.max(0, mem.rss - heapSys - mem.external - heap.malloced_memory),
    NextGC: heap.heap_size_limit,
    LastGC: Number(gc.recent.at(-1)?.endNs ?? 0n),
    PauseTotalNs: Number(gc.totalNs),
    PauseNs: pauseNs,
    PauseEnd: pauseEnd,
    NumGC: gc.count,
    NumForcedGC: gc.forced,
    GCCPUFraction: Number(gc.totalNs) / elapsedNs,
    EnableGC: true,
    DebugGC: false,
  }
}

/**
 * geth's debug_gcStats (`debug.ReadGCStats`): `Pause` and `PauseEnd` newest first, as Go orders
 * them. Times are nanoseconds since the Unix epoch (Go's JSON gives RFC 3339 strings; the
 * interface spec reads numbers).
 */
export function gcStats(gc: GcObserver): Record<string, number | number[] | null> {
  const newestFirst = [...gc.recent].reverse()
  return {
    LastGC: Number(newestFirst[0]?.endNs ?? 0n),
    NumGC: gc.count,
    PauseTotal: Number(gc.totalNs),
    Pause: newestFirst.map((p) => Number(p.ns)),
    PauseEnd: newestFirst.map((p) => Number(p.endNs)),
    // geth asks ReadGCStats for no quantiles: Go marshals the empty slice as null.
    PauseQuantiles: null,
  }
}
