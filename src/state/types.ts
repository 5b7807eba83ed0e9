import type { Account } from '@ethereumjs/util'

/**
 * Read access to one version of the world state. Keys are lower-case unprefixed hex:
 * addresses 40 digits, storage slots 64 digits. Storage values are unpadded bytes (empty = zero).
 */
export interface StateReader {
  getAccount(address: string): Promise<Account | undefined>
  getStorage(address: string, slot: string): Promise<Uint8Array>
  getCode(address: string): Promise<Uint8Array>
  /**
   * The same reads without a promise, where the state is in memory (the flat head state and its
   * views). An execution reads state a few dozen times per transaction, and each awaited read
   * through the overlay, the view and the flat state cost a promise and a microtask turn per layer.
   */
  readonly now?: SyncStateReader
}

/** Synchronous reads; `account` returns the stored object, which callers copy before changing. */
export interface SyncStateReader {
  account(address: string): Account | undefined
  storage(address: string, slot: string): Uint8Array
  code(address: string): Uint8Array
}

/** The changes one block (or one call) made, as final values. */
export interface StateDiff {
  /** Changed accounts; `null` marks a deleted account. */
  accounts: Map<string, Account | null>
  /** Written slots per account; an empty value means the slot was zeroed. */
  storage: Map<string, Map<string, Uint8Array>>
  /** Accounts whose whole storage was wiped before the writes in `storage`. */
  cleared: Set<string>
  /** Code set per account. */
  code: Map<string, Uint8Array>
}

/** An empty diff. */
export function emptyDiff(): StateDiff {
  return { accounts: new Map(), storage: new Map(), cleared: new Set(), code: new Map() }
}

/** Every address a diff touches. */
export function touchedAddresses(diff: StateDiff): Set<string> {
  const out = new Set<string>(diff.accounts.keys())
  for (const a of diff.storage.keys()) out.add(a)
  for (const a of diff.cleared) out.add(a)
  for (const a of diff.code.keys()) out.add(a)
  return out
}

/**
 * Where a forked chain's head state comes from for keys the flat maps do not hold yet: an
 * account (with its code) or a slot is fetched on first touch and put into the flat maps, after
 * which it reads like any other. A chain that is not a fork has none, and its reads stay
 * synchronous (`StateReader.now`); a fork's reads go through promises.
 */
export interface LazyState {
  /** Loads an account and its code unless known; undefined when known already. */
  account(address: string): Promise<void> | undefined
  /** Loads a slot (and its account) unless known; undefined when known already. */
  slot(address: string, slot: string): Promise<void> | undefined
  /** Loads every account and slot `diff` writes (a trie write needs the path to each). */
  touch(diff: StateDiff): Promise<void>
  /** The flat state applied `diff` as `version`: storage it cleared reads as zero from then on, not from the remote. */
  applied(diff: StateDiff, version: number): void
  /** The flat state put back what the apply of `version` and later ones overwrote (evm_revert). */
  restored(version: number): void
  /** Forgets what was loaded (the flat state was emptied: a reset to the fork block). */
  reset(): void
}
