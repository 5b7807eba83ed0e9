/**
 * The distribution module's state and its rules: the base fee of each block (which an Ethereum
 * chain burns) is paid to the distribution module account instead, as Cosmos EVM pays fees to
 * validators; EndBlock allocates it: the community tax (2%, Cosmos's default) to the community
 * pool, the rest to the bonded validators by voting power; of a validator's part its commission
 * (10%) accrues to it and the remainder to its delegators by shares. Amounts are kept as Cosmos
 * keeps DecCoins: in units of 10^-18 of a token. A delegation's rewards are paid out whenever its
 * shares change, as Cosmos's hooks withdraw them.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { Address } from '@ethereumjs/util'
import { slot, STAKING_ADDRESS, StakingState } from './staking-state.js'
import type { StateManagerInterface } from '@ethereumjs/common'
import { toBigInt, unpadded, word } from '../hex.js'

/** Cosmos's `distribution` module account: it holds the fees not yet withdrawn. */
export const DISTRIBUTION_POOL = new Address(sha256(new TextEncoder().encode('distribution')).subarray(0, 20))
/** 10^18: DecCoin amounts are tokens times this. */
export const DEC = 10n ** 18n
/** Cosmos's default community tax: 2%. */
export const COMMUNITY_TAX = 2n * 10n ** 16n
/** The commission rate of this chain's validators: 10%. */
export const COMMISSION_RATE = 10n ** 17n
/** The precision of the reward-per-share accumulator. */
const PRECISION = 10n ** 18n

export class DistributionState {
  readonly staking: StakingState
  constructor(private readonly state: StateManagerInterface) {
    this.staking = new StakingState(state)
  }

  private async get(key: Uint8Array): Promise<bigint> {
    const v = await this.state.getStorage(STAKING_ADDRESS, key)
    return v.length === 0 ? 0n : toBigInt(v)
  }

  private async put(key: Uint8Array, value: bigint): Promise<void> {
    await this.state.putStorage(STAKING_ADDRESS, key, unpadded(value))
  }

  commission(validator: Uint8Array): Promise<bigint> {
    return this.get(slot('dist.commission', validator))
  }

  outstanding(validator: Uint8Array): Promise<bigint> {
    return this.get(slot('dist.outstanding', validator))
  }

  communityPool(): Promise<bigint> {
    return this.get(slot('dist.community'))
  }

  /** The delegation's rewards not yet withdrawn (DecCoin units). */
  async rewards(delegator: Uint8Array, validator: Uint8Array): Promise<bigint> {
    const shares = await this.staking.delegationShares(delegator, validator)
    if (shares === 0n) return 0n
    const acc = await this.get(slot('dist.acc', validator))
    const last = await this.get(slot('dist.last', delegator, validator))
    return (shares * (acc - last)) / PRECISION
  }

  /**
   * Pays the delegation's rewards (whole tokens; the fraction stays in the pool) to the
   * delegator and starts its count again: called before its shares change and to withdraw.
   */
  async withdraw(delegator: Uint8Array, validator: Uint8Array): Promise<bigint> {
    const reward = await this.rewards(delegator, validator)
    await this.put(slot('dist.last', delegator, validator), await this.get(slot('dist.acc', validator)))
    const tokens = reward / DEC
    if (tokens === 0n) return 0n
    await this.put(slot('dist.outstanding', validator), (await this.outstanding(validator)) - tokens * DEC)
    await this.staking.transfer(DISTRIBUTION_POOL.bytes, await this.withdrawAddress(delegator), tokens)
    return tokens
  }

  /** Where `delegator`'s rewards (and, for a validator, its commission) are paid: itself unless set. */
  async withdrawAddress(delegator: Uint8Array): Promise<Uint8Array> {
    const set = await this.get(slot('dist.withdrawTo', delegator))
    return set === 0n ? delegator : word(set).subarray(12)
  }

