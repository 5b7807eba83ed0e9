/**
 * The interpreter loop of src/execution/fast-interpreter.ts changes no result. Each program runs
 * twice on fresh EVMs: once through the fast loop, once with a `step` listener attached, which
 * sends every step through @ethereumjs/evm's own `runStep`. Gas, return data, logs, the error
 * and the storage written must be the same, for success, STOP, REVERT, INVALID, bad jumps,
 * out-of-gas (static and memory-expansion gas), calls, creates and the async opcodes.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import type { EVM } from '@ethereumjs/evm'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createEngineEVM, installEngine } from '../../src/execution/engine/index.js'

const CALLER = createAddressFromString('0x1000000000000000000000000000000000000001')
const TARGET = createAddressFromString('0x2000000000000000000000000000000000000002')
const CALLEE = createAddressFromString('0x3000000000000000000000000000000000000003')

// The callee: SSTORE(1, CALLDATALOAD(0)); LOG1(0, 0, topic 7); RETURN 32 bytes of memory holding 0x2a.
const CALLEE_CODE = '0x600035600155600760006000a1602a60005260206000f3'

const PROGRAMS: Record<string, string> = {
  // MSTORE 42 at 0, RETURN 32 bytes.
  'return a word': '0x602a60005260206000f3',
  // STOP after some arithmetic.
  stop: '0x6001600201600302600a0450600060005500',
  // MSTORE then REVERT with 32 bytes of data.
  revert: '0x600160005260206000fd',
  invalid: '0x6001fe',
  // JUMP to byte 4, a STOP rather than a JUMPDEST.
  'bad jump': '0x6004565b00',
  // A loop that runs out of gas: JUMPDEST, PUSH1 0, JUMP.
  'out of gas in a loop': '0x5b600056',
  // MSTORE at offset 2^32: the memory-expansion gas cannot be paid.
  'out of gas on memory': '0x60016401000000005200',
  // KECCAK256 of 64 bytes of memory, SSTORE it, SLOAD it back, RETURN it.
  'keccak, sstore, sload': '0x602a600052604060002060005560005460005260206000f3',
  // CALL the callee with calldata 5, gas 100000, then RETURN its 32 bytes of output.
  call: '0x600560005260206000602060006000733000000000000000000000000000000000000003620186a0f15060206000f3',
  // CREATE a contract whose init code returns one byte, RETURN the new address.
  create: '0x6c600160005360016000f3000000600052600a60136000f060005260206000f3',
  // EXP and a MSTORE8, then LOG2 over 40 bytes.
  'exp, mstore8, log': '0x600260030a6000536003600460286000a200',
}

async function evmWith(code: string): Promise<EVM> {
  const evm = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) })
  const state = evm.stateManager
  await state.putAccount(CALLER, new Account(0n, 10n ** 18n))
  await state.putAccount(TARGET, new Account())
  await state.putCode(TARGET, hexToBytes(code as `0x${string}`))
  await state.putAccount(CALLEE, new Account())
  await state.putCode(CALLEE, hexToBytes(CALLEE_CODE))
  return evm
}

async function run(code: string, traced: boolean, gasLimit: bigint) {
  const evm = await evmWith(code)
  let steps = 0
  if (traced) evm.events!.on('step', () => void steps++)
  const result = await evm.runCall({ caller: CALLER, to: TARGET, gasLimit })
  const exec = result.execResult
  return {
    steps,
    gasUsed: exec.executionGasUsed,
    returnValue: Buffer.from(exec.returnValue).toString('hex'),
    error: exec.exceptionError?.error,
    logs: (exec.logs ?? []).map((l) => l.map((part) => (part instanceof Uint8Array ? Buffer.from(part).toString('hex') : (part as Uint8Array[]).map((t) => Buffer.from(t).toString('hex'))))),
    slot0: Buffer.from(await evm.stateManager.getStorage(TARGET, new Uint8Array(32))).toString('hex'),
    calleeSlot1: Buffer.from(await evm.stateManager.getStorage(CALLEE, hexToBytes(`0x${'00'.repeat(31)}01`))).toString('hex'),
  }
}

describe('the fast interpreter loop', () => {
  for (const [name, code] of Object.entries(PROGRAMS)) {
    it(`behavior: ${name} ends the same as through the library's runStep`, async () => {
      await installEngine()
      const fast = await run(code, false, 200_000n)
      const reference = await run(code, true, 200_000n)
      expect(reference.steps).toBeGreaterThan(0)
      expect({ ...fast, steps: 0 }).toEqual({ ...reference, steps: 0 })
    })
  }

  it('behavior: the programs reach the outcomes they are meant to test', async () => {
    await installEngine()
    const outcome = async (name: string) => (await run(PROGRAMS[name]!, false, 200_000n)).error
    expect(await outcome('return a word')).toBeUndefined()
    expect(await outcome('stop')).toBeUndefined()
    expect(await outcome('revert')).toBe('revert')
    expect(await outcome('invalid')).toBe('invalid opcode')
    expect(await outcome('bad jump')).toMatch(/^invalid JUMP/)
    expect(await outcome('out of gas in a loop')).toBe('out of gas')
    expect(await outcome('out of gas on memory')).toBe('out of gas')
    const call = await run(PROGRAMS.call!, false, 200_000n)
    expect(call.error).toBeUndefined()
    expect(BigInt(`0x${call.returnValue}`)).toBe(42n)
    expect(BigInt(`0x${call.calleeSlot1}`)).toBe(5n)
    expect(call.logs).toHaveLength(1)
    const create = await run(PROGRAMS.create!, false, 200_000n)
    expect(create.error).toBeUndefined()
    expect(BigInt(`0x${create.returnValue}`)).not.toBe(0n)
    const log = await run(PROGRAMS['exp, mstore8, log']!, false, 200_000n)
    expect(log.error).toBeUndefined()
    expect(log.logs).toHaveLength(1)
  })

  it('behavior: out of gas at every gas limit along a program matches the reference', async () => {
    await installEngine()
    const code = PROGRAMS['keccak, sstore, sload']!
    for (let gas = 0n; gas < 30_000n; gas += 997n) {
      const fast = await run(code, false, gas)
      const reference = await run(code, true, gas)
      expect({ ...fast, steps: 0 }).toEqual({ ...reference, steps: 0 })
    }
  })
})
