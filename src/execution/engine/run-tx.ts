/**
 * One transaction's run: @ethereumjs/vm's `runTx`, or the engine's own for what the node runs
 * every day (legacy, EIP-2930 and EIP-1559 transactions on the verified hardforks, London to
 * Osaka), with the same result, state and errors.
 *
 * The library's `runTx` spends, around the EVM's `runCall`, ~21 KB (its own ~15 KB, the EVM
 * journal's 6–8 KB) and two dozen promises a transaction on set-up it does for every fork it knows: a new `Set` per precompile in the warm
 * sets, the sender's and the recipient's hex twice, a second checkpoint for EIP-7702's
 * authorisations, the journal reset three times (twice on an already clean journal), the
 * profiler's and the debug log's checks, the `beforeTx` / `afterTx` events and an object spread
 * of the result for `afterTx`; and it is one of the largest functions V8 compiles in a short
 * suite. This one takes the same steps in the same order through the same journal and state
 * methods, reads and writes the sender and the coinbase without promises where the node's state
 * has them (`JournaledState#accountNow`, `#setAccount`), gives the addresses it warms with no
 * slots one shared empty slot set (slots are added to an always-warm address only by the access
 * list, warmed first), and skips what has no effect there (see each step).
 *
 * It runs only where every branch it leaves out is unreachable ({@link engineRunsTx}): the
 * engine's patches on (not `FINALITY_ENGINE=plain`) and @ethereumjs/vm a verified version, an
 * EVM of the engine's own on a verified fork without EIPs of later forks that add steps to a
 * transaction (2780, 6800, 7708, 7778, 7864, 7928, 8037, 8246), proof-of-stake or -work rules, no
 * `beforeTx` / `afterTx` listener, no debug log or profiler, a block given, hardfork validation
 * skipped and no preimages asked for. Anything else, blob and EIP-7702 transactions among them,
 * goes to the library's `runTx`. test/execution/engine/differential.test.ts compares both on
 * every supported fork, every outcome and error included.
 */
import { ConsensusType } from '@ethereumjs/common'
import { type EVMResult } from '@ethereumjs/evm'
import { Capability, getCalldataFloorGas, type TypedTransaction } from '@ethereumjs/tx'
import { Account, Address, EthereumJSErrorWithoutCode, KECCAK256_NULL, equalsBytes, hexToBytes } from '@ethereumjs/util'
import { Bloom, type RunTxOpts, type RunTxResult, type TxReceipt, type VM, runTx as libraryRunTx } from '@ethereumjs/vm'
import type { Block } from '@ethereumjs/block'
import { emptyObjects } from '../../arrays.js'
import { keyOf } from '../../hex.js'
import { NOT_AT_HAND } from '../../state/journaled-state.js'
import { NO_SLOTS } from './fast-journal.js'
import { orEmptyAccount } from './frame-state.js'
import { fastPaths } from './gate.js'
import { isFast } from './install.js'
import { txResult } from './tx-result.js'
import { wideBelow, wideSum } from './wide.js'

/** Transaction types run here: legacy, EIP-2930, EIP-1559. */
const TYPES = new Set([0, 1, 2])

/** EIPs of later forks that add steps to a transaction's run: where any is active, the library runs. */
const LIBRARY_EIPS = [2780, 6800, 7708, 7778, 7864, 7928, 8037, 8246] as const

/** EIPs every fork run here has (London on): the library's checks of them cannot fail. */
const REQUIRED_EIPS = [1559, 2718, 2929, 2930] as const

/** The EIP-7702 delegation prefix of an account's code. */
const DELEGATION_7702 = Uint8Array.of(0xef, 0x01, 0x00)


/** VMs made with the library's profiler on (`profilerOpts.reportAfterTx`): the library runs theirs. */
const profiled = new WeakSet<object>()

/** Records a VM made with the library's per-transaction profiler report, whose transactions the library runs. */
export function markProfiled(vm: object): void {
  profiled.add(vm)
}

