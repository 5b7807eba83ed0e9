/**
 * Redelegations, kept as Cosmos's x/staking keeps them: per (delegator, source validator,
 * destination validator) a list of entries (creation height, completion height, the tokens moved,
 * the destination shares they bought), and a queue of the triples that have entries, which the
 * chain walks to drop the entries that reach their completion height. An entry exists only while
 * the source validator's tokens would still be slashable: a redelegation from an unbonded
 * (jailed) validator completes at once and leaves none. Stored in the staking account's storage
 * with the rest of the module.
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import { toBigInt, unpadded, word } from '../hex.js'
import { slot, STAKING_ADDRESS } from './staking-state.js'

/** Cosmos's default `max_entries`: entries per triple (and per unbonding pair). */
export const MAX_ENTRIES = 7

/** One redelegation entry. */
export interface RedelegationEntry {
  readonly creationHeight: bigint
  readonly completionHeight: bigint
  readonly initialBalance: bigint
  /** The destination validator's shares the redelegated tokens bought (Dec form, ×10^18). */
  readonly sharesDst: bigint
}

/** A (delegator, source, destination) triple. */
export interface RedelegationKey {
  readonly delegator: Uint8Array
  readonly src: Uint8Array
  readonly dst: Uint8Array
}

const equal = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0

export class RedelegationState {
  constructor(private readonly state: StateManagerInterface) {}

  private async get(key: Uint8Array): Promise<bigint> {
    const v = await this.state.getStorage(STAKING_ADDRESS, key)
    return v.length === 0 ? 0n : toBigInt(v)
  }

  private async put(key: Uint8Array, value: bigint): Promise<void> {
    await this.state.putStorage(STAKING_ADDRESS, key, unpadded(value))
  }

  async entries(k: RedelegationKey): Promise<RedelegationEntry[]> {
    const n = await this.get(slot('red.n', k.delegator, k.src, k.dst))
    const out: RedelegationEntry[] = []
    for (let j = 0n; j < n; j++) {
      const at = (field: bigint) => slot('red', k.delegator, k.src, k.dst, j, field)
      out.push({ creationHeight: await this.get(at(0n)), completionHeight: await this.get(at(1n)), initialBalance: await this.get(at(2n)), sharesDst: await this.get(at(3n)) })
    }
    return out
  }

  /** Replaces the triple's entries, keeping the queue of triples with entries. */
  async putEntries(k: RedelegationKey, entries: readonly RedelegationEntry[]): Promise<void> {
    const before = Number(await this.get(slot('red.n', k.delegator, k.src, k.dst)))
    for (let j = 0; j < Math.max(before, entries.length); j++) {
      const e = entries[j]
      const at = (field: bigint) => slot('red', k.delegator, k.src, k.dst, BigInt(j), field)
      await this.put(at(0n), e?.creationHeight ?? 0n)
      await this.put(at(1n), e?.completionHeight ?? 0n)
      await this.put(at(2n), e?.initialBalance ?? 0n)
      await this.put(at(3n), e?.sharesDst ?? 0n)
    }
    await this.put(slot('red.n', k.delegator, k.src, k.dst), BigInt(entries.length))
    const queued = (await this.get(slot('redq.has', k.delegator, k.src, k.dst))) === 1n
    if (entries.length > 0 && !queued) {
      const n = await this.get(slot('redq.n'))
      await this.put(slot('redq.d', n), toBigInt(k.delegator))
      await this.put(slot('redq.s', n), toBigInt(k.src))
      await this.put(slot('redq.t', n), toBigInt(k.dst))
      await this.put(slot('redq.n'), n + 1n)
      await this.put(slot('redq.has', k.delegator, k.src, k.dst), 1n)
    } else if (entries.length === 0 && queued) {
      const keys = (await this.keys()).filter((q) => !(equal(q.delegator, k.delegator) && equal(q.src, k.src) && equal(q.dst, k.dst)))
      await this.put(slot('redq.has', k.delegator, k.src, k.dst), 0n)
      const n = await this.get(slot('redq.n'))
      for (let i = 0n; i < n; i++) {
        const q = keys[Number(i)]
        await this.put(slot('redq.d', i), q === undefined ? 0n : toBigInt(q.delegator))
        await this.put(slot('redq.s', i), q === undefined ? 0n : toBigInt(q.src))
        await this.put(slot('redq.t', i), q === undefined ? 0n : toBigInt(q.dst))
      }
      await this.put(slot('redq.n'), BigInt(keys.length))
    }
  }

  /** Every triple with entries, in the order they were first made. */
  async keys(): Promise<RedelegationKey[]> {
    const n = await this.get(slot('redq.n'))
    const out: RedelegationKey[] = []
    const address = async (tag: string, i: bigint) => word(await this.get(slot(tag, i))).subarray(12)
    for (let i = 0n; i < n; i++) out.push({ delegator: await address('redq.d', i), src: await address('redq.s', i), dst: await address('redq.t', i) })
    return out
  }

  /** Cosmos's `HasReceivingRedelegation`: some redelegation of `delegator` still lands on `validator`. */
  async receiving(delegator: Uint8Array, validator: Uint8Array): Promise<boolean> {
    return (await this.keys()).some((k) => equal(k.delegator, delegator) && equal(k.dst, validator))
  }

  /** Drops the entries whose completion height is `height` or below (Cosmos's `CompleteRedelegation`: no tokens move). */
  async complete(height: bigint): Promise<void> {
    for (const k of await this.keys()) {
      const entries = await this.entries(k)
      const left = entries.filter((e) => e.completionHeight > height)
      if (left.length !== entries.length) await this.putEntries(k, left)
    }
  }
}
