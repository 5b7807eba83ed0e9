/**
 * The chain: blocks, receipts, the transaction index and the state of every committed block.
 * Blocks enter only through `commit`, which writes everything in one database batch and then
 * makes the block visible at once; `safe` and `finalized` are the head (BFT blocks are final).
 */
import type { Block, HeaderData } from '@ethereumjs/block'
import { genesisBlock } from './genesis.js'
import { blockNumberAndTime, decodeBlock } from './decode.js'
import { Forks } from './forks.js'
import { BadBlocks } from './bad-blocks.js'
import type { TypedTransaction } from '@ethereumjs/tx'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { EventEmitter } from 'eventemitter3'
import { equalBytes, keyOf } from '../hex.js'
import { FlatState, type StateUndo, type StateView } from '../state/flat-state.js'
import { DiffOverReader, DiffReader } from '../state/diff-reader.js'
import { NodeStore } from '../state/node-store.js'
import { type PreparedState, type StateProof, StateTrie } from '../state/state-trie.js'
import { EMPTY_ROOT, type TrieNode } from '../state/mpt.js'
import { Refused } from '../domain-errors.js'
import { type LazyState, type StateDiff, type StateReader, type SyncStateReader } from '../state/types.js'
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import type { Account } from '@ethereumjs/util'
import type { CommitCertificate } from '../consensus/votes.js'
import type { StoredReceipt } from './receipts.js'
import { ChainStore, type Database } from './store.js'
import type { NodeCommon } from '../execution/engine/common.js'
import { blockStored } from '../compile-cache.js'
import { mapped } from '../arrays.js'

/** Events the chain publishes; filters, subscriptions and the provider listen. */
export interface ChainEvents {
  block: (block: Block, receipts: StoredReceipt[]) => void
  /** The EVM chain id changed (anvil_setChainId). */
  chainChanged: (chainId: bigint) => void
}

/** A transaction with where it was included. */
export interface IncludedTransaction {
  tx: TypedTransaction
  block: Block
  index: number
  receipt: StoredReceipt
  receipts: StoredReceipt[]
}

/** A fork's lazy state: it also finds trie nodes its proofs did not bring (see src/fork). */
export type ForkLazyState = LazyState & { missingNode(key: string): Promise<Uint8Array | undefined> }

/** A fork's blocks below its fork block, and their states: the remote's (see src/fork/history.ts). */
export interface ForkHistorySource {
  block(number: bigint): Promise<Block | undefined>
  blockByHash(hash: Uint8Array): Promise<Block | undefined>
  stateAt(block: Block): StateReader
}

/** A state to read from, released with `close` when it is a pinned head view. */
export type BlockState = StateReader & { close(): void }

/**
 * The head state, read synchronously (`now`) or through the state manager's promises. It is the
 * live head: a reader that awaits across a commit pins a version with `view()` instead.
 */
export type HeadState = StateReader & { readonly now: SyncStateReader | undefined; view(): StateView }

export type { PreparedState }

/** The head state a write hook sees: reads, and every account where all are held. */
export interface WriteHookHead extends StateReader {
  /** Every account of the head state, or undefined where not all are held in memory (a fork's). */
  allAccounts(): Iterable<Account> | undefined
}

/** A hook on writes outside blocks: `diff` before it is applied, `head` the state it applies to. */
export type WriteHook = (diff: StateDiff, head: WriteHookHead) => Promise<void>

/**
 * What taking a committed block off the chain needs of it (evm_revert): the undo log keeps this
 * rather than the block, whose header and objects a suite under a snapshot kept for every block
 * (~1 KB each); the chain's cache of decoded blocks keeps the recent ones anyway.
 */
interface CommittedBlock {
  /**
   * `keyOf` of the block's hash: the string the commit made for the store's maps, kept (a
   * reference) so that a revert does not write each block's and its parent's hash out in hex again.
   */
  readonly key: string
  readonly number: bigint
  readonly parentHash: Uint8Array
  readonly txHashes: Uint8Array[]
}

const NO_TX_HASHES: Uint8Array[] = []

function committedBlock(block: Block, key: string): CommittedBlock {
  const txs = block.transactions
  return { key, number: block.header.number, parentHash: block.header.parentHash, txHashes: txs.length === 0 ? NO_TX_HASHES : txs.map((tx) => tx.hash()) }
}

