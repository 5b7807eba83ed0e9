/**
 * The searches of eth_estimateGas, and Hardhat Network's estimate (EDR's, ported from Hardhat's
 * own): the gas the transaction used (after refunds), at least its intrinsic gas + 1; if that
 * limit fails, a binary search up to the gas cap that stops within a tolerance growing with the
 * estimate, at most 20 runs. A plain transfer is estimated at 21,001, and refunds leave the
 * estimate a little above geth's exact search: what Hardhat answers, and what its users' gas
 * snapshots hold.
 *
 * Both searches ask "does the transaction succeed with this gas limit?" through a
 * {@link GasProbe}, which takes success to be monotone in the limit, as every search of this kind
 * does (geth's and EDR's bisect on it): a limit at or above one that succeeded succeeds, one at
 * or below one that failed fails, and neither is run again. Probing the gas the transaction
 * consumed before its refund, and one less, finds the threshold of most transactions in two runs;
 * geth's guess for nested calls ((consumed + 2300) × 64/63) bounds most of the rest; a search
 * then answers what it would have answered running each step, without the runs.
 */

/** Runs the transaction with a gas limit; true when it succeeds. */
export type GasRun = (gas: bigint) => Promise<boolean>

/** Answers whether a gas limit succeeds, from what earlier runs showed where it can. */
export class GasProbe {
  /** The least limit seen to succeed. */
  private success: bigint | undefined
  /** The largest limit seen to fail. */
  private failure: bigint | undefined
  /** The transaction's runs made so far (for tests and profiles). */
  runs = 0

  constructor(private readonly run: GasRun) {}

  /** Records a run made elsewhere (the estimate's first run, at the cap). */
  saw(gas: bigint, succeeded: boolean): void {
    if (succeeded) {
      if (this.success === undefined || gas < this.success) this.success = gas
    } else if (this.failure === undefined || gas > this.failure) this.failure = gas
  }

  async succeeds(gas: bigint): Promise<boolean> {
    if (this.success !== undefined && gas >= this.success) return true
    if (this.failure !== undefined && gas <= this.failure) return false
    this.runs++
    const ok = await this.run(gas)
    this.saw(gas, ok)
    return ok
  }

  /**
   * Tries `gas` and `gas - 1`: when the first succeeds and the second fails, every later question
   * is answered without a run. The consumed gas before refunds is the limit most transactions
   * need exactly.
   */
  async pin(gas: bigint): Promise<void> {
    if (await this.succeeds(gas)) await this.succeeds(gas - 1n)
  }
}

/** Hardhat's tolerance of the search: stop when the bounds are closer than this. */
export function hardhatMinDifference(lower: bigint): bigint {
  if (lower >= 4_000_000n) return 50_000n
  if (lower >= 1_000_000n) return 10_000n
  if (lower >= 100_000n) return 1_000n
  if (lower >= 50_000n) return 500n
  if (lower >= 30_000n) return 300n
  return 200n
}

const MAX_ROUNDS = 20

/** A limit above which a step of the search is refused, as Hardhat refuses it (EIP-7825's cap). */
export interface StepCap {
  readonly max: bigint
  refuse(gas: bigint): Error
}

/**
 * Hardhat's estimate, given the gas the first (successful) run used after refunds and before
 * them, the transaction's intrinsic gas, the search's upper bound (the transaction's gas limit)
 * and the probe of runs. With `stepCap`, a step of the search above its `max` ends the estimate
 * with its error, as EDR's search runs that step and the EVM refuses it; the probes of this
 * port's own (the consumed gas, geth's guess) stay below it.
 */
export async function hardhatEstimate(used: bigint, consumed: bigint, intrinsic: bigint, cap: bigint, probe: GasProbe, stepCap?: StepCap): Promise<bigint> {
  const initial = used <= intrinsic ? intrinsic + 1n : used
  if (await probe.succeeds(initial)) return initial
  const runnable = stepCap !== undefined && stepCap.max < cap ? stepCap.max : cap
  if (consumed > initial && consumed < runnable) await probe.pin(consumed)
  // Nested calls keep 1/64 of the gas back: geth's guess above the consumed gas bounds the
  // search's steps from below when the consumed gas alone is not enough.
  const optimistic = ((consumed + 2300n) * 64n) / 63n
  if (optimistic < runnable && !(await probe.succeeds(consumed))) await probe.succeeds(optimistic)
  let lower = initial
  let upper = cap
  for (let round = 0; upper - lower > hardhatMinDifference(lower) && round < MAX_ROUNDS; round++) {
    let mid = lower + (upper - lower) / 2n
    // The first guess stays near the gas used, from which the lower bound came.
    if (round === 0 && 3n * lower < mid) mid = 3n * lower
    if (stepCap !== undefined && mid > stepCap.max) throw stepCap.refuse(mid)
    if (await probe.succeeds(mid)) upper = mid
    else lower = mid + 1n
  }
  return upper
}
