/**
 * Reads of @ethereumjs/evm's stack without an array per read, and a gas sum without a new
 * bigint where it can. The library's `peek(n)` and
 * `popN(n)` return a new array each call: one allocation per opcode that reads two operands or
 * whose gas handler looks at its operands. The fast handlers (`fast-opcodes.ts`,
 * `fast-storage.ts`) read the stack's backing array (`_store`, its top at `length - 1`; checked
 * at start-up, `internals.ts`) instead.
 */
import { EVMError } from '@ethereumjs/evm'

/** The library's stack, as these reads see it. */
export interface Stack {
  readonly length: number
  _store: bigint[]
  pop(): bigint
  popN(n: number): bigint[]
  push(value: bigint): void
  peek(n?: number): bigint[]
}

/** `stack.peek(depth + 1)[depth]`: the item `depth` below the top, or the library's underflow. */
export function peek(stack: Stack, depth: number): bigint {
  if (stack.length <= depth) throw new EVMError(EVMError.errorMessages.STACK_UNDERFLOW)
  return stack._store[stack.length - 1 - depth] as bigint
}

/**
 * `gas + cost` without a new bigint when either is zero: a memory access that does not grow the
 * memory, an SLOAD's static part (zero since EIP-2929, which prices it all in the gas handler).
 */
export function plus(gas: bigint, cost: bigint): bigint {
  return cost === 0n ? gas : gas === 0n ? cost : gas + cost
}