export class Chain extends EventEmitter<ChainEvents> {
  private readonly flat = new FlatState()
  private readonly nodes: NodeStore
  private readonly trie: StateTrie
  private readonly store: ChainStore
  /** Imported blocks that were refused (debug_getBadBlocks). */
  readonly badBlocks = new BadBlocks()
  private headBlock!: Block
  private readonly decoded = new Map<string, Block>()
  /**
   * Irregular state (EDR's name): the state root after a block where test-control writes changed
   * its state while it was the head, by block hash. The header keeps the root it was sealed with;
   * reads at the block and the next block's execution use this one.
   */
  private readonly irregularRoots = new Map<string, Uint8Array>()
  /** The state root of the head state: the head block's, or newer after test-control writes. */
  private committedRoot: Uint8Array = new Uint8Array(32)
  /** What each change since the oldest open snapshot overwrote, newest last. */
  private readonly undoLog: Array<{ state: StateUndo; rootBefore: Uint8Array; block?: CommittedBlock }> = []
  /** Set while snapshots exist: commits and writes keep what they overwrite. */
  private keepUndo = false
  private genesisDiff: StateDiff | undefined
  /** Sees (and may add to) every write outside blocks before it is applied; see {@link setWriteHook}. */
  private writeHook: WriteHook | undefined

  /** The hardfork of each block (one for most nodes; a schedule from a genesis file). */
  readonly forks: Forks
  /**
   * Whether the chain is kept in a database (trie nodes included). Without one every record and
   * trie node lives in memory only: writing them into memory-level as a second copy cost ~10 %
   * of a transfer for the nodes and ~9 % for the block records.
   */
  private readonly persistNodes: boolean

  /** @param db where the chain is kept (and resumed from); undefined keeps it in memory. */
  constructor(
    readonly common: NodeCommon,
    db: Database | undefined,
    forks?: Forks,
  ) {
    super()
    this.persistNodes = db !== undefined
    const persistNodes = this.persistNodes
    this.forks = forks ?? new Forks(common)
    this.store = new ChainStore(db)
    this.nodes = persistNodes ? new NodeStore({ get: (key) => this.store.node(key) }) : new NodeStore(undefined, Infinity)
    this.trie = new StateTrie(this.nodes)
  }

  /**
   * Lets an application keep its own records of writes outside blocks: the hook runs on each
   * diff {@link modify} applies, against the head state before it, and may add writes to it
   * (the `cosmos` option's supply counter). None by default: nothing runs for it.
   */
  setWriteHook(hook: WriteHook): void {
    this.writeHook = hook
  }

  /** Records the chain id a new chain is made under, so that a reopened database resumes under it. */
  recordChainId(chainId: bigint): Promise<void> {
    return this.store.writeChainId(chainId)
  }

  /**
   * The genesis block this chain made (none for a resumed or forked chain): a reset makes this
   * object the head again, not one decoded from its RLP, whose hidden class the head's readers,
   * compiled on the genesis and the built blocks (block-rlp.ts `sealBlock`), would meet for the
   * first time.
   */
  private genesis: Block | undefined

  /** Commits the genesis block: `diff` is the genesis allocation. */
  async initGenesis(diff: StateDiff, header: HeaderData): Promise<Block> {
    this.genesisDiff = diff
    const state = await this.trie.prepare(KECCAK256_RLP, diff, this.flat)
    const stateRoot = state.root
    const common = this.forks.at(0n, BigInt((header as { timestamp?: bigint }).timestamp ?? 0n))
    const block = genesisBlock(header, stateRoot, common)
    this.genesis = block
    await this.commit(block, [], diff, undefined, state)
    this.announce(block, [])
    return block
  }

  /** A fork's first block and state source (undefined for a chain that is not a fork). */
  private forkPoint: { block: Block; lazy: LazyState; history: ForkHistorySource | undefined; proofs: boolean } | undefined

  /** A fork of a remote without eth_getProof: only the head state (and the remote's history) can be read. */
  private refuseWithoutProofs(what: string): void {
    if (this.forkPoint?.proofs === false) {
      throw new Refused(`${what}: this fork's remote does not answer eth_getProof, so only the head state is kept here (its state roots are not the remote's)`)
    }
  }

