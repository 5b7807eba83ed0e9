/**
 * Builds one candidate block on the head: runs the chosen transactions on a journaled overlay of
 * the head state with the block's system operations around them, then computes the roots.
 *
 * Why not @ethereumjs/vm's BlockBuilder: it creates a whole Block per added transaction, builds
 * the transaction and receipt tries with @ethereumjs/mpt and runs both request contracts in the
 * EVM every block; on an automine chain, where every transaction is its own block, that per-block
 * cost was most of a transfer's time. Each transaction runs through `engine/run-tx.ts` (the
 * engine's run of a transaction, or the VM's `runTx` where it does not serve).
 */
import { Block, type BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { type Blob4844Tx, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import type { VM, RunTxResult } from '@ethereumjs/vm'
import { runTransaction } from './engine/run-tx.js'
import type { EcrecoverOverrides } from './ecrecover-overrides.js'
import type { BlockHooks, ValidatorUpdate } from './block-hooks.js'
import { bindState, createEngineVM } from './engine/vm.js'
import { keccak256 } from '../crypto/keccak.js'
import type { Chain, PreparedState } from '../chain/chain.js'
import type { TxOutcome } from '../txpool/inclusions.js'
/** The console.log messages of a block built while none are collected. */
const NO_CONSOLE_LOGS: string[][] = []

export type { TxOutcome }
import { encodeConsensusReceipt, isZeroBytes, type RawLog, type StoredReceipt, ZERO_BLOOM } from '../chain/receipts.js'
import { EMPTY_ROOT, nibbles, rootHash, trieSetAtNow, type TrieNode } from '../state/mpt.js'
import { JournaledState } from '../state/journaled-state.js'
import type { StateDiff } from '../state/types.js'
import { chainBlockhashes } from './blockhashes.js'
import { runPlainTransfer } from './plain-transfer.js'
import { emptyBlockEffects, idleRequestsHash, postBlock, preBlock, preBlockNow } from './system-calls.js'
import { attachConsoleLog } from './console-log.js'
import { builtHeader, type BuiltHeaderFields } from './engine/header.js'
import { sealBlock } from './block-rlp.js'
import { encodeStrings } from '../rlp.js'
import { emptyObjects, mapped } from '../arrays.js'
import { fromHex } from '../hex.js'

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
  /** Parallel to `receipts`. */
  outcomes: TxOutcome[]
  /**
   * The Solidity console.log messages of the included transactions, in order (only while
   * {@link BlockBuilder.collectConsoleLog} is on). The producer delivers them once the block is
   * committed: candidate blocks of failed rounds and the `pending` block deliver nothing.
   */
  consoleLogs: string[]
  /** Parallel to `receipts`: each transaction's console.log messages (none at all while not collecting). */
  txConsoleLogs: string[][]
  diff: StateDiff
  /** The version of the flat head state the block was built on (its `diff` applies to that). */
  baseVersion: number
  /** The state after the block, prepared on the head state and kept only if the chain commits the block. */
  state: PreparedState
  rejected: Rejected[]
  /** EndBlock's validator updates (only with block hooks). */
  validatorUpdates?: ValidatorUpdate[] | undefined
  close(): void
}

/** The header choices of one block. */
export interface BlockParams {
  coinbase: string
  timestamp: bigint
  gasLimit: bigint
  baseFeePerGas?: bigint
  prevRandao?: Uint8Array
  /** At most 32 bytes (miner_setExtra checks); none = empty. */
  extraData?: Uint8Array
  /** The evidence the block commits (for the block hooks' BeginBlock). */
  misbehavior?: ReadonlyArray<{ validator: string; height: bigint }> | undefined
  /** Who signed the parent's certificate (for the block hooks' BeginBlock). */
  lastCommit?: ReadonlyArray<{ validator: string; signed: boolean }> | undefined
}

const NO_SOURCE = { get: async () => undefined }

/** The hex-prefixed path of the only leaf of a one-entry index-keyed trie (key RLP(0)). */
const SOLE_LEAF_PATH = Uint8Array.of(0x20, 0x80)

/** The root of an index-keyed trie (transactions, receipts, withdrawals). */
export function orderedRoot(values: Uint8Array[]): Uint8Array {
  // One value (every automined block) or several: two functions, one chosen and reached through
  // `call` on every path, so that a caller V8 optimised on one-transaction blocks keeps its code at
  // the first block of two (a loop first run after the compile is a deopt where it is inline; see
  // docs/performance.md, "A branch first taken after V8's compile").
  return (values.length === 1 ? soleLeafRoot : trieRoot).call(undefined, values)
}

/**
 * The root of a one-entry index-keyed trie: a single leaf at key RLP(0) = 0x80, whose hex-prefixed
 * path is 0x20 0x80, and the root is its hash whatever its size.
 */
function soleLeafRoot(values: Uint8Array[]): Uint8Array {
  return keccak256(encodeStrings([SOLE_LEAF_PATH, values[0] as Uint8Array]))
}

/** The root of an index-keyed trie of any number of entries, built in memory. */
function trieRoot(values: Uint8Array[]): Uint8Array {
  let root: TrieNode | null = null
  for (let i = 0; i < values.length; i++) {
    // Every node of a trie built here is at hand: the walk never waits on the (empty) source.
    // Owned writes: no other root reaches this trie's nodes, so later keys change them in place.
    const next = trieSetAtNow(root, nibbles(RLP.encode(i)), values[i] as Uint8Array, NO_SOURCE, true)
    if (next instanceof Promise) throw new Error('index trie walk needed a stored node')
    root = next
  }
  // Only the root's hash: nothing keeps or writes this trie's nodes.
  return rootHash(root)
}

/** What a header under construction holds until its state root and bloom are known (never read). */
const PLACEHOLDER_ROOT = new Uint8Array(32)
const PLACEHOLDER_BLOOM = new Uint8Array(256)
/**
 * The beacon root of this chain's blocks (zero), shared by their headers as {@link ZERO_BLOOM} is
 * by headers without logs: never written, and an array of its own per block is kept with it.
 */
const ZERO_BEACON_ROOT = new Uint8Array(32)
/**
 * The transactions of every block {@link BlockBuilder.buildEmpty} makes, in the hidden class of a
 * filled list (arrays.ts): a `[]` literal's class reached the formatters' reads of a block's
 * transactions first at a suite's first mined empty block, and V8 threw that code away.
 */
const NO_TXS: readonly TypedTransaction[] = emptyObjects()
/** What no transaction is sent from: the EOA-check exemption of a transaction not impersonated. */
const NOT_AN_ADDRESS = new Uint8Array(0)

/** The header fields a block's execution decides; written into the header once it has run. */
type Outcome = { -readonly [K in 'stateRoot' | 'transactionsTrie' | 'receiptTrie' | 'logsBloom' | 'gasUsed' | 'blobGasUsed' | 'requestsHash']: BlockHeader[K] }

function orBloom(target: Uint8Array, bloom: Uint8Array): void {
  for (let i = 0; i < target.length; i++) target[i] = (target[i] as number) | (bloom[i] as number)
}

export class BlockBuilder {
  private constructor(
    private readonly chain: Chain,
    /** The VM blocks execute in (hooks such as console.log attach to its EVM). */
    readonly vm: VM,
    /** BeginBlock, EndBlock and precompiles of the application's own (the `cosmos` option). */
    private readonly hooks: BlockHooks | undefined,
  ) {}

  /** Block hooks run with each block (the `cosmos` option). */
  get hasBlockHooks(): boolean {
    return this.hooks !== undefined
  }

  static async create(chain: Chain, common: Common, ecrecover?: EcrecoverOverrides, hooks?: BlockHooks): Promise<BlockBuilder> {
    const vm = await createEngineVM(
      {
        common,
        stateManager: new JournaledState(chain.headState()),
        blockchain: chainBlockhashes(chain),
      },
      ecrecover,
      hooks?.precompiles,
    )
    return new BlockBuilder(chain, vm, hooks)
  }

  private lastCoinbase: { hex: string; address: Address } | undefined
  /** The console.log messages of the transaction running now, while collection is on. */
  private consoleLogs: string[] | undefined
  private collecting = false

  /** Collects the console.log messages of each included transaction into its built block. */
  collectConsoleLog(): void {
    if (this.collecting) return
    this.collecting = true
    attachConsoleLog(this.vm.evm, (message) => this.consoleLogs?.push(message))
  }

  /** The fee recipient as an address (the same one block after block; never changed by readers). */
  private coinbaseAddress(hex: string): Address {
    if (this.lastCoinbase?.hex !== hex) this.lastCoinbase = { hex, address: new Address(fromHex(hex)) }
    return this.lastCoinbase.address
  }

  /** The receipts root of the last block of one receipt without logs, by that receipt's type, status and gas. */
  private soleReceipt: { type: number; status: 0 | 1 | undefined; gas: bigint; root: Uint8Array } | undefined

  /**
   * The receipts root of a block's receipts. A block of one receipt without logs (an automined
   * transfer) has a root that depends only on the receipt's type, status and gas (its bloom is
   * empty): the same root block after block, kept instead of encoded and hashed again.
   */
  private receiptsRoot(included: ReadonlyArray<{ tx: TypedTransaction; result: RunTxResult }>): Uint8Array {
    type Receipt = Parameters<typeof encodeConsensusReceipt>[0]
    const only = included.length === 1 ? included[0] : undefined
    const receipt = only?.result.receipt as Receipt | undefined
    if (only === undefined || receipt === undefined || receipt.logs.length > 0 || receipt.stateRoot !== undefined) {
      return orderedRoot(mapped(included, ({ tx, result }) => encodeConsensusReceipt(result.receipt as Receipt, tx.type)))
    }
    const type = only.tx.type
    const gas = receipt.cumulativeBlockGasUsed
    const last = this.soleReceipt
    // One way out for a kept root and a new one: the kept root's own return, first taken after
    // build's optimised compile (it inlines this), threw that code away.
    if (last === undefined || last.type !== type || last.status !== receipt.status || last.gas !== gas) {
      this.soleReceipt = { type, status: receipt.status, gas, root: orderedRoot([encodeConsensusReceipt(receipt, type)]) }
    }
    return (this.soleReceipt as { root: Uint8Array }).root
  }

  /**
   * Builds one candidate block of `txs` in order. An `impersonated` transaction (sent for an
   * address without its key) may come from an account with code: EIP-3607 is skipped for it, as
   * Hardhat and Anvil do.
   */
  async build(txs: Array<{ tx: TypedTransaction; sender: Uint8Array; impersonated?: boolean }>, params: BlockParams): Promise<BuiltBlock> {
    if (txs.length === 0 && this.hooks === undefined) {
      const empty = await this.buildEmpty(params)
      if (empty !== undefined) return empty
    }
    const parent = this.chain.head
    const common = this.vm.common
    const view = this.chain.headView()
    const state = new JournaledState(view)
    bindState(this.vm, state)
    try {
      const number = parent.header.number + 1n
      const beaconRoot = common.isActivatedEIP(4788) ? ZERO_BEACON_ROOT : undefined
      const header: BuiltHeaderFields = {
        parentHash: parent.hash(),
        coinbase: this.coinbaseAddress(params.coinbase),
        number,
        gasLimit: params.gasLimit,
        timestamp: params.timestamp,
        mixHash: params.prevRandao ?? keccak256(parent.hash()),
        extraData: params.extraData,
        baseFeePerGas: common.isActivatedEIP(1559) ? (params.baseFeePerGas ?? parent.header.calcNextBaseFee()) : undefined,
        excessBlobGas: common.isActivatedEIP(4844) ? parent.header.calcNextExcessBlobGas(common) : undefined,
        blobGasUsed: common.isActivatedEIP(4844) ? 0n : undefined,
        parentBeaconBlockRoot: beaconRoot,
        // Written over once the transactions ran (nothing reads them before): no arrays made for them.
        stateRoot: PLACEHOLDER_ROOT,
        logsBloom: PLACEHOLDER_BLOOM,
      }
      // The block the EVM sees while executing (NUMBER, TIMESTAMP, BASEFEE, COINBASE, …). Its
      // header is left unfrozen and becomes the built block's header once the outcome is known:
      // a second header would be built and validated again for nothing.
      const withdrawals = common.isActivatedEIP(4895)
      const blockHeader = builtHeader(header, common)
      const context = new Block(blockHeader, [], [], withdrawals ? [] : undefined, { common })
      await state.checkpoint()
      const beacon = beaconRoot ?? ZERO_BEACON_ROOT
      if (!preBlockNow(state, common, number, params.timestamp, header.parentHash, beacon)) await preBlock(this.vm, number, params.timestamp, header.parentHash, beacon)
      if (this.hooks !== undefined) await this.hooks.beginBlock(state, number, params.misbehavior ?? [], params.lastCommit)

      const included: Array<{ tx: TypedTransaction; result: RunTxResult; sender: Uint8Array; logs: string[] | undefined }> = []
      const rejected: Rejected[] = []
      let gasUsed = 0n
      const blobs = common.isActivatedEIP(4844)
      const blobGasPerBlob = blobs ? common.param('blobGasPerBlob') : 0n
      const maxBlobGas = blobs ? common.getBlobGasSchedule().maxBlobGasPerBlock : 0n
      let blobGasUsed = 0n
      for (const { tx, sender, impersonated } of txs) {
        if (tx.gasLimit > params.gasLimit - gasUsed) {
          rejected.push({ tx, error: new Error('gas limit reached'), retry: true })
          continue
        }
        const txBlobGas = tx.type === TransactionType.BlobEIP4844 ? BigInt((tx as Blob4844Tx).numBlobs()) * blobGasPerBlob : 0n
        if (blobGasUsed + txBlobGas > maxBlobGas && txBlobGas > 0n) {
          rejected.push({ tx, error: new Error('blob gas limit reached'), retry: true })
          continue
        }
        const logs = this.collecting ? [] : undefined
        this.consoleLogs = logs
        try {
          // Set for every transaction (none exempt: an address no account has), so the first
          // impersonated send after build's optimised compile does not throw that code away.
          state.exemptFromEoaCheck(impersonated === true ? sender : NOT_AN_ADDRESS)
          const result =
            (impersonated === true ? undefined : runPlainTransfer(this.vm, tx, tx.getSenderAddress(), context, gasUsed)) ??
            (await runTransaction(this.vm, { tx, block: context, skipHardForkValidation: true, blockGasUsed: gasUsed }))
          gasUsed += result.blockGasSpent ?? result.totalGasSpent
          blobGasUsed += txBlobGas
          included.push({ tx, result, sender, logs })
        } catch (error) {
          rejected.push({ tx, error: error instanceof Error ? error : new Error(String(error)), retry: false })
        } finally {
          this.consoleLogs = undefined
        }
      }

      const validatorUpdates = this.hooks === undefined ? undefined : await this.hooks.endBlock(state, number, (header.baseFeePerGas ?? 0n) * gasUsed)
      const logs: RawLog[] = included.flatMap(({ result }) => result.receipt.logs as RawLog[])
      const requestsHash = common.isActivatedEIP(7685) ? (idleRequestsHash(state, this.vm, logs) ?? (await postBlock(this.vm, context, logs)).requestsHash) : undefined
      await state.commit()

      // The receipts' blooms OR-ed for every block, one receipt or several: the steps of a block of
      // several, first taken after build's optimised compile, threw that code away. Kept is the
      // shared zero bloom without logs and, with one receipt (every automined block), its bloom:
      // neither is ever written after this.
      const sole = included.length === 1 ? (included[0]?.result.receipt.bitvector as Uint8Array) : undefined
      const merged = new Uint8Array(256)
      const receipts = mapped(included, ({ result, sender }): StoredReceipt => {
        const r = result.receipt as typeof result.receipt & { status?: 0 | 1 }
        orBloom(merged, r.bitvector)
        // Every field in one literal: one hidden class for the store's and the formatters' reads.
        return {
          status: r.status ?? 1,
          cumulativeGasUsed: r.cumulativeBlockGasUsed,
          gasUsed: result.totalGasSpent,
          logs: r.logs as RawLog[],
          bloom: r.bitvector,
          from: sender,
          contractAddress: result.createdAddress?.bytes,
          blobGasUsed: result.blobGasUsed !== undefined && result.blobGasUsed > 0n ? result.blobGasUsed : undefined,
        }
      })
      const outcomes = mapped(included, ({ result }): TxOutcome => {
        const failure = result.execResult.exceptionError
        return failure === undefined ? { output: result.execResult.returnValue } : { error: failure.error, output: result.execResult.returnValue }
      })
      const bloom = isZeroBytes(merged) ? ZERO_BLOOM : (sole ?? merged)
      const consoleLogs = included.flatMap(({ logs }) => logs ?? [])
      // Nothing made per block unless someone listens (automined sends are benchmarked).
      const txConsoleLogs = this.collecting ? mapped(included, ({ logs }) => logs ?? []) : NO_CONSOLE_LOGS
      const diff = state.diff()
      const prepared = await this.chain.prepareState(diff, view)
      const stateRoot = prepared.root
      // Written field by field (Object.assign takes its generic path on a header).
      const outcome = blockHeader as Outcome
      outcome.stateRoot = stateRoot
      outcome.transactionsTrie = orderedRoot(mapped(included, ({ tx }) => tx.serialize()))
      outcome.receiptTrie = this.receiptsRoot(included)
      outcome.logsBloom = bloom
      outcome.gasUsed = gasUsed
      outcome.blobGasUsed = blobs ? blobGasUsed : undefined
      if (requestsHash !== undefined) outcome.requestsHash = requestsHash
      // The transactions themselves, not copies: `createBlock` would rebuild each one from its
      // fields, losing the kept raw encoding, the cached hash and sender, and the impersonation mark.
      const block = sealBlock(blockHeader, mapped(included, ({ tx }) => tx), common)
      return { hash: block.hash(), block, receipts, outcomes, consoleLogs, txConsoleLogs, diff, baseVersion: view.version, state: prepared, rejected, validatorUpdates, close: () => view.close() }
    } catch (error) {
      view.close()
      throw error
    }
  }

  /**
   * A block without transactions, without the EVM: the header {@link build} would make, the
   * system writes applied straight to a diff (`emptyBlockEffects`), no overlay, no context block.
   * Undefined when a request contract has to run (then {@link build} takes the general way).
   * The same roots and hash as the general way: test/controls/mine-many.test.ts replays blocks
   * made here under @ethereumjs/vm's runBlock.
   */
  private async buildEmpty(params: BlockParams): Promise<BuiltBlock | undefined> {
    const parent = this.chain.head
    const common = this.vm.common
    const view = this.chain.headView()
    try {
      const now = view.now
      if (now === undefined) return giveUp(view)
      const number = parent.header.number + 1n
      const parentHash = parent.hash()
      const effects = emptyBlockEffects(now, common, number, params.timestamp, parentHash, ZERO_BEACON_ROOT)
      if (effects === undefined) return giveUp(view)
      const prepared = await this.chain.prepareState(effects.diff, view)
      const stateRoot = prepared.root
      const blockHeader = builtHeader(this.emptyHeader(parent, params, stateRoot, effects.requestsHash), common)
      const block = sealBlock(blockHeader, NO_TXS, common)
      // The fields and the lists' classes of {@link build}'s result (its console messages are a
      // `flatMap`'s, which makes `new Array(0)`'s class, not a literal's): the producer's reads of
      // it, compiled on sends' blocks, were thrown away at the first empty block when they differed.
      return { hash: block.hash(), block, receipts: emptyObjects(), outcomes: emptyObjects(), consoleLogs: new Array<string>(0), txConsoleLogs: NO_CONSOLE_LOGS, diff: effects.diff, baseVersion: view.version, state: prepared, rejected: [], validatorUpdates: undefined, close: () => view.close() }
    } catch (error) {
      view.close()
      throw error
    }
  }

  /** The header fields of an empty block on `parent` with `stateRoot`: {@link buildEmpty}'s, and {@link emptyContext}'s with no state root (test/execution/pending-context.test.ts). */
  private emptyHeader(parent: Block, params: BlockParams, stateRoot: Uint8Array, requestsHash: Uint8Array | undefined): BuiltHeaderFields {
    const common = this.vm.common
    const parentHash = parent.hash()
    const blobs = common.isActivatedEIP(4844)
    return {
      parentHash,
      coinbase: this.coinbaseAddress(params.coinbase),
      stateRoot,
      transactionsTrie: EMPTY_ROOT,
      receiptTrie: EMPTY_ROOT,
      logsBloom: ZERO_BLOOM,
      number: parent.header.number + 1n,
      gasLimit: params.gasLimit,
      gasUsed: 0n,
      timestamp: params.timestamp,
      mixHash: params.prevRandao ?? keccak256(parentHash),
      extraData: params.extraData,
      baseFeePerGas: common.isActivatedEIP(1559) ? (params.baseFeePerGas ?? parent.header.calcNextBaseFee()) : undefined,
      excessBlobGas: blobs ? parent.header.calcNextExcessBlobGas(common) : undefined,
      blobGasUsed: blobs ? 0n : undefined,
      parentBeaconBlockRoot: common.isActivatedEIP(4788) ? ZERO_BEACON_ROOT : undefined,
      requestsHash,
    }
  }

  /**
   * What an execution on the empty block {@link build} would make reads of it, without what none
   * reads: its header as {@link buildEmpty} makes it but with no state root (zeros), and the
   * state as the system writes' diff over the head state; no state root, no encoding, no hash
   * worked out. Undefined where {@link buildEmpty} would not make the block (block hooks, a
   * request contract to run, a fork's head state). The block's `hash()` is not the block's.
   */
  emptyContext(params: BlockParams): { block: Block; diff: StateDiff } | undefined {
    if (this.hooks !== undefined) return undefined
    const parent = this.chain.head
    const common = this.vm.common
    const view = this.chain.headView()
    try {
      const now = view.now
      if (now === undefined) return undefined
      const effects = emptyBlockEffects(now, common, parent.header.number + 1n, params.timestamp, parent.hash(), ZERO_BEACON_ROOT)
      if (effects === undefined) return undefined
      const header = builtHeader(this.emptyHeader(parent, params, PLACEHOLDER_ROOT, effects.requestsHash), common)
      Object.freeze(header)
      const block = new Block(header, [], [], common.isActivatedEIP(4895) ? [] : undefined, { common, freeze: false })
      Object.freeze(block)
      return { block, diff: effects.diff }
    } finally {
      view.close()
    }
  }
}

/** Closes `view` and answers undefined (a block the fast way cannot make). */
function giveUp(view: { close(): void }): undefined {
  view.close()
  return undefined
}
