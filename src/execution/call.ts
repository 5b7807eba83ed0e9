/**
 * eth_call and eth_estimateGas: a transaction run on a throwaway overlay of a block's state,
 * with geth's rules: no nonce check, no fee unless a price is given (then BASEFEE reads 0).
 * Without a price the sender's balance is not checked: one short of the value is raised to it
 * for the run, as Hardhat does (geth refuses); with a price it has to cover value and fee. State and block overrides shape that overlay
 * and block only; `rpc-gas-cap` caps the gas and `rpc-evm-timeout` bounds the execution.
 */
import type { Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm'
import { TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import type { VM, RunTxResult } from '@ethereumjs/vm'
import { runTransaction } from './engine/run-tx.js'
import { bindState, createEngineVM } from './engine/vm.js'
import { setGasAndNonce, setIntrinsicGas, setSender } from './engine/tx.js'
import type { EcrecoverOverrides } from './ecrecover-overrides.js'
import type { MessagePrecompile } from './engine/precompiles.js'
import type { Chain } from '../chain/chain.js'
import type { Clock } from '../clock.js'
import { Refused } from '../domain-errors.js'
import { keyOf } from '../hex.js'
import type { Limits } from '../limits.js'
import type { CallRequest } from './call-request.js'
import { JournaledState, NOT_AT_HAND } from '../state/journaled-state.js'
import type { StateReader } from '../state/types.js'
import { attachConsoleLog } from './console-log.js'
import { readRefusal } from './geth-wording.js'
import {
  OverriddenState,
  applyPrecompileOverrides,
  overriddenBlock,
  validateOverrides,
  type BlockOverrides,
  type StateOverrides,
} from './overrides.js'
import { GasProbe, hardhatEstimate } from './hardhat-estimate.js'
import { GasWatch, provenLimit, type GasNeed } from './gas-watch.js'
import { revertError } from './revert.js'
import { hardhatFailure, solidityFrames } from './transaction-failure.js'
import type { FailureReport } from '../metadata/source-map.js'
import { CallGuard, EvmTimeout, ExecutionAbortedError, timeoutError } from './timeout.js'
import { requestTransaction, type Fees } from './request-tx.js'

const ZERO_ADDRESS = new Uint8Array(20)
const ZERO_HASH = new Uint8Array(32)
/** The block override of an unpriced run without block overrides: base fee 0 (geth's NoBaseFee). */
const FEELESS: BlockOverrides = Object.freeze({ baseFeePerGas: 0n })

/** Overrides and reporting choices of one eth_call / eth_estimateGas / eth_createAccessList. */
export interface CallOptions {
  state?: StateOverrides | undefined
  block?: BlockOverrides | undefined
}

/** eth_estimateGas's settings. */
export interface EstimateOptions extends CallOptions {
  /**
   * Deliver the console.log messages of the run that shows the transaction fails, as Hardhat
   * prints them for a failed eth_estimateGas. A successful estimate delivers nothing: its runs
   * are the node's search for a gas limit, not executions anyone asked for.
   */
  consoleLogOnFailure?: boolean
}

/** One run's settings. */
export interface RunOptions extends CallOptions {
  /** Record the addresses and slots the run touches (`result.accessList`). */
  reportAccessList?: boolean
  /** Absolute deadline on the node's clock; several runs can share one (estimateGas). */
  deadline?: number | undefined
  /** Where this run's Solidity console.log messages go; none = nowhere. */
  consoleLog?: ((message: string) => void) | undefined
  /** The tip when the request names no price (Hardhat's estimates); default 0. */
  tip?: bigint
  /** Given what the run showed about the gas it needs (gas-watch.ts), when it ran. */
  onGasNeed?: (need: GasNeed | undefined) => void
  /** What the runs of one request share (an estimate's search): see {@link SharedRuns}. */
  shared?: SharedRuns
}

/**
 * What the runs of one eth_estimateGas share: they read the same state and run the same
 * transaction, only its gas limit differs. The state view is read once and the transaction made
 * by the first run; a later run with no more gas sets its gas limit (every check the
 * transaction's making does on the gas limit passes for a lower one), so its data is not copied
 * and counted again. The owner closes the view (`close`) after the last run.
 */
export interface SharedRuns {
  view?: { reader: StateReader; close: () => void } | undefined
  /** The transaction the first run made, and the gas limit it was made (and checked) with. */
  tx?: TypedTransaction | undefined
  madeWith?: bigint | undefined
}

/** Closes what an estimate's runs shared. */
function closeShared(shared: SharedRuns): void {
  const view = shared.view
  shared.view = undefined
  view?.close()
}

/** A call VM with its timeout guard, leased for one run at a time. */
export interface Lease {
  vm: VM
  guard: CallGuard
  watch: GasWatch
  /** The fork the VM runs under (idle VMs are pooled by it). */
  common: Common
  /** Where the console.log messages of the run under way go (set per run, cleared on release). */
  consoleLog: ((message: string) => void) | undefined
  /** The VM's own overlay, which {@link CallExecutor.run} rebases on each run's state. */
  overlay: JournaledState
}

/** The CallExecutor's settings. */
export interface CallExecutorOptions {
  /** The node's console.log listener; without one no VM listens and runs pay nothing for it. */
  onConsoleLog?: ((message: string) => void) | undefined
  /**
   * False: eth_call of a failing call answers its return data (a revert's data, `0x` for other
   * failures) instead of an error, as Hardhat's `throwOnCallFailures: false`. Default true.
   */
  throwOnCallFailures?: boolean
  /** The node's ecrecover overrides (anvil_impersonateSignature), for every VM it makes. */
  ecrecover?: EcrecoverOverrides | undefined
  /** The node's own precompiles (the `cosmos` option's), for every VM it makes. */
  precompiles?: readonly MessagePrecompile[] | undefined
  /**
   * Hardhat Network's rules (`hardhatCompat`, measured on EDR): the block's base fee reads 0 and
   * the sender's balance is never checked, whatever price the request names; eth_estimateGas runs
   * with a tip of {@link HARDHAT_ESTIMATE_TIP} when the request names no gas price (so code that
   * pays out only when `tx.gasprice > 0` is estimated as it will run); failures answer Hardhat's
   * errors (`hardhat-errors.ts`).
   */
  hardhat?: boolean
  /**
   * In Hardhat mode, what the contract metadata says about a failed call or estimate (its custom
   * error by name, its Solidity frames); asked only after a failure, and answers at once without
   * metadata.
   */
  explain?: ((req: CallRequest, block: Block, options: CallOptions) => Promise<FailureReport | undefined>) | undefined
}

/** The tip (the gas price, base fee being 0) of Hardhat's eth_estimateGas when none is given: 1 gwei. */
export const HARDHAT_ESTIMATE_TIP = 1_000_000_000n

/**
 * Geth's words for a creation over the code or initcode size limit (vm.ErrMaxCodeSizeExceeded,
 * vm.ErrMaxInitCodeSizeExceeded), which eth_call and eth_estimateGas answer as they are.
 */
const SIZE_ERRORS = new Map([
  ['code size to deposit exceeds maximum code size', 'max code size exceeded'],
  ['initcode exceeds max initcode size', 'max initcode size exceeded'],
])

/** What `CallExecutor#call` answers with, given its run's result. */
type CallAnswer = (executor: CallExecutorOptions, exec: RunTxResult['execResult'], req: CallRequest, block: Block, options: CallOptions) => Uint8Array | Promise<never>

/** A call's answer: its return data. */
function returnData(_executor: CallExecutorOptions, exec: RunTxResult['execResult']): Uint8Array {
  return exec.returnValue
}

/**
 * A failed call's error. Its own function, reached as `returnData` is through `call` on every
 * request: a suite's first failing `eth_call` can come after V8 compiled `CallExecutor#call`, and
 * the branch, never taken, had no type feedback (its reads of the error), which V8 compiles as a
 * deopt (Seaport's replay, Node 20 and 24). V8 does not take the target of a
 * `Function.prototype.call` from feedback, nor inline a function never called.
 */
async function callFailure(executor: CallExecutorOptions, exec: RunTxResult['execResult'], req: CallRequest, block: Block, options: CallOptions): Promise<never> {
  const error = (exec.exceptionError as NonNullable<typeof exec.exceptionError>).error
  if (executor.hardhat === true) throw hardhatFailure(error, exec.returnValue, undefined, await executor.explain?.(req, block, options), req.to)
  if (error === 'revert') throw revertError(exec.returnValue, solidityFrames(await executor.explain?.(req, block, options)))
  throw new Refused(SIZE_ERRORS.get(error) ?? error)
}

/** Geth's wording for refusals that ethereumjs words its own way (read in `geth-wording.ts`). */
export function gethMessage(error: unknown, from: Uint8Array): Refused {
  return new Refused(readRefusal(error, from, { nonce: false, initcode: true }).message)
}

/**
 * The block-hash source of call VMs: the chain's blocks, then `extra` (eth_simulateV1's
 * simulated blocks); unknown heights (a block number overridden past the head) read zero.
 */
export function callBlockhashes(chain: Chain, extra?: Map<bigint, Uint8Array>): EVMMockBlockchainInterface {
  const source: EVMMockBlockchainInterface = {
    async getBlock(number: number) {
      const n = BigInt(number)
      // A fork's blocks below its fork block are the remote's.
      const hash = chain.hashAt(n) ?? extra?.get(n) ?? (n < chain.firstNumber ? (await chain.blockByNumber(n))?.hash() : undefined) ?? ZERO_HASH
      return { hash: () => hash }
    },
    async putBlock() {},
    shallowCopy: () => source,
  }
  return source
}

/**
 * The type of the transaction a call runs as: EIP-7702 with an authorization list (its
 * delegations apply and each authorization costs its intrinsic gas), EIP-4844 with blob hashes
 * (BLOBHASH reads them), EIP-1559 with a fee cap or tip, EIP-2930 with an access list, else legacy.
 */
export function callType(req: CallRequest): TransactionType {
  if (req.authorizationList !== undefined) return TransactionType.EOACodeEIP7702
  if (req.blobVersionedHashes !== undefined) return TransactionType.BlobEIP4844
  if (req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined) return TransactionType.FeeMarketEIP1559
  return req.accessList !== undefined ? TransactionType.AccessListEIP2930 : TransactionType.Legacy
}

/**
 * The (unsigned) transaction a call request describes, sent by `req.from`. `tip`: the priority fee
 * (or the gas price of a request with neither) when the request names none; 0 as in geth.
 */
export function callTransaction(req: CallRequest, nonce: bigint, gasLimit: bigint, block: Block, common: Common, tip = 0n): TypedTransaction {
  const type = callType(req)
  let fees: Fees
  if (req.gasPrice !== undefined || type === TransactionType.Legacy || type === TransactionType.AccessListEIP2930) fees = { gasPrice: req.gasPrice ?? tip }
  else {
    const maxFeePerGas = req.maxFeePerGas ?? (block.header.baseFeePerGas ?? 0n) * 2n + (req.maxPriorityFeePerGas ?? tip)
    fees = { maxFeePerGas, maxPriorityFeePerGas: req.maxPriorityFeePerGas ?? (tip < maxFeePerGas ? tip : maxFeePerGas) }
  }
  // An unpriced call with blob hashes pays the block's blob price (it is not charged: no balance check).
  const blobFee = type === TransactionType.BlobEIP4844 && req.maxFeePerBlobGas === undefined && block.header.excessBlobGas !== undefined ? { maxFeePerBlobGas: block.header.getBlobGasPrice() } : undefined
  const tx = requestTransaction(blobFee === undefined ? req : { ...req, ...blobFee }, type, nonce, gasLimit, fees, { common, freeze: false })
  const sender = new Address(req.from ?? ZERO_ADDRESS)
  setSender(tx, sender)
  setIntrinsicGas(tx)
  return tx
}

/** True when the request names a fee (then the block's base fee applies, as in geth). */
export function isPriced(req: CallRequest): boolean {
  return req.gasPrice !== undefined || req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined
}


/** Hardhat's refusal of a gas limit above EIP-7825's cap in an estimate (EDR's words). */
function capRefusal(gas: bigint, cap: bigint): Refused {
  return new Refused(`transaction gas limit (${gas}) is greater than the cap (${cap})`)
}

export class CallExecutor {
  /** Idle call VMs by fork: a call runs under its block's fork (a chain with a schedule has several). */
  private readonly idle = new Map<Common, Lease[]>()

  constructor(
    private readonly chain: Chain,
    private readonly common: Common,
    private readonly limits: Readonly<Limits>,
    private readonly clock: Clock,
    private readonly options: CallExecutorOptions = {},
  ) {}

  /** The node's ecrecover overrides, which the tracer's and block builders' VMs use too. */
  get ecrecover(): EcrecoverOverrides | undefined {
    return this.options.ecrecover
  }

  /** The node's own precompiles, which the tracer's and block builders' VMs get too. */
  get precompiles(): readonly MessagePrecompile[] | undefined {
    return this.options.precompiles
  }

  /** The node's console.log listener, for runs whose messages someone asked for. */
  get onConsoleLog(): ((message: string) => void) | undefined {
    return this.options.onConsoleLog
  }

  /** A deadline `rpc-evm-timeout` from now, or undefined when the limit is off. */
  deadline(): number | undefined {
    const ms = this.limits.rpcEvmTimeoutMs
    return ms > 0 ? this.clock.now() + ms : undefined
  }

  /** The error of a run aborted by its deadline. */
  timeoutError(): Refused {
    return timeoutError(this.limits.rpcEvmTimeoutMs)
  }

  /** Gas of a run: the requested gas (or the block's limit), capped by `rpc-gas-cap`. */
  gasCap(requested: bigint | undefined, block: Block, perTransaction = true): bigint {
    let gas = requested ?? block.header.gasLimit
    const cap = this.limits.rpcGasCap
    if (cap > 0n && gas > cap) gas = cap
    // Osaka's per-transaction gas cap (EIP-7825) bounds calls too, as geth caps them.
    const max = perTransaction ? this.transactionGasCap(block) : undefined
    if (max !== undefined && gas > max) gas = max
    return gas
  }

  /** EIP-7825's cap of a transaction's gas limit on `block`'s fork, if it has one. */
  transactionGasCap(block: Block): bigint | undefined {
    return block.common.isActivatedEIP(7825) ? block.common.param('maxTransactionGasLimit') : undefined
  }

  /** eth_simulateV1's gas for a whole request: `rpc-gas-cap`, or undefined when it is 0 (none), as geth. */
  gasBudget(): bigint | undefined {
    const cap = this.limits.rpcGasCap
    return cap > 0n ? cap : undefined
  }

  /**
   * A call VM for one run under `common` (the node's fork by default); give it back with
   * {@link release}. One with its own block-hash source (eth_simulateV1) is made for the caller,
   * not taken from or returned to the pool.
   */
  async lease(blockhashes?: EVMMockBlockchainInterface, common: Common = this.common): Promise<Lease> {
    const idle = blockhashes === undefined ? this.idle.get(common)?.pop() : undefined
    if (idle !== undefined) return idle
    const overlay = new JournaledState(this.chain.headState())
    const vm = await createEngineVM(
      {
        common,
        stateManager: overlay,
        blockchain: blockhashes ?? callBlockhashes(this.chain),
      },
      this.options.ecrecover,
      this.options.precompiles,
    )
    const guard = new CallGuard(this.clock)
    if (this.limits.rpcEvmTimeoutMs > 0) guard.install(vm.evm)
    const watch = new GasWatch()
    watch.install(vm.evm)
    const lease: Lease = { vm, guard, watch, common, consoleLog: undefined, overlay }
    if (this.onConsoleLog !== undefined) attachConsoleLog(vm.evm, (message) => lease.consoleLog?.(message))
    return lease
  }

  /** Returns a VM to the pool, unless a timeout left it mid-execution. */
  release(lease: Lease, reusable: boolean, pooled = true): void {
    lease.guard.disarm()
    lease.consoleLog = undefined
    if (!reusable || !pooled) return
    const idle = this.idle.get(lease.common)
    if (idle === undefined) this.idle.set(lease.common, [lease])
    else idle.push(lease)
  }

  /** The state a run reads: the block's state with the overrides over it; close it after use. */
  readState(block: Block, overrides: StateOverrides | undefined): { reader: StateReader; close: () => void } {
    const state = this.chain.stateAt(block)
    if (overrides === undefined || overrides.size === 0) return { reader: state, close: () => state.close() }
    try {
      validateOverrides(overrides)
    } catch (error) {
      state.close()
      throw error
    }
    return { reader: new OverriddenState(state, overrides), close: () => state.close() }
  }

  /** Runs the request once with `gas`; never changes the chain. */
  async run(req: CallRequest, block: Block, gas: bigint, options: RunOptions = {}): Promise<RunTxResult> {
    const shared = options.shared
    const view = shared?.view ?? this.readState(block, options.state)
    if (shared !== undefined) shared.view = view
    const { reader, close } = view
    const from = req.from ?? ZERO_ADDRESS
    let lease: Lease | undefined
    let reusable = true
    let restore = () => {}
    try {
      // The block's own fork: on a chain with a schedule, an old block's rules, not the head's.
      const common = block.common
      // An idle VM without a promise (most runs): an await costs a microtask turn and a promise.
      lease = this.idle.get(common)?.pop() ?? (await this.lease(undefined, common))
      lease.consoleLog = options.consoleLog
      const overlay = lease.overlay
      overlay.rebase(reader)
      bindState(lease.vm, overlay)
      if (options.state !== undefined) restore = applyPrecompileOverrides(lease.vm.evm, options.state)
      const sender = new Address(from)
      const held = overlay.accountNow(sender)
      const nonce = (held === NOT_AT_HAND ? await overlay.getAccount(sender) : held)?.nonce ?? 0n
      // Unpriced (and on Hardhat, always) the base fee reads 0 and the balance is not checked.
      const free = this.options.hardhat === true || !isPriced(req)
      const context = overriddenBlock(block, free ? (options.block === undefined ? FEELESS : { ...options.block, baseFeePerGas: 0n }) : options.block, common)
      let tx = shared?.tx
      if (tx !== undefined && shared?.madeWith !== undefined && gas <= shared.madeWith) setGasAndNonce(tx, gas, nonce)
      else {
        tx = callTransaction(req, nonce, gas, context, common, options.tip)
        if (shared !== undefined) {
          shared.tx = tx
          shared.madeWith = gas
        }
      }
      // geth lets a call come from an account with code (SkipFromEOACheck).
      overlay.exemptFromEoaCheck(from)
      lease.guard.armUntil('deadline' in options ? options.deadline : this.deadline())
      if (options.onGasNeed !== undefined) lease.watch.arm()
      const result = await runTransaction(lease.vm, {
        tx,
        block: context,
        skipNonce: true,
        // Hardhat runs an unpriced call whatever the sender's balance (its calls skip the check).
        skipBalance: free,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
        reportAccessList: options.reportAccessList === true,
      })
      options.onGasNeed?.(lease.watch.finish())
      return result
    } catch (error) {
      if (error instanceof EvmTimeout) {
        reusable = false
        throw this.timeoutError()
      }
      if (error instanceof Refused) throw error
      throw gethMessage(error, from)
    } finally {
      lease?.watch.finish()
      restore()
      if (shared === undefined) close()
      if (lease !== undefined) this.release(lease, reusable)
    }
  }

  /**
   * eth_call: the return data, or the revert as code 3 (with `throwOnCallFailures: false`, the
   * return data of a failed call too). Its console.log messages are delivered, as Hardhat prints them.
   */
  async call(req: CallRequest, block: Block, options: CallOptions = {}): Promise<Uint8Array> {
    const context = overriddenBlock(block, options.block, block.common)
    const result = await this.run(req, block, this.gasCap(req.gas, context), { ...options, consoleLog: this.onConsoleLog })
    const exec = result.execResult
    // The option read on every request, not only after a failure, and the answer through `call`
    // on either function: see `callFailure`.
    const throws = this.options.throwOnCallFailures !== false
    const failed = exec.exceptionError !== undefined && throws
    const answer: CallAnswer = failed ? callFailure : returnData
    return answer.call(undefined, this.options, exec, req, block, options)
  }

  /** eth_estimateGas: the least gas limit with which the transaction succeeds. */
  async estimate(req: CallRequest, block: Block, options: EstimateOptions = {}): Promise<bigint> {
    // Every field from the start: one hidden class for every estimate's runs, whichever fills them first.
    const shared: SharedRuns = { view: undefined, tx: undefined, madeWith: undefined }
    try {
      return await this.search(req, block, options, shared)
    } finally {
      closeShared(shared)
    }
  }

  private async search(req: CallRequest, block: Block, options: EstimateOptions, shared: SharedRuns): Promise<bigint> {
    const context = overriddenBlock(block, options.block, block.common)
    let hi = this.gasCap(req.gas, context)
    const hardhat = this.options.hardhat === true
    // Hardhat refuses a limit the request names above EIP-7825's cap, where geth lowers it.
    const txCap = this.transactionGasCap(context)
    if (hardhat && txCap !== undefined && req.gas !== undefined && req.gas > txCap) throw capRefusal(req.gas, txCap)
    const price = req.gasPrice ?? req.maxFeePerGas
    // Hardhat bounds no estimate by the sender's balance.
    if (!hardhat && price !== undefined && price > 0n) {
      // The runs read this view too.
      shared.view = this.readState(block, options.state)
      const balance = (await shared.view.reader.getAccount(keyOf(req.from ?? ZERO_ADDRESS)))?.balance ?? 0n
      const available = balance - (req.value ?? 0n)
      if (available < 0n) throw new Refused('insufficient funds for transfer')
      const allowance = available / price
      if (allowance < hi) hi = allowance
    }
    const run: RunOptions = { state: options.state, block: options.block, deadline: this.deadline(), shared }
    if (hardhat && req.gasPrice === undefined) run.tip = HARDHAT_ESTIMATE_TIP
    const sink = options.consoleLogOnFailure === true ? this.onConsoleLog : undefined
    const messages: string[] = []
    let first: RunTxResult
    let need: GasNeed | undefined
    const watched: RunOptions = { ...run, onGasNeed: (n) => (need = n) }
    try {
      first = await this.run(req, block, hi, sink === undefined ? watched : { ...watched, consoleLog: (m) => messages.push(m) })
    } catch (error) {
      // Below the intrinsic gas the allowance itself is too small, as geth words it.
      if (error instanceof Refused && error.message.startsWith('intrinsic gas too low')) throw new Refused(`gas required exceeds allowance (${hi})`)
      throw error
    }
    const failure = first.execResult.exceptionError
    if (failure !== undefined) {
      if (sink !== undefined) for (const m of messages) sink(m)
      // Hardhat answers an estimate that fails as the call would, whatever more gas would do.
      if (hardhat) throw hardhatFailure(failure.error, first.execResult.returnValue, undefined, await this.options.explain?.({ ...req, gas: hi }, block, { state: options.state, block: options.block }), req.to)
      if (failure.error === 'revert') throw revertError(first.execResult.returnValue, solidityFrames(await this.options.explain?.({ ...req, gas: hi }, block, { state: options.state, block: options.block })))
      // As geth's estimator: a failure that more gas cannot cure is answered as it is.
      const size = SIZE_ERRORS.get(failure.error)
      if (size !== undefined) throw new Refused(size)
      throw new Refused(`gas required exceeds allowance (${hi})`)
    }
    const probe = new GasProbe((gas) => this.succeeds(req, block, gas, run))
    probe.saw(hi, true)
    // The first run's transaction, whose intrinsic gas its run counted and kept (the nonce plays no part).
    const intrinsic = (shared.tx ?? callTransaction(req, 0n, hi, context, block.common, run.tip)).getIntrinsicGas()
    // The least limit the first run shows to run the same way: every run at or above it succeeds.
    const proven = provenLimit(need, hi, hi - intrinsic - first.execResult.executionGasUsed, first.totalGasSpent)
    if (proven !== undefined) {
      probe.saw(proven, true)
      // That limit is most often the least one (a nested call's callee then gets exactly the gas
      // it used): one run just below it, which fails then, answers every later step of the
      // search, where the steps below the proven limit would each run (geth's exact search
      // ~log2 of the interval of them, Hardhat's those that land there).
      if (proven > first.totalGasSpent) await probe.succeeds(proven - 1n)
    }
    if (hardhat) {
      // EDR searches up to the transaction's own limit, the block's gas limit unless the request
      // names one; under EIP-7825 a step above the cap is refused, and so is the estimate.
      const upper = txCap === undefined ? hi : this.gasCap(req.gas, context, false)
      const stepCap = txCap === undefined ? undefined : { max: txCap, refuse: (gas: bigint) => capRefusal(gas, txCap) }
      return hardhatEstimate(first.totalGasSpent, first.totalGasSpent + first.gasRefund, intrinsic, upper, probe, stepCap)
    }
    // No EVM code ran (a plain transfer): the gas it spent is its intrinsic gas, and any limit
    // from there on succeeds the same way. No second run is needed.
    if (first.execResult.executionGasUsed === 0n && first.gasRefund === 0n) return first.totalGasSpent
    let lo = first.totalGasSpent - 1n
    probe.saw(lo, false)
    // Most calls need exactly the gas they consumed before refunds: two runs (it and one less)
    // settle them. Then geth's guess, which covers the 63/64 rule of nested calls, and a binary
    // search, whose steps the probe answers without a run where earlier runs decide them.
    const used = first.totalGasSpent + first.gasRefund
    if (used > lo + 1n && used < hi) await probe.pin(used)
    const optimistic = ((used + 2300n) * 64n) / 63n
    for (const guess of [used, optimistic]) {
      if (guess <= lo || guess >= hi) continue
      if (await probe.succeeds(guess)) hi = guess
      else lo = guess
    }
    while (lo + 1n < hi) {
      const mid = (lo + hi) / 2n
      if (await probe.succeeds(mid)) hi = mid
      else lo = mid
    }
    return hi
  }

  private async succeeds(req: CallRequest, block: Block, gas: bigint, options: RunOptions): Promise<boolean> {
    try {
      return (await this.run(req, block, gas, options)).execResult.exceptionError === undefined
    } catch (error) {
      if (error instanceof ExecutionAbortedError) throw error
      return false
    }
  }
}
