/**
 * One side of the engine's differential test, run as its own process (`tsx outcomes.ts`) with
 * FINALITY_ENGINE=plain or =fast: runs the corpus on every supported hardfork and prints one JSON
 * document with the engine's status and every outcome (return data, gas, refund, logs, error,
 * created address and the state root after the run, which covers every account and slot).
 *
 * - programs: each hand-written and generated program called on an EVM (`runCall`), with the
 *   gas it needs and at several limits below that (out of gas at many points);
 * - transactions: through a VM (`runTransaction`: the engine's run of a transaction, or the
 *   library's `runTx` with the patches off), a contract creation of each program, then calls to
 *   it with value at the full and at lower gas limits;
 * - transaction cases (tx-cases.ts): every branch of a transaction's run, each type and refusal,
 *   on the library's state manager and on `JournaledState`;
 * - journaled: the programs again on the node's own state (`JournaledState` over a base read
 *   synchronously, as a node's head state is, where SLOAD and SSTORE take the engine's
 *   synchronous path), with slots 0..7 of the program's account set beforehand (some zero, some
 *   not: every branch of EIP-2200's metering), at the same gas limits; the outcome carries the
 *   state's changes instead of a root.
 */
import { Common, Mainnet } from '@ethereumjs/common'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { createLegacyTx } from '@ethereumjs/tx'
import { createBlock } from '@ethereumjs/block'
import { Account, createAddressFromPrivateKey, createAddressFromString, hexToBytes, type Address } from '@ethereumjs/util'
import { SUPPORTED_HARDFORKS } from '../../../../src/chain/common.js'
import { keyOf, word } from '../../../../src/hex.js'
import { JournaledState } from '../../../../src/state/journaled-state.js'
import type { StateReader } from '../../../../src/state/types.js'
import { createEngineEVM, createEngineVM, engineStatus } from '../../../../src/execution/engine/index.js'
import { CALLEE_CODE, PROGRAMS } from '../corpus.js'
import { prng, randomProgram } from './programs.js'
import { ran, transactionCases } from './tx-cases.js'
import { runTransaction } from '../../../../src/execution/engine/run-tx.js'

const CALLER = createAddressFromString('0x1000000000000000000000000000000000000001')
const TARGET = createAddressFromString('0x2000000000000000000000000000000000000002')
const CALLEE = createAddressFromString('0x3000000000000000000000000000000000000003')
const KEY = hexToBytes(`0x${'42'.repeat(32)}`)
const SENDER = createAddressFromPrivateKey(KEY)
const INPUT = hexToBytes(`0x${'05'.padStart(64, '0')}`)
const GENERATED = Number(process.env.DIFF_PROGRAMS ?? 30)
const SEED = Number(process.env.DIFF_SEED ?? 14)

/**
 * Gas limits at the edges of a program's run that used `used`: exactly, one less, and (for a
 * program that ends within its gas: a loop until out of gas would not end) 2^60.
 */
const EDGES = (used: bigint, ends: boolean): bigint[] => (ends ? [used, used - 1n, 1n << 60n] : [used, used - 1n])

const hex = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('hex'))

interface Exec {
  executionGasUsed: bigint
  returnValue: Uint8Array
  gasRefund?: bigint
  exceptionError?: { error: string }
  logs?: Array<[Uint8Array, Uint8Array[], Uint8Array]>
}

function execOutcome(exec: Exec) {
  return {
    gasUsed: exec.executionGasUsed.toString(),
    returnValue: hex(exec.returnValue),
    refund: exec.gasRefund?.toString(),
    error: exec.exceptionError?.error,
    logs: (exec.logs ?? []).map(([address, topics, data]) => [hex(address), topics.map(hex), hex(data)]),
  }
}

/** The initcode that deploys `runtime`. */
function deployer(runtime: Uint8Array): Uint8Array {
  const n = runtime.length
  return Uint8Array.from([0x61, n >> 8, n & 0xff, 0x80, 0x61, 0x00, 0x0d, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3, ...runtime])
}

async function fund(state: { putAccount(a: Address, acc: Account): Promise<void>; putCode(a: Address, c: Uint8Array): Promise<void> }, code: Uint8Array) {
  await state.putAccount(CALLER, new Account(0n, 10n ** 18n))
  await state.putAccount(SENDER, new Account(0n, 10n ** 18n))
  await state.putAccount(TARGET, new Account(0n, 1000n))
  await state.putCode(TARGET, code)
  await state.putAccount(CALLEE, new Account())
  await state.putCode(CALLEE, hexToBytes(CALLEE_CODE))
}

async function program(common: Common, code: Uint8Array, gasLimit: bigint) {
  const stateManager = new MerkleStateManager({ common })
  const evm = await createEngineEVM({ common, stateManager })
  await fund(stateManager, code)
  const result = await evm.runCall({ caller: CALLER, to: TARGET, gasLimit, value: 3n, data: INPUT })
  return { ...execOutcome(result.execResult as Exec), root: hex(await stateManager.getStateRoot()) }
}

/** Slot i of TARGET before a journaled run: zero for 2 and 5, else a value unlike any the programs store. */
const BASE_SLOTS = new Map(Array.from({ length: 8 }, (_, i) => [keyOf(word(BigInt(i))), i === 2 || i === 5 ? new Uint8Array(0) : Uint8Array.of(1, i)]))

/**
 * A base that holds only TARGET's slots (accounts and code come from `fund`), read without
 * promises (`sync`, as a node's head state) or only through them (as a fork's, where the
 * handlers fall back to the library's).
 */
