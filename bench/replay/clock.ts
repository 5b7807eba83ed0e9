/**
 * The replay's clock. Both chains' block times come from the wall clock, started at the recorded
 * genesis time (`initialDate`, EDR's `genesisBlockTime`): a replay slower than EDR's own (11.5 s
 * for openzeppelin-contracts in snapshot.json) makes blocks later than the recorded ones, and a
 * suite that set absolute timestamps computed from the recorded chain's time
 * (`evm_setNextBlockTimestamp`) finds them behind its latest block once the lag passes the
 * test's margin. EDR's provider has no clock setting, so `frozen` stops the clock for the whole
 * process from outside, the same way for both contestants: libfaketime (`LD_PRELOAD`) answers
 * the recorded genesis time to every wall-clock read (`clock_gettime(CLOCK_REALTIME)`: Rust's
 * `SystemTime::now` in EDR, `Date.now` in Node), while the monotonic clock the timers and the
 * measurement use runs on. A chain's time then moves by its own steps alone (a block one second
 * after its parent, evm_increaseTime, evm_setNextBlockTimestamp), whatever the replay's speed.
 * A fast replay is close to that too: at EDR's pace the suites make 200 to 2,000 blocks a second,
 * and a block is never earlier than a second after its parent.
 */
import { existsSync } from 'node:fs'

export type ReplayClock = 'wall' | 'frozen'

/** `BENCH_REPLAY_CLOCK`: `wall` (default) or `frozen`. */
export function parseReplayClock(value: string | undefined): ReplayClock {
  if (value === undefined || value === '' || value === 'wall') return 'wall'
  if (value === 'frozen') return 'frozen'
  throw new Error(`bad BENCH_REPLAY_CLOCK ${value}: wall or frozen`)
}

/** Where Debian's `libfaketime` puts its thread-safe library (EDR runs threads), or `FINALITY_LIBFAKETIME`. */
const CANDIDATES = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1', '/usr/lib/faketime/libfaketimeMT.so.1', '/usr/local/lib/faketime/libfaketimeMT.so.1']

export function findLibfaketime(): string | undefined {
  const named = process.env.FINALITY_LIBFAKETIME
  if (named !== undefined && named !== '') {
    if (!existsSync(named)) throw new Error(`FINALITY_LIBFAKETIME=${named}: no such file`)
    return named
  }
  return CANDIDATES.find((p) => existsSync(p))
}

/** The environment that runs a process under libfaketime, its wall clock stopped at `atMs` (whole seconds). */
export function frozenClockEnv(lib: string, atMs: number): Record<string, string> {
  // libfaketime reads an absolute "YYYY-MM-DD hh:mm:ss" (no leading @: stopped) in local time.
  const at = new Date(Math.floor(atMs / 1000) * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')
  const preload = process.env.LD_PRELOAD
  return {
    LD_PRELOAD: preload !== undefined && preload !== '' ? `${lib}:${preload}` : lib,
    FAKETIME: at,
    TZ: 'UTC',
    // Both spellings (libfaketime 0.9.10 and later): timers and performance.now keep running.
    DONT_FAKE_MONOTONIC: '1',
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  }
}

/**
 * Throws unless this process's wall clock stands still (at `atMs` when given): a replay asked to
 * run frozen must not silently run on the wall clock.
 */
export async function assertFrozenAt(atMs: number | undefined): Promise<void> {
  const before = Date.now()
  await new Promise((resolve) => setTimeout(resolve, 20))
  const after = Date.now()
  if (after !== before) throw new Error(`the frozen clock needs libfaketime preloaded (bench/replay.ts sets LD_PRELOAD and FAKETIME): Date.now moved ${after - before} ms in 20 ms`)
  if (atMs !== undefined && before !== Math.floor(atMs / 1000) * 1000) {
    throw new Error(`the clock is frozen at ${new Date(before).toISOString()}, not at the recorded genesis time ${new Date(atMs).toISOString()}`)
  }
}