  async setWithdrawAddress(delegator: Uint8Array, to: Uint8Array): Promise<void> {
    await this.put(slot('dist.withdrawTo', delegator), Buffer.compare(to, delegator) === 0 ? 0n : toBigInt(to))
  }

  /** Records a slash of `validator` at `height` by `fraction` (of 10^18), as Cosmos's slash events. */
  async recordSlash(validator: Uint8Array, height: bigint, fraction: bigint): Promise<void> {
    const n = await this.get(slot('dist.slash.n', validator))
    await this.put(slot('dist.slash', validator, n, 0n), height)
    await this.put(slot('dist.slash', validator, n, 1n), fraction)
    await this.put(slot('dist.slash.n', validator), n + 1n)
  }

  /** The validator's slash events, oldest first; `period` is the slash's ordinal (there are no F1 periods here). */
  async slashes(validator: Uint8Array): Promise<Array<{ height: bigint; period: bigint; fraction: bigint }>> {
    const n = await this.get(slot('dist.slash.n', validator))
    const out: Array<{ height: bigint; period: bigint; fraction: bigint }> = []
    for (let i = 0n; i < n; i++) out.push({ height: await this.get(slot('dist.slash', validator, i, 0n)), period: i + 1n, fraction: await this.get(slot('dist.slash', validator, i, 1n)) })
    return out
  }

  /** Pays the validator's commission (whole tokens) to its operator. */
  async withdrawCommission(validator: Uint8Array): Promise<bigint> {
    const commission = await this.commission(validator)
    const tokens = commission / DEC
    if (tokens === 0n) return 0n
    await this.put(slot('dist.commission', validator), commission - tokens * DEC)
    await this.put(slot('dist.outstanding', validator), (await this.outstanding(validator)) - tokens * DEC)
    await this.staking.transfer(DISTRIBUTION_POOL.bytes, await this.withdrawAddress(validator), tokens)
    return tokens
  }

  /** Adds `tokens` from `from` to the community pool; false when `from` holds less. */
  async fundCommunityPool(from: Uint8Array, tokens: bigint): Promise<boolean> {
    if (!(await this.staking.transfer(from, DISTRIBUTION_POOL.bytes, tokens))) return false
    await this.put(slot('dist.community'), (await this.communityPool()) + tokens * DEC)
    return true
  }

  /**
   * Cosmos's `AllocateTokensToValidator`: `amount` (DecCoin units, already in the distribution
   * pool) to `validator`: its commission, the rest to its delegators by shares.
   */
  async allocateToValidator(validator: Uint8Array, amount: bigint): Promise<void> {
    const commission = (amount * COMMISSION_RATE) / DEC
    await this.put(slot('dist.commission', validator), (await this.commission(validator)) + commission)
    await this.put(slot('dist.outstanding', validator), (await this.outstanding(validator)) + amount)
    const v = await this.staking.validator(validator)
    if (v !== undefined && v.shares > 0n) {
      const acc = await this.get(slot('dist.acc', validator))
      await this.put(slot('dist.acc', validator), acc + ((amount - commission) * PRECISION) / v.shares)
    }
  }

  /**
   * Allocates `fees` tokens, already in the distribution pool, among the validators by the
   * power consensus holds for them (CometBFT's signers of the block, all of them here).
   */
  async allocate(fees: bigint, powers: ReadonlyArray<{ address: Uint8Array; power: bigint }>): Promise<void> {
    if (fees === 0n) return
    const total = fees * DEC
    const bonded = powers.filter((p) => p.power > 0n)
    const totalPower = bonded.reduce((s, p) => s + p.power, 0n)
    let left = total - (total * COMMUNITY_TAX) / DEC
    const forValidators = left
    for (const p of bonded) {
      const share = (forValidators * p.power) / totalPower
      left -= share
      await this.allocateToValidator(p.address, share)
    }
    // The tax and what division leaves over go to the community pool, as Cosmos's remainder does.
    await this.put(slot('dist.community'), (await this.communityPool()) + (total * COMMUNITY_TAX) / DEC + left)
  }
}
