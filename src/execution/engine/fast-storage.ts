/**
 * SLOAD and SSTORE without promises, where the state is in memory.
 *
 * @ethereumjs/evm's SLOAD and SSTORE handlers and their gas handlers are async functions, and the
 * reads behind them are too: an SSTORE's gas reads the slot's current value and its value at the
 * start of the transaction (`storageLoad` twice, `originalStorageCache.get`, `getStorage` each
 * time), then the handler writes (`storageStore`, `putStorage`) and reads the account back
 * (`getAccount`): about ten promises and as many turns of the microtask queue per SSTORE, five
 * per SLOAD. In the first 500 ERC20 transfers of a process an SSTORE took ~14 µs and an SLOAD
 * ~9 µs (medians), against ~0.1 µs for a PUSH.
 *
 * The node's state (`state/journaled-state.ts`) reads and writes synchronously when its base is
 * in memory (`storageNow`, `setStorage`, `accountNow`). These handlers do what the library's do,
 * in the same order, through the same journal (warm slots), the same original-storage cache and
 * the same refund counter, and fall back to the library's own handler, before any side effect,
 * when the state manager has no synchronous reads, when a read is not at hand, or on a fork
 * whose EIPs add steps to storage access (Verkle 6800/7864, block access lists 7928, state gas
 * 8037, 8038's gas schedule) or that prices SSTORE before EIP-2200.
 */
import { Hardfork } from '@ethereumjs/common'
import type { Common } from '@ethereumjs/common'
import { activeEipsKey } from './common.js'
import { EVMError } from '@ethereumjs/evm'
import { EthereumJSErrorWithoutCode, equalsBytes } from '@ethereumjs/util'
import { keyOf, toBigInt, unpadded, word } from '../../hex.js'
import { NOT_AT_HAND } from '../../state/journaled-state.js'
import { peek, plus, type Stack } from './stack.js'

/** The EIPs under which storage access does more than these handlers do. */
const STORAGE_EIPS = [6800, 7864, 7928, 8037, 8038]
const EMPTY = new Uint8Array(0)

interface Params {
  param(name: string): bigint
  isActivatedEIP(eip: number): boolean
  hardfork(): string
  gteHardfork(hardfork: string): boolean
}

interface Address {
  bytes: Uint8Array
}

interface OriginalCache {
  map: Map<string, Map<string, Uint8Array>>
  put(address: Address, key: Uint8Array, value: Uint8Array): void
}

/** The synchronous side of `JournaledState`. */
interface SyncState {
  storageNow(address: Address, key: Uint8Array): Uint8Array | undefined
  storageNowByKey(addressHex: string, keyHex: string): Uint8Array | undefined
  setStorageByKey(addressHex: string, keyHex: string, value: Uint8Array): void
  accountNow(address: Address): unknown
  getAccount(address: Address): Promise<unknown>
  originalStorageCache: OriginalCache
}

interface Journal {
  isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean
  addWarmedStorage(address: Uint8Array, slot: Uint8Array): void
  addWarmedAddress(address: Uint8Array): void
  journal?: Map<string, Set<string>>
  alwaysWarmJournal?: Map<string, Set<string>>
  journalDiff?: Array<[number, [Set<string>, Map<string, Set<string>>, Set<string>]]>
  accessList?: Map<string, Set<string>>
}

/**
 * A slot an opcode touches, with the hex keys the journal and the original-storage cache file it
 * under (`bytesToUnprefixedHex` of the address and of the 32-byte key, which the library's
 * methods work out afresh on every call, four to ten times per SSTORE; `keyOf` gives the same
 * lower-case digits).
 */
interface Slot {
  address: Address
  /** The key as the stack holds it. */
  value: bigint
  key: Uint8Array
  addressHex: string
  keyHex: string
}

function slotOf(address: Address, value: bigint): Slot {
  const key = word(value)
  return { address, value, key, addressHex: keyOf(address.bytes), keyHex: keyOf(key) }
}

