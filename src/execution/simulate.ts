/**
 * eth_simulateV1 (geth's semantics): blocks of calls on top of a base block, each block with its
 * own state and block overrides, executed in order on one throwaway overlay, so later calls see
 * earlier ones. Without `validation` calls pay no fee and skip nonce checks (base fee 0 unless
 * overridden); with it they are checked as transactions are. Nothing reaches the chain.
 *
 * Each simulated block runs under the hardfork of its number and time (its header fields, its
 * EVM rules), runs the Cancun/Prague system writes at its start (beacon root, parent hash) after
 * its state overrides, pays a pre-merge block's miner reward at its end, and gets a real
 * `stateRoot`: the overlay's changes since the base block written into the trie without moving
 * the chain's head state.
 */
import { type Block, createBlock, genTransactionsTrieRoot } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import { Account, Address } from '@ethereumjs/util'
import { encodeReceipt, type RunTxResult } from '@ethereumjs/vm'
import { runTransaction } from './engine/run-tx.js'
import type { Chain } from '../chain/chain.js'
import type { StoredReceipt } from '../chain/receipts.js'
import { isDomainError, SimulationRefused, type SimulationRefusal } from '../domain-errors.js'
import { data, fromHex } from '../hex.js'
import type { CallRequest } from './call-request.js'
import { JournaledState } from '../state/journaled-state.js'
import { callBlockhashes, type CallExecutor, type Lease } from './call.js'
import { bindState } from './engine/vm.js'
import { setBlockTransactions } from './engine/header.js'
import { applyPrecompileOverrides, validateOverrides, withBlobBaseFee, type BlockOverrides, type StateOverrides } from './overrides.js'
import {
  callResult,
  invalidTx,
  MAX_NONCE,
  nonceMaxError,
  offeredPrice,
  simulatedTransaction,
  type SimCallResult,
} from './simulate-tx.js'
import { EvmTimeout } from './timeout.js'
import { preBlock } from './system-calls.js'
import { TransferTracer } from './transfer-tracer.js'

/** Blocks one simulation may span past its base (geth's `maxSimulateBlocks`). */
export const MAX_SIMULATE_BLOCKS = 256n
/** Seconds between simulated blocks without a `time` override (geth's `timestampIncrement`). */
export const TIMESTAMP_INCREMENT = 12n

const ZERO_HASH = new Uint8Array(32)
const ZERO_ADDRESS = new Uint8Array(20)

/** One block of calls. */
export interface SimBlock {
  blockOverrides?: BlockOverrides | undefined
  stateOverrides?: StateOverrides | undefined
  calls: CallRequest[]
}

/** The decoded eth_simulateV1 payload. */
export interface SimulateRequest {
  blockStateCalls: SimBlock[]
  validation: boolean
  traceTransfers: boolean
  returnFullTransactions: boolean
}

/** One simulated block: the block, what the calls' senders were, and the call results. */
export interface SimBlockResult {
  block: Block
  senders: Uint8Array[]
  calls: SimCallResult[]
}

function fail(kind: SimulationRefusal, message: string): never {
  throw new SimulationRefused(kind, message)
}

/** Assigns numbers and timestamps, fills gaps with empty blocks and checks the order (geth's `sanitizeChain`). */
function sanitize(base: Block, blocks: SimBlock[]): Array<SimBlock & { blockOverrides: BlockOverrides & { number: bigint; time: bigint } }> {
  const out: Array<SimBlock & { blockOverrides: BlockOverrides & { number: bigint; time: bigint } }> = []
  let prevNumber = base.header.number
  let prevTime = base.header.timestamp
  for (const b of blocks) {
    const o = { ...b.blockOverrides }
    const number = o.number ?? prevNumber + 1n
    if (number <= prevNumber) fail('blockNumberInvalid', `block numbers must be in order: ${number} <= ${prevNumber}`)
    if (number - base.header.number > MAX_SIMULATE_BLOCKS) fail('clientLimitExceeded', 'too many blocks')
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIMESTAMP_INCREMENT
      out.push({ calls: [], blockOverrides: { number: n, time: prevTime } })
    }
    let time: bigint
    if (o.time === undefined) time = prevTime + TIMESTAMP_INCREMENT
    else {
      time = o.time
      if (time <= prevTime) fail('blockTimestampInvalid', `block timestamps must be in order: ${time} <= ${prevTime}`)
    }
    prevNumber = number
    prevTime = time
    out.push({ ...b, blockOverrides: { ...o, number, time } })
  }
  return out
}

