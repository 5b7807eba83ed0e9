/**
 * The block producer: decides when a height starts (automine, interval, manual), asks the pool
 * for transactions, has the round's proposer build the block and the BFT engine decide it, and
 * commits the decided block. Heights run one at a time; transactions that arrive meanwhile wait
 * for the next block, none is lost or included twice.
 */
import type { Block } from '@ethereumjs/block'
import type { Chain } from '../chain/chain.js'
import type { StoredReceipt } from '../chain/receipts.js'
import type { Clock } from '../clock.js'
import { emptyObjects } from '../arrays.js'
import { keyOf } from '../hex.js'
import type { PoolEntry, TxPool } from '../txpool/pool.js'
import type { TxOutcome } from '../txpool/inclusions.js'
import type { Application, CommitVote, HeaderChoices, PrepareProposalRequest, Proposal } from '../consensus/application.js'
import { BlockSettings, type SettingBase } from './block-settings.js'
import type { BftEngine } from '../consensus/bft.js'
import { commitVotes } from '../consensus/certificate.js'
import { NodeClosed, Refused, TxRejected } from '../domain-errors.js'

/** How blocks are produced. */
export type MiningMode =
  | { mode: 'auto' }
  | { mode: 'interval'; blockTime: number }
  | { mode: 'manual' }

/** Options of one `mine` call. */
export interface MineOptions {
  /** Timestamp of the block in seconds; must be after the parent's. */
  timestamp?: bigint
  /** Base fee of the block instead of the parent's next one (Hardhat's long hardhat_mine ranges). */
  baseFeePerGas?: bigint
}

const noop = (): void => {}

/**
 * The selection of a block built from an empty pool (hardhat_mine, evm_mine), in the hidden class
 * of a filled one (arrays.ts). One list made once, not a call per block: `produce` is optimised
 * on automine's sends first, and a call its optimised code had never seen (the first mined empty
 * block's) threw that code away ("Insufficient type feedback for call"); Rocket Pool's sends
 * then ran it unoptimised for ~48,000 requests. Never written: readers take it as read-only.
 */
const NOTHING_SELECTED: readonly PoolEntry[] = emptyObjects()

/**
 * What a producer's `mining` field holds before its constructor writes the node's mode: the field
 * is then written twice from the first producer on, and V8 keeps it as a field that changes. Written
 * once, the code compiled before a suite's first evm_setAutomine took the mode as a constant, and
 * that first change threw away the compiled `onPending`, the send's admission and the automine
 * check (each compiled again by TurboFan under Node 20).
 */
const MODE_BEFORE_CONSTRUCTION: MiningMode = { mode: 'manual' }

/** Whether two header choices are the same settings (byte fields by identity: a setter makes new ones). */
function sameChoices(a: HeaderChoices, b: HeaderChoices): boolean {
  return a.coinbase === b.coinbase && a.gasLimit === b.gasLimit && a.baseFeePerGas === b.baseFeePerGas && a.prevRandao === b.prevRandao && a.extraData === b.extraData
}


/** What a producer tells and starts from, given at construction. */
export interface ProducerHooks {
  /** Receives the console.log messages of committed blocks' transactions, once each. */
  onConsoleLog?: ((message: string) => void) | undefined
  /** Told when the chain halts (no quorum for a height) and when it commits again after one (the node's log). */
  onHalt?: ((halted: boolean, height: bigint, reason?: string) => void) | undefined
  /** The defaults of the block settings the node's options give (fee recipient, clock start). */
  settingBase?: SettingBase | undefined
}

export class Producer {
  private queue: Promise<unknown> = Promise.resolve()
  /** Tasks queued or running that a caller waits on (see {@link serial}). */
  private waiters = 0
  private readonly unwait = (): void => {
    this.waiters--
  }
  private cancelTimer: (() => void) | undefined
  /** Set when close() begins: no new work is taken, the work queued before finishes. */
  private closing = false
  private closed = false
  /** True while no round could gather a quorum (validators offline). */
  private stalled = false
  /** Why the chain is halted, while it is. */
  private haltedBecause: string | undefined
  /** A halt was told to the `onHalt` hook and no block committed since. */
  private haltTold = false
  /** The settings of the next blocks (time, header overrides, gas limit); the producer only reads them. */
  readonly settings: BlockSettings
  /** The mode miner_stop left, which miner_start resumes; undefined while not stopped. */
  private stoppedFrom: MiningMode | undefined

