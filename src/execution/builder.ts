/**
 * Builds one candidate block on the head: runs the chosen transactions on a journaled overlay of
 * the head state, and computes the state root from the block's diff at the end (once per block).
 */
import { type Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { TypedTransaction } from '@ethereumjs/tx'
import { type VM, buildBlock, createVM, type RunTxResult } from '@ethereumjs/vm'
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import type { Chain } from '../chain/chain.js'
import type { StoredReceipt } from '../chain/receipts.js'
import { JournaledState } from '../state/journaled-state.js'
import type { StateDiff } from '../state/types.js'
import { chainBlockhashes } from './blockhashes.js'

/** A transaction the builder could not include, and why. */
export interface Rejected {
  tx: TypedTransaction
  error: Error
  /** True when it may fit a later block (block gas exhausted), false when it is invalid. */
  retry: boolean
}

/** A built, not yet committed block. */
export interface BuiltBlock {
  hash: Uint8Array
  block: Block
  receipts: StoredReceipt[]
  diff: StateDiff
  rejected: Rejected[]
  close(): void
}

/** The header choices of one block. */
export interface BlockParams {
  coinbase: string
  timestamp: bigint
  gasLimit: bigint
  baseFeePerGas?: bigint
  prevRandao?: Uint8Array
}

export class BlockBuilder {
  private constructor(
    private readonly chain: Chain,
    private readonly vm: VM,
  ) {}

  static async create(chain: Chain, common: Common): Promise<BlockBuilder> {
    const vm = await createVM({
      common,
      stateManager: new JournaledState(chain.flat),
      blockchain: chainBlockhashes(chain),
    })
    return new BlockBuilder(chain, vm)
  }

  async build(txs: Array<{ tx: TypedTransaction; sender: Uint8Array }>, params: BlockParams): Promise<BuiltBlock> {
    const parent = this.chain.head
    const view = this.chain.headView()
    const state = new JournaledState(view, (diff) => this.chain.trie.commit(parent.header.stateRoot, diff, view))
    ;(this.vm as unknown as { stateManager: JournaledState }).stateManager = state
    this.vm.evm.stateManager = state
    ;(this.vm.evm.journal as unknown as { stateManager: JournaledState }).stateManager = state
    try {
      const builder = await buildBlock(this.vm, {
        parentBlock: parent,
        headerData: {
          coinbase: params.coinbase as `0x${string}`,
          timestamp: params.timestamp,
          gasLimit: params.gasLimit,
          baseFeePerGas: params.baseFeePerGas,
          mixHash: params.prevRandao ?? keccak_256(parent.hash()),
          parentBeaconBlockRoot: this.vm.common.isActivatedEIP(4788) ? new Uint8Array(32) : undefined,
        },
        withdrawals: this.vm.common.isActivatedEIP(4895) ? [] : undefined,
        blockOpts: { putBlockIntoBlockchain: false, setHardfork: false, common: this.vm.common },
      })
      const included: Array<{ result: RunTxResult; sender: Uint8Array }> = []
      const rejected: Rejected[] = []
      for (const { tx, sender } of txs) {
        try {
          const result = await builder.addTransaction(tx, { skipHardForkValidation: true })
          included.push({ result, sender })
        } catch (error) {
          const e = error instanceof Error ? error : new Error(String(error))
          rejected.push({ tx, error: e, retry: e.message.includes('remaining gas in the block') })
        }
      }
      const { block } = await builder.build()
      const receipts = included.map(({ result, sender }): StoredReceipt => {
        const r = result.receipt as typeof result.receipt & { status?: 0 | 1 }
        const stored: StoredReceipt = {
          status: r.status ?? 1,
          cumulativeGasUsed: r.cumulativeBlockGasUsed,
          gasUsed: result.totalGasSpent,
          logs: r.logs as StoredReceipt['logs'],
          bloom: r.bitvector,
          from: sender,
        }
        if (result.createdAddress !== undefined) stored.contractAddress = result.createdAddress.bytes
        if (result.blobGasUsed !== undefined && result.blobGasUsed > 0n) stored.blobGasUsed = result.blobGasUsed
        return stored
      })
      return { hash: block.hash(), block, receipts, diff: state.diff(), rejected, close: () => view.close() }
    } catch (error) {
      view.close()
      throw error
    }
  }
}

