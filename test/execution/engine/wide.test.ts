/**
 * Sums and comparisons of a transaction's value (src/execution/engine/wide.ts): V8's optimised
 * code of a caller keeps running at the first operand of 2^63 or more, where a plain `+` or `<`
 * seen only small is thrown away ("not a BigInt64"); and the assumption that let the engine's
 * run of a transaction drop the library's check of a negative value: no transaction object holds one.
 */
import v8 from 'node:v8'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx'
import { describe, expect, it } from 'vitest'
import { feeMarketFromValues } from '../../../src/execution/engine/fee-market-tx.js'
import { unsignedLegacy } from '../../../src/execution/engine/legacy-tx.js'
import { plainBaseFields } from '../../../src/execution/engine/tx-base.js'
import { wideBelow, wideSum } from '../../../src/execution/engine/wide.js'

v8.setFlagsFromString('--allow-natives-syntax')

let probes = 0

/**
 * Whether a caller of `op`, optimised by TurboFan after seeing only small operands, is still
 * optimised after one call with an operand of 2^100. `op` is inlined into the caller, which
 * compiles it from `op`'s own feedback. A source of its own each time: V8 caches what
 * `new Function` compiles by its source, with its feedback.
 */
function keepsOptimised(op: (a: bigint, b: bigint) => unknown): [boolean, boolean] {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax parses only in code compiled after the flag
  const probe = new Function(
    'op',
    `// probe ${probes++}
    %PrepareFunctionForOptimization(op);
    const caller = (a, b) => op(a, b);
    %PrepareFunctionForOptimization(caller);
    caller(1n, 2n);
    caller(3n, 4n);
    %OptimizeFunctionOnNextCall(caller);
    caller(5n, 6n);
    const before = %GetOptimizationStatus(caller);
    caller(1n << 100n, 1n);
    const after = %GetOptimizationStatus(caller);
    // Bit 4: optimised code is attached (V8's OptimizationStatus::kOptimized).
    return [(before & 16) !== 0, (after & 16) !== 0];`,
  ) as (op: (a: bigint, b: bigint) => unknown) => [boolean, boolean]
  return probe(op)
}

describe('wide sums and comparisons', () => {
  it('default: the same answers as the operators', () => {
    const big = 1n << 200n
    expect(wideSum(big, 5n)).toBe(big + 5n)
    expect(wideBelow(big, 5n)).toBe(false)
    expect(wideBelow(5n, big)).toBe(true)
    expect(wideBelow(-1n, 0n)).toBe(true)
  })

  it('behavior: a caller compiled on small values keeps its optimised code at a value of 2^100', () => {
    expect(keepsOptimised(wideSum)).toEqual([true, true])
    expect(keepsOptimised(wideBelow)).toEqual([true, true])
  })

  it('behavior: the plain operators, seen small, lose it (what wide.ts avoids)', () => {
    const plainSum = (a: bigint, b: bigint) => a + b
    const plainBelow = (a: bigint, b: bigint) => a < b
    expect(keepsOptimised(plainSum)).toEqual([true, false])
    expect(keepsOptimised(plainBelow)).toEqual([true, false])
  })
})

describe('a transaction value', () => {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })

  it('error: every constructor refuses a negative value', () => {
    expect(() => createLegacyTx({ value: -1n, gasPrice: 1n, gasLimit: 21_000n }, { common })).toThrow(/negative/)
    expect(() => createFeeMarket1559Tx({ value: -1n, maxFeePerGas: 1n, gasLimit: 21_000n }, { common })).toThrow(/negative/)
    expect(() => unsignedLegacy({ nonce: 0n, gasLimit: 21_000n, gasPrice: 1n, to: undefined, value: -1n, data: new Uint8Array(0) }, { common, freeze: false })).toThrow(/negative/)
    expect(plainBaseFields(undefined, new Uint8Array(0), 0n, 21_000n, -1n)).toBe(false)
    expect(plainBaseFields(undefined, new Uint8Array(0), 0n, 21_000n, 1n << 255n)).toBe(true)
    expect(plainBaseFields(undefined, new Uint8Array(0), 0n, 21_000n, 1n << 256n)).toBe(false)
  })

  it('behavior: decoded bytes give no negative value', () => {
    // An RLP integer is unsigned: the largest 32-byte value decodes as 2^256 - 1.
    const max = new Uint8Array(32).fill(0xff)
    const values = [Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(1), Uint8Array.of(1), Uint8Array.of(0x52, 0x08), new Uint8Array(20).fill(1), max, new Uint8Array(0), [], Uint8Array.of(1), Uint8Array.of(1), Uint8Array.of(1)]
    const tx = feeMarketFromValues(values as never, { common, freeze: false })
    expect(tx.value).toBe((1n << 256n) - 1n)
  })
})