/** What the run uses of the EVM's journal (its class is not exported; members listed in internals.ts). */
interface Journal {
  journal: Map<string, Set<string>>
  alwaysWarmJournal: Map<string, Set<string>>
  touched: Set<string>
  journalDiff: Array<[number, [Set<string>, Map<string, Set<string>>, Set<string>]]>
  journalHeight: number
  accessList?: Map<string, Set<string>>
  preimages?: Map<string, Uint8Array>
  touchAddress(address: Address): void
  putAccount(address: Address, account: Account | undefined): Promise<void>
  deleteAccount(address: Address): Promise<void>
  addAlwaysWarmAddress(address: string, addToAccessList?: boolean): void
  addAlwaysWarmSlot(address: string, slot: string, addToAccessList?: boolean): void
  startReportingAccessList(): void
  checkpoint(): Promise<void>
  commit(): Promise<void>
  revert(): Promise<void>
  cleanup(): Promise<void>
  cleanJournal(): void
}

/** The state's synchronous side (`state/journaled-state.ts`), where it has one. */
interface SyncState {
  accountNow(address: Address): Account | undefined | typeof NOT_AT_HAND
  setAccount(address: Address, account?: Account): void
}

/** The EVM fields the run sets and reads beyond its public methods' types. */
interface EvmFields {
  journal: Journal
  precompiles: Map<string, unknown>
  eip7928CallPostTargetOog: boolean
  createTxTargetAlive: boolean
  stateManager: { originalStorageCache: { clear(): void } }
  runCall(opts: object): Promise<EVMResult>
}

/**
 * Whether the engine runs this transaction itself: see the module's comment. Decided before
 * anything is read or written, so the library's `runTx` runs the rest from the start.
 */
export function engineRunsTx(vm: VM, opts: RunTxOpts): boolean {
  if (!fastPaths('@ethereumjs/vm') || !isFast(vm.evm)) return false
  if (opts.block === undefined || opts.skipHardForkValidation !== true || opts.reportPreimages === true) return false
  if (!TYPES.has(opts.tx.type) || vm.DEBUG || profiled.has(vm)) return false
  if (vm.events.listenerCount('beforeTx') > 0 || vm.events.listenerCount('afterTx') > 0) return false
  const common = vm.common
  if (common.consensusType() === ConsensusType.ProofOfAuthority) return false
  for (const eip of REQUIRED_EIPS) if (!common.isActivatedEIP(eip)) return false
  for (const eip of LIBRARY_EIPS) if (common.isActivatedEIP(eip)) return false
  return true
}

/** `runTx` of @ethereumjs/vm: the engine's own run where {@link engineRunsTx} says so, the library's elsewhere. */
export function runTransaction(vm: VM, opts: RunTxOpts): Promise<RunTxResult> {
  return engineRunsTx(vm, opts) ? engineRunTx(vm, opts) : libraryRunTx(vm, opts)
}

/** The library's `_errorMsg`: the message with the VM's, the block's and the transaction's descriptions. */
function annotated(msg: string, vm: VM, block: Block, tx: TypedTransaction): string {
  const blockStr = 'errorStr' in block ? block.errorStr() : 'block'
  const txStr = 'errorStr' in tx ? tx.errorStr() : 'tx'
  return `${msg} (${vm.errorStr()} -> ${blockStr} -> ${txStr})`
}

function refuse(msg: string, vm: VM, block: Block, tx: TypedTransaction): Error {
  return EthereumJSErrorWithoutCode(annotated(msg, vm, block, tx))
}

/**
 * Whether `Journal#cleanup` would only replace empty sets with new empty ones: nothing touched,
 * nothing warm, no checkpoint open, nothing reported. A transaction run here ends with the
 * journal so; a system call or a library run between two transactions leaves it otherwise.
 */
function journalIsClean(j: Journal): boolean {
  if (j.touched.size !== 0 || j.journal.size !== 0 || j.alwaysWarmJournal.size !== 0) return false
  if (j.journalHeight !== 0 || j.journalDiff.length !== 1 || j.accessList !== undefined || j.preimages !== undefined) return false
  const [height, [warm, slots, touched]] = j.journalDiff[0] as Journal['journalDiff'][number]
  return height === 0 && warm.size === 0 && slots.size === 0 && touched.size === 0
}

/** The state's synchronous side, or undefined (the library's awaited methods then serve). */
function syncState(state: unknown): SyncState | undefined {
  const s = state as Partial<SyncState>
  return typeof s.accountNow === 'function' && typeof s.setAccount === 'function' ? (s as SyncState) : undefined
}

