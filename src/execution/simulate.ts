/**
 * eth_simulateV1 (geth's semantics): blocks of calls on top of a base block, each block with its
 * own state and block overrides, executed in order on one throwaway overlay, so later calls see
 * earlier ones. Without `validation` calls pay no fee and skip nonce checks (base fee 0 unless
 * overridden); with it they are checked as transactions are. Nothing reaches the chain.
 *
 * Each simulated block runs the Cancun/Prague system writes at its start (beacon root, parent
 * hash) after its state overrides, and gets a real `stateRoot`: the overlay's changes since the
 * base block written into the trie without moving the chain's head state.
 */
import { type Block, createBlock, genTransactionsTrieRoot } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { createTx, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { Account, Address } from '@ethereumjs/util'
import { encodeReceipt, runTx, type RunTxResult } from '@ethereumjs/vm'
import { keccak_256 } from '@noble/hashes/sha3.js'
import type { Chain } from '../chain/chain.js'
import type { StoredReceipt } from '../chain/receipts.js'
import { RpcError } from '../errors.js'
import { data, fromHex, keyOf } from '../hex.js'
import type { CallRequest } from '../rpc/objects.js'
import { JournaledState } from '../state/journaled-state.js'
import { bindState, callBlockhashes, type CallExecutor } from './call.js'
import { applyPrecompileOverrides, validateOverrides, withBlobBaseFee, type BlockOverrides, type StateOverrides } from './overrides.js'
import { revertReason } from './revert.js'
import { EvmTimeout } from './timeout.js'
import { preBlock } from './system-calls.js'
import { TransferTracer, type RawLog } from './transfer-tracer.js'
import { txFields } from './tx-fields.js'

/** geth's error codes of eth_simulateV1. */
export const SIMULATE_ERRORS = {
  nonceTooLow: -38010,
  nonceTooHigh: -38011,
  baseFeeTooLow: -38012,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimitReached: -38015,
  blockNumberInvalid: -38020,
  blockTimestampInvalid: -38021,
  clientLimitExceeded: -38026,
  invalidParams: -32602,
  vmError: -32015,
} as const

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

/** A call's outcome, as geth's `simCallResult`. */
export interface SimCallResult {
  returnData: Uint8Array
  logs: RawLog[]
  gasUsed: bigint
  /** The most gas the call held at once: used plus refunded (geth's `maxUsedGas`). */
  maxUsedGas: bigint
  status: 0 | 1
  error?: { code: number; message: string; data?: string }
}

/** One simulated block: the block, what the calls' senders were, and the call results. */
export interface SimBlockResult {
  block: Block
  senders: Uint8Array[]
  calls: SimCallResult[]
}

function fail(code: number, message: string): never {
  throw new RpcError(code, message)
}

/** Assigns numbers and timestamps, fills gaps with empty blocks and checks the order (geth's `sanitizeChain`). */
function sanitize(base: Block, blocks: SimBlock[]): Array<SimBlock & { blockOverrides: BlockOverrides & { number: bigint; time: bigint } }> {
  const out: Array<SimBlock & { blockOverrides: BlockOverrides & { number: bigint; time: bigint } }> = []
  let prevNumber = base.header.number
  let prevTime = base.header.timestamp
  for (const b of blocks) {
    const o = { ...b.blockOverrides }
    const number = o.number ?? prevNumber + 1n
    if (number <= prevNumber) fail(SIMULATE_ERRORS.blockNumberInvalid, `block numbers must be in order: ${number} <= ${prevNumber}`)
    if (number - base.header.number > MAX_SIMULATE_BLOCKS) fail(SIMULATE_ERRORS.clientLimitExceeded, 'too many blocks')
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIMESTAMP_INCREMENT
      out.push({ calls: [], blockOverrides: { number: n, time: prevTime } })
    }
    let time: bigint
    if (o.time === undefined) time = prevTime + TIMESTAMP_INCREMENT
    else {
      time = o.time
      if (time <= prevTime) fail(SIMULATE_ERRORS.blockTimestampInvalid, `block timestamps must be in order: ${time} <= ${prevTime}`)
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
    fail(SIMULATE_ERRORS.invalidParams, (error as Error).message)
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

/** geth's code and wording for a call that is not a valid transaction. */
function invalidTx(error: unknown, from: Uint8Array): RpcError {
  const message = error instanceof Error ? error.message : String(error)
  const who = `address 0x${keyOf(from)}`
  const nonce = /account has nonce of: (\d+) tx has nonce of: (\d+)/.exec(message)
  if (nonce !== null) {
    const [state, got] = [BigInt(nonce[1]!), BigInt(nonce[2]!)]
    return got < state
      ? new RpcError(SIMULATE_ERRORS.nonceTooLow, `nonce too low: ${who}, tx: ${got} state: ${state}`)
      : new RpcError(SIMULATE_ERRORS.nonceTooHigh, `nonce too high: ${who}, tx: ${got} state: ${state}`)
  }
  const funds = /cost is: (\d+) and the sender's account \(0x[0-9a-fA-F]+\) only has: (\d+)/.exec(message)
  if (funds !== null) return new RpcError(SIMULATE_ERRORS.insufficientFunds, `insufficient funds for gas * price + value: ${who} have ${funds[2]} want ${funds[1]}`)
  const intrinsic = /tx gas limit (\d+) is lower than the minimum gas limit of (\d+)/.exec(message)
  if (intrinsic !== null) return new RpcError(SIMULATE_ERRORS.intrinsicGas, `intrinsic gas too low: gas ${intrinsic[1]}, minimum needed ${intrinsic[2]}`)
  const fee = /\((\d+)\) is less than the block's baseFeePerGas \((\d+)\)/.exec(message)
  if (fee !== null) return new RpcError(SIMULATE_ERRORS.baseFeeTooLow, `max fee per gas less than block base fee: ${who}, maxFeePerGas: ${fee[1]}, baseFee: ${fee[2]}`)
  return new RpcError(-32603, message.split(' -> ')[0]?.split(' (block ')[0] ?? message)
}

/** Runs a simulation; the result blocks carry their transactions, senders and call results. */
export async function simulate(
  calls: CallExecutor,
  chain: Chain,
  common: Common,
  base: Block,
  request: SimulateRequest,
): Promise<SimBlockResult[]> {
  if (request.blockStateCalls.length === 0) fail(SIMULATE_ERRORS.invalidParams, 'empty input')
  if (BigInt(request.blockStateCalls.length) > MAX_SIMULATE_BLOCKS) fail(SIMULATE_ERRORS.clientLimitExceeded, 'too many blocks')
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
  const baseRoot = base.header.number === chain.height ? chain.stateRoot : base.header.stateRoot
  const rootOf = () => chain.trie.computeRoot(baseRoot, state.diff(), baseState)
  const lease = await calls.lease(source as typeof blockhashes)
  const tracer = new TransferTracer(lease.vm.evm)
  tracer.traceTransfers = request.traceTransfers
  bindState(lease.vm, state)
  lease.guard.armUntil(calls.deadline())
  let reusable = true
  const results: SimBlockResult[] = []
  try {
    let parent = base
    for (const b of blocks) {
      const result = await simulateBlock(calls, common, state, tracer, lease.vm, parent, b, request, rootOf)
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
    calls.release(lease, reusable, false)
  }
}

async function simulateBlock(
  calls: CallExecutor,
  common: Common,
  state: JournaledState,
  tracer: TransferTracer,
  vm: Awaited<ReturnType<CallExecutor['lease']>>['vm'],
  parent: Block,
  b: SimBlock & { blockOverrides: BlockOverrides & { number: bigint; time: bigint } },
  request: SimulateRequest,
  rootOf: () => Promise<Uint8Array>,
): Promise<SimBlockResult> {
  const o = b.blockOverrides
  const london = parent.header.baseFeePerGas !== undefined
  const baseFee = london ? (o.baseFeePerGas ?? (request.validation ? parent.header.calcNextBaseFee() : 0n)) : undefined
  const cancun = parent.header.excessBlobGas !== undefined
  const header = {
    parentHash: parent.hash(),
    number: o.number,
    timestamp: o.time,
    gasLimit: o.gasLimit ?? parent.header.gasLimit,
    coinbase: data(o.feeRecipient ?? parent.header.coinbase.bytes),
    mixHash: o.prevRandao ?? ZERO_HASH,
    difficulty: 0n,
    baseFeePerGas: baseFee,
    excessBlobGas: cancun ? parent.header.calcNextExcessBlobGas(common) : undefined,
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
    const txs: TypedTransaction[] = []
    const senders: Uint8Array[] = []
    const results: SimCallResult[] = []
    const runs: RunTxResult[] = []
    let gasUsed = 0n
    for (const req of b.calls) {
      const from = req.from ?? ZERO_ADDRESS
      const nonce = req.nonce ?? (await state.getAccount(new Address(from)))?.nonce ?? 0n
      let gas = req.gas ?? context.header.gasLimit - gasUsed
      const cap = calls.gasCap(gas, context)
      if (cap < gas) gas = cap
      if (gasUsed + gas > context.header.gasLimit) {
        fail(SIMULATE_ERRORS.blockGasLimitReached, `block gas limit reached: ${gasUsed} >= ${context.header.gasLimit}`)
      }
      const tx = simulatedTransaction(req, nonce, gas, common, london)
      const price = 'maxFeePerGas' in tx ? (tx.maxFeePerGas as bigint) : (tx as unknown as { gasPrice: bigint }).gasPrice
      const runIn = request.validation || price >= (baseFee ?? 0n) ? context : feeless
      tracer.reset()
      // As geth's simulation, a call may come from an account with code.
      state.exemptFromEoaCheck(from)
      let run: RunTxResult
      try {
        run = await runTx(vm, {
          tx,
          block: runIn,
          skipNonce: !request.validation,
          skipBlockGasLimitValidation: true,
          skipHardForkValidation: true,
        })
      } catch (error) {
        if (error instanceof EvmTimeout || error instanceof RpcError) throw error
        throw invalidTx(error, from)
      }
      gasUsed += run.totalGasSpent
      ;(run.receipt as { cumulativeBlockGasUsed: bigint }).cumulativeBlockGasUsed = gasUsed
      txs.push(tx)
      senders.push(from)
      runs.push(run)
      results.push(callResult(run, request.traceTransfers ? tracer.logs() : (run.execResult.logs ?? []) as RawLog[]))
    }
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
          logsBloom: bloom,
          receiptTrie: receiptTrie.root(),
          transactionsTrie: await genTransactionsTrieRoot(txs),
          stateRoot: await rootOf(),
        } as never,
        transactions: txs,
        withdrawals: common.isActivatedEIP(4895) ? [] : undefined,
      },
      blockOpts,
    )
    // createBlock copies the transactions; keep ours, which know their sender and unsigned hash.
    ;(block as unknown as { transactions: TypedTransaction[] }).transactions = txs
    return { block, senders, calls: results }
  } finally {
    restore()
  }
}

/** The transaction a simulated call becomes: EIP-1559 (fees default to 0) unless it names a gas price. */
function simulatedTransaction(req: CallRequest, nonce: bigint, gasLimit: bigint, common: Common, london: boolean): TypedTransaction {
  const base = {
    ...txFields(req, nonce, gasLimit),
    accessList: (req.accessList ?? []).map((e) => [e.address, e.storageKeys]) as never,
    chainId: common.chainId(),
  }
  const opts = { common, freeze: false }
  const tx =
    req.gasPrice !== undefined || !london
      ? createTx({ ...base, type: req.accessList !== undefined ? TransactionType.AccessListEIP2930 : TransactionType.Legacy, gasPrice: req.gasPrice ?? 0n }, opts)
      : createTx(
          {
            ...base,
            type: TransactionType.FeeMarketEIP1559,
            maxFeePerGas: req.maxFeePerGas ?? 0n,
            maxPriorityFeePerGas: req.maxPriorityFeePerGas ?? 0n,
          },
          opts,
        )
  const sender = new Address(req.from ?? ZERO_ADDRESS)
  const hash = keccak_256(tx.serialize())
  const patch = tx as unknown as { getSenderAddress: () => Address; hash: () => Uint8Array }
  patch.getSenderAddress = () => sender
  patch.hash = () => hash
  return tx
}

function callResult(run: RunTxResult, logs: RawLog[]): SimCallResult {
  const exec = run.execResult
  const out: SimCallResult = {
    returnData: exec.returnValue,
    logs,
    gasUsed: run.totalGasSpent,
    maxUsedGas: run.totalGasSpent + (run.gasRefund ?? 0n),
    status: 1,
  }
  const failure = exec.exceptionError
  if (failure !== undefined) {
    out.status = 0
    out.logs = []
    if (failure.error === 'revert') {
      const reason = revertReason(exec.returnValue)
      out.error = { code: 3, message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, data: data(exec.returnValue) }
    } else {
      out.error = { code: SIMULATE_ERRORS.vmError, message: failure.error }
    }
  }
  return out
}

/** Receipt-like records that give the block formatter each transaction's sender. */
export function sendersAsReceipts(senders: Uint8Array[]): StoredReceipt[] {
  return senders.map((from) => ({ from }) as StoredReceipt)
}