function memoryBase(sync: boolean): StateReader {
  const target = keyOf(TARGET.bytes)
  const storage = (address: string, slot: string) => (address === target ? BASE_SLOTS.get(slot) : undefined) ?? new Uint8Array(0)
  return {
    getAccount: async () => undefined,
    getStorage: async (address, slot) => storage(address, slot),
    getCode: async () => new Uint8Array(0),
    now: sync ? { account: () => undefined, storage, code: () => new Uint8Array(0) } : undefined,
  }
}

/** A journaled state's changes, in a fixed order. */
function changes(state: JournaledState) {
  const diff = state.diff()
  const sorted = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => a.localeCompare(b))
  return {
    accounts: sorted(diff.accounts).map(([a, acc]) => [a, acc === null ? null : [acc.nonce.toString(), acc.balance.toString(), hex(acc.codeHash)]]),
    storage: sorted(diff.storage).map(([a, slots]) => [a, sorted(slots).map(([k, v]) => [k, hex(v)])]),
    cleared: [...diff.cleared].sort(),
    code: sorted(diff.code).map(([a, c]) => [a, hex(c)]),
  }
}

async function journaled(common: Common, code: Uint8Array, gasLimit: bigint, sync = true) {
  const stateManager = new JournaledState(memoryBase(sync))
  const evm = await createEngineEVM({ common, stateManager: stateManager as never })
  await fund(stateManager, code)
  const result = await evm.runCall({ caller: CALLER, to: TARGET, gasLimit, value: 3n, data: INPUT })
  return { ...execOutcome(result.execResult as Exec), changes: changes(stateManager) }
}

async function transactions(common: Common, code: Uint8Array) {
  const vm = await createEngineVM({ common })
  await fund(vm.stateManager as never, Uint8Array.of())
  const block = createBlock({ header: { number: 1n, gasLimit: 30_000_000n, baseFeePerGas: 1n, coinbase: CALLEE, timestamp: 1n } }, { common })
  let nonce = 0n
  const send = async (to: Address | undefined, data: Uint8Array, gasLimit: bigint, value: bigint) => {
    const tx = createLegacyTx({ nonce: nonce++, gasPrice: 10n ** 10n, gasLimit, to, value, data }, { common }).sign(KEY)
    const r = await runTransaction(vm, { tx, block, skipBlockGasLimitValidation: true, skipHardForkValidation: true })
    return {
      ...execOutcome(r.execResult as Exec),
      totalGasSpent: r.totalGasSpent.toString(),
      amountSpent: r.amountSpent.toString(),
      minerValue: r.minerValue?.toString(),
      receipt: [r.receipt.cumulativeBlockGasUsed.toString(), hex(r.receipt.bitvector), (r.receipt as { status?: number }).status],
      created: r.createdAddress?.toString(),
      root: hex(await vm.stateManager.getStateRoot()),
    }
  }
  const out = []
  const created = await send(undefined, deployer(code), 3_000_000n, 0n)
  out.push(created)
  if (created.created === undefined) return out
  const to = createAddressFromString(created.created)
  const full = await send(to, INPUT, 1_000_000n, 1n)
  out.push(full)
  const used = BigInt(full.totalGasSpent)
  for (let i = 1; i <= 4; i++) out.push(await send(to, INPUT, 21_500n + ((used - 21_500n) * BigInt(i)) / 5n, 1n))
  return out
}

const corpus: Array<[string, Uint8Array]> = Object.entries(PROGRAMS).map(([name, code]) => [name, hexToBytes(code as `0x${string}`)])
const random = prng(SEED)
for (let i = 0; i < GENERATED; i++) corpus.push([`generated #${i}`, randomProgram(random)])

const outcomes: Record<string, unknown> = {}
for (const hardfork of SUPPORTED_HARDFORKS) {
  const common = new Common({ chain: Mainnet, hardfork })
  for (const [name, code] of corpus) {
    const full = await program(common, code, 200_000n)
    const runs = [full]
    const used = BigInt(full.gasUsed)
    // Out of gas along the program: limits spread over the gas it uses.
    for (let i = 0; i < 6; i++) runs.push(await program(common, code, (used * BigInt(i)) / 6n + BigInt(i * 7)))
    // At the gas it needs exactly (the last charge leaves nothing), one less (the last charge
    // fails), and more than a number holds exactly (the interpreter's bigint path).
    const ends = full.error === undefined || full.error === 'revert'
    for (const limit of EDGES(used, ends)) runs.push(await program(common, code, limit))
    outcomes[`${hardfork} program ${name}`] = runs
    const onJournal = []
    for (let i = 0; i < 6; i++) onJournal.push(await journaled(common, code, i === 0 ? 200_000n : (used * BigInt(i)) / 6n + BigInt(i * 7)))
    for (const limit of EDGES(used, ends)) onJournal.push(await journaled(common, code, limit))
    outcomes[`${hardfork} journaled ${name}`] = onJournal
    outcomes[`${hardfork} journaled, read through promises, ${name}`] = [await journaled(common, code, 200_000n, false), await journaled(common, code, used / 2n, false)]
    outcomes[`${hardfork} transactions ${name}`] = await transactions(common, code)
  }
  // Keyed apart from the corpus's runs (`<fork> …`, lists the test counts per fork).
  outcomes[`transaction cases on ${hardfork}, the library's state`] = await transactionCases(common, false)
  outcomes[`transaction cases on ${hardfork}, JournaledState`] = await transactionCases(common, true)
}
process.stdout.write(JSON.stringify({ status: engineStatus(), count: Object.keys(outcomes).length, ran, outcomes }))
