/**
 * The committed world state at the head, flat in memory: one map lookup per read.
 *
 * Blocks change it synchronously in `apply`, so a reader never sees half a block. Readers that
 * must see one version across awaits (an `eth_call` that runs while a block commits) pin it
 * with `view()`: while a view is open, `apply` keeps the values it overwrote, per version.
 */
import { Account } from '@ethereumjs/util'
import type { LazyState, StateDiff, StateReader, SyncStateReader } from './types.js'

const EMPTY = new Uint8Array(0)
const ABSENT = Symbol('absent')
type Prior<T> = T | typeof ABSENT

/** What one storage map was before a version: its whole map when cleared, else the prior slots. */
interface StorageUndo {
  whole?: Map<string, Uint8Array> | undefined
  cleared: boolean
  slots: Map<string, Uint8Array>
}

/**
 * Each map is {@link UNCHANGED} until `apply` overwrites something of its kind: a record is kept
 * per block while a snapshot is open (every block of a suite built on fixtures), and an empty
 * block changes only storage, a send rarely code; an empty map each costs ~270 bytes kept.
 */
interface Undo {
  version: number
  accounts: Map<string, Prior<Account>>
  storage: Map<string, StorageUndo>
  code: Map<string, Prior<Uint8Array>>
}

/** What an undo record holds of a kind nothing was overwritten of; never written (see {@link Undo}). */
const UNCHANGED = new Map<string, never>()

/**
 * Drops an account's slot map once it holds no slot (an account without storage has none). One
 * function for `apply` and `restore`: a revert that first emptied an account's map (the slots of
 * a contract made after the snapshot) reached a branch restore's optimised code had never seen,
 * and V8 threw that code away; here the branch shares what apply's blocks have already run.
 */
function dropIfEmpty(storage: Map<string, Map<string, Uint8Array>>, address: string, slots: Map<string, Uint8Array>): void {
  if (slots.size === 0) storage.delete(address)
}

/** `map`, or a new map in its place when it is {@link UNCHANGED}. */
function writable<V>(map: Map<string, V>): Map<string, V> {
  return (map as Map<string, unknown>) === UNCHANGED ? new Map() : map
}

/** What one `apply` overwrote; opaque outside this module. */
export interface StateUndo {
  readonly version: number
}

/** A pinned version of the state; close it when done. */
export interface StateView extends StateReader {
  readonly version: number
  /** Absent for a fork's state, whose misses are fetched (see {@link FlatState.lazy}). */
  readonly now: SyncStateReader | undefined
  close(): void
}

/** Copies an account so that callers that mutate it never touch the stored one. */
export function copyAccount(a: Account): Account {
  return new Account(a.nonce, a.balance, a.storageRoot, a.codeHash)
}

/** The flat head state. */
export class FlatState implements StateReader {
  version = 0
  readonly accounts = new Map<string, Account>()
  readonly storage = new Map<string, Map<string, Uint8Array>>()
  readonly code = new Map<string, Uint8Array>()
  private readonly openViews = new Map<number, number>()
  private undo: Undo[] = []

  /** The synchronous reads; absent on a fork, whose misses must be fetched first. */
  now: SyncStateReader | undefined = {
    account: (address) => this.accounts.get(address),
    storage: (address, slot) => this.storage.get(address)?.get(slot) ?? EMPTY,
    code: (address) => this.code.get(address) ?? EMPTY,
  }

  /** A fork's source of the keys not loaded yet (undefined for a chain that is not a fork). */
  lazy: LazyState | undefined

  /**
   * Makes this the head state of a fork: reads of keys not held are fetched through `lazy`
   * first, so they go through promises (`now` is gone); set before any reader is made.
   */
  setLazy(lazy: LazyState): void {
    this.lazy = lazy
    this.now = undefined
  }

  /**
   * Keeps an account a fork's lazy state loaded from its remote (with its code), unless the key
   * is held already (a write came first). A base value: every version agrees on it, so no undo.
   */
  loadAccount(address: string, account: Account, code: Uint8Array | undefined): void {
    if (this.accounts.has(address)) return
    this.accounts.set(address, account)
    if (code !== undefined && code.length > 0) this.code.set(address, code)
  }

  /** Keeps a slot a fork's lazy state loaded from its remote, unless the slot is held already. */
  loadSlot(address: string, slot: string, value: Uint8Array): void {
    let slots = this.storage.get(address)
    if (slots === undefined) {
      slots = new Map()
      this.storage.set(address, slots)
    }
    if (!slots.has(slot)) slots.set(slot, value)
  }

  async getAccount(address: string): Promise<Account | undefined> {
    if (this.lazy !== undefined) await this.lazy.account(address)
    const a = this.accounts.get(address)
    return a === undefined ? undefined : copyAccount(a)
  }

