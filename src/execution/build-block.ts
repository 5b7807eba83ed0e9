/**
 * testing_buildBlockV1 (geth's `testing_` namespace): a block built on the head from payload
 * attributes and given transactions (or the pool's), as geth's miner builds a payload, and never
 * committed. It runs on its own VM over a throwaway overlay of the head state, so neither the
 * chain nor the producer's builder sees it; its state root is computed without moving the trie.
 *
 * Assembly is @ethereumjs/vm's `buildBlock` (system calls, withdrawals, EIP-7685 requests), not
 * the producer's builder: this path is for tests, where its cost does not matter, and it keeps
 * block production free of the payload attributes only this method has.
 */
import type { Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { createTxFromRLP, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import type { WithdrawalData } from '@ethereumjs/util'
import { buildBlock } from '@ethereumjs/vm'
import type { EcrecoverOverrides } from './ecrecover-overrides.js'
import type { MessagePrecompile } from './engine/precompiles.js'
import { createEngineVM } from './engine/vm.js'
import type { Chain } from '../chain/chain.js'
import { blobTransaction } from '../chain/decode.js'
import { Refused, TxRejected } from '../domain-errors.js'
import { equalBytes } from '../hex.js'
import { JournaledState } from '../state/journaled-state.js'
import type { PoolReads } from '../txpool/pool.js'
import { chainBlockhashes } from './blockhashes.js'
import { readRefusal } from './geth-wording.js'

/** The engine API's `PayloadAttributesV3`. */
export interface PayloadAttributes {
  timestamp: bigint
  prevRandao: Uint8Array
  suggestedFeeRecipient: Uint8Array
  withdrawals?: WithdrawalData[] | undefined
  parentBeaconBlockRoot?: Uint8Array | undefined
}

/** What to build. */
export interface BuildRequest {
  parentHash: Uint8Array
  attributes: PayloadAttributes
  /** Raw signed transactions to include, in order; undefined = the pool's, as the miner picks them. */
  transactions: Uint8Array[] | undefined
  extraData: Uint8Array
  /** The gas limit the node aims at (geth's miner gas ceiling): the block moves toward it. */
  gasCeiling: bigint
}

/** A built payload: the block, what its fee recipient earns, and its EIP-7685 requests. */
export interface BuiltPayload {
  block: Block
  /** Priority fees the block pays its fee recipient (geth's `blockValue`). */
  value: bigint
  /** Each non-empty request as its type byte and data; undefined before Prague. */
  requests: Uint8Array[] | undefined
}

/** geth's `params.MinGasLimit`. */
const MIN_GAS_LIMIT = 5000n

/** geth's `core.CalcGasLimit`: from the parent's limit toward `desired`, by at most parent/1024 - 1. */
export function nextGasLimit(parent: bigint, desired: bigint): bigint {
  const delta = parent / 1024n - 1n
  const target = desired < MIN_GAS_LIMIT ? MIN_GAS_LIMIT : desired
  if (parent < target) return parent + delta > target ? target : parent + delta
  if (parent > target) return parent - delta < target ? target : parent - delta
  return parent
}

/** Decodes raw transactions as the engine API does (canonical encodings), with geth's error. */
function decodeTransactions(raws: Uint8Array[], common: Common): TypedTransaction[] {
  return raws.map((raw, i) => {
    try {
      return raw[0] === TransactionType.BlobEIP4844 ? blobTransaction(raw, common) : createTxFromRLP(raw, { common })
    } catch (error) {
      throw new TxRejected(`invalid transaction ${i}: ${(error as Error).message.split(' (')[0]}`)
    }
  })
}

/** geth's words for a transaction the block cannot take. */
function refusal(error: unknown, from: Uint8Array): TxRejected {
  const read = readRefusal(error, from, { nonce: true, initcode: true })
  const message = error instanceof Error ? error.message : String(error)
  if (read.kind === 'other' && message.includes('higher gas limit than the remaining gas in the block')) return new TxRejected('gas limit reached')
  return new TxRejected(read.message)
}

/** Builds the block; throws geth's error when a given transaction cannot be included. */
export async function buildTestingBlock(chain: Chain, pool: PoolReads, request: BuildRequest, ecrecover?: EcrecoverOverrides, precompiles?: readonly MessagePrecompile[]): Promise<BuiltPayload> {
  const parent = chain.head
  if (!equalBytes(parent.hash(), request.parentHash)) throw new Refused('parentHash is not current head')
  const { attributes } = request
  if (attributes.timestamp <= parent.header.timestamp) {
    throw new Refused(`invalid timestamp, parent ${parent.header.timestamp} given ${attributes.timestamp}`)
  }
  const common = chain.forks.at(parent.header.number + 1n, attributes.timestamp)
  if (attributes.withdrawals !== undefined && !common.isActivatedEIP(4895)) throw new Refused('withdrawals before shanghai')
  const view = chain.headView()
  const parentRoot = chain.stateRoot
  try {
    const state = new JournaledState(view, (diff) => chain.rootOf(parentRoot, diff, view))
    const vm = await createEngineVM({ common, stateManager: state, blockchain: chainBlockhashes(chain) }, ecrecover, precompiles)
    const builder = await buildBlock(vm, {
      parentBlock: parent,
      headerData: {
        coinbase: attributes.suggestedFeeRecipient,
        timestamp: attributes.timestamp,
        gasLimit: nextGasLimit(parent.header.gasLimit, request.gasCeiling),
        mixHash: attributes.prevRandao,
        extraData: request.extraData,
        parentBeaconBlockRoot: common.isActivatedEIP(4788) ? (attributes.parentBeaconBlockRoot ?? new Uint8Array(32)) : undefined,
      },
      withdrawals: common.isActivatedEIP(4895) ? (attributes.withdrawals ?? []) : undefined,
      blockOpts: { putBlockIntoBlockchain: false },
    })
    const given = request.transactions === undefined ? undefined : decodeTransactions(request.transactions, common)
    const candidates = given?.map((tx) => ({ tx, impersonated: false })) ?? poolTransactions(chain, pool, parent)
    for (const { tx, impersonated } of candidates) {
      const from = tx.getSenderAddress().bytes
      if (impersonated) state.exemptFromEoaCheck(from)
      try {
        await builder.addTransaction(tx, { skipHardForkValidation: true, allowNoBlobs: true })
      } catch (error) {
        // Given transactions must all fit; the pool's are taken while they do, as the miner does.
        if (given !== undefined) throw refusal(error, from)
      }
    }
    const { block, requests } = await builder.build()
    return {
      block,
      value: builder.minerValue,
      requests: requests?.filter((r) => r.bytes.length > 1).map((r) => r.bytes),
    }
  } catch (error) {
    if (error instanceof Refused) throw error
    throw new Refused((error as Error).message.split(' (')[0] ?? String(error))
  } finally {
    view.close()
  }
}

/** The pool's executable transactions, best tip first, each sender's in nonce order. */
function poolTransactions(chain: Chain, pool: PoolReads, parent: Block): Array<{ tx: TypedTransaction; impersonated: boolean }> {
  return pool.select(parent.header.calcNextBaseFee(), (sender) => chain.nonce(sender)).map(({ tx, impersonated }) => ({ tx, impersonated }))
}
