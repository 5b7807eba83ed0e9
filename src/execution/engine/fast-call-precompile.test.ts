/**
 * The call-frame fast path (src/execution/engine/fast-call.ts), compiled by V8 on contracts' frames
 * alone, keeps its optimised code at its first precompile frame: a suite's first call to a
 * precompile often comes late. In a file of its own, so that the function's feedback is this
 * test's alone.
 */
import v8 from 'node:v8'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { expect, it } from 'vitest'
import { fastExecuteCall } from './fast-call.js'
import { createEngineEVM } from './index.js'
import { JournaledState } from '../../state/journaled-state.js'
import type { StateReader } from '../../state/types.js'

const CALLER = createAddressFromString('0x1000000000000000000000000000000000000001')
const CONTRACT = createAddressFromString('0x2000000000000000000000000000000000000002')
const IDENTITY = createAddressFromString('0x0000000000000000000000000000000000000004')

it('behavior: optimised on contracts’ frames, it stays optimised at its first precompile frame', async () => {
  v8.setFlagsFromString('--allow-natives-syntax')
  const prepare = new Function('f', '%PrepareFunctionForOptimization(f)') as (f: unknown) => void
  const next = new Function('f', '%OptimizeFunctionOnNextCall(f)') as (f: unknown) => void
  // V8's status bit 4 (16): the function runs optimised code.
  const optimised = new Function('f', 'return (%GetOptimizationStatus(f) & 16) !== 0') as (f: unknown) => boolean
  // The node's own state, which answers without promises (frame-state.ts), over an empty base.
  const base: StateReader = {
    getAccount: async () => undefined,
    getStorage: async () => new Uint8Array(0),
    getCode: async () => new Uint8Array(0),
    now: { account: () => undefined, storage: () => new Uint8Array(0), code: () => new Uint8Array(0) },
  }
  const evm = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }), stateManager: new JournaledState(base) as never })
  await evm.stateManager.putAccount(CALLER, new Account(0n, 1_000_000n))
  await evm.stateManager.putAccount(CONTRACT, new Account())
  // Present, as the contract is: only the frame's kind differs between the calls.
  await evm.stateManager.putAccount(IDENTITY, new Account(0n, 1n))
  // RETURN 32 bytes holding CALLER.
  await evm.stateManager.putCode(CONTRACT, hexToBytes('0x3360005260206000f3'))
  const run = (to: typeof CONTRACT) => evm.runCall({ caller: CALLER, to, gasLimit: 100_000n, data: new Uint8Array(32) })
  prepare(fastExecuteCall)
  for (let i = 0; i < 20; i++) await run(CONTRACT)
  next(fastExecuteCall)
  await run(CONTRACT)
  expect(optimised(fastExecuteCall)).toBe(true)
  const { execResult } = await run(IDENTITY)
  expect(execResult.exceptionError).toBeUndefined()
  expect(execResult.returnValue).toEqual(new Uint8Array(32))
  expect(optimised(fastExecuteCall)).toBe(true)
})
