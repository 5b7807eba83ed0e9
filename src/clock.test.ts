/**
 * src/clock.ts: consensus time's discrete-event clock (jumps to the earliest event, ties in the
 * order set, cancels, time = the base clock's plus the time jumped over, never a timer of the
 * base clock), and the keep-alive switch (timers set again as keep-alive ones for the time they
 * have left once someone waits on them).
 */
import { describe, expect, it } from 'vitest'
import { EventClock, KeepAliveSwitch, type Clock } from './clock.js'

/** A base clock at a fixed time that records the timers set on it and runs none. */
function recording(at = 1_000) {
  const set: Array<{ ms: number; keepAlive: boolean; cancelled: boolean; fn: () => void }> = []
  const clock: Clock & { at: number } = {
    at,
    now: () => clock.at,
    setTimer: (fn, ms, keepAlive = false) => {
      const t = { ms, keepAlive, cancelled: false, fn }
      set.push(t)
      return () => {
        t.cancelled = true
      }
    },
  }
  return { clock, set }
}

describe('EventClock', () => {
  it('default: each next() jumps to the earliest event and runs it; ties run in the order set; time is the base time at the start plus the jumps', () => {
    const { clock: base, set } = recording()
    const c = new EventClock(base)
    const ran: string[] = []
    c.setTimer(() => ran.push('b@3000'), 3000)
    c.setTimer(() => ran.push('a@1000'), 1000)
    c.setTimer(() => ran.push('c@3000'), 3000)
    expect(c.pending).toBe(3)
    expect(c.next()).toBe(true)
    expect(ran).toEqual(['a@1000'])
    expect(c.now()).toBe(2_000)
    // The base clock moving (the time work takes) does not move consensus time.
    base.at += 5_000
    expect(c.now()).toBe(2_000)
    // An event set while running starts from consensus time.
    c.setTimer(() => ran.push('d@+500'), 500)
    while (c.next());
    expect(ran).toEqual(['a@1000', 'd@+500', 'b@3000', 'c@3000'])
    expect(c.jumped).toBe(3000)
    expect(c.now()).toBe(4_000)
    expect(set).toEqual([])
  })

  it('behavior: a cancelled event never runs; next() is false when none is left; an event already due runs without a jump', () => {
    const { clock: base } = recording()
    const c = new EventClock(base)
    const ran: number[] = []
    const cancel = c.setTimer(() => ran.push(1), 10)
    c.setTimer(() => ran.push(2), 0)
    cancel()
    expect(c.next()).toBe(true)
    expect(c.jumped).toBe(0)
    expect(c.next()).toBe(false)
    expect(ran).toEqual([2])
  })
})

describe('KeepAliveSwitch', () => {
  it('default: timers are set on the base clock as not keep-alive; keepAlive() sets those running again, keep-alive, for the time they have left', () => {
    const { clock: base, set } = recording()
    const c = new KeepAliveSwitch(base)
    const ran: string[] = []
    c.setTimer(() => ran.push('x'), 3000)
    c.setTimer(() => ran.push('y'), 500)
    expect(set.map((t) => [t.ms, t.keepAlive])).toEqual([[3000, false], [500, false]])
    base.at += 1000
    set[1]!.fn()
    expect(ran).toEqual(['y'])
    c.keepAlive()
    // x again for its 2000 ms left, keep-alive; its first timer cancelled; y ran and is not set again.
    expect(set.map((t) => [t.ms, t.keepAlive, t.cancelled])).toEqual([[3000, false, true], [500, false, false], [2000, true, false]])
    c.setTimer(() => ran.push('z'), 100)
    expect(set.at(-1)).toMatchObject({ ms: 100, keepAlive: true })
    set[2]!.fn()
    expect(ran).toEqual(['y', 'x'])
  })

  it('behavior: waited from the start, every timer is keep-alive; a cancel after keepAlive() cancels the timer set again', () => {
    const { clock: base, set } = recording()
    const waited = new KeepAliveSwitch(base, true)
    waited.setTimer(() => {}, 10)
    expect(set[0]).toMatchObject({ keepAlive: true })
    const c = new KeepAliveSwitch(base)
    const cancel = c.setTimer(() => {}, 50)
    c.keepAlive()
    cancel()
    expect(set.slice(1).map((t) => [t.keepAlive, t.cancelled])).toEqual([[false, true], [true, true]])
  })
})
