/**
 * The Cosmos side of the chain when the `cosmos` option is on: the one owner of the staking
 * state's rules outside a precompile call. It makes the precompiles, the genesis accounts
 * (validators bonded and self-delegated), and the block hooks the block builder runs: BeginBlock
 * (undelegations that reach their completion height pay out) and EndBlock (validators whose
 * power changed, the updates FinalizeBlock returns; consensus applies them at H + 2).
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import type { AllocAccount } from '../chain/genesis.js'
import type { BlockHooks, ValidatorUpdate } from '../execution/block-hooks.js'
import type { MessagePrecompile } from '../execution/engine/precompiles.js'
import { data, fromHex, type Hex } from '../hex.js'
import { bankPrecompile, bech32Precompile } from './bank-bech32.js'
import { cosmosSettings, type CosmosOptions, type CosmosSettings } from './options.js'
import { stakingPrecompile } from './staking.js'
import { BONDED_POOL, genesisStorage, NOT_BONDED_POOL, STAKING_ADDRESS, StakingState, type ValidatorRecord } from './staking-state.js'

/** A genesis validator: its address, key and power. */
export interface GenesisValidator {
  readonly address: Hex
  readonly publicKey: Uint8Array
  readonly power: bigint
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
    ]
  }

  /** The voting power of a validator: its bonded tokens over the power reduction, none when jailed. */
  power(v: ValidatorRecord): bigint {
    return v.jailed ? 0n : v.tokens / this.settings.powerReduction
  }

  /** BeginBlock: undelegations whose completion height is `height` or below pay out. */
  async beginBlock(state: StateManagerInterface, height: bigint): Promise<void> {
    const staking = new StakingState(state)
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
  async endBlock(state: StateManagerInterface): Promise<ValidatorUpdate[]> {
    const staking = new StakingState(state)
    const updates: ValidatorUpdate[] = []
    for (const address of await staking.validatorAddresses()) {
      const v = (await staking.validator(address)) as ValidatorRecord
      const power = this.power(v)
      if (power !== (await staking.lastPower(address))) {
        await staking.putLastPower(address, power)
        updates.push({ address: data(address), power })
      }
    }
    return updates
  }
}
