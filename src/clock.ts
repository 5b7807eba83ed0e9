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

/**
 * `base` whose timers keep the process alive once someone waits on them: from the start
 * (`waited`), or from {@link KeepAliveSwitch.keepAlive} on, which sets the timers already running
 * again as keep-alive ones for the time they have left (a request queued behind an interval
 * block's rounds waits on their time-outs too).
 */
export class KeepAliveSwitch implements Clock {
  private seq = 0
  private readonly timers = new Map<number, { fn: () => void; due: number; cancel: () => void }>()

  constructor(
    private readonly base: Clock,
    private waited = false,
  ) {}

  now(): number {
    return this.base.now()
  }

  setTimer(fn: () => void, ms: number): () => void {
    const id = this.seq++
    const entry = { fn, due: this.base.now() + ms, cancel: () => {} }
    entry.cancel = this.start(id, entry, ms)
    this.timers.set(id, entry)
    return () => {
      entry.cancel()
      this.timers.delete(id)
    }
  }

  /** From now on every timer, those already set included, keeps the process alive. */
  keepAlive(): void {
    if (this.waited) return
    this.waited = true
    for (const [id, entry] of this.timers) {
      entry.cancel()
      entry.cancel = this.start(id, entry, Math.max(0, entry.due - this.base.now()))
    }
  }

  private start(id: number, entry: { fn: () => void }, ms: number): () => void {
    return this.base.setTimer(() => {
      this.timers.delete(id)
      entry.fn()
    }, ms, this.waited)
  }
}

/**
 * A discrete-event clock over `base`: its timers are events in a list, never timers of `base`,
 * and time moves only when its owner calls {@link EventClock.next}, which jumps to the earliest
 * event and runs it. Its owner calls it when nothing else can happen (no work queued, nothing
 * awaited), so nothing is ever waited for: the in-process validators' rounds, whose every message
 * and time-out is the node's own. `now()` is `base`'s time when it was made plus the time jumped
 * over: the time work takes never moves it, and events due at the same time run in the order
 * they were set, so a run replays exactly whatever the machine's speed.
 */
export class EventClock implements Clock {
  private skipped = 0
  private seq = 0
  private readonly start: number
  private readonly events = new Map<number, { due: number; fn: () => void }>()

  constructor(base: Clock) {
    this.start = base.now()
  }

  now(): number {
    return this.start + this.skipped
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
    if (first[1].due > now) this.skipped = first[1].due - this.start
    first[1].fn()
    return true
  }
}
