/**
 * The staking module's state (validators' tokens and shares, delegations, unbonding entries),
 * kept in the storage of the staking precompile's own account (0x…0800) so that it is chain
 * state like any other: journaled with the frame that writes it, reverted with it, in the state
 * root, in snapshots, and read at any block. The bonded tokens sit in the bonded pool's balance
 * and the unbonding ones in the not-bonded pool's, at the module account addresses Cosmos derives
 * (sha256 of the pool's name, first 20 bytes).
 *
 * Shares are kept as Cosmos keeps them (a decimal with 18 places) in the integer form Cosmos EVM
 * answers (`Dec.BigInt()`: the value times 10^18).
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import { sha256 } from '@noble/hashes/sha2.js'
import { Account, Address } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import { concat, toBigInt, unpadded, word } from '../hex.js'

/** The staking precompile's address, whose storage holds the module's state. */
export const STAKING_ADDRESS = new Address(Uint8Array.from({ length: 20 }, (_, i) => (i === 18 ? 0x08 : 0)))

const moduleAddress = (name: string): Uint8Array => sha256(new TextEncoder().encode(name)).subarray(0, 20)
/** Cosmos's `bonded_tokens_pool` module account. */
export const BONDED_POOL = new Address(moduleAddress('bonded_tokens_pool'))
/** Cosmos's `not_bonded_tokens_pool` module account. */
export const NOT_BONDED_POOL = new Address(moduleAddress('not_bonded_tokens_pool'))

/** 10^18: a share's decimal places. */
export const SHARE_SCALE = 10n ** 18n

/** A slot of the module's storage, named by a tag and the keys under it. */
export function slot(tag: string, ...keys: Array<Uint8Array | bigint>): Uint8Array {
  return keccak256(concat(new TextEncoder().encode(tag), ...keys.map((k) => (typeof k === 'bigint' ? word(k) : k))))
}

const offset = (base: Uint8Array, i: bigint): Uint8Array => word(toBigInt(base) + i)

/** One validator's record. */
export interface ValidatorRecord {
  readonly address: Uint8Array
  readonly tokens: bigint
  readonly shares: bigint
  readonly jailed: boolean
}

/** One unbonding entry of a delegator with a validator. */
export interface UnbondingEntry {
  readonly creationHeight: bigint
  readonly completionHeight: bigint
  readonly initialBalance: bigint
  readonly balance: bigint
}

/** The staking state of one state view (a block's, a call's). */
export class StakingState {
  constructor(private readonly state: StateManagerInterface) {}

  /** The state view this reads and writes. */
  get view(): StateManagerInterface {
    return this.state
  }

  private async get(key: Uint8Array): Promise<bigint> {
    const v = await this.state.getStorage(STAKING_ADDRESS, key)
    return v.length === 0 ? 0n : toBigInt(v)
  }

  private async put(key: Uint8Array, value: bigint): Promise<void> {
    await this.state.putStorage(STAKING_ADDRESS, key, unpadded(value))
  }

  /** Every validator's address, in the order they were added. */
  async validatorAddresses(): Promise<Uint8Array[]> {
    const n = await this.get(slot('val.n'))
    const out: Uint8Array[] = []
    for (let i = 0n; i < n; i++) out.push(word(await this.get(slot('val.at', i))).subarray(12))
    return out
  }

  /** The validator's record, or undefined when it is none. */
  async validator(address: Uint8Array): Promise<ValidatorRecord | undefined> {
    if ((await this.get(slot('val.index', address))) === 0n) return undefined
    return {
      address,
      tokens: await this.get(slot('val.tokens', address)),
      shares: await this.get(slot('val.shares', address)),
      jailed: (await this.get(slot('val.jailed', address))) === 1n,
    }
  }

  async putValidator(v: ValidatorRecord): Promise<void> {
    await this.put(slot('val.tokens', v.address), v.tokens)
    await this.put(slot('val.shares', v.address), v.shares)
    await this.put(slot('val.jailed', v.address), v.jailed ? 1n : 0n)
  }