  /**
   * Starts the chain at a remote chain's block (a fork): `block` is the fork block as the remote
   * has it (its header only; its body and older blocks stay the remote's), its state root the
   * root of the trie, whose nodes arrive with the proofs `lazy` fetches. `start` is the state
   * written on top at once (the funded dev accounts), which a reset writes again. `makeLazy`
   * gets the flat head state, which the lazy state fills as keys are first touched.
   */
  async initFork(
    block: Block,
    makeLazy: (into: Pick<FlatState, 'loadAccount' | 'loadSlot'>) => ForkLazyState,
    start: (chain: Chain) => Promise<StateDiff>,
    history?: ForkHistorySource,
    proofs = true,
  ): Promise<void> {
    if (this.persistNodes) throw new Error('a fork is kept in memory: it cannot be given a database')
    if (this.store.height >= 0) {
      // A reset to another fork: every block and every state of the chain so far goes.
      this.forkPoint?.lazy.reset()
      this.store.clear()
      this.decoded.clear()
      this.irregularRoots.clear()
      this.undoLog.length = 0
      this.keepUndo = false
      this.flat.accounts.clear()
      this.flat.storage.clear()
      this.flat.code.clear()
    }
    const lazy = makeLazy(this.flat)
    this.nodes.missing = (key) => lazy.missingNode(key)
    this.store.startAt(block.header.number)
    this.flat.setLazy(lazy)
    this.forkPoint = { block, lazy, history, proofs }
    // Without proofs the trie holds only what the fork writes: its roots are not the remote's.
    const root = proofs ? block.header.stateRoot : EMPTY_ROOT
    this.trie.resetHead(root)
    this.committedRoot = root
    await this.store.commit({ hash: block.hash(), number: block.header.number, rlp: block.serialize(), receipts: [], txHashes: [], certificate: undefined, nodes: new Map() })
    this.remember(keyOf(block.hash()), block)
    this.headBlock = block
    const diff = await start(this)
    this.genesisDiff = diff
    await this.modify(diff)
  }

  /** The fork block when this chain is a fork of a remote one. */
  get forkBlock(): Block | undefined {
    return this.forkPoint?.block
  }

  /** The number of the chain's first block: 0, or a fork's fork block. */
  get firstNumber(): bigint {
    return this.forkPoint?.block.header.number ?? 0n
  }

  /** Keeps proven trie nodes of a fork's remote state, each by its hash (see src/fork). */
  addTrieNodes(nodes: readonly Uint8Array[]): void {
    for (const node of nodes) void this.nodes.put(keyOf(keccak_256(node)), node)
  }

  /** Keeps the preimages of keys a fork loaded (hex addresses or slots, no 0x): walks of the state name them. */
  addPreimages(keys: readonly string[]): void {
    for (const key of keys) this.trie.notePreimage(key)
  }

  /** Keeps a fork's proven contract code by its hash, where readers of older states find code. */
  addCode(codeHash: Uint8Array, code: Uint8Array): void {
    void this.nodes.put(`c${keyOf(codeHash)}`, code)
  }

  /**
   * On a fork, fetches an account (and slots) of the head state not loaded yet; undefined (no
   * promise, nothing to wait for) when the chain is no fork.
   */
  ensureLoaded(address: string, slots: readonly string[] = []): Promise<void> | undefined {
    const lazy = this.flat.lazy
    if (lazy === undefined) return undefined
    return (async () => {
      await lazy.account(address)
      await Promise.all(slots.map((slot) => lazy.slot(address, slot)))
    })()
  }

  /**
   * Reopens a chain stored in the database: its blocks, its head, and its head state (rebuilt
   * from the trie and the stored preimages). Returns false for an empty database.
   */
  async resume(): Promise<boolean> {
    const head = await this.store.open()
    if (head === undefined) return false
    const block = await this.blockByHash(head)
    const genesisHash = this.store.hashAt(0n)
    const genesis = genesisHash === undefined ? undefined : await this.blockByHash(genesisHash)
    if (block === undefined || genesis === undefined) throw new Error('the stored chain is incomplete: its head or genesis block is missing')
    const root = (await this.store.meta('stateRoot')) ?? block.header.stateRoot
    this.genesisDiff = await this.trie.load(genesis.header.stateRoot)
    this.flat.apply(await this.trie.load(root))
    for (const [hash, irregular] of await this.store.irregularRoots()) this.irregularRoots.set(hash, irregular)
    this.trie.resetHead(root)
    this.committedRoot = root
    this.headBlock = block
    return true
  }

  get head(): Block {
    return this.headBlock
  }

  get height(): bigint {
    return this.headBlock.header.number
  }

