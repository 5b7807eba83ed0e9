/** A clock that moves only when a test moves it; its timers fire in due order as it moves. */
import type { Clock } from '../../src/clock.js'

export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, firing the timers due on the way (letting each one's work settle). */
  advance(ms: number): Promise<void>
  /** Moves to the next due timer and fires it; false when none is set. */
  next(): Promise<boolean>
  /** Lets pending promise work run without moving time. */
  settle(): Promise<void>
  readonly pendingTimers: number
}

export function manualClock(start = 1_700_000_000_000): ManualClock {
  let now = start
  let seq = 0
  const timers = new Map<number, { due: number; fn: () => void }>()
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r))
  }
  const earliest = () => {
    let best: [number, { due: number; fn: () => void }] | undefined
    for (const entry of timers) if (best === undefined || entry[1].due < best[1].due) best = entry
    return best
  }
  const clock: ManualClock = {
    now: () => now,
    setTimer(fn, ms) {
      const id = seq++
      timers.set(id, { due: now + Math.max(0, ms), fn })
      return () => timers.delete(id)
    },
    async advance(ms) {
      const target = now + ms
      await settle()
      for (let e = earliest(); e !== undefined && e[1].due <= target; e = earliest()) {
        timers.delete(e[0])
        now = Math.max(now, e[1].due)
        e[1].fn()
        await settle()
      }
      now = target
    },
    async next() {
      await settle()
      const e = earliest()
      if (e === undefined) return false
      timers.delete(e[0])
      now = Math.max(now, e[1].due)
      e[1].fn()
      await settle()
      return true
    },
    settle,
    get pendingTimers() {
      return timers.size
    },
  }
  return clock
}