  /** The power consensus was last told for the validator (EndBlock's record). */
  async lastPower(address: Uint8Array): Promise<bigint> {
    return this.get(slot('val.power', address))
  }

  async putLastPower(address: Uint8Array, power: bigint): Promise<void> {
    await this.put(slot('val.power', address), power)
  }

  /** The slashing module's record of a validator: tombstoned (double-signed), jailed until a height. */
  async signingInfo(address: Uint8Array): Promise<{ tombstoned: boolean; jailedUntil: bigint }> {
    return { tombstoned: (await this.get(slot('slash.tombstoned', address))) === 1n, jailedUntil: await this.get(slot('slash.jailedUntil', address)) }
  }

  async putSigningInfo(address: Uint8Array, info: { tombstoned: boolean; jailedUntil: bigint }): Promise<void> {
    await this.put(slot('slash.tombstoned', address), info.tombstoned ? 1n : 0n)
    await this.put(slot('slash.jailedUntil', address), info.jailedUntil)
  }

  /** x/slashing's signature count of a validator: where its window starts, its place in it, the blocks missed. */
  async downtime(address: Uint8Array): Promise<{ startHeight: bigint; indexOffset: bigint; missed: bigint }> {
    return { startHeight: await this.get(slot('slash.start', address)), indexOffset: await this.get(slot('slash.offset', address)), missed: await this.get(slot('slash.missed', address)) }
  }

  async putDowntime(address: Uint8Array, info: { startHeight: bigint; indexOffset: bigint; missed: bigint }): Promise<void> {
    await this.put(slot('slash.start', address), info.startHeight)
    await this.put(slot('slash.offset', address), info.indexOffset)
    await this.put(slot('slash.missed', address), info.missed)
  }

  /** Whether the validator missed the block at `index` of its window (x/slashing's bit array). */
  async missedAt(address: Uint8Array, index: bigint): Promise<boolean> {
    return (await this.get(slot('slash.bit', address, index))) === 1n
  }

  async putMissedAt(address: Uint8Array, index: bigint, missed: boolean): Promise<void> {
    await this.put(slot('slash.bit', address, index), missed ? 1n : 0n)
  }

  async delegationShares(delegator: Uint8Array, validator: Uint8Array): Promise<bigint> {
    return this.get(slot('del.shares', delegator, validator))
  }

  async putDelegationShares(delegator: Uint8Array, validator: Uint8Array, shares: bigint): Promise<void> {
    await this.put(slot('del.shares', delegator, validator), shares)
  }

  async unbonding(delegator: Uint8Array, validator: Uint8Array): Promise<UnbondingEntry[]> {
    const n = await this.get(slot('ubd.n', delegator, validator))
    const out: UnbondingEntry[] = []
    for (let j = 0n; j < n; j++) {
      const base = slot('ubd', delegator, validator, j)
      out.push({
        creationHeight: await this.get(base),
        completionHeight: await this.get(offset(base, 1n)),
        initialBalance: await this.get(offset(base, 2n)),
        balance: await this.get(offset(base, 3n)),
      })
    }
    return out
  }

  /** Replaces the pair's entries; a pair with entries is on the queue the chain completes. */
  async putUnbonding(delegator: Uint8Array, validator: Uint8Array, entries: readonly UnbondingEntry[]): Promise<void> {
    const before = await this.get(slot('ubd.n', delegator, validator))
    for (let j = 0n; j < BigInt(Math.max(Number(before), entries.length)); j++) {
      const e = entries[Number(j)]
      const base = slot('ubd', delegator, validator, j)
      await this.put(base, e?.creationHeight ?? 0n)
      await this.put(offset(base, 1n), e?.completionHeight ?? 0n)
      await this.put(offset(base, 2n), e?.initialBalance ?? 0n)
      await this.put(offset(base, 3n), e?.balance ?? 0n)
    }
    await this.put(slot('ubd.n', delegator, validator), BigInt(entries.length))
    const queued = (await this.get(slot('ubdq.has', delegator, validator))) === 1n
    if (entries.length > 0 && !queued) {
      const n = await this.get(slot('ubdq.n'))
      await this.put(slot('ubdq.d', n), toBigInt(delegator))
      await this.put(slot('ubdq.v', n), toBigInt(validator))
      await this.put(slot('ubdq.n'), n + 1n)
      await this.put(slot('ubdq.has', delegator, validator), 1n)
    }
  }