/**
 * The slots the last few SLOADs and SSTOREs worked out, newest first in turn: an opcode's handler
 * runs right after its gas handler on the same stack top, and contracts read and write the same
 * few slots again and again in a frame (a balance read, checked, written), so the word and the two
 * hex keys are made once per slot instead of two or three times per opcode. A slot is only its
 * address and key, so a held one serves whichever handler asks for the same address object and
 * key, in any run; the others work theirs out and take the oldest place.
 */
const HELD = 4
const heldSlots: Array<Slot | undefined> = new Array<Slot | undefined>(HELD).fill(undefined)
let nextHeld = 0

/** The slot of `key` in the running contract, a held one when it is this address's and this key's. */
function slotFor(runState: StorageRunState, key: bigint): Slot {
  const address = runState.interpreter._env.address
  for (let i = 0; i < HELD; i++) {
    const held = heldSlots[i]
    if (held !== undefined && held.address === address && held.value === key) return held
  }
  const slot = slotOf(address, key)
  heldSlots[nextHeld] = slot
  nextHeld = (nextHeld + 1) % HELD
  return slot
}

/** Whether the journal has the maps `Journal#isWarmedStorage` and `#addWarmedStorage` read. */
function hasMaps(journal: Journal): boolean {
  return journal.journal instanceof Map && journal.alwaysWarmJournal instanceof Map && Array.isArray(journal.journalDiff)
}

/** `Journal#isWarmedStorage` with the slot's keys worked out once. */
function isWarm(journal: Journal, slot: Slot): boolean {
  if (!hasMaps(journal)) return journal.isWarmedStorage(slot.address.bytes, slot.key)
  const slots = (journal.journal as Map<string, Set<string>>).get(slot.addressHex)
  if (slots !== undefined && slots.has(slot.keyHex)) return true
  const always = (journal.alwaysWarmJournal as Map<string, Set<string>>).get(slot.addressHex)
  return always !== undefined && always.has(slot.keyHex)
}

/** `Journal#addWarmedStorage` with the slot's keys worked out once. */
function warmUp(journal: Journal, slot: Slot): void {
  if (!hasMaps(journal)) return journal.addWarmedStorage(slot.address.bytes, slot.key)
  const warm = journal.journal as Map<string, Set<string>>
  let slots = warm.get(slot.addressHex)
  if (slots === undefined) {
    journal.addWarmedAddress(slot.address.bytes)
    slots = warm.get(slot.addressHex) as Set<string>
  }
  if (!slots.has(slot.keyHex)) {
    slots.add(slot.keyHex)
    const diff = journal.journalDiff as NonNullable<Journal['journalDiff']>
    const bySlot = (diff[diff.length - 1] as (typeof diff)[number])[1][1]
    let written = bySlot.get(slot.addressHex)
    if (written === undefined) {
      written = new Set()
      bySlot.set(slot.addressHex, written)
    }
    written.add(slot.keyHex)
  }
  if (journal.accessList !== undefined) (journal.accessList.get(slot.addressHex) as Set<string>).add(slot.keyHex)
}

export interface StorageRunState {
  stack: Stack
  stateManager: unknown
  interpreter: {
    _env: { address: Address; contract: unknown }
    journal: Journal
    isStatic(): boolean
    getGasLeft(): bigint
    refundGas(amount: bigint, context?: string): void
    subRefund(amount: bigint, context?: string): void
  }
}

type GasHandler = (runState: StorageRunState, gas: bigint, common: Params) => bigint | Promise<bigint>
type OpHandler = (runState: StorageRunState, common: Params) => unknown

/** The state manager's synchronous side, or undefined when it has none. */
function syncState(runState: StorageRunState): SyncState | undefined {
  const state = runState.stateManager as Partial<SyncState>
  return typeof state.storageNowByKey === 'function' && typeof state.setStorageByKey === 'function' && typeof state.accountNow === 'function' ? (state as SyncState) : undefined
}

/** {@link plainStorage}'s answer per Common, with the EIP list and hardfork it was given for. */
const plainByCommon = new WeakMap<object, { eips: unknown; hardfork: string; plain: boolean }>()

/**
 * Whether storage access on this fork is what these handlers do. Kept per Common while its
 * hardfork and its list of active EIPs (`_activatedEIPsCache`, a new array whenever either
 * changes) stay the same; worked out afresh each time if that list is not found.
 */
