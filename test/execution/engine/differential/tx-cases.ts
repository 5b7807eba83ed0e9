/**
 * The transactions of the engine's differential test that reach each branch of a transaction's
 * run (execution/engine/run-tx.ts against @ethereumjs/vm's `runTx`): each type, creations, value,
 * refunds, the calldata floor, failing inner calls, self-destructs, an empty account touched, the
 * coinbase paid nothing and paid, its warmness, access lists reported, and every refusal (gas
 * limit, intrinsic gas, fee cap under the base fee, funds, nonce, a sender with code), with and
 * without `skipBalance` / `skipNonce`. Run on the library's state manager (read through promises)
 * and on `JournaledState` over a base read synchronously (the node's head state).
 */
import { createBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx'
import { Account, createAddressFromPrivateKey, createAddressFromString, hexToBytes, type Address } from '@ethereumjs/util'
import type { RunTxOpts, RunTxResult, VM } from '@ethereumjs/vm'
import { JournaledState } from '../../../../src/state/journaled-state.js'
import type { StateReader } from '../../../../src/state/types.js'
import { createEngineVM } from '../../../../src/execution/engine/index.js'
import { engineRunsTx, runTransaction } from '../../../../src/execution/engine/run-tx.js'
import { bindState } from '../../../../src/execution/engine/vm.js'

const KEY = hexToBytes(`0x${'43'.repeat(32)}`)
const POOR_KEY = hexToBytes(`0x${'44'.repeat(32)}`)
const CODE_KEY = hexToBytes(`0x${'45'.repeat(32)}`)
const DELEGATED_KEY = hexToBytes(`0x${'46'.repeat(32)}`)
const MID_KEY = hexToBytes(`0x${'47'.repeat(32)}`)
const SENDER = createAddressFromPrivateKey(KEY)
const POOR = createAddressFromPrivateKey(POOR_KEY)
const WITH_CODE = createAddressFromPrivateKey(CODE_KEY)
const DELEGATED = createAddressFromPrivateKey(DELEGATED_KEY)
const MID = createAddressFromPrivateKey(MID_KEY)
const at = (n: number) => createAddressFromString(`0x${n.toString(16).padStart(40, '0')}`)
const COINBASE = at(0x5005)
const REFUNDER = at(0x6001)
const REFUNDER_TOO = at(0x6012)
const REFUNDER_FLOOR = at(0x6013)
const PRECOMPILE_READER = at(0x6014)
const SENDER_READER = at(0x6015)
const EMPTY_TOO = at(0x6016)
const COINBASE_READER = at(0x6002)
const REVERTER = at(0x6003)
const CALLS_REVERTER = at(0x6004)
const EMPTY = at(0x6005)
const TOUCHES_EMPTY = at(0x6006)
const DESTRUCTS = at(0x6007)
const READS_SLOTS = at(0x6008)
const LOGS = at(0x6009)
const BENEFICIARY = at(0x6010)
const STRANGER = at(0x6011)

const hex = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('hex'))
const addr = (a: Address) => a.toString().slice(2)
/** CALL(gas 0xffff, `to`, value 0, no input, no output), POP, STOP. */
const callThenStop = (to: Address) => hexToBytes(`0x6000600060006000600073${addr(to)}61fffff15000`)

const CODES: Array<[Address, string]> = [
  // SSTORE(0, 0), SSTORE(1, 0), SSTORE(2, 0) over non-zero slots: a refund above the cap.
  [REFUNDER, '0x60006000556000600155600060025500'],
  [REFUNDER_TOO, '0x60006000556000600155600060025500'],
  [REFUNDER_FLOOR, '0x60006000556000600155600060025500'],
  // BALANCE(0x04), POP, STOP: a precompile, warm in every transaction (EIP-2929).
  [PRECOMPILE_READER, '0x6004315000'],
  // BALANCE(WITH_CODE), POP, STOP: warm inside its own transaction only.
  [SENDER_READER, `0x73${addr(WITH_CODE)}315000`],
  // BALANCE(COINBASE), POP, STOP: cold before Shanghai, warm from it (EIP-3651).
  [COINBASE_READER, '0x41315000'],
  [REVERTER, '0x60006000fd'],
  [CALLS_REVERTER, `0x${hex(callThenStop(REVERTER))}`],
  [TOUCHES_EMPTY, `0x${hex(callThenStop(EMPTY))}`],
  // SELFDESTRUCT to BENEFICIARY.
  [DESTRUCTS, `0x73${addr(BENEFICIARY)}ff`],
  // SLOAD 1, SLOAD 2, BALANCE(STRANGER), STOP.
  [READS_SLOTS, `0x600154506002545073${addr(STRANGER)}315000`],
  // LOG2 of 32 bytes with two topics.
  [LOGS, '0x602a6000526007600860206000a200'],
]