  /** The pairs with unbonding entries. */
  async unbondingPairs(): Promise<Array<{ delegator: Uint8Array; validator: Uint8Array }>> {
    const n = await this.get(slot('ubdq.n'))
    const out: Array<{ delegator: Uint8Array; validator: Uint8Array }> = []
    for (let i = 0n; i < n; i++) {
      out.push({ delegator: word(await this.get(slot('ubdq.d', i))).subarray(12), validator: word(await this.get(slot('ubdq.v', i))).subarray(12) })
    }
    return out
  }

  /** Rewrites the queue with `pairs` (those that still have entries). */
  async putUnbondingPairs(pairs: ReadonlyArray<{ delegator: Uint8Array; validator: Uint8Array }>, dropped: ReadonlyArray<{ delegator: Uint8Array; validator: Uint8Array }>): Promise<void> {
    for (const p of dropped) await this.put(slot('ubdq.has', p.delegator, p.validator), 0n)
    const before = await this.get(slot('ubdq.n'))
    for (let i = 0n; i < before; i++) {
      const p = pairs[Number(i)]
      await this.put(slot('ubdq.d', i), p === undefined ? 0n : toBigInt(p.delegator))
      await this.put(slot('ubdq.v', i), p === undefined ? 0n : toBigInt(p.validator))
    }
    await this.put(slot('ubdq.n'), BigInt(pairs.length))
  }

  /** The native balance of `address`. */
  async balance(address: Uint8Array): Promise<bigint> {
    return (await this.state.getAccount(new Address(address)))?.balance ?? 0n
  }

  /** Burns `amount` of `from`'s native balance (a slash burns from the pools, as Cosmos does). */
  async burn(from: Uint8Array, amount: bigint): Promise<void> {
    const a = new Address(from)
    const account = (await this.state.getAccount(a)) ?? new Account()
    account.balance -= amount < account.balance ? amount : account.balance
    await this.state.putAccount(a, account)
  }

  /** Moves `amount` of the native token; false (nothing moved) when `from` holds less. */
  async transfer(from: Uint8Array, to: Uint8Array, amount: bigint): Promise<boolean> {
    const a = new Address(from)
    const source = (await this.state.getAccount(a)) ?? new Account()
    if (source.balance < amount) return false
    source.balance -= amount
    await this.state.putAccount(a, source)
    const b = new Address(to)
    const target = (await this.state.getAccount(b)) ?? new Account()
    target.balance += amount
    await this.state.putAccount(b, target)
    return true
  }
}

/**
 * The genesis storage of the module: each validator bonded with `tokens`, all self-delegated (its
 * operator is its own address), slot → value as hex.
 */
export function genesisStorage(validators: ReadonlyArray<{ address: Uint8Array; tokens: bigint; power: bigint }>): Record<string, string> {
  const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`
  const storage: Record<string, string> = {}
  const put = (key: Uint8Array, value: bigint): void => {
    storage[hex(key)] = hex(word(value))
  }
  validators.forEach((v, i) => {
    put(slot('val.at', BigInt(i)), toBigInt(v.address))
    put(slot('val.index', v.address), BigInt(i + 1))
    put(slot('val.tokens', v.address), v.tokens)
    put(slot('val.power', v.address), v.power)
    put(slot('val.shares', v.address), v.tokens * SHARE_SCALE)
    put(slot('del.shares', v.address, v.address), v.tokens * SHARE_SCALE)
  })
  put(slot('val.n'), BigInt(validators.length))
  return storage
}
