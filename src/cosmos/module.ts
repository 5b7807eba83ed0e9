/**
 * The Cosmos side of the chain when the `cosmos` option is on: the one owner of the staking
 * state's rules outside a precompile call. It makes the precompiles, the genesis accounts
 * (validators bonded and self-delegated), and the block hooks the block builder runs: BeginBlock
 * (undelegations that reach their completion height pay out) and EndBlock (validators whose
 * power changed, the updates FinalizeBlock returns; consensus applies them at H + 2).
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import { Account, Address } from '@ethereumjs/util'
import type { AllocAccount } from '../chain/genesis.js'
import type { BlockHooks, ValidatorUpdate } from '../execution/block-hooks.js'
import type { MessagePrecompile } from '../execution/engine/precompiles.js'
import { data, fromHex, type Hex } from '../hex.js'
import { bankPrecompile, bech32Precompile } from './bank-bech32.js'
import { cosmosSettings, type CosmosOptions, type CosmosSettings } from './options.js'
import { DISTRIBUTION_POOL, DistributionState } from './distribution-state.js'
import { distributionPrecompile } from './distribution.js'
import { endVoting, GOV_POOL, govPrecompile } from './gov.js'
import { countSignatures } from './downtime.js'
import { RedelegationState } from './redelegation-state.js'
import { slashForEquivocation, slashingPrecompile } from './slashing.js'
import { stakingPrecompile } from './staking.js'
import { trackBlock } from './supply.js'
import type { JournaledState } from '../state/journaled-state.js'
import { BONDED_POOL, genesisStorage, NOT_BONDED_POOL, STAKING_ADDRESS, StakingState, type ValidatorRecord } from './staking-state.js'

/** A genesis validator: its address, key and power. */
export interface GenesisValidator {
  readonly address: Hex
  readonly publicKey: Uint8Array
  readonly power: bigint
}

/** Adds `amount` to `address`'s balance (fees not burned). */
async function mint(state: StateManagerInterface, address: Uint8Array, amount: bigint): Promise<void> {
  const a = new Address(address)
  const account = (await state.getAccount(a)) ?? new Account()
  account.balance += amount
  await state.putAccount(a, account)
}

export class CosmosModule implements BlockHooks {
  readonly settings: CosmosSettings
  readonly precompiles: readonly MessagePrecompile[]
  private readonly keys = new Map<string, Uint8Array>()

  constructor(options: CosmosOptions, validators: readonly GenesisValidator[]) {
    this.settings = cosmosSettings(options)
    for (const v of validators) this.keys.set(v.address.toLowerCase(), v.publicKey)
    this.precompiles = [
      stakingPrecompile({ settings: this.settings, consensusKey: (a) => this.keys.get(data(a)) }),
      bankPrecompile(this.settings),
      bech32Precompile(this.settings),
      slashingPrecompile(this.settings),
      distributionPrecompile(this.settings),
      govPrecompile(this.settings),
    ]
  }

  /**
   * The genesis accounts: the staking account (nonce 1, so that the EIP-161 clean-up never takes
   * an account that holds state) with each validator bonded with its power's tokens, and the
   * bonded pool holding them.
   */
  genesisAccounts(validators: readonly GenesisValidator[]): Array<[Hex, AllocAccount]> {
    const bonded = validators.map((v) => ({ address: fromHex(v.address), tokens: v.power * this.settings.powerReduction, power: v.power }))
    const storage = genesisStorage(bonded)
    const total = bonded.reduce((sum, v) => sum + v.tokens, 0n)
    return [
      [data(STAKING_ADDRESS.bytes), { nonce: 1n, storage }],
      [data(BONDED_POOL.bytes), { nonce: 1n, balance: total }],
      [data(NOT_BONDED_POOL.bytes), { nonce: 1n }],
      [data(DISTRIBUTION_POOL.bytes), { nonce: 1n }],
      [data(GOV_POOL.bytes), { nonce: 1n }],
    ]
  }

  /** The voting power of a validator: its bonded tokens over the power reduction, none when jailed. */
  power(v: ValidatorRecord): bigint {
    return v.jailed ? 0n : v.tokens / this.settings.powerReduction
  }

  /**
   * BeginBlock: the last commit's signatures counted (downtime jails and slashes), the evidence the block commits slashes, jails and tombstones its validators
   * (x/evidence); undelegations whose completion height is `height` or below pay out, and
   * redelegation entries that reach it are dropped.
   */
  async beginBlock(
    state: StateManagerInterface,
    height: bigint,
    misbehavior: ReadonlyArray<{ validator: string; height: bigint }>,
    lastCommit?: ReadonlyArray<{ validator: string; signed: boolean }>,
  ): Promise<void> {
    const staking = new StakingState(state)
    if (lastCommit !== undefined) await countSignatures(staking, this.settings, height, lastCommit)
    for (const m of misbehavior) await slashForEquivocation(staking, fromHex(m.validator), m.height, height)
    await new RedelegationState(state).complete(height)
    const pairs = await staking.unbondingPairs()
    if (pairs.length === 0) return
    const kept: typeof pairs = []
    const dropped: typeof pairs = []
    for (const p of pairs) {
      const entries = await staking.unbonding(p.delegator, p.validator)
      const due = entries.filter((e) => e.completionHeight <= height)
      if (due.length === 0) {
        kept.push(p)
        continue
      }
      for (const e of due) await staking.transfer(NOT_BONDED_POOL.bytes, p.delegator, e.balance)
      const left = entries.filter((e) => e.completionHeight > height)
      await staking.putUnbonding(p.delegator, p.validator, left)
      if (left.length > 0) kept.push(p)
      else dropped.push(p)
    }
    if (dropped.length > 0) await staking.putUnbondingPairs(kept, dropped)
  }

  /** EndBlock: the validators whose voting power changed in this block, with their new power. */
  async endBlock(state: JournaledState, height: bigint, burnedFees: bigint): Promise<ValidatorUpdate[]> {
    const staking = new StakingState(state)
    await endVoting(state, height)
    // Cosmos EVM pays fees to validators: the base fee the EVM burned is minted to the
    // distribution pool and allocated by the power consensus holds for each validator now.
    if (burnedFees > 0n) {
      const distribution = new DistributionState(state)
      await mint(state, DISTRIBUTION_POOL.bytes, burnedFees)
      const held: Array<{ address: Uint8Array; power: bigint }> = []
      for (const address of await staking.validatorAddresses()) held.push({ address, power: await staking.lastPower(address) })
      await distribution.allocate(burnedFees, held)
    }
    // Last of what moves balances in the block: the supply counter takes the block's change.
    await trackBlock(state)
    const powers: Array<{ address: Uint8Array; power: bigint; last: bigint }> = []
    for (const address of await staking.validatorAddresses()) {
      const v = (await staking.validator(address)) as ValidatorRecord
      powers.push({ address, power: this.power(v), last: await staking.lastPower(address) })
    }
    // CometBFT halts on an empty set: the last bonded validators keep their power until another
    // is bonded (Cosmos would halt the chain here).
    if (powers.every((p) => p.power === 0n)) return []
    const updates: ValidatorUpdate[] = []
    for (const p of powers) {
      if (p.power === p.last) continue
      await staking.putLastPower(p.address, p.power)
      updates.push({ address: data(p.address), power: p.power })
    }
    return updates
  }
}
