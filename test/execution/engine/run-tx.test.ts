/**
 * The engine's run of a transaction (src/execution/engine/run-tx.ts): the receipt's lists in the
 * hidden class of filled ones, whatever the transaction logged, so the block's readers of receipts
 * (the bloom, the receipts' RLP, the store, the RPC answer) see one map.
 */
import { createBlock } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { Account, createAddressFromPrivateKey, createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { createEngineVM } from '../../../src/execution/engine/index.js'
import { runTransaction } from '../../../src/execution/engine/run-tx.js'
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
