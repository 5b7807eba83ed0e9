/** The pool's inclusion events: every wait on a hash is settled once, a cancelled one never. */
import { describe, expect, it } from 'vitest'
import { Inclusions } from './inclusions.js'

describe('inclusion events', () => {
  it('settles every wait on the hash with the outcome, and only those', async () => {
    const inclusions = new Inclusions()
    const a = inclusions.wait('aa')
    const b = inclusions.wait('aa')
    const other = inclusions.wait('bb')
    const outcome = { output: Uint8Array.of(1) }
    inclusions.settle('aa', undefined, outcome)
    await expect(a.settled).resolves.toBe(outcome)
    await expect(b.settled).resolves.toBe(outcome)
    expect(inclusions.has('aa')).toBe(false)
    expect(inclusions.has('bb')).toBe(true)
    inclusions.settle('bb', new Error('dropped'))
    await expect(other.settled).rejects.toThrow('dropped')
  })

  it('a cancelled wait is forgotten without touching the other waits on the hash', async () => {
    const inclusions = new Inclusions()
    const cancelled = inclusions.wait('aa')
    const kept = inclusions.wait('aa')
    cancelled.cancel()
    expect(inclusions.has('aa')).toBe(true)
    kept.cancel()
    expect(inclusions.has('aa')).toBe(false)
    let settled = false
    void cancelled.settled.then(() => (settled = true))
    inclusions.settle('aa')
    await new Promise((r) => setImmediate(r))
    expect(settled).toBe(false)
  })

  it('rejectAll settles every pending wait with the error (the node closed)', async () => {
    const inclusions = new Inclusions()
    const waits = ['aa', 'bb'].map((h) => inclusions.wait(h).settled)
    inclusions.rejectAll(new Error('closed'))
    for (const w of waits) await expect(w).rejects.toThrow('closed')
    expect(inclusions.has('aa') || inclusions.has('bb')).toBe(false)
  })
})