  /** The block at a height, or undefined past the head. */
  async blockByNumber(number: bigint): Promise<Block | undefined> {
    if (number === this.height) return this.headBlock
    if (this.forkPoint !== undefined && number < this.firstNumber) return this.forkPoint.history?.block(number)
    const hash = this.store.hashAt(number)
    return hash === undefined ? undefined : this.blockByHash(hash)
  }

  async blockByHash(hash: Uint8Array): Promise<Block | undefined> {
    const key = keyOf(hash)
    const hit = this.decoded.get(key)
    if (hit !== undefined) return hit
    const rlp = await this.store.blockRlp(hash)
    if (rlp === undefined) return this.forkPoint?.history?.blockByHash(hash)
    let common = this.forks.head
    if (!this.forks.single) {
      const { number, timestamp } = blockNumberAndTime(rlp)
      common = this.forks.at(number, timestamp)
    }
    const block = decodeBlock(rlp, common)
    this.remember(key, block)
    return block
  }

  /** Receipts of a block, in transaction order. */
  async receipts(blockHash: Uint8Array): Promise<StoredReceipt[]> {
    return (await this.store.receiptsOf(blockHash)) ?? []
  }

  /** The commit certificate of a block (none for genesis). */
  async certificate(blockHash: Uint8Array): Promise<CommitCertificate | undefined> {
    return this.store.certificate(blockHash)
  }

  /** A committed transaction by hash. */
  async transaction(hash: Uint8Array): Promise<IncludedTransaction | undefined> {
    // What memory holds (every receipt a sender asks for just after its block) is read without
    // a promise per step; the database is asked for the rest.
    const loc = this.store.txLocationNow(keyOf(hash)) ?? (await this.store.txLocation(hash))
    if (loc === undefined) return undefined
    const blockKey = loc.blockKey
    const block = (blockKey === undefined ? undefined : this.decoded.get(blockKey)) ?? (await this.blockByHash(loc.blockHash))
    const tx = block?.transactions[loc.index]
    if (block === undefined || tx === undefined) return undefined
    const receipts = (blockKey === undefined ? undefined : this.store.receiptsNow(blockKey)) ?? (await this.receipts(loc.blockHash))
    const receipt = receipts[loc.index]
    if (receipt === undefined) return undefined
    return { tx, block, index: loc.index, receipt, receipts }
  }

  /**
   * The root of the state after `block` as reads see it: for the head, the head state's (newer
   * than its header's after test-control writes); for an older block, the root it had when its
   * child was built on it; otherwise the header's.
   */
  stateRootOf(block: Block): Uint8Array {
    if (block.header.number === this.height) return this.committedRoot
    return this.irregularRoots.get(keyOf(block.hash())) ?? block.header.stateRoot
  }

  /**
   * The state after `block`: a pinned view of the flat head state, or the trie for older blocks
   * (and for a held prepared state, the `pending` block's, which stays held until `close`).
   */
  stateAt(block: Block): BlockState {
    const context = this.overHead.get(block)
    if (context !== undefined) return this.stateOverHead(context)
    if (block.header.number === this.height) return this.flat.view()
    const history = this.forkPoint?.history
    if (history !== undefined && block.header.number < this.firstNumber) {
      const old = history.stateAt(block)
      return { getAccount: (a) => old.getAccount(a), getStorage: (a, s) => old.getStorage(a, s), getCode: (a) => old.getCode(a), close: () => {} }
    }
    this.refuseWithoutProofs(`the state at block ${block.header.number}`)
    const root = this.stateRootOf(block)
    const prepared = this.held.get(keyOf(root))
    // The pending block's state while the head is still the one it was built on: its diff over
    // the flat head, map lookups instead of trie walks (a fork's misses go the trie's way).
    const over = prepared?.over
    if (over !== undefined && over.version === this.flat.version && this.flat.lazy === undefined) {
      const view = this.flat.view()
      if (view.now !== undefined) return new DiffReader(over.diff, view as StateView & { now: SyncStateReader }, this.trie.hold(prepared!.state))
      view.close()
    }
    const release = prepared === undefined ? () => {} : this.trie.hold(prepared.state)
    const reader = this.trie.reader(root)
    const lazy = this.flat.lazy
    if (lazy === undefined) return { ...reader, close: release }
    // A fork's later states share the fork state's untouched subtrees: loading a key at the fork
    // block brings the nodes on its path in every later state.
    return {
      getAccount: async (address) => (await lazy.account(address), reader.getAccount(address)),
      getStorage: async (address, slot) => (await lazy.slot(address, slot), reader.getStorage(address, slot)),
      getCode: async (address) => (await lazy.account(address), reader.getCode(address)),
      close: release,
    }
  }

