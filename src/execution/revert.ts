/** Turns revert data into geth's `execution reverted: <reason>` error. */
import { ExecutionReverted, type SolidityFrame } from '../domain-errors.js'
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
    return PANIC_CODES.get(code)?.geth ?? `unknown panic code: 0x${code.toString(16)}`
  }
  return undefined
}

/** The error for a reverted call, with its Solidity frames when the node's metadata gave them. */
export function revertError(output: Uint8Array, frames?: readonly SolidityFrame[]): ExecutionReverted {
  return new ExecutionReverted(revertReason(output), data(output), frames)
}
