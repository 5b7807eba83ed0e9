/**
 * geth's debug runtime methods (internal/debug.HandlerT) on Node.js: memory and GC statistics,
 * a full collection, stacks, CPU profiles, heap snapshots, trace-event files and the log level.
 * All answer only with `enableProfiling` on; files go only inside the profiling directory.
 * Go's block and mutex profiles and GC percentage have no Node.js analogue and answer an error
 * saying so. docs/debug.md maps each method.
 */
import { nodeV8 } from '../../builtins.js'
import { ServerError } from '../../errors.js'
import { fullGc } from '../../profiling/profiling.js'
import { gcStats, memStats } from '../../profiling/stats.js'
import { stacks } from '../../profiling/stacks.js'
import { jsonInt, jsonUint, optional, text } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'limits' | 'profiling'>
const method = methodsOf<keyof Here>()

function seconds(s: Here, n: bigint): number {
  if (n > BigInt(s.limits.profileSeconds)) throw new ServerError(`profile of ${n} seconds exceeds the limit of ${s.limits.profileSeconds} (limits.profileSeconds)`)
  return Number(n)
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A Go runtime feature Node.js does not have: an error saying so, whether profiling is on or not. */
function noAnalogue(what: string, instead: string): never {
  throw new ServerError(`${what} is a Go runtime feature with no Node.js analogue; ${instead}`)
}

/** A recorder's three methods: record for `nsec` seconds into a file, start into a file, stop. */
function recorderMethods(which: 'cpu' | 'trace') {
  return {
    timed: method({
      params: [text, jsonUint],
      run: async (s, [file, nsec]) => {
        const ms = seconds(s, nsec) * 1000
        await s.profiling[which].start(() => s.profiling.path(file))
        await sleep(ms)
        await s.profiling[which].stop()
        return null
      },
    }),
    start: method({
      params: [text],
      run: async (s, [file]) => {
        await s.profiling[which].start(() => s.profiling.path(file))
        return null
      },
    }),
    stop: method({
      params: [],
      run: async (s) => {
        s.profiling.check()
        await s.profiling[which].stop()
        return null
      },
    }),
  }
}

const cpu = recorderMethods('cpu')
const trace = recorderMethods('trace')

export const debugRuntime: MethodTable = {
  debug_memStats: method({
    params: [],
    run: (s) => {
      s.profiling.check()
      return memStats(s.profiling.gc)
    },
  }),
  debug_gcStats: method({
    params: [],
    run: (s) => {
      s.profiling.check()
      return gcStats(s.profiling.gc)
    },
  }),
  debug_freeOSMemory: method({
    params: [],
    run: (s) => {
      s.profiling.check()
      fullGc()
      return null
    },
  }),
  // geth's optional filter is an expression over goroutine dumps; here a substring a section must contain.
  debug_stacks: method({
    params: [optional(text, undefined)],
    run: (s, [filter]) => {
      s.profiling.check()
      return stacks(filter)
    },
  }),
  debug_cpuProfile: cpu.timed,
  debug_startCPUProfile: cpu.start,
  debug_stopCPUProfile: cpu.stop,
  debug_goTrace: trace.timed,
  debug_startGoTrace: trace.start,
  debug_stopGoTrace: trace.stop,
  // geth writes a pprof heap profile; V8's equivalent is a heap snapshot (DevTools' Memory tab).
  debug_writeMemProfile: method({
    params: [text],
    run: (s, [file]) => {
      const path = s.profiling.path(file)
      try {
        nodeV8().writeHeapSnapshot(path)
      } catch (error) {
        throw new ServerError(`could not write ${file}: ${(error as Error).message}`)
      }
      return null
    },
  }),
  debug_verbosity: method({
    params: [jsonInt],
    run: (s, [level]) => {
      s.profiling.check()
      s.profiling.log.setVerbosity(Number(level))
      return null
    },
  }),
  debug_vmodule: method({
    params: [text],
    run: (s, [pattern]) => {
      s.profiling.check()
      s.profiling.log.setModules(pattern)
      return null
    },
  }),
  debug_setGCPercent: method({ params: [jsonInt], run: () => noAnalogue('the GC percentage (GOGC)', 'V8 sizes its heap itself (node --max-old-space-size bounds it)') }),
  debug_setBlockProfileRate: method({ params: [jsonInt], run: () => noAnalogue('the block profile', 'debug_cpuProfile and debug_goTrace show where time goes') }),
  debug_blockProfile: method({ params: [text, jsonUint], run: () => noAnalogue('the block profile', 'debug_cpuProfile and debug_goTrace show where time goes') }),
  debug_writeBlockProfile: method({ params: [text], run: () => noAnalogue('the block profile', 'debug_cpuProfile and debug_goTrace show where time goes') }),
  debug_setMutexProfileFraction: method({ params: [jsonInt], run: () => noAnalogue('the mutex profile', 'JavaScript runs on one thread and takes no locks') }),
  debug_mutexProfile: method({ params: [text, jsonUint], run: () => noAnalogue('the mutex profile', 'JavaScript runs on one thread and takes no locks') }),
  debug_writeMutexProfile: method({ params: [text], run: () => noAnalogue('the mutex profile', 'JavaScript runs on one thread and takes no locks') }),
}