  /** Blocks whose state is a diff over the head state of a version ({@link readOverHead}). */
  private readonly overHead = new WeakMap<Block, { diff: StateDiff; version: number; root: Uint8Array }>()

  /**
   * Makes {@link stateAt} read `block`'s state as `diff` over the head state as it is now, for
   * as long as `block` lives: the `pending` block's as calls run on it when nothing is pending
   * (the system writes of an empty block), whose state root no one computed. False (nothing
   * done) on a fork, whose head state is loaded on demand.
   */
  readOverHead(block: Block, diff: StateDiff): boolean {
    if (this.flat.lazy !== undefined) return false
    this.overHead.set(block, { diff, version: this.flat.version, root: this.committedRoot })
    return true
  }

  /** The state of a {@link readOverHead} block: over the flat head while it is that version, else over its trie. */
  private stateOverHead(over: { diff: StateDiff; version: number; root: Uint8Array }): BlockState {
    if (over.version === this.flat.version) {
      const view = this.flat.view()
      if (view.now !== undefined) return new DiffReader(over.diff, view as StateView & { now: SyncStateReader })
      view.close()
    }
    // The head moved on after the block was made (a block committed meanwhile): the head state
    // it was made on is in the trie under the root the head had then.
    return new DiffOverReader(over.diff, this.trie.reader(over.root))
  }

  /**
   * The EVM chain id: transactions are signed and checked with it, CHAINID reads it, eth_chainId
   * answers it. The chain owns it (the node's Common holds it, every service shares that Common);
   * it starts as the chain id the node was made with (recorded in the store with the genesis)
   * and only {@link setChainId} changes it.
   */
  get chainId(): bigint {
    return this.common.chainId()
  }

  /** Changes the chain id later transactions are signed and checked with, and CHAINID reads (anvil_setChainId). */
  setChainId(chainId: bigint): void {
    this.common.setChainId(chainId)
    this.emit('chainChanged', chainId)
  }

  /** The root of the head state, which the next block builds on. */
  get stateRoot(): Uint8Array {
    return this.committedRoot
  }

  /** The head state's version: it changes with every change of the head state (blocks, writes, rewinds, resets). */
  get stateVersion(): number {
    return this.flat.version
  }

  /** How many changes the undo log holds; a snapshot remembers this. */
  get undoDepth(): number {
    return this.undoLog.length
  }

  /**
   * Writes state outside any block (hardhat_setBalance and friends), as Hardhat and Anvil do:
   * `latest` reads see it at once, and the next block builds on it.
   */
  async modify(diff: StateDiff): Promise<void> {
    if (this.writeHook !== undefined) {
      const flat = this.flat
      const head: WriteHookHead = {
        getAccount: (address) => flat.getAccount(address),
        getStorage: (address, slot) => flat.getStorage(address, slot),
        getCode: (address) => flat.getCode(address),
        allAccounts: () => (flat.lazy === undefined ? flat.accounts.values() : undefined),
      }
      await this.writeHook(diff, head)
    }
    if (this.flat.lazy !== undefined) await this.flat.lazy.touch(diff)
    const rootBefore = this.committedRoot
    const state = await this.trie.prepare(rootBefore, diff, this.flat)
    this.trie.adopt(state)
    const root = state.root
    const nodes = this.nodes.takePending()
    if (this.persistNodes) await this.store.writeNodes(nodes, { stateRoot: root })
    const undo = this.flat.apply(diff, this.keepUndo)
    this.setStorageRoots(state)
    this.committedRoot = root
    if (this.keepUndo && undo !== undefined) this.undoLog.push({ state: undo, rootBefore })
  }

