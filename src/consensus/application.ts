/**
 * The seam between consensus and the application, shaped like CometBFT's ABCI++: consensus
 * decides when a height runs, who proposes, and which proposal commits; the application builds,
 * checks, executes and stores blocks. Consensus sees a proposal as an opaque value named by its
 * hash and never touches the EVM; the application never decides. Several validators (in this
 * process or, later, behind a real CometBFT) talk to the same application through these calls.
 *
 * The seam speaks its own types: the transactions a proposal is built of (`Tx`) and how each
 * ended (`Outcome`) are type parameters, opaque here; the host that drives the seam (the block
 * producer, with its pool) and the application behind it name them.
 */
import type { Hex } from '../hex.js'
import type { CommitCertificate } from './votes.js'
import type { Misbehavior } from './evidence.js'

/** A proposal as consensus sees it: opaque, named by the hash validators vote on. */
export interface Proposal {
  readonly hash: Uint8Array
}

/**
 * PrepareProposal's request: the round's proposer hands the application the transactions the
 * pool offers (in the pool's order) and the header choices of the block; the application may
 * leave some out (they do not fit, or are invalid), as CometBFT lets it reorder and drop.
 */
export interface PrepareProposalRequest<Tx> {
  height: bigint
  round: number
  /** The proposer's fee recipient (`0x`-prefixed hex), unless `header.coinbase` names another. */
  feeRecipient: string
  /** The block's time in seconds (CometBFT's proposer time). */
  time: bigint
  /** The offered transactions, opaque to consensus (the host's pool entries). */
  txs: readonly Tx[]
  header: HeaderChoices
  /** Evidence the block commits (ABCI's misbehavior), handed to the application. */
  misbehavior?: readonly Misbehavior[] | undefined
  /**
   * ABCI's decided last commit: the validators of the parent's height and whether each signed
   * its certificate (given when the application asks for it, `wantsLastCommit`).
   */
  lastCommit?: readonly CommitVote[] | undefined
}

/** One validator of the last commit: its address and whether its precommit is in the certificate. */
export interface CommitVote {
  readonly validator: string
  readonly signed: boolean
}

/** The header choices the node's block-production settings make (test controls, miner_). */
export interface HeaderChoices {
  /** Overrides the proposer's fee recipient (hardhat_setCoinbase). */
  coinbase?: string | undefined
  gasLimit: bigint
  baseFeePerGas?: bigint | undefined
  prevRandao?: Uint8Array | undefined
  extraData?: Uint8Array | undefined
}

/** How the decided block's transactions ended (FinalizeBlock's `tx_results`, by transaction hash). */
export interface TxResult<Outcome> {
  /** The transaction's hash, unprefixed hex. */
  hash: string
  outcome: Outcome
}

/** A transaction the proposal left out: `retry` when a later block may take it. */
export interface LeftOut {
  hash: string
  error: Error
  retry: boolean
}

/** FinalizeBlock's response: the results of the decided block, executed but not yet stored. */
export interface Finalized<Block, Outcome> {
  block: Block
  /** Parallel to the block's transactions. */
  txResults: TxResult<Outcome>[]
  /** Transactions offered to PrepareProposal that the block does not carry. */
  leftOut: LeftOut[]
  /** The application's messages for the operator (Solidity console.log), delivered after Commit. */
  logs: string[]
  /** The state root the block's header commits to (CometBFT's `app_hash`). */
  appHash: Uint8Array
  /**
   * Validators whose voting power the block changed (ABCI's `validator_updates`; power 0 removes
   * one): consensus applies them at the block's height + 2.
   */
  validatorUpdates?: ReadonlyArray<{ address: Hex; power: bigint }> | undefined
}

/** The application behind consensus (ABCI++'s consensus connection). */
/**
 * `P`: the application's proposals; `Tx`: the transactions PrepareProposal is offered; `Outcome`:
 * how a transaction of a decided block ended; `Block` and `Receipt`: what FinalizeBlock and
 * `preview` answer.
 */
export interface Application<P extends Proposal, Tx, Outcome, Block, Receipt> {
  /** PrepareProposal needs the last commit (downtime is counted from it): consensus reads it only then. */
  readonly wantsLastCommit?: boolean
  /** PrepareProposal: the proposer's block of `req.txs` under `req.header`'s choices. */
  prepareProposal(req: PrepareProposalRequest<Tx>): Promise<P>
  /**
   * ProcessProposal: a validator's check of a proposal before it prevotes; false rejects it (the
   * validator prevotes nil). Deterministic: every correct validator answers the same.
   */
  processProposal(proposal: P, height: bigint): boolean | Promise<boolean>
  /** Frees a proposal that was not decided (its round moved on) or that was only a preview. */
  discardProposal(proposal: P): void
  /**
   * FinalizeBlock: the decided proposal and its commit certificate (undefined behind CometBFT,
   * which keeps its own commit and hands it over only a height later); answers the block's results.
   * Nothing is visible to readers until {@link commit}.
   */
  finalizeBlock(proposal: P, certificate: CommitCertificate | undefined): Promise<Finalized<Block, Outcome>>
  /** Commit: stores the finalized block; from now on readers see it. */
  commit(): Promise<void>
  /**
   * Tells the application's listeners (filters, subscriptions, the provider) of the block just
   * committed; consensus calls it once its own bookkeeping after Commit is done. Every listener
   * hears of the block even if one throws; the first error is thrown afterwards.
   */
  announce(): void
  /**
   * The block `req` would make, never decided nor stored (the `pending` tag): a read of the
   * application, as ABCI's Query is, outside consensus. Its state stays readable by its root
   * until `release`, and nothing of it is kept after.
   */
  preview(req: PrepareProposalRequest<Tx>): Promise<{ block: Block; receipts: Receipt[]; release(): void }>
  /**
   * What an execution on the block `req` would make reads of it, when `req` offers no
   * transactions: its header and its state, without what no execution reads (the state root,
   * the hash). Undefined where only {@link preview} can tell. A read, as {@link preview} is.
   */
  previewContext?(req: PrepareProposalRequest<Tx>): Block | undefined
}
