/**
 * A call frame's state steps without promises (src/execution/engine/frame-state.ts): on the node's own
 * state with a base read synchronously, a call with value, an inner call with value and a call
 * to a precompile set up their frames without the promise-returning reads, and end
 * with the same balances, return data, gas and errors as the library's steps (a sender short of
 * the value included); the messages they load code into keep one hidden class.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createEVM, Message } from '@ethereumjs/evm'
import v8 from 'node:v8'
import { Account, createAddressFromString } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { loadCodeNow, orEmptyAccount } from './frame-state.js'
import { createEngineEVM, installEngine } from './index.js'
import { JournaledState } from '../../state/journaled-state.js'
import type { StateReader } from '../../state/types.js'

const CALLER = createAddressFromString('0x1000000000000000000000000000000000000001')
const TARGET = createAddressFromString('0x2000000000000000000000000000000000000002')
const CALLEE = '3000000000000000000000000000000000000003'

// CALL(gas 50000, CALLEE, value 2, no input, no output); CALL(gas 5000, identity precompile 0x04,
// value 0, input memory[0..32], output memory[0..32]); RETURN memory[0..32] (CALLEE's result in
// the first word is the identity copy of zeros; the word holds the two calls' successes summed).
const CODE = Uint8Array.from([
  0x60, 0x00, 0x60, 0x00, 0x60, 0x00, 0x60, 0x00, 0x60, 0x02, 0x73, ...Buffer.from(CALLEE, 'hex'), 0x61, 0xc3, 0x50, 0xf1,
  0x60, 0x20, 0x60, 0x00, 0x60, 0x20, 0x60, 0x00, 0x60, 0x00, 0x60, 0x04, 0x61, 0x13, 0x88, 0xf1,
  0x01, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3,
])

function base(): StateReader {
  return {
    getAccount: async () => undefined,
    getStorage: async () => new Uint8Array(0),
    getCode: async () => new Uint8Array(0),
    now: { account: () => undefined, storage: () => new Uint8Array(0), code: () => new Uint8Array(0) },
  }
}

async function call(engine: boolean, value: bigint, callerBalance: bigint) {
  await installEngine()
  const state = new JournaledState(base())
  let promised = 0
  for (const name of ['getAccount', 'getCode'] as const) {
    const read = (state[name] as (...args: unknown[]) => Promise<unknown>).bind(state)
    ;(state as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      promised++
      return read(...args)
    }
  }
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
  const evm = engine ? await createEngineEVM({ common, stateManager: state as never }) : await createEVM({ common, stateManager: state as never })
  await state.putAccount(CALLER, new Account(0n, callerBalance))
  await state.putAccount(TARGET, new Account(0n, 10n))
  await state.putCode(TARGET, CODE)
  promised = 0
  const result = await evm.runCall({ caller: CALLER, to: TARGET, gasLimit: 200_000n, value })
  const accounts = [...state.diff().accounts].map(([a, acc]) => [a, acc === null ? null : acc.balance.toString()]).sort()
  return {
    promised,
    accounts,
    error: result.execResult.exceptionError?.error,
    gas: result.execResult.executionGasUsed,
    returned: Buffer.from(result.execResult.returnValue).toString('hex'),
  }
}

describe('a call frame on the node state', () => {
  it('behavior: value, an inner call with value and a precompile call read their accounts and code without promises and end as the library’s do', async () => {
    const ours = await call(true, 5n, 100n)
    const library = await call(false, 5n, 100n)
    expect(ours.error).toBeUndefined()
    // What is left is outside the frame's set-up (the CALL opcode's own gas and frame).
    expect(ours.promised).toBeLessThan(library.promised - 5)
    expect({ ...ours, promised: 0 }).toEqual({ ...library, promised: 0 })
    // Both inner calls succeeded.
    expect(BigInt(`0x${ours.returned}`)).toBe(2n)
  })

  it('behavior: a sender short of the value fails the same way', async () => {
    const ours = await call(true, 500n, 100n)
    const library = await call(false, 500n, 100n)
    expect(ours.error).toBe('insufficient balance')
    expect({ ...ours, promised: 0 }).toEqual({ ...library, promised: 0 })
  })
})

/** V8's natives: `fn` optimised now on the feedback it has; whether it still is. */
function natives(): { optimise(fn: (...args: never[]) => unknown, warm: () => void): void; optimised(fn: (...args: never[]) => unknown): boolean } {
  v8.setFlagsFromString('--allow-natives-syntax')
  const prepare = new Function('f', '%PrepareFunctionForOptimization(f)') as (f: unknown) => void
  const next = new Function('f', '%OptimizeFunctionOnNextCall(f)') as (f: unknown) => void
  const status = new Function('f', 'return %GetOptimizationStatus(f)') as (f: unknown) => number
  return {
    optimise(fn, warm) {
      prepare(fn)
      warm()
      next(fn)
      warm()
    },
    // V8's status bit 4 (16): the function runs optimised code (TurboFan's or Maglev's).
    optimised: (fn) => (status(fn) & 16) !== 0,
  }
}

describe('orEmptyAccount', () => {
  it('default: the account given, or a new empty account each time', () => {
    const account = new Account(3n, 5n)
    expect(orEmptyAccount(account)).toBe(account)
    const empty = orEmptyAccount(undefined)
    expect(empty).toBeInstanceOf(Account)
    expect([empty.nonce, empty.balance, empty.isEmpty()]).toEqual([0n, 0n, true])
    // Callers change the account they get: never one shared.
    expect(orEmptyAccount(undefined)).not.toBe(empty)
  })

  it('behavior: code optimised before the first absent account keeps running optimised at it', () => {
    const v8n = natives()
    const present = new Account(1n, 2n)
    // A caller of its own, so its feedback is this test's alone.
    const caller = (account: Account | undefined) => orEmptyAccount(account)
    v8n.optimise(caller, () => {
      for (let i = 0; i < 10; i++) caller(present)
    })
    expect(v8n.optimised(caller)).toBe(true)
    expect(caller(undefined).isEmpty()).toBe(true)
    expect(v8n.optimised(caller)).toBe(true)
  })
})

describe('loadCodeNow', () => {
  it('behavior: a message given a precompile keeps the hidden class of one given code from the state', async () => {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
    const evm = await createEngineEVM({ common, stateManager: new JournaledState(base()) as never })
    const state = { accountNow: () => undefined, setAccount: () => undefined, codeNow: () => CODE }
    const contract = new Message({ caller: CALLER, to: TARGET, gasLimit: 1000n })
    const identity = new Message({ caller: CALLER, to: createAddressFromString('0x0000000000000000000000000000000000000004'), gasLimit: 1000n })
    expect(loadCodeNow(evm as never, state, contract)).toBe(true)
    expect(loadCodeNow(evm as never, state, identity)).toBe(true)
    expect([contract.code, contract.isCompiled, contract.chargeCodeAccesses]).toEqual([CODE, false, true])
    // The library leaves a precompile's message without the charge of code accesses.
    expect([typeof identity.code, identity.isCompiled, identity.chargeCodeAccesses]).toEqual(['function', true, undefined])
    v8.setFlagsFromString('--allow-natives-syntax')
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax parses only in code compiled after the flag
    const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean
    expect(sameMap(identity, contract)).toBe(true)
  })
})
