/** The node's only source of time, injected so tests can run on a fake clock. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
  /**
   * Runs `fn` after `ms`; returns a cancel function. `keepAlive`: a caller waits on this timer
   * (a send waiting on a consensus round), so it keeps the process alive; without it the timer
   * does not (interval mining, filter expiry: a script that is done may exit).
   */
  setTimer(fn: () => void, ms: number, keepAlive?: boolean): () => void
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (fn, ms, keepAlive = false) => {
    const t = setTimeout(fn, ms)
    if (!keepAlive) t.unref?.()
    return () => clearTimeout(t)
  },
}

/** `clock` with every timer keeping the process alive (the timers something waits on). */
export function keepingAlive(clock: Clock): Clock {
  return { now: () => clock.now(), setTimer: (fn, ms) => clock.setTimer(fn, ms, true) }
}