/** `state.getAccount(address) ?? new Account()`: the account itself where the state has it at hand (frame-state.ts's `orEmptyAccount`), else a promise of it. */
function accountOf(vm: VM, sync: SyncState | undefined, address: Address): Account | Promise<Account> {
  if (sync !== undefined) {
    const now = sync.accountNow(address)
    if (now !== NOT_AT_HAND) return orEmptyAccount(now)
  }
  return vm.stateManager.getAccount(address).then((account) => account ?? new Account())
}

/**
 * `Journal#putAccount`: undefined when done without a promise (the state has a synchronous side).
 * `key` is the address's journal key (unprefixed hex), which `touchAddress` would make again from
 * its `toString()`; with preimages reported the library's method runs.
 */
function putAccount(journal: Journal, sync: SyncState | undefined, address: Address, key: string, account: Account): Promise<void> | undefined {
  if (sync === undefined) return journal.putAccount(address, account)
  if (journal.preimages !== undefined) journal.touchAddress(address)
  else if (!journal.touched.has(key)) {
    journal.touched.add(key)
    ;(journal.journalDiff[journal.journalDiff.length - 1] as Journal['journalDiff'][number])[1][2].add(key)
  }
  sync.setAccount(address, account)
  return undefined
}

/** The library's `runTx` for a transaction {@link engineRunsTx} accepted. */
export async function engineRunTx(vm: VM, opts: RunTxOpts): Promise<RunTxResult> {
  const tx = opts.tx
  const block = opts.block as Block
  if (opts.skipBlockGasLimitValidation !== true && block.header.gasLimit < tx.gasLimit) {
    throw refuse('tx has a higher gas limit than the block', vm, block, tx)
  }
  const evm = vm.evm as unknown as EvmFields
  const journal = evm.journal
  // The library cleans up at the start of every run; on a clean journal that only makes new empty sets.
  if (!journalIsClean(journal)) await journal.cleanup()
  if (opts.reportAccessList === true) journal.startReportingAccessList()
  await journal.checkpoint()
  if (tx.supports(Capability.EIP2718TypedTransaction)) {
    const list = (tx as TypedTransaction & { accessList: [Uint8Array, Uint8Array[]][] }).accessList
    for (let i = 0; i < list.length; i++) {
      const [addressBytes, slots] = list[i] as [Uint8Array, Uint8Array[]]
      const address = keyOf(addressBytes)
      journal.addAlwaysWarmAddress(address, true)
      for (let k = 0; k < slots.length; k++) journal.addAlwaysWarmSlot(address, keyOf(slots[k] as Uint8Array), true)
    }
  }
  try {
    const result = await run(vm, evm, journal, tx, block, opts)
    // The library cleans up (EIP-161's deletions, the warm sets reset), commits, then resets the
    // warm sets again; committing first leaves the same state and the journal clean once.
    await journal.commit()
    await journal.cleanup()
    return result
  } catch (error) {
    await journal.revert()
    journal.cleanJournal()
    throw error
  } finally {
    evm.stateManager.originalStorageCache.clear()
  }
}

