/** Turns revert data into geth's `execution reverted: <reason>` error. */
import { ExecutionReverted, withoutStack, type SolidityFrame } from '../domain-errors.js'
import { data, toBigInt } from '../hex.js'

export const ERROR_SELECTOR = '08c379a0'
export const PANIC_SELECTOR = '4e487b71'

/**
 * Solidity's panic codes: geth's reason (accounts/abi.panicReasons) and Hardhat's description
 * (which has none for the generic panic).
 */
export const PANIC_CODES = new Map<bigint, { geth: string; hardhat?: string }>([
  [0x00n, { geth: 'generic panic' }],
  [0x01n, { geth: 'assert(false)', hardhat: 'Assertion error' }],
  [0x11n, { geth: 'arithmetic underflow or overflow', hardhat: 'Arithmetic operation overflowed outside of an unchecked block' }],
  [0x12n, { geth: 'division or modulo by zero', hardhat: 'Division or modulo division by zero' }],
  [0x21n, { geth: 'enum overflow', hardhat: 'Tried to convert a value into an enum, but the value was too big or negative' }],
  [0x22n, { geth: 'invalid encoded storage byte array accessed', hardhat: 'Incorrectly encoded storage byte array' }],
  [0x31n, { geth: 'out-of-bounds array access; popping on an empty array', hardhat: '.pop() was called on an empty array' }],
  [0x32n, { geth: 'out-of-bounds access of an array or bytesN', hardhat: 'Array accessed at an out-of-bounds or negative index' }],
  [0x41n, { geth: 'out of memory', hardhat: 'Too much memory was allocated, or an array was created that is too large' }],
  [0x51n, { geth: 'uninitialized function', hardhat: 'Called a zero-initialized variable of internal function type' }],
])

/**
 * Whether `output` begins with `selector` (its 4 bytes as one number, big-endian), compared
 * without a hex string of its own per call.
 */
export function hasSelector(output: Uint8Array, selector: number): boolean {
  return output.length >= 4 && ((output[0] as number) << 24 | (output[1] as number) << 16 | (output[2] as number) << 8 | (output[3] as number)) >>> 0 === selector
}

const ERROR_WORD = 0x08c379a0
const PANIC_WORD = 0x4e487b71

/** `Error(string)` and `Panic(uint256)` selectors as numbers, for `hasSelector`. */
export const SELECTOR_WORDS = { error: ERROR_WORD, panic: PANIC_WORD } as const

// Stateless between calls (no `stream` option), so one decoder serves every reason.
const utf8 = new TextDecoder()

/** The reason a Solidity revert carries, as geth's `abi.UnpackRevert` reads it. */
export function revertReason(output: Uint8Array): string | undefined {
  if (output.length < 4) return undefined
  const body = output.subarray(4)
  if (hasSelector(output, ERROR_WORD) && body.length >= 64) {
    const offset = Number(toBigInt(body.subarray(0, 32)))
    if (offset + 32 > body.length) return undefined
    const length = Number(toBigInt(body.subarray(offset, offset + 32)))
    if (offset + 32 + length > body.length) return undefined
    return utf8.decode(body.subarray(offset + 32, offset + 32 + length))
  }
  if (hasSelector(output, PANIC_WORD) && body.length === 32) {
    const code = toBigInt(body)
    return PANIC_CODES.get(code)?.geth ?? `unknown panic code: 0x${code.toString(16)}`
  }
  return undefined
}

/** The error for a reverted call, with its Solidity frames when the node's metadata gave them. */
export function revertError(output: Uint8Array, frames?: readonly SolidityFrame[]): ExecutionReverted {
  // Its own stack is never read: the dispatcher answers with the wire error it maps it to.
  const reason = revertReason(output)
  return withoutStack(() => new ExecutionReverted(reason, data(output), frames))
}