async function fund(state: { putAccount(a: Address, acc: Account): Promise<void>; putCode(a: Address, c: Uint8Array): Promise<void>; putStorage(a: Address, k: Uint8Array, v: Uint8Array): Promise<void> }) {
  await state.putAccount(SENDER, new Account(0n, 10n ** 20n))
  await state.putAccount(POOR, new Account(0n, 1000n))
  await state.putAccount(WITH_CODE, new Account(0n, 10n ** 18n))
  await state.putCode(WITH_CODE, hexToBytes('0x00'))
  await state.putAccount(DELEGATED, new Account(0n, 10n ** 18n))
  await state.putCode(DELEGATED, hexToBytes(`0xef0100${addr(LOGS)}`))
  await state.putAccount(EMPTY, new Account())
  for (const [address, code] of CODES) {
    await state.putAccount(address, new Account(0n, 5n))
    await state.putCode(address, hexToBytes(code as `0x${string}`))
  }
  await state.putAccount(MID, new Account(0n, 1_000_000n))
  await state.putAccount(EMPTY_TOO, new Account())
  for (const refunder of [REFUNDER, REFUNDER_TOO, REFUNDER_FLOOR]) {
    for (let i = 0; i < 3; i++) await state.putStorage(refunder, hexToBytes(`0x${'00'.repeat(31)}0${i}`), Uint8Array.of(9))
  }
  await state.putStorage(READS_SLOTS, hexToBytes(`0x${'00'.repeat(31)}01`), Uint8Array.of(3))
}

/** A base with nothing in it, read without promises (as a node's head state). */
const EMPTY_BASE: StateReader = {
  getAccount: async () => undefined,
  getStorage: async () => new Uint8Array(0),
  getCode: async () => new Uint8Array(0),
  now: { account: () => undefined, storage: () => new Uint8Array(0), code: () => new Uint8Array(0) },
}

function resultOutcome(r: RunTxResult) {
  const exec = r.execResult
  const receipt = r.receipt as RunTxResult['receipt'] & { status?: number }
  return {
    // The fields with a value, in order: the engine's result lists every field of the library's
    // type, `undefined` where the library's has none (one hidden class, engine/tx-result.ts).
    keys: Object.keys(r).filter((k) => (r as unknown as Record<string, unknown>)[k] !== undefined),
    gasUsed: exec.executionGasUsed.toString(),
    returnValue: hex(exec.returnValue),
    error: exec.exceptionError?.error,
    refund: exec.gasRefund?.toString(),
    logs: (exec.logs ?? []).map(([address, topics, data]) => [hex(address), topics.map(hex), hex(data)]),
    created: r.createdAddress?.toString(),
    totalGasSpent: r.totalGasSpent.toString(),
    gasRefund: r.gasRefund?.toString(),
    blockGasSpent: r.blockGasSpent?.toString(),
    amountSpent: r.amountSpent.toString(),
    minerValue: r.minerValue?.toString(),
    blobGasUsed: r.blobGasUsed?.toString(),
    bloom: hex(r.bloom.bitvector),
    receipt: { keys: Object.keys(receipt), status: receipt.status, cumulative: receipt.cumulativeBlockGasUsed.toString(), bloom: hex(receipt.bitvector), logs: receipt.logs.length },
    accessList: r.accessList,
    selfdestructs: r.execResult.selfdestruct === undefined ? undefined : [...r.execResult.selfdestruct.keys()],
  }
}

/** Counts of the runs the engine took and the ones it left to the library. */
export const ran = { engine: 0, library: 0 }

