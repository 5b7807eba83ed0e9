/**
 * @ethereumjs/evm's `Journal#cleanup` (run at the start of every `runTx`: the accounts the last
 * transaction touched are deleted if empty, EIP-161, then the warm sets are reset) with the
 * account reads taken from the state without a promise where it has them.
 *
 * The library awaits `getAccount` for each touched address (the sender, the recipient, the
 * coinbase: three promises a transfer) and ends with `delete this.accessList` and
 * `delete this.preimages`, which turn the journal into a dictionary-mode object for every later
 * property read. Measured over the first 500 ERC20 transfers of a process it took ~10 µs a
 * transaction. This one reads through `accountNow` (`state/journaled-state.ts`) when the state
 * has it and the account is at hand (else through `getAccount`, as the library does), deletes
 * the same accounts through the same `deleteAccount`, and sets the two fields to undefined
 * (every reader tests them against undefined).
 *
 * The other patches of the journal here cut what it makes per run: the warm addresses
 * (`addAlwaysWarmAddress`, `addAlwaysWarmSlot`), the reset between runs (`cleanJournal`), the
 * key of a touched address (`touchAddress`) and of an address an opcode warms or asks about
 * (`isWarmedAddress`, `addWarmedAddress`).
 */
import { Hardfork } from '@ethereumjs/common'
import { Address, type Account } from '@ethereumjs/util'
import { fromHex, keyOf } from '../../hex.js'
import { NOT_AT_HAND, addressKey } from '../../state/journaled-state.js'

/** What the clean-up reads and calls on a journal. */
export interface JournalInternals {
  DEBUG: boolean
  _debug(message: string): void
  common: { gteHardfork(hardfork: string): boolean }
  stateManager: {
    getAccount(address: Address): Promise<Account | undefined>
    accountNow?: (address: Address) => Account | undefined | typeof NOT_AT_HAND
    accountNowByKey?: (key: string) => Account | undefined | typeof NOT_AT_HAND
  }
  touched: Set<string>
  accessList?: unknown
  preimages?: unknown
  deleteAccount(address: Address): Promise<void>
  cleanJournal(): void
}

/** `Journal#cleanup`. */
export type Cleanup = (this: JournalInternals) => Promise<void>

/** The clean-up above for the journals `fast` accepts, `library` (the library's own) for the rest. */
export function fastCleanup(library: Cleanup, fast: (journal: JournalInternals) => boolean): Cleanup {
  return async function (this: JournalInternals): Promise<void> {
    if (!fast(this)) return library.call(this)
    if (this.common.gteHardfork(Hardfork.SpuriousDragon)) {
      const state = this.stateManager
      for (const addressHex of this.touched) {
        // The journal's keys are unprefixed lower-case hex of 20 bytes, the state's own map keys:
        // read by key, an Address is made only for a read through a promise or a deletion.
        let account =
          typeof state.accountNowByKey === 'function'
            ? state.accountNowByKey(addressHex)
            : typeof state.accountNow === 'function'
              ? state.accountNow(new Address(fromHex(addressHex)))
              : NOT_AT_HAND
        if (account === NOT_AT_HAND) account = await state.getAccount(new Address(fromHex(addressHex)))
        if (account === undefined || account.isEmpty()) {
          const address = new Address(fromHex(addressHex))
          await this.deleteAccount(address)
          if (this.DEBUG) this._debug(`Cleanup touched account address=${address} (>= SpuriousDragon)`)
        }
      }
    }
    this.cleanJournal()
    this.accessList = undefined
    this.preimages = undefined
  }
}

/** `Journal#addAlwaysWarmAddress`. */
export type AddAlwaysWarmAddress = (this: object, address: string, addToAccessList?: boolean) => void

/** `Journal#addAlwaysWarmSlot`. */
export type AddAlwaysWarmSlot = (this: object, address: string, slot: string, addToAccessList?: boolean) => void

/** `Journal#cleanJournal`. */
export type CleanJournal = (this: object) => void

