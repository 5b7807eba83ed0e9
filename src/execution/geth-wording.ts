/**
 * The one place that reads ethereumjs's refusal of a transaction and words it as geth does.
 * Calls, block building, traces and `eth_simulateV1` all go through `readRefusal`; each caller
 * only picks the error class (or, for `eth_simulateV1`, the code) for the kind it gets back.
 */
import { keyOf } from '../hex.js'
import { initcodeTooLarge } from './tx-fields.js'

/** What ethereumjs refused, with geth's message for it. */
export type Refusal =
  | { kind: 'nonceTooLow' | 'nonceTooHigh'; message: string }
  | { kind: 'insufficientFunds' | 'intrinsicGas' | 'baseFeeTooLow' | 'initcodeTooLarge'; message: string }
  /** Not one geth words differently: ethereumjs's own text, cut before its block/tx suffixes. */
  | { kind: 'other'; message: string }

const NONCE = /account has nonce of: (\d+) tx has nonce of: (\d+)/
const FUNDS = /(?:upfront|max) cost is: (\d+) and the sender's (?:balance is|account \(0x[0-9a-fA-F]+\) only has): (\d+)/
const INTRINSIC = /tx gas limit (\d+) is lower than the minimum gas limit of (\d+)/
const BASE_FEE = /\((\d+)\) is less than the block's baseFeePerGas \((\d+)\)/

/** The text ethereumjs threw, without the block and transaction dumps it appends. */
export function ethereumjsText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split(' -> ')[0]?.split(' (block ')[0] ?? message
}

/**
 * Reads ethereumjs's error for a transaction `from` sent. `nonce` reads nonce mismatches (block
 * building and simulation check nonces; calls do not); `initcode` reads EIP-3860's limit.
 */
export function readRefusal(error: unknown, from: Uint8Array, read: { nonce: boolean; initcode: boolean }): Refusal {
  const message = error instanceof Error ? error.message : String(error)
  const who = `address 0x${keyOf(from)}`
  const nonce = read.nonce ? NONCE.exec(message) : null
  if (nonce !== null) {
    const [state, got] = [BigInt(nonce[1]!), BigInt(nonce[2]!)]
    const low = got < state
    return { kind: low ? 'nonceTooLow' : 'nonceTooHigh', message: `nonce too ${low ? 'low' : 'high'}: ${who}, tx: ${got} state: ${state}` }
  }
  const funds = FUNDS.exec(message)
  if (funds !== null) return { kind: 'insufficientFunds', message: `insufficient funds for gas * price + value: ${who} have ${funds[2]} want ${funds[1]}` }
  const intrinsic = INTRINSIC.exec(message)
  if (intrinsic !== null) return { kind: 'intrinsicGas', message: `intrinsic gas too low: gas ${intrinsic[1]}, minimum needed ${intrinsic[2]}` }
  const initcode = read.initcode ? initcodeTooLarge(message, false) : undefined
  if (initcode !== undefined) return { kind: 'initcodeTooLarge', message: initcode.message }
  const fee = BASE_FEE.exec(message)
  if (fee !== null) return { kind: 'baseFeeTooLow', message: `max fee per gas less than block base fee: ${who}, maxFeePerGas: ${fee[1]}, baseFee: ${fee[2]}` }
  return { kind: 'other', message: ethereumjsText(message) }
}
