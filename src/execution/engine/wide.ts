/**
 * Sums and comparisons of bigints that may pass 2^63: a transaction's value against the fees.
 *
 * V8's optimising compiler turns a `+` or `<` on bigints that it has only seen small into 64-bit
 * arithmetic and throws the compiled code away at the first operand or result of 2^63 or more
 * ("not a BigInt64"): the first send of 10 ether (1e19 wei) in a suite whose earlier sends carried
 * less. On a send's path that threw away, each once, the engine's run of the transaction (the
 * largest function TurboFan compiles for a send), the pool's admission and the transaction
 * constructors' checks. These functions are run here on wide values before any caller is
 * compiled (enough calls for V8 to give them a feedback vector and record what they saw), so the
 * compiled code of a caller they are inlined into takes the general path from the start: no
 * deopt, the same results. Only where the operands may be wide: a bigint known to fit 64 bits (a
 * gas amount, a nonce) keeps the plain operator.
 */

/** `a + b`. */
export function wideSum(a: bigint, b: bigint): bigint {
  return a + b
}

/** `a < b`. */
export function wideBelow(a: bigint, b: bigint): boolean {
  return a < b
}

/** More calls than V8 makes before a function gets its feedback vector (`--invocation-count-for-feedback-allocation`, 8). */
const SEED_CALLS = 32

/**
 * Runs each function on values of 256 bits. The check makes the calls an effect the bundle's
 * tree-shaking keeps (calls of functions without effects are dropped).
 */
function seed(): void {
  const wide = 1n << 255n
  let sum = 0n
  for (let i = 0; i < SEED_CALLS; i++) {
    sum = wideSum(sum, wide)
    if (wideBelow(sum, wide)) throw new Error('wide.ts: a sum of bigints came out smaller than its operand')
  }
}
seed()
