/**
 * The estimate's searches over a GasProbe answer what the plain searches answer, running each
 * step, whenever success is monotone in the gas limit; and they run the transaction far less.
 */
import { describe, expect, it } from 'vitest'
import { GasProbe, hardhatEstimate, hardhatMinDifference } from './hardhat-estimate.js'

/** Hardhat's search as it runs every step (the reference). */
async function plainHardhat(used: bigint, intrinsic: bigint, cap: bigint, ok: (gas: bigint) => boolean): Promise<bigint> {
  const initial = used <= intrinsic ? intrinsic + 1n : used
  if (ok(initial)) return initial
  let lower = initial
  let upper = cap
  for (let round = 0; upper - lower > hardhatMinDifference(lower) && round < 20; round++) {
    let mid = lower + (upper - lower) / 2n
    if (round === 0 && 3n * lower < mid) mid = 3n * lower
    if (ok(mid)) upper = mid
    else lower = mid + 1n
  }
  return upper
}

describe('GasProbe', () => {
  it('answers from earlier runs where monotonicity decides, and runs otherwise', async () => {
    const asked: bigint[] = []
    const probe = new GasProbe(async (gas) => {
      asked.push(gas)
      return gas >= 50_000n
    })
    probe.saw(30_000_000n, true)
    expect(await probe.succeeds(60_000n)).toBe(true)
    expect(await probe.succeeds(70_000n)).toBe(true)
    expect(await probe.succeeds(40_000n)).toBe(false)
    expect(await probe.succeeds(30_000n)).toBe(false)
    await probe.pin(50_000n)
    expect(await probe.succeeds(49_999n)).toBe(false)
    expect(await probe.succeeds(50_000n)).toBe(true)
    expect(asked).toEqual([60_000n, 40_000n, 50_000n, 49_999n])
    expect(probe.runs).toBe(4)
  })
})

describe("Hardhat's estimate over a probe", () => {
  const cases: Array<[string, bigint, bigint, bigint]> = []
  // used after refunds, consumed before them, the threshold the transaction needs.
  for (const used of [21_500n, 29_000n, 45_000n, 60_000n, 120_000n, 900_000n, 2_500_000n, 5_000_000n]) {
    for (const refund of [0n, 2_800n, 4_800n, used / 5n]) {
      const consumed = used + refund
      for (const extra of [0n, 1n, 700n, consumed / 63n + 2300n]) cases.push([`used ${used} refund ${refund} +${extra}`, used, consumed, consumed + extra])
    }
  }

  it.each(cases)('%s: the same answer as running every step', async (_name, used, consumed, threshold) => {
    const cap = 30_000_000n
    const ok = (gas: bigint) => gas >= threshold
    const probe = new GasProbe(async (gas) => ok(gas))
    probe.saw(cap, true)
    expect(await hardhatEstimate(used, consumed, 21_000n, cap, probe)).toBe(await plainHardhat(used, 21_000n, cap, ok))
    // A transaction that needs exactly what it consumed is settled by the initial run and the two
    // probes around the consumed gas.
    if (threshold === consumed) expect(probe.runs).toBeLessThanOrEqual(3)
    // One that needs what nested calls keep back takes fewer runs than the plain search.
    else {
      let plainRuns = 0
      await plainHardhat(used, 21_000n, cap, (gas) => (plainRuns++, ok(gas)))
      expect(probe.runs).toBeLessThan(plainRuns)
    }
  })
})
