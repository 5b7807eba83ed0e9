/**
 * SLOAD and SSTORE without promises (src/execution/engine/fast-storage.ts): on the node's own state
 * with a base read synchronously they read and write through `storageNow` / `setStorage` and
 * never through the promise-returning reads; on a base read through promises they fall back to
 * the library's handlers; the gas and refunds are the same either way (and the same as the
 * library's: test/execution/engine/differential.test.ts runs both kinds of base on every fork
 * with the engine's patches on and off).
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { Account, createAddressFromString } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createEngineEVM, installEngine } from './index.js'
import { keyOf, word } from '../../hex.js'
import { JournaledState } from '../../state/journaled-state.js'
import type { StateReader } from '../../state/types.js'

const TARGET = createAddressFromString('0x00000000000000000000000000000000000c0de5')
const CALLER = createAddressFromString('0x1000000000000000000000000000000000000001')

// PUSH1 4, JUMP, INVALID, JUMPDEST (the jump puts the engine's handlers in), then
// SLOAD(1); SSTORE(1, 7); SSTORE(2, 0); SSTORE(3, 9); SSTORE(3, 0); SLOAD(1) + SLOAD(3) stored at
// memory 0; RETURN 32 bytes.
const CODE = Uint8Array.from([
  0x60, 0x04, 0x56, 0xfe, 0x5b,
  0x60, 0x01, 0x54, 0x50,
  0x60, 0x07, 0x60, 0x01, 0x55,
  0x60, 0x00, 0x60, 0x02, 0x55,
  0x60, 0x09, 0x60, 0x03, 0x55,
  0x60, 0x00, 0x60, 0x03, 0x55,
  0x60, 0x01, 0x54, 0x60, 0x03, 0x54, 0x01, 0x60, 0x00, 0x52,
  0x60, 0x20, 0x60, 0x00, 0xf3,
])

/** Slot 1 holds 5 and slot 2 holds 6 before the run. */
function base(sync: boolean): StateReader {
  const target = keyOf(TARGET.bytes)
  const slots = new Map([
    [keyOf(word(1n)), Uint8Array.of(5)],
    [keyOf(word(2n)), Uint8Array.of(6)],
  ])
  const storage = (address: string, slot: string) => (address === target ? slots.get(slot) : undefined) ?? new Uint8Array(0)
  return {
    getAccount: async () => undefined,
    getStorage: async (address, slot) => storage(address, slot),
    getCode: async () => new Uint8Array(0),
    now: sync ? { account: () => undefined, storage, code: () => new Uint8Array(0) } : undefined,
  }
}

async function run(sync: boolean) {
  await installEngine()
  const state = new JournaledState(base(sync))
  let promisedReads = 0
  const getStorage = state.getStorage.bind(state)
  state.getStorage = (address, key) => {
    promisedReads++
    return getStorage(address, key)
  }
  const evm = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }), stateManager: state as never })
  await state.putAccount(TARGET, new Account())
  await state.putCode(TARGET, CODE)
  await state.putAccount(CALLER, new Account(0n, 10n ** 18n))
  const result = await evm.runCall({ caller: CALLER, to: TARGET, gasLimit: 200_000n })
  const slots = state.diff().storage.get(keyOf(TARGET.bytes))
  return {
    error: result.execResult.exceptionError?.error,
    gas: result.execResult.executionGasUsed,
    refund: result.execResult.gasRefund,
    value: BigInt(`0x${Buffer.from(result.execResult.returnValue).toString('hex')}`),
    slots: [...(slots ?? [])].map(([k, v]) => [k, Buffer.from(v).toString('hex')]).sort(),
    promisedReads,
  }
}