  async getStorage(address: string, slot: string): Promise<Uint8Array> {
    if (this.lazy !== undefined) await this.lazy.slot(address, slot)
    return this.storage.get(address)?.get(slot) ?? EMPTY
  }

  async getCode(address: string): Promise<Uint8Array> {
    if (this.lazy !== undefined) await this.lazy.account(address)
    return this.code.get(address) ?? EMPTY
  }

  /** Pins the current version for reads across awaits. */
  view(): StateView {
    const version = this.version
    this.openViews.set(version, (this.openViews.get(version) ?? 0) + 1)
    return new PinnedView(this, version)
  }

  // What a pinned view reads: the head's values, unless a newer version overwrote them. With no
  // newer version applied yet (the usual case while a block is built) that is one map lookup.

  /** An account as of `version` (the stored object; see {@link SyncStateReader}). */
  accountAt(version: number, address: string): Account | undefined {
    for (const u of this.undo) {
      if (u.version <= version) continue
      const prior = u.accounts.get(address)
      if (prior !== undefined) return prior === ABSENT ? undefined : prior
    }
    return this.accounts.get(address)
  }

  /** A storage value as of `version`. */
  storageAt(version: number, address: string, slot: string): Uint8Array {
    for (const u of this.undo) {
      if (u.version <= version) continue
      const s = u.storage.get(address)
      if (s === undefined) continue
      if (s.cleared) return s.whole?.get(slot) ?? EMPTY
      const prior = s.slots.get(slot)
      if (prior !== undefined) return prior
    }
    return this.storage.get(address)?.get(slot) ?? EMPTY
  }

  /** An account's code as of `version`. */
  codeAt(version: number, address: string): Uint8Array {
    for (const u of this.undo) {
      if (u.version <= version) continue
      const prior = u.code.get(address)
      if (prior !== undefined) return prior === ABSENT ? EMPTY : prior
    }
    return this.code.get(address) ?? EMPTY
  }

  /** A view of `version` was closed. */
  release(version: number): void {
    const n = (this.openViews.get(version) ?? 1) - 1
    if (n === 0) this.openViews.delete(version)
    else this.openViews.set(version, n)
    this.trimUndo()
  }

  /**
   * Applies a block's final values; synchronous, so no reader sees a half-applied block.
   * With `keep` (a snapshot is open) it returns what it overwrote, for {@link FlatState.restore}.
   */
  apply(diff: StateDiff, keep = false): StateUndo | undefined {
    const next = this.version + 1
    const record: Undo | undefined = this.openViews.size > 0 || keep
      ? { version: next, accounts: UNCHANGED, storage: UNCHANGED, code: UNCHANGED }
      : undefined
    for (const [address, account] of diff.accounts) {
      if (record !== undefined && !record.accounts.has(address)) (record.accounts = writable(record.accounts)).set(address, this.accounts.get(address) ?? ABSENT)
      // Through `call` on either function, for every account: see `dropAccount`.
      ;(account === null ? dropAccount : putAccount).call(undefined, this, record, address, account as Account)
    }
    for (const address of diff.cleared) clearStorage(this, record, address)
    for (const [address, slots] of diff.storage) {
      let current = this.storage.get(address)
      if (current === undefined) {
        current = new Map()
        this.storage.set(address, current)
      }
      const undo = record === undefined ? undefined : storageUndo(record, address)
      for (const [slot, value] of slots) {
        if (undo !== undefined && !undo.cleared && !undo.slots.has(slot)) undo.slots.set(slot, current.get(slot) ?? EMPTY)
        if (value.length === 0) current.delete(slot)
        else current.set(slot, value)
      }
      dropIfEmpty(this.storage, address, current)
    }
    for (const [address, code] of diff.code) {
      saveCode(this, record, address)
      // As for accounts: a suite's first code taken off (late, if ever) is no untaken branch.
      ;(code.length === 0 ? dropCode : putCode).call(undefined, this, address, code)
    }
    this.version = next
    if (record !== undefined && this.openViews.size > 0) this.undo.push(record)
    this.lazy?.applied(diff, next)
    return record
  }

  /**
   * Puts back what an `apply` overwrote (newest first when undoing several). Pinned views from
   * before are not kept consistent across a restore: it is a test-chain control (evm_revert).
   */
  restore(record: StateUndo): void {
    const r = record as Undo
    for (const [address, prior] of r.accounts) {
      if (prior === ABSENT) this.accounts.delete(address)
      else this.accounts.set(address, prior)
    }
    for (const [address, s] of r.storage) {
      if (s.cleared) {
        if (s.whole === undefined || s.whole.size === 0) this.storage.delete(address)
        else this.storage.set(address, s.whole)
        continue
      }
      let current = this.storage.get(address)
      if (current === undefined) {
        current = new Map()
        this.storage.set(address, current)
      }
      for (const [slot, value] of s.slots) {
        if (value.length === 0) current.delete(slot)
        else current.set(slot, value)
      }
      dropIfEmpty(this.storage, address, current)
    }
    for (const [address, prior] of r.code) {
      if (prior === ABSENT) this.code.delete(address)
      else this.code.set(address, prior)
    }
    this.version++
    this.undo = []
    this.lazy?.restored(r.version)
  }