/** Every case on one fork and one kind of state: the outcome of each (result or error) with the state after it. */
export async function transactionCases(common: Common, journaled: boolean): Promise<Record<string, unknown>> {
  const vm: VM = journaled ? await createEngineVM({ common }) : await createEngineVM({ common, stateManager: new MerkleStateManager({ common }) })
  const state = journaled ? new JournaledState(EMPTY_BASE) : (vm.stateManager as MerkleStateManager)
  if (state instanceof JournaledState) bindState(vm, state)
  await fund(state as never)
  const block = createBlock({ header: { number: 1n, gasLimit: 8_000_000n, baseFeePerGas: 7n, coinbase: COINBASE, timestamp: 1n } }, { common })
  const stateAfter = async () => (state instanceof JournaledState ? hex(await rootOfDiff(state)) : hex(await state.getStateRoot()))
  const nonces = new Map<string, bigint>()
  const out: Record<string, unknown> = {}
  let gasUsed = 0n

  const run = async (name: string, tx: TypedTransaction, opts: Partial<RunTxOpts> = {}) => {
    const full: RunTxOpts = { tx, block, skipHardForkValidation: true, blockGasUsed: gasUsed, ...opts }
    if (engineRunsTx(vm, full)) ran.engine++
    else ran.library++
    try {
      const r = await runTransaction(vm, full)
      gasUsed += r.totalGasSpent
      const sender = tx.getSenderAddress().toString()
      nonces.set(sender, (nonces.get(sender) ?? 0n) + 1n)
      out[name] = { ...resultOutcome(r), state: await stateAfter() }
    } catch (error) {
      out[name] = { thrown: (error as Error).message, state: await stateAfter() }
    }
  }
  const nonceOf = (key: Uint8Array) => nonces.get(createAddressFromPrivateKey(key).toString()) ?? 0n
  const legacy = (fields: Record<string, unknown>, key = KEY) => createLegacyTx({ nonce: nonceOf(key), gasPrice: 10n, gasLimit: 100_000n, ...fields }, { common }).sign(key)
  const eip2930 = (fields: Record<string, unknown>, key = KEY) => createAccessList2930Tx({ nonce: nonceOf(key), gasPrice: 10n, gasLimit: 100_000n, ...fields }, { common }).sign(key)
  const eip1559 = (fields: Record<string, unknown>, key = KEY) =>
    createFeeMarket1559Tx({ nonce: nonceOf(key), maxFeePerGas: 20n, maxPriorityFeePerGas: 2n, gasLimit: 100_000n, ...fields }, { common }).sign(key)

  // Paid nothing (a tip of 0): the coinbase is touched and, empty, deleted (EIP-161).
  await run('legacy transfer at the base fee', legacy({ to: STRANGER, value: 5n, gasPrice: 7n }))
  await run('legacy transfer with a tip', legacy({ to: STRANGER, value: 5n }))
  await run('legacy to a contract that logs', legacy({ to: LOGS, data: Uint8Array.of(1, 0, 2) }))
  await run('legacy creation', legacy({ data: hexToBytes('0x600a600c600039600a6000f3602a60005260206000f3'), gasLimit: 200_000n }))
  await run('legacy creation that self-destructs in its init code', legacy({ data: hexToBytes(`0x73${addr(BENEFICIARY)}ff`), value: 3n }))
  await run('legacy call of a self-destructing contract', legacy({ to: DESTRUCTS, value: 1n }))
  await run('legacy refund, capped', legacy({ to: REFUNDER }))
  await run('legacy refund of nothing', legacy({ to: REFUNDER }))
  await run('legacy reads the coinbase', legacy({ to: COINBASE_READER }))
  await run('legacy inner call reverts', legacy({ to: CALLS_REVERTER }))
  await run('legacy reverts', legacy({ to: REVERTER, value: 1n }))
  await run('legacy out of gas', legacy({ to: LOGS, gasLimit: 21_100n }))
  await run('legacy touches an empty account', legacy({ to: TOUCHES_EMPTY }))
  await run('legacy sends nothing to an empty account', legacy({ to: EMPTY }))
  await run('legacy with much calldata and little execution (EIP-7623 floor)', legacy({ to: STRANGER, data: new Uint8Array(2000).fill(1), gasLimit: 200_000n }))
  await run('legacy refund under the calldata floor', legacy({ to: REFUNDER_FLOOR, data: new Uint8Array(3000).fill(1), gasLimit: 200_000n }))
  await run('legacy reads a precompile', legacy({ to: PRECOMPILE_READER }))
  // An account touched outside a transaction (a system call's): the next transaction's clean-up deletes it, empty.
  await vm.evm.journal.putAccount(EMPTY_TOO, new Account())
  await run('legacy after an empty account was touched outside a transaction', legacy({ to: STRANGER }))
  await run('eip2930 with an access list, reported', eip2930({ to: READS_SLOTS, accessList: [{ address: READS_SLOTS.toString(), storageKeys: [`0x${'00'.repeat(31)}01`] }, { address: at(1).toString(), storageKeys: [`0x${'00'.repeat(31)}05`] }, { address: COINBASE.toString(), storageKeys: [] }] }), { reportAccessList: true })
  await run('eip2930 reported without an access list', eip2930({ to: READS_SLOTS }), { reportAccessList: true })
  await run('eip1559 transfer', eip1559({ to: STRANGER, value: 11n }))
  await run('eip1559 with a tip above the fee cap room', eip1559({ to: LOGS, maxFeePerGas: 8n, maxPriorityFeePerGas: 5n }))
  await run('eip1559 creation', eip1559({ data: hexToBytes('0x600a600c600039600a6000f3602a60005260206000f3'), gasLimit: 200_000n, value: 2n }))
  await run('eip1559 refund, reported', eip1559({ to: REFUNDER_TOO }), { reportAccessList: true })
  await run('eip1559 from a delegated sender (EIP-7702)', eip1559({ to: STRANGER }, DELEGATED_KEY))

  // Refusals: the same message word for word, nothing changed.
  await run('refused: gas limit above the block', legacy({ to: STRANGER, gasLimit: 9_000_000n }))
  await run('accepted: gas limit above the block, unchecked', legacy({ to: STRANGER, gasLimit: 9_000_000n }), { skipBlockGasLimitValidation: true })
  await run('refused: intrinsic gas', legacy({ to: STRANGER, gasLimit: 21_000n, data: Uint8Array.of(1) }))
  await run('refused: intrinsic gas of a floor', legacy({ to: STRANGER, data: new Uint8Array(2000).fill(1), gasLimit: 60_000n }))
  await run('refused: gas price under the base fee', legacy({ to: STRANGER, gasPrice: 6n }))
  await run('refused: fee cap under the base fee', eip1559({ to: STRANGER, maxFeePerGas: 6n, maxPriorityFeePerGas: 1n }))
  await run('refused: upfront cost', legacy({ to: STRANGER, value: 1n }, POOR_KEY))
  await run('refused: max cost', eip1559({ to: STRANGER, maxFeePerGas: 100n, maxPriorityFeePerGas: 0n, gasLimit: 21_000n, value: 5n }, MID_KEY))
  await run('skipBalance: the max cost of a sender who has the upfront cost', eip1559({ to: STRANGER, maxFeePerGas: 100n, maxPriorityFeePerGas: 1n, gasLimit: 21_000n, value: 5n }, MID_KEY), { skipBalance: true })
  await run('refused: nonce too high', legacy({ to: STRANGER, nonce: 99n }))
  await run('refused: nonce too low', legacy({ to: STRANGER, nonce: 0n }))
  await run('refused: sender with code (EIP-3607)', legacy({ to: STRANGER }, CODE_KEY))
  // After a refusal the warm sets are empty again: a call outside a transaction finds the refused sender cold.
  const after = await vm.evm.runCall({ caller: STRANGER, to: SENDER_READER, gasLimit: 100_000n })
  out['a call after a refusal'] = { gasUsed: after.execResult.executionGasUsed.toString(), state: await stateAfter() }
  // That call left its warm addresses in the journal: the next transaction starts without them.
  await run('a transaction after a call outside one', legacy({ to: SENDER_READER, gasPrice: 7n, gasLimit: 50_000n }, MID_KEY))
  await run('skipNonce: a wrong nonce runs', legacy({ to: STRANGER, nonce: 99n }), { skipNonce: true })
  await run('skipBalance: a poor legacy sender runs', legacy({ to: LOGS, value: 10n ** 6n }, POOR_KEY), { skipBalance: true })
  await run('skipBalance: a poor eip1559 sender runs', eip1559({ to: LOGS, value: 10n ** 6n }, POOR_KEY), { skipBalance: true })
  await run('skipBalance: a poor eip1559 sender at the base fee', eip1559({ to: LOGS, maxFeePerGas: 7n, maxPriorityFeePerGas: 0n, gasLimit: 30_000n }, POOR_KEY), { skipBalance: true })
  return out
}

/** The journaled state's changes as one hash (its diff, in a fixed order). */
async function rootOfDiff(state: JournaledState): Promise<Uint8Array> {
  const diff = state.diff()
  const sorted = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => a.localeCompare(b))
  const text = JSON.stringify({
    accounts: sorted(diff.accounts).map(([a, acc]) => [a, acc === null ? null : [acc.nonce.toString(), acc.balance.toString(), hex(acc.codeHash)]]),
    storage: sorted(diff.storage).map(([a, slots]) => [a, sorted(slots).map(([k, v]) => [k, hex(v)])]),
    cleared: [...diff.cleared].sort(),
    code: sorted(diff.code).map(([a, c]) => [a, hex(c)]),
  })
  return new TextEncoder().encode(text)
}
