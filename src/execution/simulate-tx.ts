/**
 * eth_simulateV1's calls as transactions: the transaction a call becomes (geth's types and
 * defaults), the outcome of running it, and geth's refusal of a call that is no valid transaction.
 */
import type { Common } from '@ethereumjs/common'
import { paramsTx, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import type { RunTxResult } from '@ethereumjs/vm'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { SimulationRefused } from '../domain-errors.js'
import { data } from '../hex.js'
import type { CallRequest } from './call-request.js'
import { readRefusal } from './geth-wording.js'
import { revertReason } from './revert.js'
import type { IndexedLog } from './transfer-tracer.js'
import { requestTransaction, type Fees } from './request-tx.js'
import { setGasAndNonce, setHash, setSender } from './engine/tx.js'

/** The largest nonce: geth keeps nonces in a uint64, and EIP-2681 forbids using 2^64-1. */
export const MAX_NONCE = 2n ** 64n - 1n

const ZERO_ADDRESS = new Uint8Array(20)

/** A call's outcome, as geth's `simCallResult`. */
export interface SimCallResult {
  returnData: Uint8Array
  logs: IndexedLog[]
  gasUsed: bigint
  /** The most gas the call held at once: used plus refunded (geth's `maxUsedGas`). */
  maxUsedGas: bigint
  status: 0 | 1
  /** How a failed call ended (a revert, with its bytes as `data`; or the EVM's own error) in geth's words. */
  error?: { kind: 'reverted' | 'vm'; message: string; data?: string }
}

/** A call as a transaction: the one the block holds, and the one that runs. */
export interface SimulatedTransaction {
  tx: TypedTransaction
  /**
   * `tx`, or for a call with a gas price and an access list an EIP-2930 twin: geth's legacy
   * transaction carries no access list, but the call it runs still warms and pays for it.
   */
  run: TypedTransaction
}

/**
 * The transaction a simulated call becomes, as geth's `ToTransaction` with EIP-1559 as the
 * default type: EIP-7702 with an authorization list, EIP-4844 with blob hashes, legacy with a
 * gas price, EIP-1559 otherwise (fees default to 0). Before London, where @ethereumjs/tx has no
 * fee-market transaction, legacy (EIP-2930 with an access list). Its hash is that of the unsigned
 * encoding.
 *
 * Two of geth's liberties @ethereumjs/tx checks only when the object is made, so the object is
 * made without them and then given them: a gas limit above Osaka's per-transaction cap
 * (EIP-7825; geth does not cap simulated calls, and runTx checks nothing before EIP-8037), and
 * the nonce 2^64-1 (EIP-2681), which a call without validation may use.
 */
export function simulatedTransaction(req: CallRequest, nonce: bigint, gasLimit: bigint, common: Common): SimulatedTransaction {
  const max = txGasCap(common)
  const made = { nonce: nonce >= MAX_NONCE ? 0n : nonce, gasLimit: max !== undefined && gasLimit > max ? max : gasLimit }
  const opts = { common, freeze: false }
  // geth's defaults: a gas price of 0, or a fee cap and tip of 0.
  const fees: Fees =
    req.gasPrice !== undefined || !common.isActivatedEIP(1559)
      ? { gasPrice: req.gasPrice ?? 0n }
      : { maxFeePerGas: req.maxFeePerGas ?? 0n, maxPriorityFeePerGas: req.maxPriorityFeePerGas ?? 0n }
  const make = (type: TransactionType): TypedTransaction => requestTransaction(req, type, made.nonce, made.gasLimit, fees, opts)
  const berlin = common.isActivatedEIP(2930)
  let type: TransactionType
  if (req.gasPrice !== undefined || !common.isActivatedEIP(1559)) {
    type = req.gasPrice === undefined && req.accessList !== undefined && berlin ? TransactionType.AccessListEIP2930 : TransactionType.Legacy
  } else if (req.authorizationList !== undefined) type = TransactionType.EOACodeEIP7702
  else if (req.blobVersionedHashes !== undefined) type = TransactionType.BlobEIP4844
  else type = TransactionType.FeeMarketEIP1559
  const tx = finish(make(type), req, nonce, gasLimit)
  const twin = type === TransactionType.Legacy && req.accessList !== undefined && berlin
  return { tx, run: twin ? finish(make(TransactionType.AccessListEIP2930), req, nonce, gasLimit) : tx }
}

/** EIP-7825's per-transaction gas cap, if active. */
function txGasCap(common: Common): bigint | undefined {
  if (!common.isActivatedEIP(7825)) return undefined
  // A transaction parameter: merged into the Common by the first transaction made with it,
  // which for a hardfork only simulations reach may not have happened yet.
  common.updateParams(paramsTx)
  return common.param('maxTransactionGasLimit')
}

/** Gives a made transaction its real gas and nonce, its sender and its unsigned hash. */
function finish(tx: TypedTransaction, req: CallRequest, nonce: bigint, gasLimit: bigint): TypedTransaction {
  setGasAndNonce(tx, gasLimit, nonce)
  setSender(tx, new Address(req.from ?? ZERO_ADDRESS))
  setHash(tx, keccak_256(tx.serialize()))
  return tx
}

/** The price per gas a transaction offers: its fee cap, or its gas price. */
export function offeredPrice(tx: TypedTransaction): bigint {
  return 'maxFeePerGas' in tx ? (tx.maxFeePerGas as bigint) : (tx as unknown as { gasPrice: bigint }).gasPrice
}

/** A call's outcome from its run and the logs the tracer kept. */
export function callResult(run: RunTxResult, logs: IndexedLog[]): SimCallResult {
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
      out.error = { kind: 'reverted', message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, data: data(exec.returnValue) }
    } else {
      out.error = { kind: 'vm', message: failure.error }
    }
  }
  return out
}

/** geth's refusal of a call whose sender's nonce is already 2^64-1 (with validation). */
export function nonceMaxError(from: Uint8Array, nonce: bigint, gas: bigint): SimulationRefused {
  return new SimulationRefused('internal', `err: nonce has max value: address ${new Address(from).toString()}, nonce: ${nonce} (supplied gas ${gas})`)
}

/** geth's kind and wording for a call that is not a valid transaction. */
export function invalidTx(error: unknown, from: Uint8Array): SimulationRefused {
  const read = readRefusal(error, from, { nonce: true, initcode: false })
  return new SimulationRefused(read.kind === 'other' || read.kind === 'initcodeTooLarge' ? 'internal' : read.kind, read.message)
}
