/**
 * The error Hardhat answers for a transaction that failed in the block its send mined
 * (`throwOnTransactionFailures`): the transaction stays mined with status 0, and the send is
 * answered with the failure, its hash and its revert data, as `hardhat node` sends it:
 * `{ code, message, data: { message, txHash, data } }`. Hardhat's chai matchers (`revertedWith`,
 * `revertedWithCustomError`, `revertedWithPanic`, `reverted`) read `data.data`.
 */
import { TransactionFailed } from '../domain-errors.js'
import { data, toBigInt } from '../hex.js'
import type { TxOutcome } from './builder.js'
import { ERROR_SELECTOR, PANIC_CODES, PANIC_SELECTOR, revertReason } from './revert.js'

const VM_EXCEPTION = 'VM Exception while processing transaction'

/** What a reverted transaction's data says, in Hardhat's words (without an ABI to name custom errors). */
function revertMessage(output: Uint8Array): string {
  if (output.length === 0) return 'Transaction reverted without a reason string'
  const selector = Buffer.from(output.subarray(0, 4)).toString('hex')
  if (selector === PANIC_SELECTOR && output.length === 36) {
    const code = toBigInt(output.subarray(4))
    const reason = PANIC_CODES.get(code)?.hardhat
    const hex = `0x${code.toString(16)}`
    return `${VM_EXCEPTION}: ${reason === undefined ? `reverted with unknown panic code ${hex}` : `reverted with panic code ${hex} (${reason})`}`
  }
  const reason = selector === ERROR_SELECTOR ? revertReason(output) : undefined
  if (reason !== undefined) return `${VM_EXCEPTION}: reverted with reason string '${reason}'`
  return `${VM_EXCEPTION}: reverted with an unrecognized custom error (return data: ${data(output)})`
}

/**
 * The error for a mined transaction that failed (`outcome.error` set). Hardhat's node answers
 * -32603 with its message behind `Error: `, and -32000 `Transaction ran out of gas` for a
 * transaction that ran out of gas.
 */
export function transactionFailedError(outcome: TxOutcome, hash: Uint8Array): TransactionFailed {
  const failure = outcome.error ?? 'revert'
  const [code, message] =
    failure === 'revert'
      ? [-32603, `Error: ${revertMessage(outcome.output)}`]
      : failure === 'out of gas'
        ? [-32000, 'Transaction ran out of gas']
        : failure === 'code size to deposit exceeds maximum code size'
          ? [-32603, 'Error: Transaction reverted: trying to deploy a contract whose code is too large']
          : [-32603, `Error: ${VM_EXCEPTION}: ${failure}`]
  return new TransactionFailed(code, message, { message, txHash: data(hash), data: failure === 'revert' ? data(outcome.output) : '0x' })
}
