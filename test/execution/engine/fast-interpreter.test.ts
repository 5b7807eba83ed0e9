/**
 * The interpreter loop of src/execution/engine/fast-interpreter.ts changes no result. Each program runs
 * twice on fresh EVMs: once through the fast loop, once with a `step` listener attached, which
 * sends every step through @ethereumjs/evm's own `runStep`. Gas used and the run state's gas
 * left, return data, logs, the error and the storage written must be the same, for success, STOP, REVERT, INVALID, bad jumps,
 * out-of-gas (static and memory-expansion gas), calls, creates and the async opcodes.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createEVM, type EVM } from '@ethereumjs/evm'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createEngineEVM, installEngine } from '../../../src/execution/engine/index.js'
import { CALLEE_CODE, PROGRAMS } from './corpus.js'

const CALLER = createAddressFromString('0x1000000000000000000000000000000000000001')
const TARGET = createAddressFromString('0x2000000000000000000000000000000000000002')
const CALLEE = createAddressFromString('0x3000000000000000000000000000000000000003')

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
    // The frame's run state as the library and tracers read it after the frame (zero after out of gas).
    gasLeft: exec.runState?.gasLeft,
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

  // The jump-destination analysis is taken before the loop, but its table of opcodes is used from
  // the frame's first jump on, as in the library's `run`: before it the opcode is the code's byte
  // (an unassigned byte stays itself), after it the table's entry (INVALID's, 0xfe).
  const ANALYSIS_CASES: Array<[string, string]> = [
    ['an unassigned byte before the first jump', '0x600160020c'],
    ['an unassigned byte after a jump', '0x6003565b0c'],
    ['code without a jump that returns', '0x60056000526001601ff3'],
    ['a jump into push data', '0x600356605b00'],
  ]
  for (const [name, code] of ANALYSIS_CASES) {
    it(`behavior: ${name} halts where and as through @ethereumjs/evm's own EVM`, async () => {
      await installEngine()
      const frame = async (engine: boolean) => {
        const evm = await (engine ? evmWith(code) : libraryEvmWith(code))
        const exec = (await evm.runCall({ caller: CALLER, to: TARGET, gasLimit: 100_000n })).execResult
        const rs = exec.runState as unknown as { opCode: number; programCounter: number; gasLeft: bigint }
        return { opCode: rs.opCode, pc: rs.programCounter, gasLeft: rs.gasLeft, gasUsed: exec.executionGasUsed, error: exec.exceptionError?.error, out: Buffer.from(exec.returnValue).toString('hex') }
      }
      expect(await frame(true)).toEqual(await frame(false))
    })
  }

  it('behavior: the analysis cases reach the outcomes they are meant to test', async () => {
    await installEngine()
    const opCodes = []
    for (const [, code] of ANALYSIS_CASES) {
      const evm = await evmWith(code)
      const exec = (await evm.runCall({ caller: CALLER, to: TARGET, gasLimit: 100_000n })).execResult
      opCodes.push([(exec.runState as unknown as { opCode: number }).opCode, exec.exceptionError?.error.split(' at ')[0]])
    }
    expect(opCodes).toEqual([
      [0x0c, 'invalid opcode'],
      [0xfe, 'invalid opcode'],
      [0xf3, undefined],
      [0x56, 'invalid JUMP'],
    ])
  })
})

async function libraryEvmWith(code: string): Promise<EVM> {
  const evm = await createEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) })
  await evm.stateManager.putAccount(CALLER, new Account(0n, 10n ** 18n))
  await evm.stateManager.putAccount(TARGET, new Account())
  await evm.stateManager.putCode(TARGET, hexToBytes(code as `0x${string}`))
  return evm
}
