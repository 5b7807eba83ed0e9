/**
 * The errors Hardhat answers for a failed execution: a transaction that failed in the block its
 * send mined (`throwOnTransactionFailures`: the transaction stays mined with status 0, and the
 * send is answered with the failure, its hash and its revert data), and, in Hardhat mode, a
 * failed eth_call or eth_estimateGas; as `hardhat node` sends them:
 * `{ code, message, data: { message, txHash, data } }`. Hardhat's chai matchers (`revertedWith`,
 * `revertedWithCustomError`, `revertedWithPanic`, `reverted`) read `data.data`.
 */
import { TransactionFailed, withoutStack, type SolidityFrame } from '../domain-errors.js'
import { data, toBigInt } from '../hex.js'
import type { TxOutcome } from './builder.js'
import type { FailureReport } from '../metadata/source-map.js'
import { hasSelector, PANIC_CODES, revertReason, SELECTOR_WORDS } from './revert.js'

const VM_EXCEPTION = 'VM Exception while processing transaction'

/**
 * What a reverted transaction's data says, in Hardhat's words; a custom error by name when the
 * contract metadata decoded it (`customError`), by its data otherwise, as Hardhat without the
 * compilation.
 */
function revertMessage(output: Uint8Array, report: FailureReport | undefined): string {
  if (output.length === 0) return report?.inferred === undefined ? 'Transaction reverted without a reason string' : `Transaction reverted: ${report.inferred}`
  const customError = report?.customError
  if (hasSelector(output, SELECTOR_WORDS.panic) && output.length === 36) {
    const code = toBigInt(output.subarray(4))
    const reason = PANIC_CODES.get(code)?.hardhat
    const hex = `0x${code.toString(16)}`
    return `${VM_EXCEPTION}: ${reason === undefined ? `reverted with unknown panic code ${hex}` : `reverted with panic code ${hex} (${reason})`}`
  }
  const reason = hasSelector(output, SELECTOR_WORDS.error) ? revertReason(output) : undefined
  if (reason !== undefined) return `${VM_EXCEPTION}: reverted with reason string '${reason}'`
  if (customError !== undefined) return `${VM_EXCEPTION}: reverted with custom error '${customError}'`
  return `${VM_EXCEPTION}: reverted with an unrecognized custom error (return data: ${data(output)})`
}

/** The engine's words for running out of gas (Hardhat's `Transaction ran out of gas`). */
const OUT_OF_GAS = new Set(['out of gas', 'code store out of gas'])

/**
 * The precompile a transaction or call was sent to, when Hardhat names its failure: Hardhat 2's
 * EDR names a failed call to precompiles 1 to 10 (ecrecover to point evaluation) `call to
 * precompile N failed`, and words a failure of the later ones (BLS12-381, P-256) as any halt.
 */
export function namedPrecompile(to: Uint8Array | undefined): number | undefined {
  if (to === undefined || to.length !== 20) return undefined
  for (let i = 0; i < 19; i++) if (to[i] !== 0) return undefined
  const n = to[19] as number
  return n >= 1 && n <= 10 ? n : undefined
}

/**
 * Hardhat Network's error for an execution that failed, as `hardhat node` writes it (EDR's halt
 * reasons, measured): a revert with Hardhat's reading of its data; running out of gas
 * `Transaction ran out of gas` (kind `outOfGas`, which Hardhat answers with another code); INVALID
 * or an undefined opcode `… invalid opcode`; a creation over the code size limit `… trying to
 * deploy a contract whose code is too large`; any other halt (stack underflow or overflow, a bad
 * jump, …) `Transaction reverted without a reason string`. `data` is `{ message, txHash, data }`:
 * `txHash` for a mined transaction, null for a call that ran out of gas, absent for other calls;
 * `data` the revert bytes (`0x` for a halt). `failure` is the engine's error (`revert` for a revert).
 * `report` is what the contract metadata says (the custom error's name and arguments, the
 * Solidity frames), when the node has any.
 */
export function hardhatFailure(failure: string, output: Uint8Array, txHash?: string, report?: FailureReport, to?: Uint8Array): TransactionFailed {
  // A precompile's failure is named whatever the engine called it (an out-of-gas, or a revert
  // without data for the elliptic-curve ones): precompiles return no revert data.
  const precompile = output.length === 0 ? namedPrecompile(to) : undefined
  const message =
    precompile !== undefined
      ? `Error: Transaction reverted: call to precompile ${precompile} failed`
      : failure === 'revert'
      ? `Error: ${revertMessage(output, report)}`
      : OUT_OF_GAS.has(failure)
        ? 'Transaction ran out of gas'
        : failure === 'invalid opcode'
          ? `Error: ${VM_EXCEPTION}: invalid opcode`
          : failure === 'code size to deposit exceeds maximum code size'
            ? 'Error: Transaction reverted: trying to deploy a contract whose code is too large'
            : 'Error: Transaction reverted without a reason string'
  const kind = OUT_OF_GAS.has(failure) && precompile === undefined ? 'outOfGas' : 'failed'
  const returned = failure === 'revert' && precompile === undefined ? data(output) : '0x'
  const stack = solidityFrames(report)
  // Its own stack is never read: the dispatcher answers with the wire error it maps it to.
  if (txHash !== undefined) return withoutStack(() => new TransactionFailed(kind, message, { message, txHash, data: returned }, stack))
  if (kind === 'outOfGas') return withoutStack(() => new TransactionFailed(kind, message, { message, txHash: null, data: returned }, stack))
  return withoutStack(() => new TransactionFailed(kind, message, { message, data: returned }, stack))
}

/** The error for a mined transaction that failed (`outcome.error` set), with its hash; `to`, its recipient. */
export function transactionFailedError(outcome: TxOutcome, hash: Uint8Array, report?: FailureReport, to?: Uint8Array): TransactionFailed {
  return hardhatFailure(outcome.error ?? 'revert', outcome.output, data(hash), report, to)
}

/** A failure report's Solidity frames as data, innermost first (none without a report). */
export function solidityFrames(report: FailureReport | undefined): SolidityFrame[] {
  return (report?.frames ?? []).map(
    (f, i): SolidityFrame => ({
      kind: i === 0 ? 'error' : 'call',
      // A free function has no contract, as Hardhat writes it.
      contract: f.contract ?? null,
      function: f.function,
      file: f.sourceName,
      line: f.unrecognized === true ? null : f.line,
    }),
  )
}