/** Writes overrides into the overlay, so they take precedence over earlier blocks' writes. */
async function writeOverrides(state: JournaledState, overrides: StateOverrides): Promise<void> {
  try {
    validateOverrides(overrides)
  } catch (error) {
    fail('invalidParams', (error as Error).message)
  }
  for (const [key, o] of overrides) {
    const address = new Address(fromHex(key))
    if (o.code !== undefined) await state.putCode(address, o.code)
    if (o.nonce !== undefined || o.balance !== undefined) {
      const account = (await state.getAccount(address)) ?? new Account()
      if (o.nonce !== undefined) account.nonce = o.nonce
      if (o.balance !== undefined) account.balance = o.balance
      await state.putAccount(address, account)
    }
    if (o.state !== undefined) {
      if ((await state.getAccount(address)) === undefined) await state.putAccount(address, new Account())
      await state.clearStorage(address)
      for (const [slot, value] of o.state) await state.putStorage(address, fromHex(slot), value)
    }
    if (o.stateDiff !== undefined) for (const [slot, value] of o.stateDiff) await state.putStorage(address, fromHex(slot), value)
  }
}

/** Runs a simulation; the result blocks carry their transactions, senders and call results. */
export async function simulate(calls: CallExecutor, chain: Chain, base: Block, request: SimulateRequest): Promise<SimBlockResult[]> {
  if (request.blockStateCalls.length === 0) fail('invalidParams', 'empty input')
  if (BigInt(request.blockStateCalls.length) > MAX_SIMULATE_BLOCKS) fail('clientLimitExceeded', 'too many blocks')
  const blocks = sanitize(base, request.blockStateCalls)
  const simulatedHashes = new Map<bigint, Uint8Array>()
  const blockhashes = callBlockhashes(chain)
  const source = {
    ...blockhashes,
    async getBlock(number: number) {
      const hash = simulatedHashes.get(BigInt(number))
      if (hash !== undefined) return { hash: () => hash }
      return blockhashes.getBlock(number)
    },
  }
  const baseState = chain.stateAt(base)
  const state = new JournaledState(baseState)
  const baseRoot = chain.stateRootOf(base)
  const deadline = calls.deadline()
  // One VM per hardfork the blocks run under (almost always one), all on the same overlay.
  const vms = new Map<Common, Executor>()
  const executor = async (common: Common): Promise<Executor> => {
    let e = vms.get(common)
    if (e === undefined) {
      const lease = await calls.lease(source as typeof blockhashes, common)
      // Each simulated call runs once: its console.log messages are delivered, as eth_call's.
      lease.consoleLog = calls.onConsoleLog
      bindState(lease.vm, state)
      lease.guard.armUntil(deadline)
      const tracer = new TransferTracer(lease.vm.evm)
      tracer.traceTransfers = request.traceTransfers
      e = { lease, tracer }
      vms.set(common, e)
    }
    return e
  }
  const run: SimRun = {
    state,
    request,
    rootOf: () => chain.rootOf(baseRoot, state.diff(), baseState),
    budget: { remaining: calls.gasBudget() },
  }
  let reusable = true
  const results: SimBlockResult[] = []
  try {
    let parent = base
    for (const b of blocks) {
      const common = chain.forks.at(b.blockOverrides.number, b.blockOverrides.time)
      const result = await simulateBlock(run, await executor(common), common, parent, b)
      simulatedHashes.set(result.block.header.number, result.block.hash())
      results.push(result)
      parent = result.block
    }
    return results
  } catch (error) {
    if (error instanceof EvmTimeout) {
      reusable = false
      throw calls.timeoutError()
    }
    throw error
  } finally {
    baseState.close()
    for (const { lease } of vms.values()) calls.release(lease, reusable, false)
  }
}

