/** Turns revert data into geth's `execution reverted: <reason>` error. */
import { ExecutionRevertedError } from '../domain-errors.js'
import { data, toBigInt } from '../hex.js'

const ERROR_SELECTOR = '08c379a0'
const PANIC_SELECTOR = '4e487b71'

// geth's panic reasons (accounts/abi.panicReasons).
const PANIC_REASONS = new Map<bigint, string>([
  [0x00n, 'generic panic'],
  [0x01n, 'assert(false)'],
  [0x11n, 'arithmetic underflow or overflow'],
  [0x12n, 'division or modulo by zero'],
  [0x21n, 'enum overflow'],
  [0x22n, 'invalid encoded storage byte array accessed'],
  [0x31n, 'out-of-bounds array access; popping on an empty array'],
  [0x32n, 'out-of-bounds access of an array or bytesN'],
  [0x41n, 'out of memory'],
  [0x51n, 'uninitialized function'],
])

/** The reason a Solidity revert carries, as geth's `abi.UnpackRevert` reads it. */
export function revertReason(output: Uint8Array): string | undefined {
  if (output.length < 4) return undefined
  const selector = Buffer.from(output.subarray(0, 4)).toString('hex')
  const body = output.subarray(4)
  if (selector === ERROR_SELECTOR && body.length >= 64) {
    const offset = Number(toBigInt(body.subarray(0, 32)))
    if (offset + 32 > body.length) return undefined
    const length = Number(toBigInt(body.subarray(offset, offset + 32)))
    if (offset + 32 + length > body.length) return undefined
    return new TextDecoder().decode(body.subarray(offset + 32, offset + 32 + length))
  }
  if (selector === PANIC_SELECTOR && body.length === 32) {
    const code = toBigInt(body)
    return PANIC_REASONS.get(code) ?? `unknown panic code: 0x${code.toString(16)}`
  }
  return undefined
}

/** The error for a reverted call. */
export function revertError(output: Uint8Array): ExecutionRevertedError {
  return new ExecutionRevertedError(revertReason(output), data(output))
}