async function run(vm: VM, evm: EvmFields, journal: Journal, tx: TypedTransaction, block: Block, opts: RunTxOpts): Promise<RunTxResult> {
  const common = vm.common
  const header = block.header
  // The library's check that the value is not negative is left out: every constructor of a
  // transaction refuses a negative value, and the comparison, seen small, was compiled as a 64-bit
  // one and thrown away at the first value of 2^63 wei or more (wide.ts).
  const caller = tx.getSenderAddress()

  // EIP-2929 (every fork here): the precompiles, the sender, the recipient and (EIP-3651) the coinbase.
  const warm = journal.alwaysWarmJournal
  // The library warms what `entries()` yields: a subclass may list other addresses there than its
  // keys (a call's overridden precompiles list the fork's own, execution/overrides.ts).
  const precompiles = evm.precompiles
  if (Object.getPrototypeOf(precompiles) === Map.prototype) {
    for (const address of precompiles.keys()) if (!warm.has(address)) warm.set(address, NO_SLOTS)
  } else {
    for (const [address] of precompiles.entries()) if (!warm.has(address)) warm.set(address, NO_SLOTS)
  }
  const callerKey = keyOf(caller.bytes)
  if (!warm.has(callerKey)) warm.set(callerKey, NO_SLOTS)
  const to = tx.to
  if (to !== undefined) {
    const toKey = keyOf(to.bytes)
    if (!warm.has(toKey)) warm.set(toKey, NO_SLOTS)
  }
  const coinbaseKey = keyOf(header.coinbase.bytes)
  if (common.isActivatedEIP(3651) && !warm.has(coinbaseKey)) warm.set(coinbaseKey, NO_SLOTS)

  const intrinsicGas = tx.getIntrinsicGas()
  const floorCost = getCalldataFloorGas(tx, caller)
  const minGasLimit = intrinsicGas > floorCost ? intrinsicGas : floorCost
  if (tx.gasLimit < minGasLimit) {
    throw refuse(`INTRINSIC_GAS_TOO_LOW: tx gas limit ${Number(tx.gasLimit)} is lower than the minimum gas limit of ${Number(minGasLimit)}`, vm, block, tx)
  }
  const gasLimit = tx.gasLimit - intrinsicGas
  const feeMarket = tx.supports(Capability.EIP1559FeeMarket)
  const baseFee = header.baseFeePerGas as bigint
  const maxFeePerGas = feeMarket ? (tx as TypedTransaction & { maxFeePerGas: bigint }).maxFeePerGas : (tx as TypedTransaction & { gasPrice: bigint }).gasPrice
  if (maxFeePerGas < baseFee) {
    throw refuse(`Transaction's ${feeMarket ? 'maxFeePerGas' : 'gasPrice'} (${maxFeePerGas}) is less than the block's baseFeePerGas (${baseFee})`, vm, block, tx)
  }

  const sync = syncState(vm.stateManager)
  const read = accountOf(vm, sync, caller)
  const fromAccount = read instanceof Promise ? await read : read
  const { nonce, balance } = fromAccount
  // EIP-3607, with EIP-7702's delegated senders let through.
  if (!equalsBytes(fromAccount.codeHash, KECCAK256_NULL)) {
    const delegated = common.isActivatedEIP(7702) && equalsBytes((await vm.stateManager.getCode(caller)).subarray(0, 3), DELEGATION_7702)
    if (!delegated) throw refuse('invalid sender address, address is not EOA (EIP-3607)', vm, block, tx)
  }
  // The price paid per gas and the tip in it, as `getEffectivePriorityFee` (which cannot refuse
  // here: the fee cap was checked against the base fee above) and the types' `getUpfrontCost`
  // make them; the sums with the value may pass 2^63 (wide.ts).
  let gasPrice: bigint
  let inclusionFeePerGas: bigint
  if (feeMarket) {
    const tip = (tx as TypedTransaction & { maxPriorityFeePerGas: bigint }).maxPriorityFeePerGas
    const remaining = maxFeePerGas - baseFee
    inclusionFeePerGas = tip < remaining ? tip : remaining
    gasPrice = inclusionFeePerGas + baseFee
  } else {
    gasPrice = maxFeePerGas
    inclusionFeePerGas = gasPrice - baseFee
  }
  const upFrontCost = wideSum(tx.gasLimit * gasPrice, tx.value)
  if (wideBelow(balance, upFrontCost)) {
    if (opts.skipBalance !== true) {
      throw refuse(`sender doesn't have enough funds to send tx. The upfront cost is: ${upFrontCost} and the sender's account (${caller}) only has: ${balance}`, vm, block, tx)
    }
    // The library writes the account here and again below; one write of the final account is the same.
    if (!feeMarket) fromAccount.balance = upFrontCost
  }
  // The sum may pass 2^63 (wide.ts).
  const maxCost = feeMarket ? wideSum(tx.value, tx.gasLimit * maxFeePerGas) : tx.value
  if (wideBelow(fromAccount.balance, maxCost)) {
    if (opts.skipBalance !== true) {
      throw refuse(`sender doesn't have enough funds to send tx. The max cost is: ${maxCost} and the sender's account (${caller}) only has: ${balance}`, vm, block, tx)
    }
    fromAccount.balance = maxCost
  }
  if (opts.skipNonce !== true && nonce !== tx.nonce) {
    throw refuse(`the tx doesn't have the correct nonce. account has nonce of: ${nonce} tx has nonce of: ${tx.nonce}`, vm, block, tx)
  }

  // The fee paid up front and the nonce, in one write (the library writes twice, nothing read between).
  const txCost = tx.gasLimit * gasPrice
  fromAccount.balance -= txCost
  if (opts.skipBalance === true && fromAccount.balance < 0n) fromAccount.balance = 0n
  fromAccount.nonce += 1n
  const put = putAccount(journal, sync, caller, callerKey, fromAccount)
  if (put !== undefined) await put

  // No EIP-7702 authorisations here, so no second checkpoint around them: it is always committed.
  evm.eip7928CallPostTargetOog = false
  const frame = await evm.runCall({
    block,
    gasPrice,
    caller,
    gasLimit,
    to,
    value: tx.value,
    data: tx.data,
    blobVersionedHashes: undefined,
    accessWitness: undefined,
    skipNonceIncrement: true,
  })
  evm.eip7928CallPostTargetOog = false
  evm.createTxTargetAlive = false

  const exec = frame.execResult
  let totalGasSpent = exec.executionGasUsed + intrinsicGas
  const gasRefund = exec.gasRefund ?? 0n
  let reportedRefund = gasRefund
  if (gasRefund !== 0n) {
    const maxRefund = totalGasSpent / common.param('maxRefundQuotient')
    totalGasSpent -= gasRefund > maxRefund ? maxRefund : gasRefund
  }
  if (common.isActivatedEIP(7623) && totalGasSpent < floorCost) {
    reportedRefund = 0n
    totalGasSpent = floorCost
  }
  const amountSpent = totalGasSpent * gasPrice

  const readAgain = accountOf(vm, sync, caller)
  const sender = readAgain instanceof Promise ? await readAgain : readAgain
  sender.balance += txCost - amountSpent
  const putAgain = putAccount(journal, sync, caller, callerKey, sender)
  if (putAgain !== undefined) await putAgain

  const miner = header.coinbase
  const readMiner = accountOf(vm, sync, miner)
  const minerAccount = readMiner instanceof Promise ? await readMiner : readMiner
  const minerValue = totalGasSpent * inclusionFeePerGas
  minerAccount.balance += minerValue
  const putMiner = putAccount(journal, sync, miner, coinbaseKey, minerAccount)
  if (putMiner !== undefined) await putMiner

  const selfdestructs = exec.selfdestruct
  if (selfdestructs !== undefined && selfdestructs.size > 0) {
    const sorted = [...selfdestructs.keys()].sort((a, b) => a.localeCompare(b))
    const eip6780 = common.isActivatedEIP(6780)
    for (const hex of sorted) {
      const address = new Address(hexToBytes(hex))
      if (eip6780 && !(exec.createdAddresses as Set<string>).has(address.toString())) continue
      await journal.deleteAccount(address)
    }
  }

  const bloom = new Bloom(undefined, common)
  const logs = exec.logs
  if (logs !== undefined) {
    for (let i = 0; i < logs.length; i++) {
      const log = logs[i] as [Uint8Array, Uint8Array[], Uint8Array]
      bloom.add(log[0])
      const topics = log[1]
      for (let q = 0; q < topics.length; q++) bloom.add(topics[q] as Uint8Array)
    }
  }

  let accessList: RunTxResult['accessList']
  if (opts.reportAccessList === true) {
    const list: Array<{ address: `0x${string}`; storageKeys: `0x${string}`[] }> = []
    for (const [address, slots] of journal.accessList as Map<string, Set<string>>) {
      const storageKeys: `0x${string}`[] = []
      for (const slot of slots) storageKeys.push(`0x${slot}`)
      list.push({ address: `0x${address}`, storageKeys })
    }
    accessList = list
  }

  const gasUsed = opts.blockGasUsed ?? header.gasUsed
  const receipt = {
    status: exec.exceptionError !== undefined ? 0 : 1,
    cumulativeBlockGasUsed: gasUsed + totalGasSpent,
    bitvector: bloom.bitvector,
    // No logs as an empty list in the hidden class of a filled one (arrays.ts).
    logs: logs !== undefined && logs.length > 0 ? logs : emptyObjects(),
  }
  return txResult({
    createdAddress: frame.createdAddress,
    execResult: exec,
    totalGasSpent,
    gasRefund: reportedRefund,
    blockGasSpent: totalGasSpent,
    amountSpent,
    minerValue,
    bloom,
    accessList,
    receipt: receipt as TxReceipt,
  })
}
