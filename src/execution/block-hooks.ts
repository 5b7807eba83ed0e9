/**
 * What an application adds to a block beyond its transactions (the `cosmos` option's module): its
 * own precompiles in every VM of the node, BeginBlock before the transactions, EndBlock after
 * them with the validator updates FinalizeBlock returns. A node without them builds blocks as an
 * Ethereum chain does, with nothing run for them.
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import type { Hex } from '../hex.js'
import type { JournaledState } from '../state/journaled-state.js'
import type { MessagePrecompile } from './engine/precompiles.js'

/** A validator's new voting power (0: it leaves the set). */
export interface ValidatorUpdate {
  readonly address: Hex
  readonly power: bigint
}

export interface BlockHooks {
  readonly precompiles: readonly MessagePrecompile[]
  /**
   * Before the block's transactions, on its state; `misbehavior`: the evidence the block
   * commits; `lastCommit`: who signed the parent's certificate (none when not known, as for a
   * replay or a preview of the pending block).
   */
  beginBlock(
    state: StateManagerInterface,
    height: bigint,
    misbehavior: ReadonlyArray<{ validator: string; height: bigint }>,
    lastCommit?: ReadonlyArray<{ validator: string; signed: boolean }>,
  ): Promise<void>
  /**
   * After them: the validators whose power changed. `burnedFees`: the base fee the block's
   * transactions paid (base fee × gas used), which the EVM burned. `state`: the block's overlay
   * on its parent (what the block changed is read from it).
   */
  endBlock(state: JournaledState, height: bigint, burnedFees: bigint): Promise<ValidatorUpdate[]>
}
