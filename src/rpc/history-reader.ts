/**
 * The chain's history as the JSON-RPC methods read it (`Services.history`): the interface, which
 * the local reader (history.ts) and a fork's (history-forked.ts) implement. Generic in what its
 * members are handed (the node's services), so that services.ts can name it.
 */
import type { Block } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { StoredReceipt } from '../chain/receipts.js'
import type { LogFilter } from '../filters/log-filter.js'
import type { BlockSelector, BlockTag } from './codecs.js'

/** A block with its transactions and receipts, as replays (debug_trace*, trace_*) and raw forms take it. */
export interface WholeBlock {
  readonly block: Block
  readonly receipts: StoredReceipt[]
  /**
   * Runs a replay of the block. A remote's block that replays otherwise than its receipts say is
   * told as the remote's (it runs other rules than this node's hardfork).
   */
  replay<T>(run: () => Promise<T>): Promise<T>
  /** Why the block's intermediate state roots cannot be computed here, when they cannot. */
  readonly noIntermediateRoots?: string
  /** Why the block's raw form cannot be made here, when it cannot. */
  readonly noRawForm?: string
}


/** The chain's history; each member answers what its JSON-RPC method answers (null: none). */
export interface History<S> {
  blockByTag(s: S, tag: BlockTag, txs: boolean): Promise<unknown>
  blockByHash(s: S, hash: Uint8Array, txs: boolean): Promise<unknown>
  headerByTag(s: S, tag: BlockTag): Promise<unknown>
  headerByHash(s: S, hash: Uint8Array): Promise<unknown>
  transactionCountByTag(s: S, tag: BlockTag): Promise<unknown>
  transactionCountByHash(s: S, hash: Uint8Array): Promise<unknown>
  transactionByTagAndIndex(s: S, tag: BlockTag, index: bigint): Promise<unknown>
  transactionByHashAndIndex(s: S, hash: Uint8Array, index: bigint): Promise<unknown>
  blockReceipts(s: S, at: BlockSelector): Promise<unknown>
  /** A transaction by hash: mined, or pending in the pool. */
  transaction(s: S, hash: Uint8Array): Promise<unknown>
  receipt(s: S, hash: Uint8Array): Promise<unknown>
  /** eth_getLogs, within the node's range and result limits. */
  logs(s: S, filter: LogFilter): Promise<Record<string, unknown>[]>
  /** A block whole, by tag or number or by hash; undefined when there is none. */
  wholeBlock(s: S, at: BlockSelector | Uint8Array): Promise<WholeBlock | undefined>
  /**
   * The copy kept here of a block given whole (debug_traceBlock), by its header's number and
   * hash, to be used instead of decoding the given bytes: a fork's remote block, which may not
   * decode under this chain's rules. The chain's own blocks are found after decoding: none here.
   */
  givenBlockCopy(s: S, header: { number: bigint; hash: Uint8Array }): Promise<WholeBlock | undefined>
  /** eth_getProof's answer for `address` and `keys` at `block`. */
  proof(s: S, block: Block, address: Uint8Array, keys: Array<{ given: string; key: Uint8Array }>): Promise<unknown>
  /**
   * eth_feeHistory's rewards: for one request over blocks `first` … `last`, the tips paid at
   * each percentile of a block (hex quantities).
   */
  feeRewards(s: S, first: bigint, last: bigint, percentiles: number[]): (block: Block) => Promise<string[]>
  /** A mined transaction with its block whole; undefined when none is mined with that hash. */
  minedTransaction(s: S, hash: Uint8Array): Promise<{ whole: WholeBlock; index: number; tx: TypedTransaction } | undefined>
}