describe('SLOAD and SSTORE on the node state', () => {
  it('behavior: on a base read synchronously, no read goes through a promise; the results are those of the promise-reading path', async () => {
    const sync = await run(true)
    const promised = await run(false)
    expect(sync.error).toBeUndefined()
    // slot 1: 5 -> 7; slot 3: 0 -> 9 -> 0 (restored: refund); slot 2: 6 -> 0 (cleared: refund).
    expect(sync.value).toBe(7n)
    expect(sync.promisedReads).toBe(0)
    expect(promised.promisedReads).toBeGreaterThan(0)
    expect({ ...sync, promisedReads: 0 }).toEqual({ ...promised, promisedReads: 0 })
    expect(sync.refund).toBeGreaterThan(0n)
  })

  it('behavior: an SSTORE in a static call fails as the library’s does, before any write', async () => {
    await installEngine()
    const state = new JournaledState(base(true))
    const evm = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }), stateManager: state as never })
    await state.putAccount(TARGET, new Account())
    await state.putCode(TARGET, CODE)
    await state.putAccount(CALLER, new Account(0n, 10n ** 18n))
    const result = await evm.runCall({ caller: CALLER, to: TARGET, gasLimit: 200_000n, isStatic: true })
    expect(result.execResult.exceptionError?.error).toBe('static state change')
    expect(state.diff().storage.get(keyOf(TARGET.bytes))?.size ?? 0).toBe(0)
  })
})

describe('the slot a gas handler hands to its opcode', () => {
  /**
   * The sum of SLOAD of each of `slots` returned as a word, run on its own state (slot 1 holds
   * 5, slot 2 holds 6, others 0), optionally with a step listener (the library's steps, which
   * await between the gas handler and the opcode's handler, so concurrent runs take turns).
   */
  async function load(slots: number[], traced: boolean) {
    await installEngine()
    const state = new JournaledState(base(true))
    const evm = await createEngineEVM({ common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }), stateManager: state as never })
    if (traced) evm.events.on('step', () => {})
    await state.putAccount(TARGET, new Account())
    // PUSH1 4, JUMP, INVALID, JUMPDEST, PUSH1 0, (PUSH1 slot, SLOAD, ADD) per slot, MSTORE at 0, RETURN 32 bytes.
    const loads = slots.flatMap((slot) => [0x60, slot, 0x54, 0x01])
    await state.putCode(TARGET, Uint8Array.from([0x60, 0x04, 0x56, 0xfe, 0x5b, 0x60, 0x00, ...loads, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]))
    await state.putAccount(CALLER, new Account(0n, 10n ** 18n))
    return async () => {
      const result = await evm.runCall({ caller: CALLER, to: TARGET, gasLimit: 200_000n })
      return { value: BigInt(`0x${Buffer.from(result.execResult.returnValue).toString('hex')}`), gas: result.execResult.executionGasUsed }
    }
  }

  it('behavior: runs interleaved step by step, one loading a warm slot, one cold slots, read and charge as each alone', async () => {
    const same = Array.from({ length: 16 }, () => 1)
    const fresh = Array.from({ length: 16 }, (_, i) => 2 + i)
    const kinds: Array<[number[], boolean]> = [[same, true], [fresh, true], [fresh, false], [same, false]]
    const alone = []
    for (const [slots, traced] of kinds) alone.push(await (await load(slots, traced))())
    expect(alone.map((r) => r.value)).toEqual([80n, 6n, 6n, 80n])
    // Made first and started together, so that their steps take turns on the microtask queue.
    const runs = await Promise.all(kinds.map(([slots, traced]) => load(slots, traced)))
    expect(await Promise.all(runs.map((run) => run()))).toEqual(alone)
  })
})

describe('the keys of the journal and the original-storage cache', () => {
  it('behavior: keyOf gives the digits bytesToUnprefixedHex gives (the maps are shared with the library)', async () => {
    const { bytesToUnprefixedHex } = await import('@ethereumjs/util')
    for (let n = 0; n < 300; n++) {
      const bytes = Uint8Array.from({ length: n % 40 }, (_, i) => (i * 97 + n * 31) & 0xff)
      expect(keyOf(bytes)).toBe(bytesToUnprefixedHex(bytes))
    }
  })
})