  /**
   * Undoes changes back to `depth` entries of the undo log: blocks and writes, newest first. The
   * blocks go in one step at the end (one store removal, one read of the new head), not one at a
   * time: a revert drops a test's blocks, and taking each off read its parent and wrote its own
   * batch. The state is put back entry by entry (each restores what its change overwrote).
   * `head`, when given, is the block the rewind leaves as the head (the snapshot's), used
   * instead of reading it when its hash is the oldest removed block's parent.
   */
  async rewind(depth: number, head?: Block): Promise<void> {
    if (this.undoLog.length <= depth) return
    const removed: CommittedBlock[] = []
    let rootBefore = this.committedRoot
    while (this.undoLog.length > depth) {
      const entry = this.undoLog.pop()
      if (entry === undefined) break
      if (entry.block !== undefined) removed.push(entry.block)
      this.flat.restore(entry.state)
      rootBefore = entry.rootBefore
    }
    // A revert that drops no block (right after its snapshot, or after writes alone) first met
    // after rewind's optimised compile threw that code away twice: on `removed[-1]` (V8's "out of
    // bounds") and on a field read only on that way. Both ways read the same values here.
    const persist = this.persistNodes
    const oldest = removed.length === 0 ? undefined : removed[removed.length - 1]
    if (oldest !== undefined) {
      const parent = head !== undefined && equalBytes(head.hash(), oldest.parentHash) ? head : await this.blockByHash(oldest.parentHash)
      if (parent === undefined) throw new Error('cannot rewind past genesis')
      await this.store.removeNewest(removed, oldest.parentHash, persist ? { stateRoot: rootBefore } : undefined)
      // Oldest first: each block's parent key is the one before it (the oldest's, the head's).
      let parentKey = keyOf(oldest.parentHash)
      for (let i = removed.length - 1; i >= 0; i--) {
        const block = removed[i] as CommittedBlock
        this.decoded.delete(block.key)
        // A removed block's parent is the head again at some point of the rewind: its irregular
        // root, if any, was recorded when that block committed and is undone with it.
        this.irregularRoots.delete(parentKey)
        parentKey = block.key
      }
      this.headBlock = parent
    } else if (persist) {
      // A resumed chain starts from the head state this leaves, not the reverted one's.
      await this.store.writeNodes(new Map(), { stateRoot: rootBefore })
    }
    this.trie.resetHead(rootBefore)
    this.committedRoot = rootBefore
  }

  /**
   * Back to the genesis block and state (hardhat_reset): every later block and its records are
   * removed, test-control writes are gone, the undo log is emptied.
   */
  async resetToGenesis(): Promise<void> {
    const genesisDiff = this.genesisDiff
    if (genesisDiff === undefined) throw new Error('the chain has no genesis')
    const firstHash = this.store.hashAt(this.firstNumber)
    const genesis = this.forkPoint?.block ?? this.genesis ?? (firstHash === undefined ? undefined : await this.blockByHash(firstHash))
    if (genesis === undefined) throw new Error('the chain has no first block')
    // In one step, not block by block from the head: a suite resets after hundreds of blocks, and
    // taking each off read it (decoded again past the cache's 256) for its parent and transactions.
    // A database's head and head state root change in one batch (a fork has no database).
    await this.store.truncateToFirst(this.persistNodes ? { stateRoot: genesis.header.stateRoot } : undefined)
    this.decoded.clear()
    this.remember(keyOf(genesis.hash()), genesis)
    this.headBlock = genesis
    this.flat.accounts.clear()
    this.flat.storage.clear()
    this.flat.code.clear()
    if (this.forkPoint !== undefined) {
      // A fork goes back to the fork block's state (loaded again on demand) and its start writes.
      this.forkPoint.lazy.reset()
      const root = this.forkPoint.proofs ? genesis.header.stateRoot : EMPTY_ROOT
      this.trie.resetHead(root)
      this.committedRoot = root
      this.irregularRoots.clear()
      this.undoLog.length = 0
      this.keepUndo = false
      await this.modify(genesisDiff)
      return
    }
    this.flat.apply(genesisDiff)
    const reader = this.trie.reader(genesis.header.stateRoot)
    for (const address of genesisDiff.storage.keys()) {
      const account = this.flat.accounts.get(address)
      const stored = await reader.getAccount(address)
      if (account !== undefined && stored !== undefined) account.storageRoot = stored.storageRoot
    }
    this.trie.resetHead(genesis.header.stateRoot)
    this.committedRoot = genesis.header.stateRoot
    this.irregularRoots.clear()
    this.undoLog.length = 0
    this.keepUndo = false
  }

  /**
   * Turns the undo log on (a snapshot exists: blocks and state writes keep what they overwrite)
   * or off (no snapshot is left: the log is emptied).
   */
  recordUndo(on: boolean): void {
    this.keepUndo = on
    if (!on) this.undoLog.length = 0
  }