/** What the warm-address patches read on a journal. */
interface WarmJournal {
  alwaysWarmJournal: Map<string, Set<string>>
  accessList?: Map<string, Set<string>>
}

/**
 * The warm slots of an address warmed without any (every precompile, the sender, the recipient
 * and the coinbase at each transaction: ~20 empty sets a run). One set stands for all of them;
 * {@link fastWarmSlot} gives an address its own set before its first slot. Anything that adds to
 * it is a bug of ours, and fails loudly instead of warming a slot everywhere.
 */
class NoSlots extends Set<string> {
  override add(): this {
    throw new Error('the shared empty warm-slot set is read-only')
  }
}
export const NO_SLOTS: Set<string> = new NoSlots()

/**
 * `Journal#addAlwaysWarmAddress` without the regex for an unprefixed address: the library strips
 * a `0x` prefix through `stripHexPrefix`, which matches the whole string against a regex, and
 * runTx warms every precompile, the recipient and the coinbase (unprefixed) at each transaction.
 * A string without the prefix is what `stripHexPrefix` returns unchanged; anything else (a
 * prefixed address, a value that is not a string) goes to the library's method.
 */
export function fastWarmAddress(library: AddAlwaysWarmAddress, fast: (journal: object) => boolean): AddAlwaysWarmAddress {
  return function (this: object, address: string, addToAccessList = false): void {
    if (typeof address !== 'string' || (address.charCodeAt(0) === 48 && address.charCodeAt(1) === 120) || !fast(this)) {
      return library.call(this, address, addToAccessList)
    }
    const journal = this as WarmJournal
    if (!journal.alwaysWarmJournal.has(address)) journal.alwaysWarmJournal.set(address, NO_SLOTS)
    const list = journal.accessList
    if (addToAccessList && list !== undefined && !list.has(address)) list.set(address, new Set())
  }
}

/**
 * `Journal#addAlwaysWarmSlot` (runTx's access-list entries), which adds to the address's warm
 * set in place: an address not warm yet, or still on the shared {@link NO_SLOTS}, gets its own
 * set first. Other
 * journals, and the library's own checks of its arguments, run the library's method unchanged.
 */
export function fastWarmSlot(library: AddAlwaysWarmSlot, fast: (journal: object) => boolean): AddAlwaysWarmSlot {
  return function (this: object, address: string, slot: string, addToAccessList = false): void {
    if (fast(this) && typeof address === 'string') {
      const warm = (this as WarmJournal).alwaysWarmJournal
      const key = address.charCodeAt(0) === 48 && address.charCodeAt(1) === 120 ? address.slice(2) : address
      const slots = warm.get(key)
      if (slots === undefined || slots === NO_SLOTS) warm.set(key, new Set())
    }
    return library.call(this, address, slot, addToAccessList)
  }
}

/** What {@link fastCleanJournal} reads and resets. */
interface CleanableJournal {
  journalHeight: number
  journal: Map<string, Set<string>>
  alwaysWarmJournal: Map<string, Set<string>>
  touched: Set<string>
  journalDiff: Array<[number, [Set<string>, Map<string, Set<string>>, Set<string>]]>
}

/** Whether a checkpoint's diff recorded nothing. */
function emptyDiff(entry: [number, [Set<string>, Map<string, Set<string>>, Set<string>]]): boolean {
  const [addresses, slots, touched] = entry[1]
  return addresses.size === 0 && slots.size === 0 && touched.size === 0
}

/**
 * `Journal#cleanJournal`, which a run calls three times (the clean-ups at its start and end, and
 * runTx's `finally`) and which makes two maps, a set and a first diff of three more each time.
 * Where the journal holds nothing (no warm or touched address, every diff empty: the second and
 * third of those calls, and the first of a run after a call) it keeps its empty collections and
 * only resets the height and the diff list, which leaves it as the library's would be. Any
 * journal that holds something is cleaned by the library's method.
 */
