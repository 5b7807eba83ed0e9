/**
 * Hardhat Network's words for the refusals of a send (Hardhat mode), measured on its provider:
 * the pool's refusals are worded as geth's (`pool.ts`), and Hardhat words the same checks its own
 * way. One table, read when a refusal leaves the node in Hardhat mode.
 */
import { TxRejected } from '../domain-errors.js'

/** The note Hardhat adds to a nonce refusal in automine. */
const AUTOMINING = " Note that transactions can't be queued when automining."

const RULES: Array<[RegExp, (m: RegExpExecArray, automine: boolean) => string]> = [
  [/^nonce too low: address 0x[0-9a-f]+, tx: (\d+) state: (\d+)$/, (m, auto) => `Nonce too low. Expected nonce to be ${m[2]} but got ${m[1]}.${auto ? AUTOMINING : ''}`],
  [
    /^insufficient funds for gas \* price \+ value: address 0x[0-9a-f]+ have (\d+) want (\d+)$/,
    (m) => `Sender doesn't have enough funds to send tx. The max upfront cost is: ${m[2]} and the sender's balance is: ${m[1]}.`,
  ],
  [/^intrinsic gas too low: gas (\d+), minimum needed (\d+)$/, (m) => `Transaction requires at least ${m[2]} gas but got ${m[1]}`],
  [
    /^max fee per gas less than block base fee: address 0x[0-9a-f]+, maxFeePerGas: (\d+), baseFee: (\d+)$/,
    (m) => `Transaction maxFeePerGas (${m[1]}) is too low for the next block, which has a baseFeePerGas of ${m[2]}`,
  ],
]

/** The refusal in Hardhat's words, or the same error when Hardhat words it as geth does. */
export function hardhatRefusal(error: unknown, automine: boolean): unknown {
  if (!(error instanceof TxRejected)) return error
  for (const [pattern, words] of RULES) {
    const m = pattern.exec(error.message)
    if (m !== null) return new TxRejected(words(m, automine))
  }
  return error
}

/** Hardhat refuses a nonce gap in automine (its pool would hold the transaction for ever). */
export function nonceTooHigh(expected: bigint, got: bigint): TxRejected {
  return new TxRejected(`Nonce too high. Expected nonce to be ${expected} but got ${got}.${AUTOMINING}`)
}
