/**
 * A plain ether transfer, run without the EVM: value from an externally owned account to an
 * account without code, no calldata, no access list. Its outcome is fixed by the protocol: the
 * intrinsic gas (21,000) is all it uses, the sender pays value and gas, the recipient gets the
 * value, the fee recipient gets the tip. geth's state transition does the same through an EVM
 * call that finds no code; @ethereumjs/vm's `runTx` sets up warm-address sets, a journal and a
 * message frame for it (~6 % of an automined transfer).
 *
 * Anything out of the ordinary is left to `runTx`, which also words the errors: a wrong nonce,
 * too little balance, a fee under the base fee, a zero value or zero tip (EIP-161 touches), a
 * precompile or a contract as recipient, a sender with code (EIP-3607 / EIP-7702 delegation).
 */
import type { Block } from '@ethereumjs/block'
import { TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { Account, type Address, KECCAK256_NULL } from '@ethereumjs/util'
import { Bloom, type RunTxResult, type TxReceipt, type VM } from '@ethereumjs/vm'
import { emptyObjects } from '../arrays.js'
import { frameResult } from './engine/frame-result.js'
import { txResult } from './engine/tx-result.js'
import { equalBytes } from '../hex.js'
import { JournaledState, NOT_AT_HAND } from '../state/journaled-state.js'
import { effectiveTip, feeCap } from '../txpool/pool.js'

/** Addresses whose first 18 bytes are zero: every precompile (0x01-0x11, 0x0100) lies among them. */
function nearZero(address: Uint8Array): boolean {
  for (let i = 0; i < 18; i++) if (address[i] !== 0) return false
  return true
}

/**
 * Runs `tx` as a plain transfer on the VM's state if it is one; undefined when it is not (the
 * caller runs it with `runTx`). `blockGasUsed` is the gas the block used before it.
 */
export function runPlainTransfer(vm: VM, tx: TypedTransaction, sender: Address, block: Block, blockGasUsed: bigint): RunTxResult | undefined {
  if (tx.type !== TransactionType.FeeMarketEIP1559 && tx.type !== TransactionType.Legacy && tx.type !== TransactionType.AccessListEIP2930) return undefined
  const to = tx.to
  if (to === undefined || tx.data.length !== 0 || tx.value === 0n || nearZero(to.bytes)) return undefined
  if ('accessList' in tx && (tx.accessList as unknown[]).length !== 0) return undefined
  const gas = vm.common.param('txGas')
  if (tx.gasLimit < gas) return undefined
  const baseFee = block.header.baseFeePerGas
  if (baseFee === undefined) return undefined
  // Negative when the fee cap is under the base fee: runTx words that error.
  const tip = effectiveTip(tx, baseFee)
  if (tip <= 0n) return undefined

  const state = vm.stateManager
  // The block builder's overlay reads and writes the head synchronously; anything else (never the
  // case for blocks this node builds) goes to runTx.
  if (!(state instanceof JournaledState)) return undefined
  const from = state.accountNow(sender)
  if (from === NOT_AT_HAND) return undefined
  if (from === undefined || from.nonce !== tx.nonce || !equalBytes(from.codeHash, KECCAK256_NULL)) return undefined
  if (from.balance < tx.gasLimit * feeCap(tx) + tx.value) return undefined
  const recipient = state.accountNow(to)
  if (recipient === NOT_AT_HAND || (recipient !== undefined && !equalBytes(recipient.codeHash, KECCAK256_NULL))) return undefined

  const spent = gas * (baseFee + tip)
  from.nonce += 1n
  from.balance -= spent + tx.value
  state.setAccount(sender, from)
  const credited = (state.accountNow(to) as Account | undefined) ?? new Account()
  credited.balance += tx.value
  state.setAccount(to, credited)
  const coinbase = block.header.coinbase
  const miner = (state.accountNow(coinbase) as Account | undefined) ?? new Account()
  const minerValue = gas * tip
  miner.balance += minerValue
  state.setAccount(coinbase, miner)

  // The result in the one shape of every transaction's result (engine/tx-result.ts), its frame's
  // in the one shape of every frame's (engine/frame-result.ts).
  const bitvector = new Uint8Array(256)
  const receipt = { status: 1 as const, cumulativeBlockGasUsed: blockGasUsed + gas, bitvector, logs: emptyObjects<TxReceipt['logs'][number]>() }
  return txResult({
    execResult: frameResult({ returnValue: new Uint8Array(0), executionGasUsed: 0n, gasRefund: 0n }),
    totalGasSpent: gas,
    gasRefund: 0n,
    blockGasSpent: gas,
    amountSpent: spent,
    minerValue,
    bloom: new Bloom(bitvector, vm.common),
    receipt,
  })
}
