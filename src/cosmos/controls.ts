/**
 * The test controls of the `cosmos` option (finality_setDelegation, finality_completeUnbonding,
 * finality_jailValidator, finality_unjailValidator and their JavaScript helpers): each writes the
 * staking state at the head, as hardhat_setStorageAt writes state, and the chain does the rest:
 * EndBlock of the next block reports the power that changed, which consensus applies two heights
 * later, exactly as for a delegation through the precompile.
 */
import type { Chain } from '../chain/chain.js'
import { InvalidInput } from '../domain-errors.js'
import { JournaledState } from '../state/journaled-state.js'
import { DistributionState } from './distribution-state.js'
import { BONDED_POOL, SHARE_SCALE, StakingState, type ValidatorRecord } from './staking-state.js'

/** The block writes wait for (the producer's `exclusive`). */
export type Exclusive = <T>(task: () => Promise<T>) => Promise<T>

export class CosmosControls {
  constructor(
    private readonly chain: Chain,
    private readonly exclusive: Exclusive,
  ) {}

  /** Runs `write` on the head state and commits what it wrote; answers its result. */
  private write<T>(write: (staking: StakingState, state: JournaledState) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const state = new JournaledState(this.chain.headState())
      const result = await write(new StakingState(state), state)
      await this.chain.modify(state.diff())
      return result
    })
  }

  private async validator(staking: StakingState, address: Uint8Array): Promise<ValidatorRecord> {
    const v = await staking.validator(address)
    if (v === undefined) throw new InvalidInput(`0x${Buffer.from(address).toString('hex')} is not a validator of the staking state`)
    return v
  }

  /** The height whose set an EndBlock of the next block changes. */
  private effective(): bigint {
    return this.chain.height + 3n
  }

  /**
   * Sets `delegator`'s delegation to `validator` to `amount` tokens: the difference is minted
   * into (or burned from) the bonded pool, the delegator's balance is untouched (a test control,
   * as hardhat_setBalance). Its rewards so far are paid first. Answers the height the validator's
   * new power takes effect at.
   */
  setDelegation(delegator: Uint8Array, validator: Uint8Array, amount: bigint): Promise<bigint> {
    if (amount < 0n) throw new InvalidInput('the amount must not be negative')
    return this.write(async (staking, state) => {
      const v = await this.validator(staking, validator)
      await new DistributionState(state).withdraw(delegator, v.address)
      const shares = await staking.delegationShares(delegator, v.address)
      const current = v.shares === 0n ? 0n : (shares * v.tokens) / v.shares
      const tokens = v.tokens - current + amount
      const others = v.shares - shares
      // The other delegators keep their tokens: the exchange rate of the rest stays.
      const mine = others === 0n || v.tokens - current === 0n ? amount * SHARE_SCALE : (amount * others) / (v.tokens - current)
      await staking.putValidator({ ...v, tokens, shares: others + mine })
      await staking.putDelegationShares(delegator, v.address, mine)
      const pool = await staking.balance(BONDED_POOL.bytes)
      const account = await state.getAccount(BONDED_POOL)
      if (account !== undefined) {
        account.balance = pool + amount - current
        await state.putAccount(BONDED_POOL, account)
      }
      return this.effective()
    })
  }

  /** Makes every unbonding entry complete in the next block; answers that block's number. */
  completeUnbonding(): Promise<bigint> {
    return this.write(async (staking) => {
      const next = this.chain.height + 1n
      for (const p of await staking.unbondingPairs()) {
        const entries = await staking.unbonding(p.delegator, p.validator)
        await staking.putUnbonding(p.delegator, p.validator, entries.map((e) => ({ ...e, completionHeight: e.completionHeight < next ? e.completionHeight : next })))
      }
      return next
    })
  }

  /**
   * Jails a validator (no slash, not tombstoned, as for downtime) until `blocks` blocks after the
   * next one; answers the height it leaves the set at.
   */
  jail(validator: Uint8Array, blocks: bigint): Promise<bigint> {
    return this.write(async (staking) => {
      const v = await this.validator(staking, validator)
      const info = await staking.signingInfo(v.address)
      await staking.putValidator({ ...v, jailed: true })
      await staking.putSigningInfo(v.address, { tombstoned: info.tombstoned, jailedUntil: this.chain.height + 1n + blocks })
      return this.effective()
    })
  }

  /** Unjails a validator whatever its jail (tombstone included: a test control); answers the height it is back at. */
  unjail(validator: Uint8Array): Promise<bigint> {
    return this.write(async (staking) => {
      const v = await this.validator(staking, validator)
      await staking.putValidator({ ...v, jailed: false })
      await staking.putSigningInfo(v.address, { tombstoned: false, jailedUntil: 0n })
      // Bonded again: its signature window starts afresh, as after the precompile's unjail.
      await staking.putDowntime(v.address, { ...(await staking.downtime(v.address)), startHeight: this.chain.height + 1n })
      return this.effective()
    })
  }
}
