/**
 * A state read as a diff over a pinned view of the flat state: what the state after a block is
 * when the block's diff has not been applied (the `pending` block's). The same answers the trie
 * of the block's state root gives, with the flat state's map lookups instead of trie walks.
 * The diff is read as `FlatState.apply` writes it: a deleted account loses its storage and code,
 * a cleared account its storage, before the written slots and code.
 */
import type { Account } from '@ethereumjs/util'
import { copyAccount, type StateView } from './flat-state.js'
import type { StateDiff, StateReader, SyncStateReader } from './types.js'

const EMPTY = new Uint8Array(0)

/** The state `diff` leaves on `base`, readable until `close` (which closes `base` too). */
export class DiffReader implements SyncStateReader {
  readonly now: SyncStateReader

  constructor(
    private readonly diff: StateDiff,
    private readonly base: StateView & { readonly now: SyncStateReader },
    private readonly onClose: () => void = () => {},
  ) {
    this.now = this
  }

  account(address: string): Account | undefined {
    const own = this.diff.accounts.get(address)
    if (own !== undefined) return own ?? undefined
    return this.base.now.account(address)
  }

  storage(address: string, slot: string): Uint8Array {
    const written = this.diff.storage.get(address)?.get(slot)
    if (written !== undefined) return written
    if (this.diff.accounts.get(address) === null || this.diff.cleared.has(address)) return EMPTY
    return this.base.now.storage(address, slot)
  }

  code(address: string): Uint8Array {
    const written = this.diff.code.get(address)
    if (written !== undefined) return written
    if (this.diff.accounts.get(address) === null) return EMPTY
    return this.base.now.code(address)
  }

  async getAccount(address: string): Promise<Account | undefined> {
    const a = this.account(address)
    return a === undefined ? undefined : copyAccount(a)
  }

  async getStorage(address: string, slot: string): Promise<Uint8Array> {
    return this.storage(address, slot)
  }

  async getCode(address: string): Promise<Uint8Array> {
    return this.code(address)
  }

  close(): void {
    this.base.close()
    this.onClose()
  }
}

/**
 * The state `diff` leaves on an asynchronous reader (a trie's at an older root), by
 * {@link DiffReader}'s rules: what a state read as a diff over the head answers once the head
 * has moved on from the version it was made on.
 */
export class DiffOverReader implements StateReader {
  constructor(
    private readonly diff: StateDiff,
    private readonly base: StateReader,
    private readonly onClose: () => void = () => {},
  ) {}

  async getAccount(address: string): Promise<Account | undefined> {
    const own = this.diff.accounts.get(address)
    if (own !== undefined) return own === null ? undefined : copyAccount(own)
    return this.base.getAccount(address)
  }

  async getStorage(address: string, slot: string): Promise<Uint8Array> {
    const written = this.diff.storage.get(address)?.get(slot)
    if (written !== undefined) return written
    if (this.diff.accounts.get(address) === null || this.diff.cleared.has(address)) return EMPTY
    return this.base.getStorage(address, slot)
  }

  async getCode(address: string): Promise<Uint8Array> {
    const written = this.diff.code.get(address)
    if (written !== undefined) return written
    if (this.diff.accounts.get(address) === null) return EMPTY
    return this.base.getCode(address)
  }

  close(): void {
    this.onClose()
  }
}
