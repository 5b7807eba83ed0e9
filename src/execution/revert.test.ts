/**
 * Revert data read as geth and Hardhat read it (src/execution/revert.ts, transaction-failure.ts),
 * and the domain errors a failure makes: their own JavaScript frames are not taken (the
 * dispatcher answers with the wire error it maps them to, whose stack users see).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { encodeErrorResult, hexToBytes, parseAbi } from 'viem'
import { toRpcError } from '../rpc/error-map.js'
import { revertError, revertReason } from './revert.js'
import { hardhatFailure } from './transaction-failure.js'

const abi = parseAbi(['error Error(string)', 'error Panic(uint256)', 'error Custom(uint256)'])
const errorData = (reason: string) => hexToBytes(encodeErrorResult({ abi, errorName: 'Error', args: [reason] }))
const panicData = (code: bigint) => hexToBytes(encodeErrorResult({ abi, errorName: 'Panic', args: [code] }))

const NativeTextDecoder = globalThis.TextDecoder
afterEach(() => {
  globalThis.TextDecoder = NativeTextDecoder
})

describe('revertReason', () => {
  it('reads Error(string), Panic(uint256), and nothing from other data', () => {
    expect(revertReason(errorData('no'))).toBe('no')
    expect(revertReason(errorData('ünïcödé ✓'))).toBe('ünïcödé ✓')
    expect(revertReason(panicData(0x11n))).toBe('arithmetic underflow or overflow')
    expect(revertReason(panicData(0x99n))).toBe('unknown panic code: 0x99')
    expect(revertReason(hexToBytes(encodeErrorResult({ abi, errorName: 'Custom', args: [1n] })))).toBeUndefined()
    expect(revertReason(new Uint8Array([0x08, 0xc3, 0x79]))).toBeUndefined()
    expect(revertReason(errorData('no').subarray(0, 40))).toBeUndefined()
  })

  it('decodes invalid UTF-8 with replacement characters, one reason not spilling into the next', () => {
    const bad = errorData('ab')
    bad[4 + 64 + 1] = 0xe2 // a three-byte sequence cut short by the string's end
    expect(revertReason(bad)).toBe('a\uFFFD')
    expect(revertReason(errorData('c'))).toBe('c')
  })

  it('makes no decoder per call', () => {
    let made = 0
    globalThis.TextDecoder = class extends NativeTextDecoder {
      constructor(...args: ConstructorParameters<typeof TextDecoder>) {
        super(...args)
        made++
      }
    }
    expect(revertReason(errorData('no'))).toBe('no')
    expect(made).toBe(0)
  })
})

describe('a failure\'s errors', () => {
  it('the domain errors take no JavaScript frames; the wire error does, with the same message, code and data', () => {
    const failed = hardhatFailure('revert', errorData('no'), '0x01')
    expect(failed.stack).toBe(`TransactionFailed: ${failed.message}`)
    const reverted = revertError(errorData('no'))
    expect(reverted.stack).toBe('ExecutionReverted: execution reverted: no')
    const wire = toRpcError(failed) as Error & { code: number; data: unknown }
    expect(wire).toMatchObject({ code: -32603, message: "Error: VM Exception while processing transaction: reverted with reason string 'no'", data: failed.data })
    expect(wire.stack!.split('\n').length).toBeGreaterThan(1)
    expect((toRpcError(reverted) as Error).stack!.split('\n').length).toBeGreaterThan(1)
    // Frames are taken again after them.
    expect(new Error('later').stack!.split('\n').length).toBeGreaterThan(1)
  })

  it('Hardhat\'s words for a panic and an Error(string), read by selector', () => {
    expect(hardhatFailure('revert', panicData(0x12n)).message).toBe('Error: VM Exception while processing transaction: reverted with panic code 0x12 (Division or modulo division by zero)')
    expect(hardhatFailure('revert', errorData('x')).message).toBe("Error: VM Exception while processing transaction: reverted with reason string 'x'")
    expect(hardhatFailure('revert', hexToBytes('0x12345678')).message).toBe('Error: VM Exception while processing transaction: reverted with an unrecognized custom error (return data: 0x12345678)')
  })
})
