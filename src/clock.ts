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

/**
 * A discrete-event clock over `base`: its timers are events in a list, never timers of `base`,
 * and time moves only when its owner calls {@link EventClock.next}, which jumps to the earliest
 * event and runs it. Its owner calls it when nothing else can happen (no work queued, nothing
 * awaited), so nothing is ever waited for: the in-process validators' rounds, whose every message
 * and time-out is the node's own. `now()` is `base`'s time plus the time jumped over; events due
 * at the same time run in the order they were set, so a run replays exactly.
 */
export class EventClock implements Clock {
  private skipped = 0
  private seq = 0
  private readonly events = new Map<number, { due: number; fn: () => void }>()

  constructor(private readonly base: Clock) {}

  now(): number {
    return this.base.now() + this.skipped
  }

  setTimer(fn: () => void, ms: number): () => void {
    const id = this.seq++
    this.events.set(id, { due: this.now() + Math.max(0, ms), fn })
    return () => this.events.delete(id)
  }

  /** Events set and not yet run or cancelled. */
  get pending(): number {
    return this.events.size
  }

  /** The time jumped over so far, in ms. */
  get jumped(): number {
    return this.skipped
  }

  /** Jumps to the earliest event (the first set, among those due together) and runs it; false when none is set. */
  next(): boolean {
    let first: [number, { due: number; fn: () => void }] | undefined
    // Map order is the order set: a strict `<` keeps the first of equal due times.
    for (const entry of this.events) if (first === undefined || entry[1].due < first[1].due) first = entry
    if (first === undefined) return false
    this.events.delete(first[0])
    const now = this.now()
    if (first[1].due > now) this.skipped += first[1].due - now
    first[1].fn()
    return true
  }
}
