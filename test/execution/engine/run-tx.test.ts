/**
 * The engine's run of a transaction (src/execution/engine/run-tx.ts): the receipt's lists in the
 * hidden class of filled ones, whatever the transaction logged, so the block's readers of receipts
 * (the bloom, the receipts' RLP, the store, the RPC answer) see one map; and the results of a call,
 * a creation and a plain transfer (plain-transfer.ts) in one hidden class (engine/tx-result.ts),
 * so the block builder's loop over them sees one map.
 */
import { createBlock } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { Account, createAddressFromPrivateKey, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import type { RunTxResult } from '@ethereumjs/vm'
import { createChainCommon } from '../../../src/chain/common.js'
import { createEngineVM } from '../../../src/execution/engine/index.js'
import { runTransaction } from '../../../src/execution/engine/run-tx.js'
import { bindState } from '../../../src/execution/engine/vm.js'
import { runPlainTransfer } from '../../../src/execution/plain-transfer.js'
import { JournaledState } from '../../../src/state/journaled-state.js'
import type { StateReader } from '../../../src/state/types.js'
import { sameHiddenClass } from '../../helpers/hidden-class.js'

const KEY = hexToBytes(`0x${'42'.repeat(32)}`)
const SENDER = createAddressFromPrivateKey(KEY)
// Each behind a jump (PUSH1 4, JUMP, INVALID, JUMPDEST), so the jump analysis runs and the EVM's
// opcode table gets the engine's handlers (jump-cache.ts): then STOP; LOG0 of nothing; LOG1 of
// nothing with topic 7.
const JUMP = [0x60, 0x04, 0x56, 0xfe, 0x5b]
const CODES = {
  silent: Uint8Array.of(...JUMP, 0x00),
  log0: Uint8Array.of(...JUMP, 0x5f, 0x5f, 0xa0, 0x00),
  log1: Uint8Array.of(...JUMP, 0x60, 0x07, 0x5f, 0x5f, 0xa1, 0x00),
}

async function receipts() {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague })
  const vm = await createEngineVM({ common })
  await vm.stateManager.putAccount(SENDER, new Account(0n, 10n ** 20n))
  const targets = Object.keys(CODES).map((_, i) => createAddressFromString(`0x${(i + 1).toString(16).padStart(40, 'c')}`))
  for (const [i, code] of Object.values(CODES).entries()) await vm.stateManager.putCode(targets[i]!, code)
  const block = createBlock({ header: { number: 1n, gasLimit: 30_000_000n, baseFeePerGas: 7n, timestamp: 1n } }, { common })
  const out = []
  for (const [nonce, to] of targets.entries()) {
    const tx = createFeeMarket1559Tx({ nonce: BigInt(nonce), maxFeePerGas: 10n, maxPriorityFeePerGas: 1n, gasLimit: 100_000n, to }, { common }).sign(KEY)
    const r = await runTransaction(vm, { tx, block, skipBlockGasLimitValidation: true, skipHardForkValidation: true })
    out.push(r.receipt.logs as Array<[Uint8Array, Uint8Array[], Uint8Array]>)
  }
  return out
}

describe('the engine run of a transaction', () => {
  it('behavior: a receipt without logs and a LOG0 without topics have the hidden class of filled lists', async () => {
    const [silent, log0, log1] = await receipts()
    expect(silent).toEqual([])
    expect(log0).toHaveLength(1)
    expect(log0![0]![1]).toEqual([])
    expect(log1![0]![1]).toEqual([hexToBytes(`0x${'07'.padStart(64, '0')}`)])
    expect(sameHiddenClass(silent!, log1!)).toBe(true)
    expect(sameHiddenClass(log0![0]![1], log1![0]![1])).toBe(true)
  })
})

/** A base with nothing in it, read without promises (as a node's head state). */
const EMPTY_BASE: StateReader = {
  getAccount: async () => undefined,
  getStorage: async () => new Uint8Array(0),
  getCode: async () => new Uint8Array(0),
  now: { account: () => undefined, storage: () => new Uint8Array(0), code: () => new Uint8Array(0) },
}

/** A creation, a call to what it made, a failed call and a plain transfer, on the node's own state. */
async function results(): Promise<Record<'create' | 'call' | 'failed' | 'transfer', RunTxResult>> {
  const common = createChainCommon(1337n, Hardfork.Prague)
  const vm = await createEngineVM({ common })
  const state = new JournaledState(EMPTY_BASE)
  bindState(vm, state)
  await state.putAccount(SENDER, new Account(0n, 10n ** 20n))
  const block = createBlock({ header: { number: 1n, gasLimit: 30_000_000n, baseFeePerGas: 7n, timestamp: 1n } }, { common })
  const tx = (nonce: bigint, fields: { to?: `0x${string}`; data?: Uint8Array; value?: bigint; gasLimit?: bigint }) =>
    createFeeMarket1559Tx({ nonce, maxFeePerGas: 10n, maxPriorityFeePerGas: 1n, gasLimit: 100_000n, ...fields }, { common }).sign(KEY)
  const run = (t: ReturnType<typeof tx>) => runTransaction(vm, { tx: t, block, skipBlockGasLimitValidation: true, skipHardForkValidation: true })
  // Initcode returning one byte, STOP, as the runtime.
  const create = await run(tx(0n, { data: Uint8Array.of(0x60, 0x01, 0x60, 0x00, 0x53, 0x60, 0x01, 0x60, 0x00, 0xf3) }))
  const made = create.createdAddress!.toString()
  const call = await run(tx(1n, { to: made }))
  const failed = await run(tx(2n, { to: made, gasLimit: 21_001n }))
  const transfer = runPlainTransfer(vm, tx(3n, { to: `0x${'ab'.repeat(20)}`, value: 5n }), SENDER, block, 0n)
  if (transfer === undefined) throw new Error('the transfer was not run as a plain transfer')
  return { create, call, failed, transfer }
}

describe('the result of a transaction', () => {
  it('behavior: a creation, a call, a failed call and a plain transfer answer in one hidden class', async () => {
    const { create, call, failed, transfer } = await results()
    expect(create.createdAddress).toBeDefined()
    expect(call.createdAddress).toBeUndefined()
    expect(failed.execResult.exceptionError?.error).toBe('out of gas')
    expect(transfer.totalGasSpent).toBe(21_000n)
    expect(transfer.bloom.bitvector).toEqual(new Uint8Array(256))
    for (const r of [call, failed, transfer]) expect(sameHiddenClass(r, create)).toBe(true)
    for (const r of [call, failed, transfer]) expect(sameHiddenClass(r.execResult, create.execResult)).toBe(true)
    for (const r of [call, failed, transfer]) expect(sameHiddenClass(r.receipt, create.receipt)).toBe(true)
  })
})
