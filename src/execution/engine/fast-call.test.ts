/**
 * The call-frame fast path (src/execution/engine/fast-call.ts) ends every frame as @ethereumjs/evm's own
 * `_executeCall` does: the same result and the same state, for a contract call with and without
 * value, a revert, a value the sender cannot pay, a call to an account without code and a
 * precompile call. Each case runs on two fresh EVMs, one through each method. The frame's result
 * (`runInterpreter`, also the engine's own) has the library's fields with the library's values,
 * and, on the engine's EVMs, one shape for every frame: the same fields in the same order, for
 * calls, precompiles, creates and their failures (frame-result.ts).
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { type EVM, createEVM } from '@ethereumjs/evm'
import { Account, createAddressFromString, hexToBytes, type Address } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createEngineEVM, engineStatus, installEngine, isFast } from './index.js'

const CALLER = createAddressFromString('0x1000000000000000000000000000000000000001')
const CONTRACT = createAddressFromString('0x2000000000000000000000000000000000000002')
const REVERTER = createAddressFromString('0x3000000000000000000000000000000000000003')
const EMPTY = createAddressFromString('0x4000000000000000000000000000000000000004')
const IDENTITY = createAddressFromString('0x0000000000000000000000000000000000000004')

// SSTORE(0, CALLVALUE + 1); RETURN 32 bytes holding CALLER.
const CONTRACT_CODE = '0x600134016000553360005260206000f3'
// REVERT with 32 bytes holding 0x2a.
const REVERTER_CODE = '0x602a60005260206000fd'

async function evm(engine = true): Promise<EVM> {
  const e = await (engine ? createEngineEVM : createEVM)({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }) })
  await e.stateManager.putAccount(CALLER, new Account(0n, 1_000_000n))
  await e.stateManager.putAccount(CONTRACT, new Account())
  await e.stateManager.putCode(CONTRACT, hexToBytes(CONTRACT_CODE))
  await e.stateManager.putAccount(REVERTER, new Account())
  await e.stateManager.putCode(REVERTER, hexToBytes(REVERTER_CODE))
  return e
}

async function frame(useLibrary: boolean, to: Address, value: bigint, data: Uint8Array = new Uint8Array(0)) {
  // An EVM the engine does not own runs the library's own method.
  const e = await evm(!useLibrary)
  const { execResult } = await e.runCall({ caller: CALLER, to, value, data, gasLimit: 100_000n })
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
  return {
    gasUsed: execResult.executionGasUsed,
    returnValue: hex(execResult.returnValue),
    error: execResult.exceptionError?.error,
    gasRefund: execResult.gasRefund,
    runState: execResult.runState === undefined ? undefined : Object.keys(execResult.runState).length > 0,
    // The fields the frame's result holds (the engine's has every field, some undefined: frame-result.ts).
    fields: Object.keys(execResult)
      .filter((k) => execResult[k as keyof typeof execResult] !== undefined)
      .sort()
      .join(','),
    selfdestruct: execResult.selfdestruct?.size,
    createdAddresses: execResult.createdAddresses?.size,
    logs: execResult.logs?.length ?? 0,
    callerBalance: (await e.stateManager.getAccount(CALLER))?.balance,
    toBalance: (await e.stateManager.getAccount(to))?.balance,
    slot0: hex(await e.stateManager.getStorage(CONTRACT, new Uint8Array(32))),
  }
}

const cases: Array<[string, Address, bigint, Uint8Array?]> = [
  ['a contract call', CONTRACT, 0n],
  ['a contract call with value', CONTRACT, 5n],
  ['a revert', REVERTER, 0n],
  ['a value the sender cannot pay', CONTRACT, 10n ** 18n],
  ['a call to an account without code', EMPTY, 7n],
  ['a precompile call', IDENTITY, 0n, Uint8Array.of(1, 2, 3)],
]

describe('the call-frame fast path', () => {
  it('is on for the engine\'s EVMs, and those run it', async () => {
    await installEngine()
    expect(engineStatus().patches.fastCall).toBe(true)
    expect(isFast(await evm(true))).toBe(true)
    expect(isFast(await evm(false))).toBe(false)
  })

  for (const [name, to, value, data] of cases) {
    it(`behavior: ${name} ends as through @ethereumjs/evm's _executeCall`, async () => {
      const fast = await frame(false, to, value, data)
      const library = await frame(true, to, value, data)
      expect(fast).toEqual(library)
    })
  }

  it('behavior: the cases reach the outcomes they are meant to test', async () => {
    expect(BigInt(`0x${(await frame(false, CONTRACT, 5n)).slot0}`)).toBe(6n)
    expect((await frame(false, REVERTER, 0n)).error).toBe('revert')
    expect((await frame(false, CONTRACT, 10n ** 18n)).error).toBe('insufficient balance')
    expect((await frame(false, EMPTY, 7n)).toBalance).toBe(7n)
    expect((await frame(false, IDENTITY, 0n, Uint8Array.of(1, 2, 3))).returnValue).toBe('010203')
  })
})

describe('the result of a frame', () => {
  it('has one shape on the engine\'s EVMs, whatever ended the frame', async () => {
    await installEngine()
    const keysOf = async (engine: boolean, opts: Parameters<EVM['runCall']>[0]) => {
      const e = await evm(engine)
      const { execResult } = await e.runCall({ caller: CALLER, gasLimit: 100_000n, ...opts })
      return { error: execResult.exceptionError?.error, keys: Object.keys(execResult).join(',') }
    }
    const frames: Array<[string, Parameters<EVM['runCall']>[0]]> = [
      ['a call', { to: CONTRACT }],
      ['a revert', { to: REVERTER }],
      ['a value the sender cannot pay', { to: CONTRACT, value: 10n ** 18n }],
      ['a call to an account without code', { to: EMPTY }],
      ['a precompile call', { to: IDENTITY, data: Uint8Array.of(1) }],
      ['a precompile out of gas', { to: createAddressFromString('0x0000000000000000000000000000000000000005'), data: new Uint8Array(96).fill(0xff), gasLimit: 30_000n }],
      // Init code that returns nothing; init code that runs out of gas growing memory past 0xffff.
      ['a create', { data: Uint8Array.of(0x00) }],
      ['a create out of gas', { data: hexToBytes('0x60ff61ffff52'), gasLimit: 1_000n }],
    ]
    const engine = await Promise.all(frames.map(([, opts]) => keysOf(true, opts)))
    const library = await Promise.all(frames.map(([, opts]) => keysOf(false, opts)))
    // The cases end as meant, the same on both.
    expect(engine.map((r) => r.error)).toEqual([undefined, 'revert', 'insufficient balance', undefined, undefined, 'out of gas', undefined, 'out of gas'])
    expect(library.map((r) => r.error)).toEqual(engine.map((r) => r.error))
    // The library's own results come in several shapes; the engine's in one.
    expect(new Set(library.map((r) => r.keys)).size).toBeGreaterThan(1)
    expect(new Set(engine.map((r) => r.keys))).toEqual(new Set([engine[0]!.keys]))
  })
})

describe('the run state of a frame', () => {
  it('has the fields a CALL adds to it from its first opcode (one hidden class for every frame)', async () => {
    await installEngine()
    const e = await evm(true)
    // ADD; CALL the identity precompile; ADD; CREATE of nothing; ADD: each ADD's run state's
    // fields, as a wrapper sees them.
    const add = [0x60, 0x01, 0x60, 0x01, 0x01, 0x50]
    const call = [0x60, 0x00, 0x60, 0x00, 0x60, 0x00, 0x60, 0x00, 0x60, 0x00, 0x60, 0x04, 0x61, 0xff, 0xff, 0xf1, 0x50]
    const create = [0x60, 0x00, 0x60, 0x00, 0x60, 0x00, 0xf0, 0x50]
    const caller = createAddressFromString('0x5000000000000000000000000000000000000005')
    await e.stateManager.putAccount(caller, new Account())
    await e.stateManager.putCode(caller, Uint8Array.from([...add, ...call, ...add, ...create, ...add]))
    const entry = (e as unknown as { _opcodeMap: Array<{ opHandler: (rs: object, common: unknown) => unknown }> })._opcodeMap[0x01]!
    const handler = entry.opHandler
    const seen: string[] = []
    entry.opHandler = (rs, common) => {
      seen.push(Object.keys(rs).join(','))
      return handler(rs, common)
    }
    const { execResult } = await e.runCall({ caller: CALLER, to: caller, gasLimit: 100_000n })
    expect(execResult.exceptionError).toBeUndefined()
    expect(seen).toHaveLength(3)
    expect(seen[0]).toContain('messageGasLimit')
    expect(seen[1]).toBe(seen[0])
    expect(seen[2]).toBe(seen[0])
  })
})