  private trimUndo(): void {
    if (this.openViews.size === 0) {
      this.undo = []
      return
    }
    const oldest = Math.min(...this.openViews.keys())
    this.undo = this.undo.filter((u) => u.version > oldest)
  }
}

/** The undo of an account's storage in `record`, made on first use. */
function storageUndo(record: Undo, address: string): StorageUndo {
  let undo = record.storage.get(address)
  if (undo === undefined) {
    undo = { cleared: false, slots: new Map() }
    ;(record.storage = writable(record.storage)).set(address, undo)
  }
  return undo
}

/** Drops an account's storage; the old map object is kept whole for pinned views. */
function clearStorage(flat: FlatState, record: Undo | undefined, address: string): void {
  if (record !== undefined) {
    const undo = storageUndo(record, address)
    if (!undo.cleared) {
      // Slots already changed this version were changed in the map being dropped: restore them first.
      const whole = flat.storage.get(address)
      // The dropped map is never mutated again, so it can stand as the prior state as it is.
      const before = whole === undefined || undo.slots.size === 0 ? whole : new Map(whole)
      for (const [slot, value] of undo.slots) {
        if (before === undefined || before === whole) break
        if (value.length === 0) before.delete(slot)
        else before.set(slot, value)
      }
      undo.whole = before ?? (undo.slots.size > 0 ? new Map([...undo.slots].filter(([, v]) => v.length > 0)) : undefined)
      undo.cleared = true
    }
  }
  flat.storage.delete(address)
}

/** Keeps an account's code in `record` before a version overwrites it. */
function saveCode(flat: FlatState, record: Undo | undefined, address: string): void {
  if (record !== undefined && !record.code.has(address)) (record.code = writable(record.code)).set(address, flat.code.get(address) ?? ABSENT)
}

/**
 * An account a block removes (self-destructed, or emptied under EIP-161): its storage and code
 * go too. A function of its own, as {@link putAccount} is, the two reached through `call` for
 * every account of `apply`: a suite's first removal (late in OpenZeppelin's) was a branch
 * `apply`'s optimised code had never taken, and V8 threw that code away there. V8 neither takes
 * a `call`'s target from feedback nor inlines a function never run, so the first removal is an
 * ordinary call.
 */
function dropAccount(flat: FlatState, record: Undo | undefined, address: string): void {
  flat.accounts.delete(address)
  clearStorage(flat, record, address)
  saveCode(flat, record, address)
  flat.code.delete(address)
}

/** An account a block writes: a copy is kept (see {@link dropAccount}). */
function putAccount(flat: FlatState, _record: Undo | undefined, address: string, account: Account): void {
  flat.accounts.set(address, copyAccount(account))
}

/** Code a block takes off an account (see {@link dropAccount} for why a function of its own). */
function dropCode(flat: FlatState, address: string): void {
  flat.code.delete(address)
}

/** Code a block gives an account. */
function putCode(flat: FlatState, address: string, code: Uint8Array): void {
  flat.code.set(address, code)
}

/** A pinned version of a {@link FlatState}: one object per view, no closures. */
class PinnedView implements StateView, SyncStateReader {
  private open = true
  /** The view reads synchronously itself, unless it is a fork's (whose misses are fetched). */
  readonly now: SyncStateReader | undefined

  constructor(
    private readonly flat: FlatState,
    readonly version: number,
  ) {
    this.now = flat.lazy === undefined ? this : undefined
  }

  account(address: string): Account | undefined {
    return this.flat.accountAt(this.version, address)
  }

  storage(address: string, slot: string): Uint8Array {
    return this.flat.storageAt(this.version, address, slot)
  }

  code(address: string): Uint8Array {
    return this.flat.codeAt(this.version, address)
  }

  async getAccount(address: string): Promise<Account | undefined> {
    if (this.flat.lazy !== undefined) await this.flat.lazy.account(address)
    const a = this.account(address)
    return a === undefined ? undefined : copyAccount(a)
  }

  async getStorage(address: string, slot: string): Promise<Uint8Array> {
    if (this.flat.lazy !== undefined) await this.flat.lazy.slot(address, slot)
    return this.storage(address, slot)
  }

  async getCode(address: string): Promise<Uint8Array> {
    if (this.flat.lazy !== undefined) await this.flat.lazy.account(address)
    return this.code(address)
  }

  close(): void {
    if (!this.open) return
    this.open = false
    this.flat.release(this.version)
  }
}