  /** The mode the node was created with (Hardhat mode's reset goes back to it). */
  readonly configuredMode: MiningMode

  /** How blocks are produced now; see {@link MODE_BEFORE_CONSTRUCTION}. */
  private mining: MiningMode = MODE_BEFORE_CONSTRUCTION

  constructor(
    private readonly chain: Chain,
    private readonly pool: TxPool,
    private readonly app: Application<Proposal, PoolEntry, TxOutcome, Block, StoredReceipt>,
    private readonly bft: BftEngine,
    private readonly clock: Clock,
    mining: MiningMode,
    private readonly gasLimit: () => bigint,
    private readonly hooks: ProducerHooks = {},
  ) {
    this.configuredMode = mining
    this.mining = mining
    this.settings = new BlockSettings(hooks.settingBase)
    this.schedule()
    pool.on('pending', this.onPending)
  }

  get mode(): MiningMode {
    return this.mining
  }

  /** The gas limit of the next block this producer builds. */
  get blockGasLimit(): bigint {
    return this.settings.current.gasLimit ?? this.gasLimit()
  }

  /** True while no round could gather a quorum (validators offline). */
  get halted(): boolean {
    return this.stalled
  }

  /** Why the chain is halted (which validators are offline, the power missing), while it is. */
  get haltReason(): string | undefined {
    return this.stalled ? this.haltedBecause : undefined
  }

  setMode(mode: MiningMode): void {
    this.stoppedFrom = undefined
    this.mining = mode
    this.schedule()
    if (mode.mode === 'auto') void this.drain()
  }

  /**
   * miner_stop: no more blocks on their own (manual mode); transactions wait in the pool, and
   * explicit mining (`node.mine()`, evm_mine) still works. Stopping twice keeps the first mode.
   */
  stop(): void {
    if (this.stoppedFrom !== undefined) return
    const was = this.mining
    this.setMode({ mode: 'manual' })
    this.stoppedFrom = was
  }

  /**
   * miner_start: back to the mode miner_stop left; resolves once the blocks that mode makes at
   * once (automine's, for the waiting transactions) are committed. Nothing to do when not stopped.
   */
  async start(): Promise<void> {
    const mode = this.stoppedFrom
    if (mode === undefined) return
    this.setMode(mode)
    await this.serial(async () => {})
  }

  /**
   * A transaction became pending. In automine its inclusion event comes when it is in a committed
   * block, with how its execution ended (or an error when execution refused it); otherwise, and
   * when the chain halted, it is settled at once with no outcome.
   */
  private readonly onPending = (entry: PoolEntry): void => {
    // A send that was in flight when the node closed settles instead of waiting for ever.
    if (this.closing) this.settleWaiter(entry.hash, new NodeClosed())
    else if (this.mining.mode !== 'auto') this.settleWaiter(entry.hash)
    else {
      // On a halted chain the sender gets the hash at once (automine takes one transaction per
      // height, so a later one would otherwise wait for the heal); the height is tried again.
      if (this.stalled) this.settleWaiter(entry.hash)
      void this.drain()
    }
  }

  /** Produces one block now, whatever the mode; resolves to it (undefined if the chain is halted). */
  mine(options: MineOptions = {}): Promise<Block | undefined> {
    if (this.closing) return Promise.reject(new NodeClosed())
    return this.serial(() => this.produce(options.timestamp, options.baseFeePerGas, Infinity))
  }

