/**
 * One hidden class for every transaction's result the node makes itself.
 *
 * The engine's run of a transaction (run-tx.ts) filled in the EVM's top frame result, which is
 * `{ execResult }` for a call and `{ createdAddress, execResult }` for a creation, and a plain
 * transfer (plain-transfer.ts) answered an object literal with other fields in another order:
 * three hidden classes reaching the block builder's loop, whose compiled code was thrown away
 * ("wrong map" at `result.blockGasSpent`) when one met it first after TurboFan compiled it (the
 * builder's `build`, the largest compile of a Safe replay under Node 20, compiled twice).
 *
 * Every field of the library's `RunTxResult` is present (`undefined` where the run has none), in
 * one order: readers see the values they saw; `'createdAddress' in result` is now true for every
 * result, which nothing in the node asks.
 */
import type { RunTxResult } from '@ethereumjs/vm'

/** `RunTxResult` with every field present, so the compiler names a field a new library version adds. */
type EveryField = { [K in keyof Required<RunTxResult>]: RunTxResult[K] }

/** What a run knows of its transaction's result; the rest is `undefined`. */
export type TxResultFields = Pick<RunTxResult, 'execResult' | 'totalGasSpent' | 'gasRefund' | 'blockGasSpent' | 'amountSpent' | 'minerValue' | 'bloom' | 'receipt'> &
  Partial<Pick<RunTxResult, 'createdAddress' | 'accessList'>>

/** A transaction's result in the one shape. */
export function txResult(r: TxResultFields): RunTxResult {
  const out: EveryField = {
    createdAddress: r.createdAddress,
    execResult: r.execResult,
    totalGasSpent: r.totalGasSpent,
    gasRefund: r.gasRefund,
    blockGasSpent: r.blockGasSpent,
    amountSpent: r.amountSpent,
    minerValue: r.minerValue,
    bloom: r.bloom,
    accessList: r.accessList,
    receipt: r.receipt,
    txStateGas: undefined,
    txRegularGas: undefined,
    preimages: undefined,
    blobGasUsed: undefined,
  }
  return out
}