  private setStorageRoots(state: PreparedState): void {
    for (const [address, { hash }] of state.storage) {
      const account = this.flat.accounts.get(address)
      if (account !== undefined) account.storageRoot = hash
    }
  }

  /** A pinned view of the head state. */
  headView(): StateView {
    return this.flat.view()
  }

  /**
   * Writes a decided block with its receipts, state diff, certificate and the state its builder
   * prepared (see {@link prepareState}), which becomes the head state. The database batch comes
   * first: if it fails nothing changes; then memory and head change together. Listeners hear of
   * the block through {@link announce}, which the committer calls once its own bookkeeping is done.
   */
  async commit(block: Block, receipts: StoredReceipt[], diff: StateDiff, certificate: CommitCertificate | undefined, state: PreparedState): Promise<void> {
    if (!equalBytes(state.root, block.header.stateRoot)) throw new Error('the prepared state is not the block\'s')
    const hash = block.hash()
    const key = keyOf(hash)
    this.trie.adopt(state)
    const parent = this.headBlock as Block | undefined
    // Writes at the parent while it was the head belong to it: its state as reads see it is the one this block was built on.
    const irregular = parent !== undefined && !equalBytes(this.committedRoot, parent.header.stateRoot) ? this.committedRoot : undefined
    try {
      const writing = this.store.commit({
        hash,
        key,
        number: block.header.number,
        rlp: block.serialize(),
        receipts,
        // One hidden class for an empty list and a filled one (arrays.ts): the store reads both.
        txHashes: mapped(block.transactions, (tx) => tx.hash()),
        certificate,
        nodes: this.persistNodes ? this.nodes.takePending() : (this.nodes.takePending(), new Map()),
        meta: this.persistNodes ? { stateRoot: block.header.stateRoot } : undefined,
        irregular: irregular === undefined || parent === undefined ? undefined : { blockHash: parent.hash(), stateRoot: irregular },
      })
      // A chain without a database writes nothing: no promise to wait on.
      if (writing !== undefined) await writing
    } catch (error) {
      // The head state stays the parent's: the next block builds on it again.
      this.trie.resetHead(this.committedRoot)
      throw error
    }
    const undo = this.flat.apply(diff, this.keepUndo)
    this.setStorageRoots(state)
    if (this.keepUndo && undo !== undefined) this.undoLog.push({ state: undo, rootBefore: this.committedRoot, block: committedBlock(block, key) })
    if (irregular !== undefined && parent !== undefined) this.irregularRoots.set(keyOf(parent.hash()), irregular)
    this.committedRoot = block.header.stateRoot
    this.remember(key, block)
    this.headBlock = block
    blockStored()
  }

  /**
   * Tells listeners (filters, subscriptions, the provider) of a committed block. Every listener
   * hears of it even if an earlier one throws; the first error is thrown afterwards.
   */
  announce(block: Block, receipts: StoredReceipt[]): void {
    let failure: { error: unknown } | undefined
    for (const listener of this.listeners('block')) {
      try {
        listener(block, receipts)
      } catch (error) {
        failure ??= { error }
      }
    }
    if (failure !== undefined) throw failure.error
  }

  /**
   * The state `diff` makes on top of the head state (or on `parentRoot`), prepared but not kept:
   * a block builder's result, which {@link commit} adopts. A state nobody commits leaves nothing
   * behind; {@link holdState} lets reads reach it meanwhile.
   */
  prepareState(diff: StateDiff, base: StateReader, parentRoot: Uint8Array = this.committedRoot): Promise<PreparedState> {
    // Not an async function: the trie's promise is handed on, not wrapped in another per block.
    const lazy = this.flat.lazy
    if (lazy !== undefined) return lazy.touch(diff).then(() => this.trie.prepare(parentRoot, diff, base))
    return this.trie.prepare(parentRoot, diff, base)
  }

  /** Prepared states held readable, by root, with how many holders. */
  private readonly held = new Map<string, { state: PreparedState; holders: number; over?: { diff: StateDiff; version: number } }>()

  /**
   * Makes a prepared state readable by its root (`stateAt` of the `pending` block) until the
   * returned function is called. With `over`, the diff that made it from a version of the flat
   * head, it is read as that diff over the head while the head is still that version.
   */
  holdState(state: PreparedState, over?: { diff: StateDiff; version: number }): () => void {
    const key = keyOf(state.root)
    const entry = this.held.get(key)
    if (entry === undefined) this.held.set(key, over === undefined ? { state, holders: 1 } : { state, holders: 1, over })
    else entry.holders++
    const release = this.trie.hold(state)
    let released = false
    return () => {
      if (released) return
      released = true
      release()
      const e = this.held.get(key)
      if (e !== undefined && --e.holders === 0) this.held.delete(key)
    }
  }