  /**
   * Produces up to `count` blocks in one turn of the queue (hardhat_mine, evm_mine with
   * `blocks`): `options` gives each block's options from the block before it (none for the
   * first). Answers how many were made (fewer than `count` when the chain halted on the way) and,
   * with `keep`, the blocks themselves (a million blocks held at once would take gigabytes).
   */
  mineSeries(count: bigint, options: (previous: Block | undefined) => MineOptions, keep = false): Promise<{ mined: bigint; blocks: Block[] }> {
    return this.serial(async () => {
      const blocks: Block[] = []
      let previous: Block | undefined
      let mined = 0n
      for (; mined < count; mined++) {
        const next = options(previous)
        const block = await this.produce(next.timestamp, next.baseFeePerGas, Infinity)
        if (block === undefined) break
        if (keep) blocks.push(block)
        previous = block
      }
      return { mined, blocks }
    })
  }

  /**
   * Automine: one block per executable transaction until none is left. Its heights are waited on
   * (by their senders, or by close(), which lets queued heights finish).
   */
  private drain(): Promise<unknown> {
    return this.serial(async () => {
      // An empty pool ends the turn here, without a call to produce for nothing.
      while (!this.closed && this.mining.mode === 'auto' && this.pool.size > 0) {
        const block = await this.produce(undefined, undefined, 1)
        if (block === undefined || block.transactions.length === 0) break
      }
    })
  }