/** A VM bound to the simulation's overlay, and the log collector on its EVM. */
interface Executor {
  lease: Lease
  tracer: TransferTracer
}

/** What every block of one simulation shares. */
interface SimRun {
  /** The overlay all blocks write to, in order. */
  state: JournaledState
  request: SimulateRequest
  /** The state root of the overlay's changes so far. */
  rootOf: () => Promise<Uint8Array>
  /**
   * Gas the whole simulation may still use: geth spends `rpc-gas-cap` across all calls of all
   * blocks, and gives a call at most what is left; undefined = no cap.
   */
  budget: { remaining: bigint | undefined }
}

async function simulateBlock(
  { state, request, rootOf, budget }: SimRun,
  { lease: { vm }, tracer }: Executor,
  common: Common,
  parent: Block,
  b: SimBlock & { blockOverrides: BlockOverrides & { number: bigint; time: bigint } },
): Promise<SimBlockResult> {
  const o = b.blockOverrides
  const london = common.isActivatedEIP(1559)
  const baseFee = london ? (o.baseFeePerGas ?? (request.validation ? parent.header.calcNextBaseFee() : 0n)) : undefined
  const cancun = common.isActivatedEIP(4844)
  const header = {
    parentHash: parent.hash(),
    number: o.number,
    timestamp: o.time,
    gasLimit: o.gasLimit ?? parent.header.gasLimit,
    coinbase: data(o.feeRecipient ?? parent.header.coinbase.bytes),
    mixHash: o.prevRandao ?? ZERO_HASH,
    // geth carries the difficulty over from the parent: 0 after the merge.
    difficulty: parent.header.difficulty,
    baseFeePerGas: baseFee,
    excessBlobGas: cancun ? (parent.header.excessBlobGas === undefined ? 0n : parent.header.calcNextExcessBlobGas(common)) : undefined,
    blobGasUsed: cancun ? 0n : undefined,
    parentBeaconBlockRoot: cancun ? ZERO_HASH : undefined,
  }
  const blockOpts = { common, setHardfork: false, skipConsensusFormatValidation: true, freeze: false } as const
  const context = createBlock({ header: header as never }, blockOpts)
  if (o.blobBaseFee !== undefined) withBlobBaseFee(context, o.blobBaseFee)
  // Without validation a call that names no fee still runs where the base fee was overridden.
  const feeless = request.validation ? context : createBlock({ header: { ...header, baseFeePerGas: london ? 0n : undefined } as never }, blockOpts)
  if (o.blobBaseFee !== undefined) withBlobBaseFee(feeless, o.blobBaseFee)
  const restore = b.stateOverrides === undefined ? () => {} : applyPrecompileOverrides(vm.evm, b.stateOverrides)
  try {
    if (b.stateOverrides !== undefined) await writeOverrides(state, b.stateOverrides)
    if (cancun) await preBlock(vm, o.number, o.time, parent.hash(), ZERO_HASH)
    tracer.startBlock()
    const txs: TypedTransaction[] = []
    const senders: Uint8Array[] = []
    const results: SimCallResult[] = []
    const runs: RunTxResult[] = []
    let gasUsed = 0n
    let blobGasUsed = 0n
    for (const req of b.calls) {
      const from = req.from ?? ZERO_ADDRESS
      const sender = new Address(from)
      const stateNonce = (await state.getAccount(sender))?.nonce ?? 0n
      const nonce = req.nonce ?? stateNonce
      let gas = req.gas ?? context.header.gasLimit - gasUsed
      if (gasUsed + gas > context.header.gasLimit) {
        fail('blockGasLimitReached', `block gas limit reached: ${gasUsed} >= ${context.header.gasLimit}`)
      }
      if (budget.remaining !== undefined && gas > budget.remaining) gas = budget.remaining
      if (request.validation && stateNonce === MAX_NONCE && nonce === MAX_NONCE) throw nonceMaxError(from, nonce, gas)
      let made: ReturnType<typeof simulatedTransaction>
      try {
        made = simulatedTransaction(req, nonce, gas, common)
      } catch (error) {
        throw invalidTx(error, from)
      }
      const runIn = request.validation || offeredPrice(made.run) >= (baseFee ?? 0n) ? context : feeless
      tracer.reset()
      // As geth's simulation, a call may come from an account with code.
      state.exemptFromEoaCheck(from)
      let run: RunTxResult
      try {
        run = await runTransaction(vm, {
          tx: made.run,
          block: runIn,
          skipNonce: !request.validation,
          skipBlockGasLimitValidation: true,
          skipHardForkValidation: true,
        })
      } catch (error) {
        if (error instanceof EvmTimeout || isDomainError(error)) throw error
        throw invalidTx(error, from)
      }
      // geth's nonce is a uint64: past 2^64-1 (only without validation) it wraps to 0.
      if (nonce === MAX_NONCE && stateNonce === MAX_NONCE) await wrapNonce(state, sender)
      gasUsed += run.totalGasSpent
      blobGasUsed += run.blobGasUsed ?? 0n
      if (budget.remaining !== undefined) budget.remaining -= run.totalGasSpent
      ;(run.receipt as { cumulativeBlockGasUsed: bigint }).cumulativeBlockGasUsed = gasUsed
      txs.push(made.tx)
      senders.push(from)
      runs.push(run)
      results.push(callResult(run, tracer.logs()))
    }
    // A pre-merge block pays its miner, as geth's ethash Finalize does (no uncles here).
    if (header.difficulty !== 0n) await credit(state, new Address(fromHex(header.coinbase)), vm.common.param('minerReward'))
    const receiptTrie = new MerklePatriciaTrie({ common })
    const bloom = new Uint8Array(256)
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i]!
      await receiptTrie.put(RLP.encode(i), encodeReceipt(run.receipt, txs[i]!.type))
      const bits = run.bloom.bitvector
      for (let j = 0; j < 256; j++) bloom[j]! |= bits[j]!
    }
    const block = createBlock(
      {
        header: {
          ...header,
          gasUsed,
          blobGasUsed: cancun ? blobGasUsed : undefined,
          logsBloom: bloom,
          receiptTrie: receiptTrie.root(),
          transactionsTrie: await genTransactionsTrieRoot(txs),
          stateRoot: await rootOf(),
        } as never,
        withdrawals: common.isActivatedEIP(4895) ? [] : undefined,
      },
      blockOpts,
    )
    // Ours, not copies made by createBlock: they know their sender and unsigned hash, and a copy
    // would be held to EIP-7825 and EIP-2681 again.
    setBlockTransactions(block, txs)
    return { block, senders, calls: results }
  } finally {
    restore()
  }
}

async function wrapNonce(state: JournaledState, address: Address): Promise<void> {
  const account = await state.getAccount(address)
  if (account === undefined || account.nonce <= MAX_NONCE) return
  account.nonce = 0n
  await state.putAccount(address, account)
}

async function credit(state: JournaledState, address: Address, amount: bigint): Promise<void> {
  const account = (await state.getAccount(address)) ?? new Account()
  account.balance += amount
  await state.putAccount(address, account)
}

/** Receipt-like records that give the block formatter each transaction's sender. */
export function sendersAsReceipts(senders: Uint8Array[]): StoredReceipt[] {
  return senders.map((from) => ({ from }) as StoredReceipt)
}
