/** The node's only source of time, injected so tests can run on a fake clock. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
  /** Runs `fn` after `ms`; returns a cancel function. */
  setTimer(fn: () => void, ms: number): () => void
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    const t = setTimeout(fn, ms)
    t.unref?.()
    return () => clearTimeout(t)
  },
}