function plainStorage(common: Params): boolean {
  const eips = activeEipsKey(common as unknown as Common)
  const hardfork = common.hardfork()
  const known = plainByCommon.get(common)
  if (known !== undefined && known.eips === eips && known.hardfork === hardfork && Array.isArray(eips)) return known.plain
  let plain = common.gteHardfork(Hardfork.Istanbul) && hardfork !== Hardfork.Constantinople
  for (const eip of STORAGE_EIPS) if (common.isActivatedEIP(eip)) plain = false
  plainByCommon.set(common, { eips, hardfork, plain })
  return plain
}

/** `setLengthLeftStorage`: empty for zero, else the value as a 32-byte word. */
function storageWord(value: Uint8Array): Uint8Array {
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== 0) {
      if (value.length === 32) return value
      const out = new Uint8Array(32)
      out.set(value.subarray(Math.max(0, value.length - 32)), Math.max(0, 32 - value.length))
      return out
    }
  }
  return EMPTY
}

/** `originalStorageCache.get`, without a promise; undefined when the slot is not at hand. */
function originalNow(state: SyncState, slot: Slot): Uint8Array | undefined {
  const cache = state.originalStorageCache
  const cached = cache.map.get(slot.addressHex)?.get(slot.keyHex)
  if (cached !== undefined) return cached
  const value = state.storageNowByKey(slot.addressHex, slot.keyHex)
  if (value === undefined) return undefined
  // `OriginalStorageCache#put`, with the keys above.
  let slots = cache.map.get(slot.addressHex)
  if (slots === undefined) {
    slots = new Map()
    cache.map.set(slot.addressHex, slots)
  }
  if (!slots.has(slot.keyHex)) slots.set(slot.keyHex, value)
  return value
}

/** `accessStorageEIP2929` of @ethereumjs/evm (without the Verkle branches, which are excluded). */
function accessStorage(runState: StorageRunState, slot: Slot, isSstore: boolean, common: Params): bigint {
  if (!common.isActivatedEIP(2929)) return 0n
  const journal = runState.interpreter.journal
  if (!isWarm(journal, slot)) {
    warmUp(journal, slot)
    return common.param('coldsloadGas')
  }
  return isSstore ? 0n : common.param('warmstoragereadGas')
}

/** `adjustSstoreGasEIP2929` of @ethereumjs/evm. */
function adjustSstoreGas(runState: StorageRunState, slot: Slot, defaultCost: bigint, costName: 'noop' | 'initRefund' | 'cleanRefund', common: Params): bigint {
  if (!common.isActivatedEIP(2929)) return defaultCost
  const warmRead = common.param('warmstoragereadGas')
  const coldSload = common.param('coldsloadGas')
  if (isWarm(runState.interpreter.journal, slot)) {
    switch (costName) {
      case 'noop':
        return warmRead
      case 'initRefund':
        return common.param('sstoreInitEIP2200Gas') - warmRead
      case 'cleanRefund':
        return common.param('sstoreResetGas') - coldSload - warmRead
    }
  }
  return defaultCost
}

/** `updateSstoreGasEIP2200` of @ethereumjs/evm. */
function sstoreGasEIP2200(runState: StorageRunState, current: Uint8Array, original: Uint8Array, value: Uint8Array, key: Slot, common: Params): bigint {
  const interpreter = runState.interpreter
  if (interpreter.getGasLeft() <= common.param('sstoreSentryEIP2200Gas')) throw new EVMError(EVMError.errorMessages.OUT_OF_GAS)
  if (equalsBytes(current, value)) return adjustSstoreGas(runState, key, common.param('sstoreNoopEIP2200Gas'), 'noop', common)
  if (equalsBytes(original, current)) {
    if (original.length === 0) return common.param('sstoreInitEIP2200Gas')
    if (value.length === 0) interpreter.refundGas(common.param('sstoreClearRefundEIP2200Gas'), 'EIP-2200 -> sstoreClearRefundEIP2200')
    return common.param('sstoreCleanEIP2200Gas')
  }
  if (original.length > 0) {
    if (current.length === 0) interpreter.subRefund(common.param('sstoreClearRefundEIP2200Gas'), 'EIP-2200 -> sstoreClearRefundEIP2200')
    else if (value.length === 0) interpreter.refundGas(common.param('sstoreClearRefundEIP2200Gas'), 'EIP-2200 -> sstoreClearRefundEIP2200')
  }
  if (equalsBytes(original, value)) {
    if (original.length === 0) {
      interpreter.refundGas(adjustSstoreGas(runState, key, common.param('sstoreInitRefundEIP2200Gas'), 'initRefund', common), 'EIP-2200 -> initRefund')
    } else {
      interpreter.refundGas(adjustSstoreGas(runState, key, common.param('sstoreCleanRefundEIP2200Gas'), 'cleanRefund', common), 'EIP-2200 -> cleanRefund')
    }
  }
  return common.param('sstoreDirtyEIP2200Gas')
}

