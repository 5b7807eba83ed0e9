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
 */
import { Hardfork } from '@ethereumjs/common'
import { Address, hexToBytes, type Account } from '@ethereumjs/util'
import { NOT_AT_HAND } from '../state/journaled-state.js'

/** What the clean-up reads and calls on a journal. */
export interface JournalInternals {
  DEBUG: boolean
  _debug(message: string): void
  common: { gteHardfork(hardfork: string): boolean }
  stateManager: { getAccount(address: Address): Promise<Account | undefined>; accountNow?: (address: Address) => Account | undefined | typeof NOT_AT_HAND }
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
        const address = new Address(hexToBytes(`0x${addressHex}`))
        let account = typeof state.accountNow === 'function' ? state.accountNow(address) : NOT_AT_HAND
        if (account === NOT_AT_HAND) account = await state.getAccount(address)
        if (account === undefined || account.isEmpty()) {
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