  /**
   * The root `diff` on `parentRoot` gives, keeping nothing: simulated blocks (eth_simulateV1,
   * testing_buildBlockV1) and debug_intermediateRoots, whose states no one reads by root.
   */
  async rootOf(parentRoot: Uint8Array, diff: StateDiff, base: StateReader): Promise<Uint8Array> {
    if (this.flat.lazy !== undefined) await this.flat.lazy.touch(diff)
    return this.trie.rootOf(parentRoot, diff, base)
  }

  /**
   * The head state as the synchronous reader the block builder and calls run on (a map lookup
   * per read; no promise, no copy).
   */
  headState(): HeadState {
    return this.flat
  }

  /** The head state's nonce of an account (unprefixed lower-case hex address). */
  nonce(address: string): bigint {
    return this.flat.accounts.get(address)?.nonce ?? 0n
  }

  /** The head state's account (unprefixed lower-case hex address); the live record, not to be changed. */
  account(address: string): Readonly<Account> | undefined {
    return this.flat.accounts.get(address)
  }

  /** Every account of the head state with its code and storage, in no order (state dumps). */
  *headAccounts(): Generator<{ address: string; account: Readonly<Account>; code: Uint8Array | undefined; storage: ReadonlyMap<string, Uint8Array> | undefined }> {
    for (const [address, account] of this.flat.accounts) {
      yield { address, account, code: this.flat.code.get(address), storage: this.flat.storage.get(address) }
    }
  }

  /** The hash of the canonical block at a height, if there is one. */
  hashAt(number: bigint): Uint8Array | undefined {
    return this.store.hashAt(number)
  }

  /** The genesis block's hash. */
  get genesisHash(): Uint8Array {
    return this.store.hashAt(0n) ?? new Uint8Array(32)
  }

  /** A Merkle proof of an account and storage slots under a state root (eth_getProof). */
  async proof(root: Uint8Array, address: Uint8Array, slots: Uint8Array[]): Promise<StateProof> {
    this.refuseWithoutProofs('eth_getProof')
    await this.ensureLoaded(keyOf(address), slots.map((s) => keyOf(s).padStart(64, '0')))
    return this.trie.proof(root, address, slots)
  }

  /** The accounts that differ between two state roots (debug_getModifiedAccounts*). */
  modifiedAccounts(from: Uint8Array, to: Uint8Array): ReturnType<StateTrie['modifiedAccounts']> {
    return this.trie.modifiedAccounts(from, to)
  }

  /** The address or slot a hashed trie key was written for, if it was recorded. */
  preimageOf(hashed: Uint8Array): Promise<Uint8Array | undefined> {
    return this.trie.preimageOf(hashed)
  }

  /** An account's storage trie under a state root, with an overlay's writes on top (debug_storageRangeAt). */
  storageTrie(root: Uint8Array, address: Uint8Array, overlay?: StateDiff): Promise<{ node: TrieNode | null; written: Map<string, Uint8Array> }> {
    return this.trie.storageTrie(root, address, overlay)
  }

  /** A range of the accounts under a state root in trie order (debug_accountRange, debug_dumpBlock). */
  accountRange(...args: Parameters<StateTrie['accountRange']>): ReturnType<StateTrie['accountRange']> {
    return this.trie.accountRange(...args)
  }

  /** A range of an account's storage slots in trie order (debug_storageRangeAt). */
  storageRange(...args: Parameters<StateTrie['storageRange']>): ReturnType<StateTrie['storageRange']> {
    return this.trie.storageRange(...args)
  }

  /** How many trie roots the chain keeps live and holds (a chain without a database; tests watch it). */
  get trieRoots(): { kept: number; held: number } {
    return this.nodes.rootCount
  }

  private remember(key: string, block: Block): void {
    this.decoded.set(key, block)
    // The same steps for every block, the eviction's included (a key no block has while the cache
    // is not full): taken first at the 257th block, it threw the optimised commit away.
    const oldest = this.decoded.keys().next().value as string
    this.decoded.delete(this.decoded.size > 256 ? oldest : '')
  }
}