export function fastCleanJournal(library: CleanJournal, fast: (journal: object) => boolean): CleanJournal {
  return function (this: object): void {
    const j = this as CleanableJournal
    if (
      fast(this) &&
      j.journal instanceof Map &&
      j.journal.size === 0 &&
      j.alwaysWarmJournal instanceof Map &&
      j.alwaysWarmJournal.size === 0 &&
      j.touched instanceof Set &&
      j.touched.size === 0 &&
      Array.isArray(j.journalDiff) &&
      j.journalDiff.length > 0 &&
      j.journalDiff.every(emptyDiff)
    ) {
      j.journalHeight = 0
      j.journalDiff.length = 1
      ;(j.journalDiff[0] as [number, unknown])[0] = 0
      return
    }
    library.call(this)
  }
}

/** `Journal#touchAddress`. */
export type TouchAddress = (this: object, address: Address) => void

/**
 * `Journal#touchAddress` (every account write of a run: the sender's fee and nonce, each value
 * transfer, the coinbase) with the address keyed by {@link addressKey} instead of
 * `address.toString().slice(2)`: the same lower-case unprefixed hex, without a prefixed string
 * made and cut each time.
 */
export function fastTouchAddress(library: TouchAddress, fast: (journal: object) => boolean): TouchAddress {
  return function (this: object, address: Address): void {
    if (!(address instanceof Address) || !fast(this)) return library.call(this, address)
    ;(this as { touchAccount(key: string): void }).touchAccount(addressKey(address))
  }
}

/** `Journal#isWarmedAddress`. */
export type IsWarmedAddress = (this: object, address: Uint8Array) => boolean

/** `Journal#addWarmedAddress`. */
export type AddWarmedAddress = (this: object, address: Uint8Array) => void

/** What {@link fastIsWarmedAddress} and {@link fastAddWarmedAddress} read and change. */
interface WarmedJournal extends WarmJournal {
  journal: Map<string, Set<string>>
  journalDiff: Array<[number, [Set<string>, ...unknown[]]]>
}

/**
 * `Journal#isWarmedAddress` (EIP-2929's charge of every CALL, STATICCALL, DELEGATECALL, BALANCE,
 * EXTCODESIZE, EXTCODEHASH: each asks, then warms the address) with the address keyed by
 * `keyOf` instead of `bytesToUnprefixedHex`: the same lower-case unprefixed hex as one flat
 * string, where the library's is a chain of 20 concatenations that each map look-up flattens
 * first (~170 against ~330 ns a key and a look-up, measured in isolation). Rocket Pool's
 * contracts call a registry contract many times a transaction: this was ~3 % of a warm pass's
 * profile.
 */
export function fastIsWarmedAddress(library: IsWarmedAddress, fast: (journal: object) => boolean): IsWarmedAddress {
  return function (this: object, address: Uint8Array): boolean {
    if (!(address instanceof Uint8Array) || !fast(this)) return library.call(this, address)
    const journal = this as WarmedJournal
    const key = keyOf(address)
    return journal.journal.has(key) || journal.alwaysWarmJournal.has(key)
  }
}

/**
 * `Journal#addWarmedAddress` keyed as {@link fastIsWarmedAddress}; the same steps as the
 * library's: a new warm address gets an empty slot set and is recorded in the current
 * checkpoint's diff (a revert un-warms it), and in the access list when one is being reported.
 */
export function fastAddWarmedAddress(library: AddWarmedAddress, fast: (journal: object) => boolean): AddWarmedAddress {
  return function (this: object, address: Uint8Array): void {
    if (!(address instanceof Uint8Array) || !fast(this)) return library.call(this, address)
    const journal = this as WarmedJournal
    const key = keyOf(address)
    if (!journal.journal.has(key)) {
      journal.journal.set(key, new Set())
      const diff = journal.journalDiff[journal.journalDiff.length - 1]![1]
      diff[0].add(key)
    }
    const list = journal.accessList
    if (list !== undefined && !list.has(key)) list.set(key, new Set())
  }
}
