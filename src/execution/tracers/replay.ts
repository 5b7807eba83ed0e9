/**
 * Re-executes transactions for the debug_trace* methods. A block's transactions run again on the
 * state it was built on (its parent's, a pinned view as eth_call at a past block reads it, or the
 * newer root test-control writes such as hardhat_setBalance had made before it), in the block's
 * own context and under its own hardfork, after the same start-of-block system writes the block
 * made (EIP-4788 beacon root, EIP-2935 parent hash); only the transactions asked for carry a
 * tracer. Each replayed transaction must use the gas its receipt says, or the trace is refused:
 * a replay that diverged from the block would describe something that never happened.
 *
 * Tracing runs on VMs of its own (one pool per hardfork) whose call, create, LOG and SELFDESTRUCT
 * opcodes carry the tracing hooks and whose JUMP/CALL family carries the time-out guard
 * (`timeout`, geth's default 5 s); neither the block builder nor the eth_call VMs pay for them.
 */
import type { Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import { Address, eoaCode7702RecoverAuthority, type EOACode7702AuthorizationListBytesItem } from '@ethereumjs/util'
import type { VM, RunTxResult } from '@ethereumjs/vm'
import { runTransaction } from '../engine/run-tx.js'
import { createEngineVM } from '../engine/vm.js'
import type { Chain } from '../../chain/chain.js'
import type { StoredReceipt } from '../../chain/receipts.js'
import type { Clock } from '../../clock.js'
import { keccak256 } from '../../crypto/keccak.js'
import { isDomainError, NotFound, Refused } from '../../domain-errors.js'
import { data, equalBytes, fromHex, keyOf } from '../../hex.js'
import type { Limits } from '../../limits.js'
import type { JsTracerLimits } from './js-tracer.js'
import type { CallRequest } from '../call-request.js'
import { JournaledState } from '../../state/journaled-state.js'
import type { StateReader } from '../../state/types.js'
import { callBlockhashes, callTransaction, gethMessage, isPriced, type CallExecutor, type CallOptions } from '../call.js'
import {
  OverriddenState,
  applyPrecompileOverrides,
  overriddenBlock,
  validateOverrides,
} from '../overrides.js'
import { preBlock } from '../system-calls.js'
import { CallGuard, EvmTimeout } from '../timeout.js'
import { hasPlaceholderSignature } from '../transactions.js'
import { createTracer, isJavaScript, prepareTracer, traceTimeout, type TraceBudget, type TraceConfig } from './config.js'
import { withSenderAddress } from '../engine/tx.js'
import { bindState } from '../engine/vm.js'
import { TraceHooks } from './hooks.js'
import { frameError } from './opcodes.js'
import type { Tracer } from './types.js'

const ZERO_ADDRESS = new Uint8Array(20)
const ZERO_HASH = new Uint8Array(32)

/** State and block overrides of debug_traceCall (as eth_call's), and the transaction of the block to run after. */
export interface TraceCallOptions extends CallOptions {
  /** Run on the state before this transaction of the block instead of after the block (geth's `txIndex`). */
  txIndex?: number | undefined
}

/** One transaction's entry of a block trace. */
export interface BlockTraceEntry {
  txHash: string
  result?: unknown
  error?: string
}

interface TracingVm {
  vm: VM
  guard: CallGuard
  hooks: TraceHooks
  common: Common
}

interface Traced {
  tracer: Tracer
  timeoutMs: number
}

/** What a replay does besides running (and tracing) the transactions. */
interface ReplayHooks {
  /** After each transaction: the overlay, the state under it and that state's root. */
  afterTx?: (at: ReplayState) => Promise<void>
  /**
   * Receives the overlay afterwards (the state a later call runs on) and the function that
   * releases the state under it.
   */
  keep?: (at: ReplayState, close: () => void) => void
  /** A transaction the EVM refuses ends the replay instead of failing it (geth's IntermediateRoots). */
  stopAtInvalid?: boolean
}

/** A replay's overlay, the state it lies over (the block's parent state) and that state's root. */
export interface ReplayState {
  state: JournaledState
  base: StateReader
  baseRoot: Uint8Array
}

/** The sender a transaction's signature names, or the zero address when it names none (runTx refuses it). */
function signer(tx: TypedTransaction): Uint8Array {
  try {
    return tx.getSenderAddress().bytes
  } catch {
    return ZERO_ADDRESS
  }
}

/** A transaction that answers with the sender its receipt names (impersonated ones carry no real signature). */
function withSender(tx: TypedTransaction, from: Uint8Array): { tx: TypedTransaction; exempt: boolean } {
  let recovered: Uint8Array | undefined
  try {
    recovered = tx.getSenderAddress().bytes
  } catch {
    recovered = undefined
  }
  if (recovered !== undefined && equalBytes(recovered, from)) return { tx, exempt: hasPlaceholderSignature(tx, from) }
  const sender = new Address(from)
  return { tx: withSenderAddress(tx, sender), exempt: true }
}

/** The EIP-7702 authorities a transaction names (those whose signature recovers). */
function authorities(tx: TypedTransaction): Uint8Array[] {
  const list = (tx as unknown as { authorizationList?: EOACode7702AuthorizationListBytesItem[] }).authorizationList ?? []
  const out: Uint8Array[] = []
  for (const item of list) {
    try {
      out.push(eoaCode7702RecoverAuthority(item).bytes)
    } catch {
      // geth skips authorizations whose signature does not recover.
    }
  }
  return out
}

/** True for a call object, false for a signed transaction. */
function isRequest(call: CallRequest | TypedTransaction): call is CallRequest {
  return typeof (call as { hash?: unknown }).hash !== 'function'
}

/** Reads a journaled overlay as a `StateReader`, so overrides can be laid over a replayed state. */
function readerOf(state: JournaledState): StateReader {
  return {
    getAccount: (address) => state.getAccount(new Address(fromHex(address))),
    getStorage: (address, slot) => state.getStorage(new Address(fromHex(address)), fromHex(slot)),
    getCode: (address) => state.getCode(new Address(fromHex(address))),
  }
}

/** The debug_trace* work of one node: replays and traced calls on its own pool of tracing VMs. */
export class Tracing {
  private readonly idle = new Map<Common, TracingVm[]>()

  constructor(
    private readonly chain: Chain,
    private readonly calls: CallExecutor,
    private readonly clock: Clock,
    private readonly limits: Readonly<Limits>,
    /** Hardhat mode: the default tracer answers Hardhat's struct-log form. */
    private readonly hardhat = false,
    /**
     * The block hooks' BeginBlock of a block, as its builder ran it (the `cosmos` option: its
     * distribution and slashing writes before the first transaction), re-run by a replay.
     */
    private readonly beginBlock?: (state: JournaledState, block: Block) => Promise<void>,
  ) {}

  /** The tracer of one transaction. */
  private tracer(config: TraceConfig, budget: TraceBudget): Tracer {
    return createTracer(config, budget, this.jsLimits(), this.hardhat)
  }

  /** The sandbox limits of a JavaScript tracer (`limits.jsTracer*`). */
  private jsLimits(): JsTracerLimits {
    return { memoryBytes: this.limits.jsTracerMemoryBytes, stackBytes: this.limits.jsTracerStackBytes, callMs: this.limits.jsTracerCallMs }
  }

  /** The output budget of one request (`limits.traceBytes`). */
  private budget(): TraceBudget {
    return { bytes: this.limits.traceBytes, limit: this.limits.traceBytes }
  }

  /**
   * Transaction `index` of `block` traced (debug_traceTransaction): the block replayed up to it.
   * The block is the history reader's, a fork's remote block included.
   */
  async traceInBlock(block: Block, receipts: StoredReceipt[] | undefined, index: number, config: TraceConfig): Promise<unknown> {
    if (block.header.number === 0n) throw new Refused('genesis is not traceable')
    await prepareTracer(config)
    const tracer = this.tracer(config, this.budget())
    try {
      await this.replayWith(block, receipts, index + 1, (i) => (i === index ? tracer : undefined), traceTimeout(config))
    } catch (error) {
      tracer.dispose?.()
      throw error
    }
    return tracer.result()
  }

  /**
   * The first `count` transactions of `block` replayed, those `make` gives a tracer for traced
   * (the trace_* methods bring their own tracers), each under `timeoutMs`.
   */
  async replayWith(
    block: Block,
    receipts: StoredReceipt[] | undefined,
    count: number,
    make: (index: number) => Tracer | undefined,
    timeoutMs = traceTimeout({}),
  ): Promise<void> {
    await this.replay(block, receipts, count, (i) => {
      const tracer = make(i)
      return tracer === undefined ? undefined : { tracer, timeoutMs }
    })
  }

  /**
   * debug_traceBlockBy*, debug_traceBlock, debug_traceBadBlock: every transaction of the block,
   * traced. `receipts` undefined: a block the chain does not hold (its parent must be on it); the
   * senders are recovered from the signatures and nothing checks the replay against a receipt.
   */
  async traceBlock(block: Block, receipts: StoredReceipt[] | undefined, config: TraceConfig): Promise<BlockTraceEntry[]> {
    if (block.header.number === 0n) throw new Refused('genesis is not traceable')
    const txs = block.transactions
    await prepareTracer(config)
    if (isJavaScript(config.tracer) || typeof config.tracer === 'object') return this.traceBlockEach(block, receipts, config)
    const timeoutMs = traceTimeout(config)
    const budget = this.budget()
    const traced = txs.map((): Traced => ({ tracer: this.tracer(config, budget), timeoutMs }))
    await this.replay(block, receipts, txs.length, (i) => traced[i])
    return traced.map(({ tracer }, i) => ({ txHash: data((txs[i] as TypedTransaction).hash()), result: tracer.result() }))
  }

  /**
   * A block trace with a JavaScript tracer or a tracer object: one tracer per transaction, made
   * when the transaction comes and asked for its result right after it, so that one sandbox at a
   * time is alive. As geth, a JavaScript tracer's failure is that transaction's entry
   * (`{ txHash, error }`) and the others are still traced.
   */
  private async traceBlockEach(block: Block, receipts: StoredReceipt[] | undefined, config: TraceConfig): Promise<BlockTraceEntry[]> {
    const txs = block.transactions
    const timeoutMs = traceTimeout(config)
    const budget = this.budget()
    const entries: BlockTraceEntry[] = []
    let current: Tracer | undefined
    let index = 0
    const hashOf = (i: number) => data((txs[i] as TypedTransaction).hash())
    const made = (i: number): Traced | undefined => {
      index = i
      try {
        current = this.tracer(config, budget)
      } catch (error) {
        if (!isDomainError(error)) throw error
        entries[i] = { txHash: hashOf(i), error: error.message }
        return undefined
      }
      return { tracer: current, timeoutMs }
    }
    const collect = async () => {
      const tracer = current
      current = undefined
      if (tracer === undefined || entries[index] !== undefined) return
      try {
        entries[index] = { txHash: hashOf(index), result: await tracer.result() }
      } catch (error) {
        if (!isDomainError(error)) throw error
        entries[index] = { txHash: hashOf(index), error: error.message }
      }
    }
    try {
      await this.replay(block, receipts, txs.length, made, { afterTx: collect })
    } finally {
      current?.dispose?.()
    }
    return entries
  }

  /** debug_traceCall: a call traced as eth_call runs it (state and block overrides included). */
  async traceCall(req: CallRequest, block: Block, options: TraceCallOptions, config: TraceConfig): Promise<unknown> {
    await prepareTracer(config)
    const tracer = this.tracer(config, this.budget())
    try {
      await this.traceCallsWith([{ call: req, tracer }], block, options, traceTimeout(config))
    } catch (error) {
      tracer.dispose?.()
      throw error
    }
    return tracer.result()
  }

  /**
   * Calls (or signed transactions) run one after another on one overlay of the state after
   * `block` (trace_call, trace_callMany, trace_rawTransaction), each with its tracer, as eth_call
   * runs a call: no nonce check, no block gas limit, and without a price no fee.
   */
  async traceCallsWith(
    runs: ReadonlyArray<{ call: CallRequest | TypedTransaction; tracer: Tracer }>,
    block: Block,
    options: TraceCallOptions,
    timeoutMs = traceTimeout({}),
  ): Promise<void> {
    // The block's own fork, as eth_call: an old block's rules on a chain with a schedule.
    const common = block.common
    const { reader, close } = await this.callState(block, options)
    const overlay = new JournaledState(reader)
    let from: Uint8Array = ZERO_ADDRESS
    let vm: TracingVm | undefined
    let reusable = true
    let restore = () => {}
    try {
      vm = await this.lease(common)
      bindState(vm.vm, overlay)
      if (options.state !== undefined) restore = applyPrecompileOverrides(vm.vm.evm, options.state)
      for (const { call, tracer } of runs) {
        let tx: TypedTransaction
        let context: Block
        if (isRequest(call)) {
          from = call.from ?? ZERO_ADDRESS
          const gas = this.calls.gasCap(call.gas, overriddenBlock(block, options.block, common))
          // geth's NoBaseFee: a call without a price pays nothing and BASEFEE reads 0.
          context = overriddenBlock(block, isPriced(call) ? options.block : { ...options.block, baseFeePerGas: 0n }, common)
          const nonce = (await overlay.getAccount(new Address(from)))?.nonce ?? 0n
          tx = callTransaction(call, nonce, gas, context, common)
        } else {
          from = signer(call)
          context = overriddenBlock(block, options.block, common)
          tx = call
        }
        // geth lets a call come from an account with code (SkipFromEOACheck).
        await this.runTraced(vm, overlay, tx, context, { tracer, timeoutMs }, 0, { skipNonce: true, skipBlockGasLimitValidation: true }, true, {
          blockHash: block.hash(),
          txHash: undefined,
          txIndex: undefined,
        })
      }
    } catch (error) {
      if (error instanceof EvmTimeout) reusable = false
      throw this.failure(error, from)
    } finally {
      restore()
      close()
      if (vm !== undefined) this.release(vm, reusable)
    }
  }

  /** The state a traced call reads: after `block`, or before its transaction `txIndex`; overrides over it. */
  private async callState(block: Block, options: TraceCallOptions): Promise<{ reader: StateReader; close: () => void }> {
    if (options.txIndex === undefined) return this.calls.readState(block, options.state)
    if (options.txIndex > block.transactions.length) {
      throw new Refused(`transaction index ${options.txIndex} out of range for block 0x${keyOf(block.hash())}`)
    }
    if (options.state !== undefined) validateOverrides(options.state)
    let kept: { state: JournaledState; close: () => void } | undefined
    const receipts = await this.chain.receipts(block.hash())
    await this.replay(block, receipts, options.txIndex, () => undefined, {
      keep: ({ state }, close) => {
        kept = { state, close }
      },
    })
    const { state, close } = kept as { state: JournaledState; close: () => void }
    const reader = readerOf(state)
    return { reader: options.state === undefined ? reader : new OverriddenState(reader, options.state), close }
  }

  /**
   * debug_intermediateRoots: the state root after each transaction of `block` (the root geth's
   * `IntermediateRoot` gives: the block's start-of-block system writes included, its
   * post-transaction work — withdrawals, EIP-7002/7251 requests, rewards — not). A transaction the
   * EVM refuses (a bad block's) ends the list, as in geth.
   */
  async intermediateRoots(block: Block, receipts: StoredReceipt[] | undefined): Promise<Uint8Array[]> {
    const roots: Uint8Array[] = []
    await this.replay(block, receipts, block.transactions.length, () => undefined, {
      stopAtInvalid: true,
      afterTx: async ({ state, base, baseRoot }) => {
        const diff = state.diff()
        // Every written key read once from the state under the replay first: a fork's remote
        // block's parent state is read on demand, and a read brings the trie nodes on the key's path.
        await Promise.all([...diff.accounts.keys()].map((a) => base.getAccount(a)))
        await Promise.all([...diff.storage].flatMap(([a, slots]) => [...slots.keys()].map((k) => base.getStorage(a, k))))
        roots.push(await this.chain.rootOf(baseRoot, diff, base))
      },
    })
    return roots
  }

  /**
   * Runs `use` on the state before transaction `txIndex` of `block` (after the start-of-block
   * system writes): geth's `stateAtTransaction`, with its errors.
   */
  async atTransaction<T>(block: Block, receipts: StoredReceipt[] | undefined, txIndex: number, use: (at: ReplayState) => Promise<T>): Promise<T> {
    if (block.header.number === 0n) throw new Refused('no transaction in genesis')
    const count = block.transactions.length
    // geth: the state of an empty block is there for index 0; otherwise the index names a transaction.
    if (!(txIndex === 0 && count === 0) && (txIndex < 0 || txIndex >= count)) {
      throw new Refused(`transaction index ${txIndex} out of range for block ${data(block.hash())}`)
    }
    let kept: { at: ReplayState; close: () => void } | undefined
    await this.replay(block, receipts, txIndex, () => undefined, {
      keep: (at, close) => {
        kept = { at, close }
      },
    })
    const { at, close } = kept as { at: ReplayState; close: () => void }
    try {
      return await use(at)
    } finally {
      close()
    }
  }

  /** The parent of a block being replayed; geth's `blockByNumberAndHash` and its errors. */
  private async parentOf(block: Block): Promise<Block> {
    const number = block.header.number - 1n
    const byNumber = await this.chain.blockByNumber(number)
    if (byNumber === undefined) throw new NotFound(`block #${number} not found`)
    if (equalBytes(byNumber.hash(), block.header.parentHash)) return byNumber
    const byHash = await this.chain.blockByHash(block.header.parentHash)
    if (byHash === undefined) throw new NotFound(`block ${data(block.header.parentHash)} not found`)
    return byHash
  }

  /**
   * Runs the first `count` transactions of `block` on its parent's state, tracing those `traced`
   * names. With `receipts` each transaction runs with the sender its receipt names and must use
   * the gas the receipt says; without (a block not on the chain), with the sender its signature
   * names.
   */
  private async replay(
    block: Block,
    receipts: StoredReceipt[] | undefined,
    count: number,
    traced: (index: number) => Traced | undefined,
    hooks: ReplayHooks = {},
  ): Promise<void> {
    if (block.header.number === 0n) throw new Refused('genesis is not traceable')
    const parent = await this.parentOf(block)
    // The state the block was built on: its parent's as reads see it (test-control writes at the parent included).
    // Read together, with no await between, so the head view and the head root are one version.
    const base = this.chain.stateAt(parent)
    const root = this.chain.stateRootOf(parent)
    const state = new JournaledState(base)
    const at: ReplayState = { state, base, baseRoot: root }
    let vm: TracingVm | undefined
    let sender: Uint8Array = ZERO_ADDRESS
    let reusable = true
    let kept = false
    try {
      vm = await this.lease(block.common)
      bindState(vm.vm, state)
      const header = block.header
      await preBlock(vm.vm, header.number, header.timestamp, header.parentHash, header.parentBeaconBlockRoot ?? ZERO_HASH)
      if (this.beginBlock !== undefined) await this.beginBlock(state, block)
      let gasUsed = 0n
      let logIndex = 0
      for (let i = 0; i < count; i++) {
        const included = block.transactions[i]
        const receipt = receipts?.[i]
        if (included === undefined || (receipts !== undefined && receipt === undefined)) {
          throw new NotFound(`transaction ${i} of block ${header.number} has no receipt`)
        }
        let tx = included
        // The builder let impersonated senders with code send (EIP-3607 skipped): so does the replay.
        let exempt = false
        if (receipt === undefined) {
          sender = signer(included)
        } else {
          sender = receipt.from
          const named = withSender(included, sender)
          tx = named.tx
          exempt = named.exempt
        }
        const options = { blockGasUsed: gasUsed }
        const trace = traced(i)
        let result: RunTxResult
        try {
          if (trace === undefined && exempt) state.exemptFromEoaCheck(sender)
          result =
            trace === undefined
              ? await runTransaction(vm.vm, { tx, block, skipHardForkValidation: true, ...options })
              : await this.runTraced(vm, state, tx, block, trace, logIndex, options, exempt, {
                  blockHash: block.hash(),
                  txHash: included.hash(),
                  txIndex: i,
                })
        } catch (error) {
          if (hooks.stopAtInvalid === true && !(error instanceof EvmTimeout) && !isDomainError(error)) break
          throw error
        }
        if (receipt !== undefined && result.totalGasSpent !== receipt.gasUsed) {
          throw new Refused(
            `replaying transaction ${data(included.hash())} used ${result.totalGasSpent} gas, its receipt says ${receipt.gasUsed}: the state it ran on differs from the block's`,
          )
        }
        const status = result.execResult.exceptionError === undefined ? 1 : 0
        if (receipt !== undefined && receipt.root === undefined && status !== receipt.status) {
          throw new Refused(
            `replaying transaction ${data(included.hash())} ${status === 1 ? 'succeeded' : 'failed'}, its receipt says it ${receipt.status === 1 ? 'succeeded' : 'failed'}: the state it ran on differs from the block's`,
          )
        }
        gasUsed += result.blockGasSpent ?? result.totalGasSpent
        logIndex += result.receipt.logs.length
        await hooks.afterTx?.(at)
      }
      if (hooks.keep !== undefined) {
        hooks.keep(at, () => base.close())
        kept = true
      }
    } catch (error) {
      if (error instanceof EvmTimeout) reusable = false
      throw this.failure(error, sender)
    } finally {
      if (!kept) base.close()
      if (vm !== undefined) this.release(vm, reusable)
    }
  }

  /** One transaction with `traced.tracer` attached, under its time-out. */
  private async runTraced(
    vm: TracingVm,
    state: JournaledState,
    tx: TypedTransaction,
    block: Block,
    { tracer, timeoutMs }: Traced,
    logIndex: number,
    options: { blockGasUsed?: bigint; skipNonce?: boolean; skipBlockGasLimitValidation?: boolean },
    exemptSender = false,
    where: { blockHash: Uint8Array; txHash: Uint8Array | undefined; txIndex: number | undefined } = {
      blockHash: block.hash(),
      txHash: undefined,
      txIndex: undefined,
    },
  ): Promise<RunTxResult> {
    const from = tx.getSenderAddress()
    const create = tx.to === undefined
    const nonce = (await state.getAccount(from))?.nonce ?? 0n
    await tracer.onTxStart?.({
      from: from.bytes,
      to: create ? keccak256(RLP.encode([from.bytes, nonce])).subarray(12) : (tx.to as Address).bytes,
      create,
      value: tx.value,
      gasLimit: tx.gasLimit,
      coinbase: block.header.coinbase.bytes,
      authorities: authorities(tx),
      state,
      delegations: vm.common.isActivatedEIP(7702),
      precompiles: new Set((vm.vm.evm as unknown as { precompiles: Map<string, unknown> }).precompiles.keys()),
      logIndex,
      input: tx.data,
      gasPrice: effectivePrice(tx, block.header.baseFeePerGas),
      intrinsicGas: tx.getIntrinsicGas(),
      blockNumber: block.header.number,
      ...where,
    })
    // The exemption hides the sender's code from the next read only: it must be runTx's EIP-3607
    // check, after the nonce and the tracer's own reads of the sender above.
    if (exemptSender) state.exemptFromEoaCheck(from.bytes)
    vm.guard.armUntil(this.clock.now() + timeoutMs)
    let result: RunTxResult
    try {
      result = await vm.hooks.trace(tracer, () => runTransaction(vm.vm, { tx, block, skipHardForkValidation: true, ...options }))
    } finally {
      vm.guard.disarm()
    }
    await tracer.onTxEnd?.({
      gasUsed: result.totalGasSpent,
      output: result.execResult.returnValue,
      error: frameError(result.execResult, create),
      state,
    })
    return result
  }

  /** geth's error for a trace that could not finish. */
  private failure(error: unknown, from: Uint8Array): Error {
    if (error instanceof EvmTimeout) return new Refused('execution timeout')
    if (isDomainError(error)) return error
    return new Refused(`tracing failed: ${gethMessage(error, from).message}`)
  }

  private async lease(common: Common): Promise<TracingVm> {
    const idle = this.idle.get(common)?.pop()
    if (idle !== undefined) return idle
    const vm = await createEngineVM({ common, stateManager: new JournaledState(this.chain.headState()), blockchain: callBlockhashes(this.chain) }, this.calls.ecrecover, this.calls.precompiles)
    const guard = new CallGuard(this.clock)
    guard.install(vm.evm)
    return { vm, guard, hooks: new TraceHooks(vm.evm as EVM), common }
  }

  /** Returns a VM to its pool, unless a time-out left it mid-execution. */
  private release(vm: TracingVm, reusable: boolean): void {
    vm.guard.disarm()
    if (!reusable) return
    let pool = this.idle.get(vm.common)
    if (pool === undefined) this.idle.set(vm.common, (pool = []))
    pool.push(vm)
  }
}

/** The price per gas a transaction pays in a block with `baseFee` (geth's `GasPrice` in the EVM context). */
function effectivePrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if ('maxFeePerGas' in tx) {
    const tip = (tx as { maxPriorityFeePerGas: bigint }).maxPriorityFeePerGas
    const max = (tx as { maxFeePerGas: bigint }).maxFeePerGas
    const price = (baseFee ?? 0n) + tip
    return price < max ? price : max
  }
  return (tx as { gasPrice: bigint }).gasPrice
}