/** SLOAD's gas: the EIP-2929 access charge (no read, so never a promise on a plain fork). */
export function sloadGas(library: GasHandler): GasHandler {
  return (runState, gas, common) => {
    if (!plainStorage(common)) return library(runState, gas, common)
    return plus(gas, accessStorage(runState, slotFor(runState, peek(runState.stack, 0)), false, common))
  }
}

/** SSTORE's gas: EIP-2200's net metering and the EIP-2929 access charge. */
export function sstoreGas(library: GasHandler): GasHandler {
  return (runState, gas, common) => {
    const state = syncState(runState)
    if (state === undefined || !plainStorage(common)) return library(runState, gas, common)
    const interpreter = runState.interpreter
    if (interpreter.isStatic()) throw new EVMError(EVMError.errorMessages.STATIC_STATE_CHANGE)
    const key = peek(runState.stack, 0)
    const val = peek(runState.stack, 1)
    const slot = slotFor(runState, key)
    const current = state.storageNowByKey(slot.addressHex, slot.keyHex)
    if (current === undefined) return library(runState, gas, common)
    const original = originalNow(state, slot)
    if (original === undefined) return library(runState, gas, common)
    gas += sstoreGasEIP2200(runState, storageWord(current), storageWord(original), val === 0n ? EMPTY : word(val), slot, common)
    return plus(gas, accessStorage(runState, slot, true, common))
  }
}

/** SLOAD: the slot's value from the state's synchronous read when it is at hand. */
export function sload(runState: StorageRunState, common: Params): void | Promise<void> {
  const key = runState.stack.pop()
  const slot = slotFor(runState, key)
  const interpreter = runState.interpreter as StorageRunState['interpreter'] & { storageLoad(key: Uint8Array): Promise<Uint8Array> }
  const state = syncState(runState)
  const value = state !== undefined && plainStorage(common) ? state.storageNowByKey(slot.addressHex, slot.keyHex) : undefined
  if (value !== undefined) {
    runState.stack.push(value.length === 0 ? 0n : toBigInt(value))
    return
  }
  return interpreter.storageLoad(slot.key).then((loaded) => runState.stack.push(loaded.length === 0 ? 0n : toBigInt(loaded)))
}

/** SSTORE: the write and the account read back, without promises when the account is at hand. */
export function sstore(library: OpHandler): OpHandler {
  return (runState, common) => {
    const state = syncState(runState)
    if (state === undefined || !plainStorage(common)) return library(runState, common)
    const stack = runState.stack
    const key = peek(stack, 0)
    const val = peek(stack, 1)
    stack.pop()
    stack.pop()
    const interpreter = runState.interpreter
    const address = interpreter._env.address
    const slot = slotFor(runState, key)
    state.setStorageByKey(slot.addressHex, slot.keyHex, val === 0n ? Uint8Array.from([]) : unpadded(val))
    const account = state.accountNow(address)
    if (account === NOT_AT_HAND) return state.getAccount(address).then((read) => setContract(interpreter, read))
    setContract(interpreter, account)
  }
}

function setContract(interpreter: StorageRunState['interpreter'], account: unknown): void {
  if (!account) throw EthereumJSErrorWithoutCode('could not read account while persisting memory')
  interpreter._env.contract = account
}