  /** Runs `task` between heights, never during one (state writes by test controls). */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(new NodeClosed())
    return this.serial(task)
  }

  /**
   * Runs `task` after the queued ones. `waited`: a caller waits on it (every task but interval
   * mining's tick), so the rounds of the heights ahead of it keep the process alive until it runs.
   */
  private serial<T>(task: () => Promise<T>, waited = true): Promise<T> {
    if (waited) {
      this.waiters++
      this.bft.waitedOn()
    }
    const run = this.queue.then(task, task)
    // Settled with nothing: the queue must not keep the last task's result (a series of blocks).
    const settled = waited ? this.unwait : noop
    this.queue = run.then(settled, settled)
    return run
  }

  /**
   * `timestamp` and `baseFeePerGas` as in {@link MineOptions}, as values: the callers' options
   * objects come in several hidden classes (`{}`, a timestamp, a base fee, both), and each new one
   * at this function's reads threw its optimised code away. `waited`: a caller waits on this
   * block (a send, a mine), not interval mining's own tick.
   */
  private async produce(explicitTime: bigint | undefined, explicitBaseFee: bigint | undefined, maxTxs: number, waited = true): Promise<Block | undefined> {
    // Automine asks once more after each block; an empty pool has nothing to select.
    if (maxTxs !== Infinity && this.pool.size === 0) return undefined
    const parent = this.chain.head
    const nonceOf = (sender: string) => this.chain.nonce(sender)
    // hardhat_mine's empty blocks: nothing to select, no base fee to work out for the selection.
    const baseFee = explicitBaseFee ?? (this.pool.size === 0 ? undefined : parent.header.calcNextBaseFee())
    const entries: readonly PoolEntry[] = baseFee === undefined ? NOTHING_SELECTED : this.pool.select(baseFee, nonceOf, maxTxs)
    if (maxTxs !== Infinity && entries.length === 0) return undefined
    const { timestamp, offset } = this.nextTime(parent, explicitTime)
    const height = parent.header.number + 1n
    const header = this.headerChoices()
    if (explicitBaseFee !== undefined) header.baseFeePerGas = explicitBaseFee
    // The parent's next base fee, worked out once: the builder would compute the same again.
    if (header.baseFeePerGas === undefined && baseFee !== undefined) header.baseFeePerGas = baseFee
    // Faults that leave no quorum are known before any round: the halt is answered at once
    // instead of after round 0's time-outs.
    const halt = this.bft.haltReason(height)
    if (halt !== undefined) return this.halt(entries, halt, height)
    // Evidence found at earlier heights and not yet committed: this block commits it.
    const misbehavior = this.bft.evidence.pending()
    const lastCommit = this.app.wantsLastCommit === true ? await this.lastCommit(parent) : undefined
    // The rounds' proposals; consensus holds them as opaque values and never looks inside.
    const proposals: Proposal[] = []
    let decision: Awaited<ReturnType<BftEngine['decide']>>
    try {
      decision = await this.bft.decide(
        height,
        async (proposer, round, variant) => {
          // An equivocating proposer's second block differs by its time.
          const time = variant === 0 ? timestamp : timestamp + BigInt(variant)
          const proposal = await this.app.prepareProposal({ height, round, feeRecipient: proposer.feeRecipient, time, txs: entries, header, misbehavior, lastCommit })
          proposals.push(proposal)
          return proposal
        },
        (candidate) => this.app.processProposal(candidate, height),
        undefined,
        waited,
      )
    } catch (error) {
      // A block that cannot be built must not leave senders waiting: their transactions are
      // dropped with the reason, and the chain stays where it was.
      for (const p of proposals) this.app.discardProposal(p)
      const reason = new Refused(`block production failed: ${error instanceof Error ? error.message : String(error)}`)
      for (const e of entries) {
        this.pool.remove(e.hash)
        this.settleWaiter(e.hash, reason)
      }
      throw reason
    }
    for (const p of proposals) if (p !== decision?.candidate) this.app.discardProposal(p)
    if (decision === undefined) return this.halt(entries, `no round of height ${height} gathered precommits of more than 2/3 of the voting power`, height)
    this.stalled = false
    this.haltedBecause = undefined
    if (this.haltTold) {
      this.haltTold = false
      this.hooks.onHalt?.(false, height)
    }
    // Hardhat's rule: a mined block uses up the set next timestamp, and the clock offset moves so
    // that the clock reads the block's time (later blocks and evm_increaseTime continue from it).
    this.settings.blockMined(offset)
    const { block, txResults, leftOut, logs, validatorUpdates } = await this.app.finalizeBlock(decision.candidate, decision.certificate)
    await this.app.commit()
    // CometBFT's rule: the updates FinalizeBlock of H returns make the set of H + 2.
    if (validatorUpdates !== undefined && validatorUpdates.length > 0) this.bft.applyValidatorUpdates(height, validatorUpdates)
    if (misbehavior.length > 0) this.bft.evidence.commit(height, misbehavior)
    // Before the senders hear of their transactions, so their logs are out when the send returns.
    const sink = this.hooks.onConsoleLog
    if (sink !== undefined) {
      for (const message of logs) {
        try {
          sink(message)
        } catch {
          // A throwing callback must not stop the block it observes from settling.
        }
      }
    }
    for (const { hash, outcome } of txResults) {
      this.pool.remove(hash)
      this.settleWaiter(hash, undefined, outcome)
    }
    for (const r of leftOut) {
      if (r.retry) continue
      this.pool.remove(r.hash)
      this.settleWaiter(r.hash, new TxRejected(r.error.message.split(' (')[0] ?? r.error.message))
    }
    for (const e of entries) this.pool.settle(e.sender, nonceOf(e.sender))
    // Last: the pool and the senders are settled whatever a listener does. A listener that
    // throws (a provider's 'message' handler) must not fail the block it observes either.
    try {
      this.app.announce()
    } catch {
      // Every other listener has heard of the block (Chain.announce).
    }
    return block
  }

  /**
   * The height could not be decided: the transactions stay pending and their senders get the hash
   * now instead of waiting on a halted chain (all of them: automine selected one, later ones wait
   * behind it). They are mined when the faults are healed.
   */
  /**
   * ABCI's decided last commit of the block after `parent`: the validators of the parent's
   * height and whether each precommit is in its certificate (none for genesis, which has none).
   */
  private async lastCommit(parent: Block): Promise<CommitVote[]> {
    return commitVotes(await this.chain.certificate(parent.hash()), this.bft.setAt(parent.header.number).validators)
  }

  private halt(entries: readonly PoolEntry[], reason: string, height: bigint): undefined {
    this.stalled = true
    this.haltedBecause = reason
    if (!this.haltTold && this.hooks.onHalt !== undefined) {
      this.haltTold = true
      this.hooks.onHalt(true, height, reason)
    }
    for (const e of entries) this.settleWaiter(e.hash)
    if (this.mining.mode === 'auto') for (const e of this.pool.all()) this.settleWaiter(e.hash)
    return undefined
  }

  private pendingCache: { key: string; block: Block; receipts: StoredReceipt[]; release: () => void } | undefined

  /**
   * The next block, as the pool would make it now: built but never committed, what the
   * `pending` tag reads (its state is in the trie under its state root). With nothing pending it
   * is empty, as geth's and Hardhat's: the head's number + 1, the next timestamp (the one set by
   * evm_setNextBlockTimestamp, or the clock with its offset), base fee, coinbase and prevrandao.
   */
  pending(): Promise<{ block: Block; receipts: StoredReceipt[] }> {
    return this.serial(() => this.pendingNow())
  }

  /** {@link pending}, in a turn of the queue already. */
  private async pendingNow(): Promise<{ block: Block; receipts: StoredReceipt[] }> {
    const parent = this.chain.head
    const baseFee = this.settings.current.nextBaseFee ?? parent.header.calcNextBaseFee()
    const entries = this.pool.select(baseFee, (sender) => this.chain.nonce(sender))
    const height = parent.header.number + 1n
    const proposer = this.bft.proposer(height, 0)
    const req: PrepareProposalRequest<PoolEntry> = {
      height,
      round: 0,
      feeRecipient: proposer.feeRecipient,
      time: this.nextTime(parent).timestamp,
      txs: entries,
      header: this.headerChoices(),
    }
    // Every header setting is part of the key: the setters and the clock apply at once.
    const h = req.header
    const header = [
      h.coinbase ?? req.feeRecipient,
      req.time,
      h.gasLimit,
      h.baseFeePerGas,
      h.prevRandao === undefined ? '' : keyOf(h.prevRandao),
      h.extraData === undefined ? '' : keyOf(h.extraData),
    ].join('/')
    const key = `${keyOf(parent.hash())}/${keyOf(this.chain.stateRoot)}/${header}/${entries.map((e) => e.hash).join(',')}`
    if (this.pendingCache?.key === key) return this.pendingCache
    const { block, receipts, release } = await this.app.preview(req)
    // Its state is readable while it is the pending block, and forgotten with it.
    this.pendingCache?.release()
    this.pendingCache = { key, block, receipts, release }
    return this.pendingCache
  }

  /** The last {@link pendingContext} made over an empty pool, and what it was made from. */
  private contextCache: { parent: Block; version: number; time: bigint; feeRecipient: string; header: HeaderChoices; block: Block } | undefined

  /**
   * The `pending` block as calls and estimates run on it: with nothing in the pool (automine's
   * usual case) the next block's header over the head state and the system writes an empty
   * block makes, without the state root, receipts and encoding {@link pending} works out, which
   * no execution reads; otherwise the pending block itself. Made again when the head, its state,
   * the clock's next timestamp or a header setting changed, as {@link pending} is.
   */
  pendingContext(): Promise<Block> {
    if (this.pool.size > 0 || this.app.previewContext === undefined) return this.pending().then((p) => p.block)
    return this.serial(async () => {
      // The pool may have filled while earlier tasks ran.
      if (this.pool.size > 0) return (await this.pendingNow()).block
      const parent = this.chain.head
      const height = parent.header.number + 1n
      const time = this.nextTime(parent).timestamp
      const feeRecipient = this.bft.proposer(height, 0).feeRecipient
      const header = this.headerChoices()
      const version = this.chain.stateVersion
      const c = this.contextCache
      if (c !== undefined && c.parent === parent && c.version === version && c.time === time && c.feeRecipient === feeRecipient && sameChoices(c.header, header)) return c.block
      const block = this.app.previewContext?.({ height, round: 0, feeRecipient, time, txs: emptyObjects(), header })
      if (block === undefined) return (await this.pendingNow()).block
      this.contextCache = { parent, version, time, feeRecipient, header, block }
      return block
    })
  }

  /** The header choices of the next block, from the block-production settings. */
  private headerChoices(): HeaderChoices {
    const s = this.settings.current
    return {
      coinbase: s.coinbase,
      gasLimit: s.gasLimit ?? this.gasLimit(),
      baseFeePerGas: s.nextBaseFee,
      prevRandao: s.prevRandao,
      extraData: s.extraData,
    }
  }

  /** The receipts of the cached pending block, if `block` is it. */
  pendingReceipts(block: Block): StoredReceipt[] | undefined {
    return this.pendingCache?.block === block ? this.pendingCache.receipts : undefined
  }

  /**
   * The chain went back (evm_revert, hardhat_reset): the validator-set changes requested after the
   * snapshot (beyond the first `setChanges`) and the evidence of the heights dropped are forgotten.
   */
  rewound(setChanges: number): void {
    this.bft.rewound(this.chain.height, setChanges)
  }

  /** How many validator-set changes were requested so far (a snapshot keeps it for {@link rewound}). */
  setChanges(): number {
    return this.bft.history.epochs.length - 1
  }

  /**
   * The validators' faults, the partition or the set changed: a height under way follows at once,
   * and a halted chain mines what is pending again (automine).
   */
  consensusChanged(): void {
    this.bft.refresh()
    const was = this.stalled
    // Whether the chain is still halted is known only by trying: the next height tells.
    this.stalled = false
    if (was && this.mining.mode === 'auto') void this.drain()
  }

  /** The fee recipient of the next block: the set one, else the proposer's of round 0. */
  nextCoinbase(): string {
    return this.settings.current.coinbase ?? this.bft.proposer(this.chain.height + 1n, 0).feeRecipient
  }

  private settleWaiter(key: string, error?: Error, outcome?: TxOutcome): void {
    this.pool.inclusions.settle(key, error, outcome)
  }

  /** The clock with the offset, in seconds: the next block's time unless a timestamp is set or the parent is later. */
  now(): bigint {
    return BigInt(Math.floor(this.clock.now() / 1000)) + this.settings.current.timeOffset
  }

  /**
   * The next block's timestamp, and the clock offset once it is mined. An explicit or set
   * timestamp is used as it is and moves the offset to it, as Hardhat does; so does the bump to
   * the parent's time + 1 when the clock has not passed it (Hardhat moves its offset by the bump
   * too). A block timestamp interval (Anvil's) leaves the offset where it is, as Anvil does.
   */
  private nextTime(parent: Block, explicit?: bigint): { timestamp: bigint; offset: bigint } {
    const min = parent.header.timestamp + 1n
    const clock = BigInt(Math.floor(this.clock.now() / 1000))
    const { timeOffset, nextBlockTimestamp, timestampInterval } = this.settings.current
    const set = explicit ?? nextBlockTimestamp
    const requested = set ?? (timestampInterval === undefined ? undefined : parent.header.timestamp + timestampInterval)
    if (requested !== undefined && requested < min) {
      throw new Refused(`timestamp ${requested} is not after the parent block's ${parent.header.timestamp}`)
    }
    const now = clock + timeOffset
    // One literal for every case: a literal first reached after this function's optimised compile threw that code away.
    const timestamp = requested ?? (now >= min ? now : min)
    const offset = requested === undefined ? timeOffset + (min > now ? min - now : 0n) : set === undefined ? timeOffset : requested - clock
    return { timestamp, offset }
  }

  private schedule(): void {
    this.cancelTimer?.()
    this.cancelTimer = undefined
    if (this.closing || this.mining.mode !== 'interval') return
    const { blockTime } = this.mining
    const tick = () => {
      if (this.closing || this.mining.mode !== 'interval') return
      // Nobody waits on an interval block: neither this timer nor its rounds keep the process alive.
      this.cancelTimer = this.clock.setTimer(() => {
        if (this.closing) return
        // Unless a request is queued behind it by the time it runs: then its rounds keep the process alive.
        void this.serial(() => this.produce(undefined, undefined, Infinity, this.waiters > 0), false).finally(tick)
      }, blockTime)
    }
    tick()
  }

  /**
   * Stops timers and takes no new work; the heights already queued (automine's blocks for the
   * transactions already sent) finish, so their senders get receipts. Senders still waiting
   * after that get NodeClosed.
   */
  async close(): Promise<void> {
    this.closing = true
    this.cancelTimer?.()
    this.cancelTimer = undefined
    await this.queue
    this.closed = true
    // The pending listener stays: a send that reaches the pool after this settles with the error.
    this.pool.inclusions.rejectAll(new NodeClosed())
  }
}
