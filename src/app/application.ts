/**
 * The EVM application behind consensus (the ABCI++-shaped {@link Application}): it builds a
 * proposal with the block builder, checks proposals against the chain's head, and on a decision
 * hands the executed block to the chain. It never decides: consensus tells it which proposal
 * committed.
 *
 * Execution is same-block (the header's state root is the state after the block's own
 * transactions, as Ethereum requires), so PrepareProposal executes, and FinalizeBlock of the
 * decided proposal answers the results PrepareProposal computed instead of executing again.
 */
import type { Block } from '@ethereumjs/block'
import type { Chain } from '../chain/chain.js'
import type { StoredReceipt } from '../chain/receipts.js'
import type { Application, Finalized, PrepareProposalRequest, Proposal } from '../consensus/application.js'
import type { CommitCertificate } from '../consensus/votes.js'
import type { BlockBuilder, BlockParams, BuiltBlock } from '../execution/builder.js'
import { mapped } from '../arrays.js'
import { equalBytes, fromHex, keyOf } from '../hex.js'
import type { TxOutcome } from '../txpool/inclusions.js'
import type { PoolEntry } from '../txpool/pool.js'

/** A proposal of this application: a built candidate block on a known parent. */
export interface EvmProposal extends Proposal {
  readonly height: bigint
  readonly parentHash: Uint8Array
  /** @internal the candidate; consensus never reads it. */
  readonly built: BuiltBlock
}

function params(req: PrepareProposalRequest<PoolEntry>): BlockParams {
  const h = req.header
  return {
    coinbase: h.coinbase ?? req.feeRecipient,
    timestamp: req.time,
    gasLimit: h.gasLimit,
    baseFeePerGas: h.baseFeePerGas,
    prevRandao: h.prevRandao,
    extraData: h.extraData,
    misbehavior: req.misbehavior,
    lastCommit: req.lastCommit,
  }
}

/** The EVM chain as an ABCI-shaped application. */
export class EvmApplication implements Application<EvmProposal, PoolEntry, TxOutcome, Block, StoredReceipt> {
  /** The finalized, not yet committed block (between FinalizeBlock and Commit). */
  private finalized: { proposal: EvmProposal; certificate: CommitCertificate | undefined } | undefined
  /** The block committed last and not yet announced. */
  private committed: { block: Block; receipts: StoredReceipt[]; outcomes: TxOutcome[]; consoleLogs: string[][] } | undefined
  constructor(
    private readonly chain: Chain,
    private readonly builder: BlockBuilder,
    /** Told of each committed block before the chain announces it (the node's log, when one is on). */
    private readonly onCommitted?: (committed: { block: Block; receipts: readonly StoredReceipt[]; outcomes: readonly TxOutcome[]; consoleLogs: readonly string[][] }) => void,
  ) {}

  /** Only block hooks (the `cosmos` option) count signatures. */
  get wantsLastCommit(): boolean {
    return this.builder.hasBlockHooks
  }

  async prepareProposal(req: PrepareProposalRequest<PoolEntry>): Promise<EvmProposal> {
    const parent = this.chain.head
    // Lists in one hidden class whether empty or not and whichever tier made them (arrays.ts).
    const txs = mapped(req.txs, (e) => ({ tx: e.tx, sender: fromHex(e.sender), impersonated: e.impersonated }))
    const built = await this.builder.build(txs, params(req))
    return { hash: built.hash, height: parent.header.number + 1n, parentHash: parent.hash(), built }
  }

  /** A proposal is valid when it extends the chain's head at the height being decided. */
  processProposal(proposal: EvmProposal, height: bigint): boolean {
    const head = this.chain.head
    return proposal.height === height && height === head.header.number + 1n && equalBytes(proposal.parentHash, head.hash())
  }

  discardProposal(proposal: EvmProposal): void {
    proposal.built.close()
  }

  async finalizeBlock(proposal: EvmProposal, certificate: CommitCertificate | undefined): Promise<Finalized<Block, TxOutcome>> {
    if (this.finalized !== undefined) throw new Error(`block ${this.finalized.proposal.height} is finalized and not yet committed`)
    const { block, outcomes, consoleLogs, rejected } = proposal.built
    // The build's pinned view is no longer needed: closing it first lets the commit skip keeping
    // undo values for it.
    proposal.built.close()
    this.finalized = { proposal, certificate }
    return {
      block,
      // An empty block's lists in the hidden class of a full one's (arrays.ts): the producer reads both.
      txResults: mapped(block.transactions, (tx, i) => ({ hash: keyOf(tx.hash()), outcome: outcomes[i] as TxOutcome })),
      leftOut: mapped(rejected, (r) => ({ hash: keyOf(r.tx.hash()), error: r.error, retry: r.retry })),
      logs: consoleLogs,
      appHash: block.header.stateRoot,
      validatorUpdates: proposal.built.validatorUpdates,
    }
  }

  async commit(): Promise<void> {
    const finalized = this.finalized
    if (finalized === undefined) throw new Error('no finalized block to commit')
    this.finalized = undefined
    const { built } = finalized.proposal
    await this.chain.commit(built.block, built.receipts, built.diff, finalized.certificate, built.state)
    this.committed = { block: built.block, receipts: built.receipts, outcomes: built.outcomes, consoleLogs: built.txConsoleLogs }
  }

  announce(): void {
    const committed = this.committed
    if (committed === undefined) return
    this.committed = undefined
    this.onCommitted?.(committed)
    this.chain.announce(committed.block, committed.receipts)
  }

  previewContext(req: PrepareProposalRequest<PoolEntry>): Block | undefined {
    if (req.txs.length > 0) return undefined
    const made = this.builder.emptyContext(params(req))
    return made !== undefined && this.chain.readOverHead(made.block, made.diff) ? made.block : undefined
  }

  async preview(req: PrepareProposalRequest<PoolEntry>): Promise<{ block: Block; receipts: StoredReceipt[]; release(): void }> {
    const proposal = await this.prepareProposal(req)
    this.discardProposal(proposal)
    const { block, receipts, state, diff, baseVersion } = proposal.built
    return { block, receipts, release: this.chain.holdState(state, { diff, version: baseVersion }) }
  }
}
