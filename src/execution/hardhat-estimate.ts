/**
 * Hardhat Network's gas estimate (EDR's, ported from Hardhat's own): the gas the transaction used
 * (after refunds), at least its intrinsic gas + 1; if that limit fails, a binary search up to the
 * gas cap that stops within a tolerance growing with the estimate, at most 20 runs. A plain
 * transfer is estimated at 21,001, and refunds leave the estimate a little above geth's exact
 * search: what Hardhat answers, and what its users' gas snapshots hold.
 */

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

/**
 * The estimate, given the gas the first (successful) run used, the transaction's intrinsic gas,
 * the largest limit to try and a run at a given limit.
 */
export async function hardhatEstimate(used: bigint, intrinsic: bigint, cap: bigint, succeeds: (gas: bigint) => Promise<boolean>): Promise<bigint> {
  const initial = used <= intrinsic ? intrinsic + 1n : used
  if (await succeeds(initial)) return initial
  let lower = initial
  let upper = cap
  for (let round = 0; upper - lower > hardhatMinDifference(lower) && round < MAX_ROUNDS; round++) {
    let mid = lower + (upper - lower) / 2n
    // The first guess stays near the gas used, from which the lower bound came.
    if (round === 0 && 3n * lower < mid) mid = 3n * lower
    if (await succeeds(mid)) upper = mid
    else lower = mid + 1n
  }
  return upper
}
