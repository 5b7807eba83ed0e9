/**
 * A diff read over a pinned view of the flat state answers what the flat state answers once the
 * diff is applied: every account, slot and code, with deletions, cleared storage and writes after
 * a clear, over random diffs.
 */
import { Account } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { DiffReader } from './diff-reader.js'
import { FlatState, type StateView } from './flat-state.js'
import { emptyDiff, type StateDiff, type SyncStateReader } from './types.js'

const ADDRESSES = ['a1', 'a2', 'a3', 'a4', 'a5']
const SLOTS = ['s1', 's2', 's3']

/** A small deterministic generator (xorshift). */
function random(seed: number): () => number {
  let x = seed || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
}

function randomDiff(next: () => number, round: number): StateDiff {
  const diff = emptyDiff()
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T
  for (const address of ADDRESSES) {
    const r = next()
    if (r < 0.15) diff.accounts.set(address, null)
    else if (r < 0.6) diff.accounts.set(address, new Account(BigInt(round), BigInt(Math.floor(next() * 1000))))
    if (next() < 0.2) diff.cleared.add(address)
    if (next() < 0.5) {
      const slots = new Map<string, Uint8Array>()
      for (let i = 0; i < 2; i++) slots.set(pick(SLOTS), next() < 0.3 ? new Uint8Array(0) : Uint8Array.of(round, i + 1))
      diff.storage.set(address, slots)
    }
    if (next() < 0.2) diff.code.set(address, next() < 0.3 ? new Uint8Array(0) : Uint8Array.of(0x60, round))
  }
  return diff
}

function readAll(reader: SyncStateReader): unknown[] {
  return ADDRESSES.flatMap((a) => {
    const account = reader.account(a)
    return [
      a,
      account === undefined ? 'none' : `${account.nonce}/${account.balance}`,
      Array.from(reader.code(a)).join(','),
      ...SLOTS.map((s) => Array.from(reader.storage(a, s)).join(',')),
    ]
  })
}

describe('DiffReader', () => {
  it.each(Array.from({ length: 40 }, (_, i) => i + 1))('seed %i: the diff over the head reads as the applied diff', (seed) => {
    const next = random(seed)
    const flat = new FlatState()
    const applied = new FlatState()
    for (let round = 1; round <= 3; round++) {
      const base = randomDiff(next, round)
      flat.apply(base)
      applied.apply(base)
    }
    const diff = randomDiff(next, 9)
    const view = flat.view() as StateView & { now: SyncStateReader }
    let closed = false
    const reader = new DiffReader(diff, view, () => {
      closed = true
    })
    applied.apply(diff)
    expect(readAll(reader)).toEqual(readAll(applied.now as SyncStateReader))
    reader.close()
    expect(closed).toBe(true)
  })
})
