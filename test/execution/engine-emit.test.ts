/**
 * The engine's VMs answer `_emit` at once for an event without listeners (src/execution/engine/vm.ts)
 * and still run every listener a user or tracer adds, at any time, in both of the library's forms
 * (a plain listener and one taking a `resolve` callback, which runTx waits for).
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { Account, createAddressFromPrivateKey, hexToBytes } from '@ethereumjs/util'
import { runTx } from '@ethereumjs/vm'
import { describe, expect, it } from 'vitest'
import { createEngineVM } from '../../src/execution/engine/index.js'
import { JournaledState } from '../../src/state/journaled-state.js'
import type { StateReader } from '../../src/state/types.js'

const key = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const sender = createAddressFromPrivateKey(key)

function empty(): StateReader {
  return {
    getAccount: async () => undefined,
    getStorage: async () => new Uint8Array(0),
    getCode: async () => new Uint8Array(0),
    now: { account: () => undefined, storage: () => new Uint8Array(0), code: () => new Uint8Array(0) },
  }
}

describe('engine VM events', () => {
  it('behavior: runTx runs without listeners, and listeners added later are called (the callback form awaited)', async () => {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
    const state = new JournaledState(empty())
    await state.putAccount(sender, new Account(0n, 10n ** 18n))
    const vm = await createEngineVM({ common, stateManager: state as never })
    const tx = (nonce: bigint) =>
      createFeeMarket1559Tx({ nonce, to: '0x00000000000000000000000000000000000000aa', value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n }, { common }).sign(key)
    const quiet = await runTx(vm, { tx: tx(0n), skipBlockGasLimitValidation: true })
    expect(quiet.totalGasSpent).toBe(21_000n)

    const seen: string[] = []
    vm.events.on('beforeTx', () => seen.push('before'))
    vm.events.on('afterTx', (_event: unknown, resolve?: (value?: unknown) => void) => {
      setTimeout(() => {
        seen.push('after (callback)')
        resolve?.()
      }, 5)
    })
    await runTx(vm, { tx: tx(1n), skipBlockGasLimitValidation: true })
    expect(seen).toEqual(['before', 'after (callback)'])
  })
})
