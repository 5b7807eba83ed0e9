/**
 * The state manager the VM executes against: a journaled overlay over a {@link StateReader}
 * (the flat head state, a pinned view, or a historical trie). Writes stay in the overlay;
 * `diff()` hands the final values to the block commit. Checkpoints are an undo log.
 */
import { Account, type Address, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { OriginalStorageCache } from '@ethereumjs/statemanager'
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common'
import { keccak256Code } from '../crypto/keccak.js'
import { keyOf } from '../hex.js'
import { copyAccount } from './flat-state.js'
import type { StateDiff, StateReader, SyncStateReader } from './types.js'

const EMPTY = new Uint8Array(0)

/** What {@link JournaledState.accountNow} answers when the base can only be read through a promise. */
export const NOT_AT_HAND = Symbol('not at hand')

/**
 * One step of the journal and the function that undoes it, chosen when the step is written. One
 * class for every kind (an account, a slot, a storage wipe, code), and `revert` reaches each step's
 * function through `call`: a revert V8 optimised on some kinds of step keeps its code at the first
 * of another kind, or the first slot that had no value (see docs/performance.md, "A branch first
 * taken after V8's compile").
 */
class Entry {
  readonly undo: Undo
  readonly address: string
  /** The slot's key (a slot's step); '' otherwise. */
  readonly slot: string
  /** A wipe's: whether the account's storage was wiped already in the overlay. */
  readonly had: boolean
  /** What the key held in the overlay (a wipe's: the slots the overlay held), when it held one. */
  readonly prev: unknown
  constructor(undo: Undo, address: string, slot: string, had: boolean, prev: unknown) {
    this.undo = undo
    this.address = address
    this.slot = slot
    this.had = had
    this.prev = prev
  }
}

type Undo = (diff: StateDiff, e: Entry) => void

function restoreAccount(diff: StateDiff, e: Entry): void {
  diff.accounts.set(e.address, e.prev as Account | null)
}

function dropAccount(diff: StateDiff, e: Entry): void {
  diff.accounts.delete(e.address)
}

function restoreSlot(diff: StateDiff, e: Entry): void {
  diff.storage.get(e.address)?.set(e.slot, e.prev as Uint8Array)
}

function dropSlot(diff: StateDiff, e: Entry): void {
  diff.storage.get(e.address)?.delete(e.slot)
}

function restoreCode(diff: StateDiff, e: Entry): void {
  diff.code.set(e.address, e.prev as Uint8Array)
}

function dropCode(diff: StateDiff, e: Entry): void {
  diff.code.delete(e.address)
}

function unwipe(diff: StateDiff, e: Entry): void {
  if (!e.had) diff.cleared.delete(e.address)
  if (e.prev === undefined) diff.storage.delete(e.address)
  else diff.storage.set(e.address, e.prev as Map<string, Uint8Array>)
}

/**
 * Empties an overlay's maps. Its own function, chosen against {@link keepEmpty} and reached through
 * `call` on every rebase: a call's run V8 optimised on calls that wrote nothing into the overlay
 * keeps its code at the first that did.
 */
function clearOverlay(accounts: Map<string, Account | null>, storage: Map<string, Map<string, Uint8Array>>, cleared: Set<string>, code: Map<string, Uint8Array>): void {
  // Each cleared, empty or not (an empty map's `clear` makes it a new table, but only runs that
  // wrote get here): a branch in here, first taken late, would throw away the caller's code once
  // V8 inlines this.
  accounts.clear()
  storage.clear()
  cleared.clear()
  code.clear()
}

/** What {@link clearOverlay} does to an overlay with nothing in it. */
function keepEmpty(_accounts: Map<string, Account | null>, _storage: Map<string, Map<string, Uint8Array>>, _cleared: Set<string>, _code: Map<string, Uint8Array>): void {}

function unpad(value: Uint8Array): Uint8Array {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  // A copy, not a view: a view of a small array moves its bytes off V8's heap (see mpt.ts).
  return i === 0 ? value : value.slice(i)
}

/** How many of the last addresses keyed {@link addressKey} remembers. */
const HELD_KEYS = 4
const heldBytes: Array<Uint8Array | undefined> = new Array<Uint8Array | undefined>(HELD_KEYS).fill(undefined)
const heldKeys: string[] = new Array<string>(HELD_KEYS).fill('')
let nextHeld = 0

/**
 * The map key of an address (`keyOf` of its bytes). A run keys the same few addresses over and
 * over (the sender, the recipient, the coinbase: each read, write and touch of the journal), so
 * the last four are remembered by their bytes array, compared by identity: four pointer
 * comparisons instead of 40 hex digits and a new string. A memo in a WeakMap did not pay (the
 * library makes a new Address for most opcode reads, so most lookups missed and added an
 * entry); a miss here costs the comparisons only. Nothing writes into an Address's bytes (the
 * library treats them as immutable, and so does the node), which is what makes the identity enough.
 */
export function addressKey(address: Address): string {
  const bytes = address.bytes
  for (let i = 0; i < HELD_KEYS; i++) if (heldBytes[i] === bytes) return heldKeys[i] as string
  const key = keyOf(bytes)
  heldBytes[nextHeld] = bytes
  heldKeys[nextHeld] = key
  nextHeld = (nextHeld + 1) % HELD_KEYS
  return key
}

function asWord(value: Uint8Array): Uint8Array {
  if (value.length === 0 || value.length === 32) return value
  const out = new Uint8Array(32)
  out.set(value, 32 - value.length)
  return out
}

function slotKey(key: Uint8Array): string {
  if (key.length === 32) return keyOf(key)
  return keyOf(key).padStart(64, '0')
}

/** Computes a state root for the overlay's diff on top of its base; supplied by the chain. */
export type RootComputer = (diff: StateDiff) => Promise<Uint8Array>

export class JournaledState implements StateManagerInterface {
  private readonly accounts = new Map<string, Account | null>()
  private readonly storage = new Map<string, Map<string, Uint8Array>>()
  private readonly cleared = new Set<string>()
  private readonly code = new Map<string, Uint8Array>()
  private journal: Entry[] = []
  private marks: number[] = []
  readonly originalStorageCache: OriginalStorageCache

  constructor(
    private base: StateReader,
    private readonly computeRoot?: RootComputer,
  ) {
    this.originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this))
    this.now = base.now
  }

  /** The base's synchronous reads, when it has them (see {@link StateReader.now}). */
  private now: SyncStateReader | undefined

  /**
   * Empties the overlay and lays it over `base`, as a new one would be: a pooled call VM keeps
   * one overlay and rebases it for each run instead of making one (four maps and sets, the
   * original-storage cache and its bound reader) per run. Only for an overlay whose diff nobody
   * holds (a call's: it is thrown away after the run).
   */
  rebase(base: StateReader): void {
    this.base = base
    this.now = base.now
    const written = this.accounts.size + this.storage.size + this.cleared.size + this.code.size > 0
    ;(written ? clearOverlay : keepEmpty).call(undefined, this.accounts, this.storage, this.cleared, this.code)
    this.journal.length = 0
    this.marks.length = 0
    this.exempt = undefined
    this.originalStorageCache.clear()
  }

  /**
   * A call sender with code that may send anyway (eth_call and friends: geth skips the EIP-3607
   * "sender is not an EOA" check for them, @ethereumjs/vm has no switch for it). The first read
   * of its account, the check's, sees no code; the code hash is put back when the account is
   * written, so execution sees the real account.
   */
  private exempt: { key: string; codeHash: Uint8Array } | undefined

  /** Lets `address` pass the EIP-3607 check of the next transaction run on this overlay. */
  exemptFromEoaCheck(address: Uint8Array): void {
    this.exempt = { key: keyOf(address), codeHash: KECCAK256_NULL }
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const now = this.accountNow(address)
    if (now !== NOT_AT_HAND) return now
    // Not in the overlay (accountNow answered that) and the base reads only through promises.
    const key = addressKey(address)
    return this.finishAccount(key, await this.base.getAccount(key))
  }

  /**
   * {@link getAccount} without a promise (a copy the caller may change), or `NOT_AT_HAND` when the
   * base can only be read through one.
   */
  accountNow(address: Address): Account | undefined | typeof NOT_AT_HAND {
    return this.accountNowByKey(addressKey(address))
  }

  /**
   * {@link accountNow} by map key (unprefixed lower-case hex): the journal's clean-up holds its
   * touched addresses as such keys, and an `Address` made from one for the lookup would be hexed
   * back (and remembered) at once.
   */
  accountNowByKey(key: string): Account | undefined | typeof NOT_AT_HAND {
    const own = this.accounts.get(key)
    if (own !== undefined) return this.finishAccount(key, own ?? undefined)
    if (this.now === undefined) return NOT_AT_HAND
    return this.finishAccount(key, this.now.account(key))
  }

  private finishAccount(key: string, a: Account | undefined): Account | undefined {
    if (a === undefined) return undefined
    const copy = copyAccount(a)
    if (this.exempt?.key === key && this.exempt.codeHash === KECCAK256_NULL) {
      this.exempt.codeHash = copy.codeHash
      copy.codeHash = KECCAK256_NULL
    }
    return copy
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    this.setAccount(address, account)
  }

  /** {@link putAccount}, synchronously (it never waits on anything). */
  setAccount(address: Address, account?: Account): void {
    const key = addressKey(address)
    if (account !== undefined && this.exempt?.key === key && account.codeHash === KECCAK256_NULL) {
      account = copyAccount(account)
      account.codeHash = this.exempt.codeHash
    }
    this.journal.push(new Entry(this.accounts.has(key) ? restoreAccount : dropAccount, key, '', false, this.accounts.get(key)))
    this.accounts.set(key, account === undefined ? null : copyAccount(account))
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = addressKey(address)
    await this.putAccount(address, undefined)
    this.wipeStorage(key)
    this.journal.push(new Entry(this.code.has(key) ? restoreCode : dropCode, key, '', false, this.code.get(key)))
    this.code.set(key, EMPTY)
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account()
    if (fields.nonce !== undefined) account.nonce = fields.nonce
    if (fields.balance !== undefined) account.balance = fields.balance
    if (fields.storageRoot !== undefined) account.storageRoot = fields.storageRoot
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash
    await this.putAccount(address, account)
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const key = addressKey(address)
    this.journal.push(new Entry(this.code.has(key) ? restoreCode : dropCode, key, '', false, this.code.get(key)))
    this.code.set(key, value)
    const account = (await this.getAccount(address)) ?? new Account()
    account.codeHash = value.length === 0 ? KECCAK256_NULL : keccak256Code(value)
    await this.putAccount(address, account)
  }

  async getCode(address: Address): Promise<Uint8Array> {
    return this.codeNow(address) ?? this.base.getCode(addressKey(address))
  }

  /** An account's code without a promise, or undefined when the base can only be read through one. */
  codeNow(address: Address): Uint8Array | undefined {
    const key = addressKey(address)
    const own = this.code.get(key)
    if (own !== undefined) return own
    if (this.accounts.get(key) === null) return EMPTY
    return this.now?.code(key)
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length
  }

  /**
   * A slot's value as a 32-byte word, or empty for zero. The EVM pads every value it reads for
   * SSTORE's gas (three times per SSTORE) with array spreads, ~2 µs each; a value that is
   * already a word passes through.
   */
  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    return this.storageNow(address, key) ?? asWord(await this.base.getStorage(addressKey(address), slotKey(key)))
  }

  /** {@link getStorage} without a promise, or undefined when the base can only be read through one. */
  storageNow(address: Address, key: Uint8Array): Uint8Array | undefined {
    return this.storageNowByKey(addressKey(address), slotKey(key))
  }

  /**
   * {@link storageNow} by the map keys (`keyOf` of the address and of the 32-byte slot), for an
   * opcode that has worked them out already (engine/fast-storage.ts).
   */
  storageNowByKey(addr: string, slot: string): Uint8Array | undefined {
    const own = this.storage.get(addr)?.get(slot)
    if (own !== undefined) return asWord(own)
    if (this.cleared.has(addr)) return EMPTY
    const value = this.now?.storage(addr, slot)
    return value === undefined ? undefined : asWord(value)
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    this.setStorage(address, key, value)
  }

  /** {@link putStorage}, synchronously (it never waits on anything). */
  setStorage(address: Address, key: Uint8Array, value: Uint8Array): void {
    this.setStorageByKey(addressKey(address), slotKey(key), value)
  }

  /** {@link setStorage} by the map keys, as {@link storageNowByKey} reads them. */
  setStorageByKey(addr: string, slot: string, value: Uint8Array): void {
    let slots = this.storage.get(addr)
    if (slots === undefined) {
      slots = new Map()
      this.storage.set(addr, slots)
    }
    this.journal.push(new Entry(slots.has(slot) ? restoreSlot : dropSlot, addr, slot, false, slots.get(slot)))
    slots.set(slot, unpad(value))
  }

  async clearStorage(address: Address): Promise<void> {
    this.wipeStorage(addressKey(address))
  }

  private wipeStorage(addr: string): void {
    this.journal.push(new Entry(unwipe, addr, '', this.cleared.has(addr), this.storage.get(addr)))
    this.cleared.add(addr)
    this.storage.set(addr, new Map())
  }

  async checkpoint(): Promise<void> {
    this.marks.push(this.journal.length)
  }

  async commit(): Promise<void> {
    this.marks.pop()
    if (this.marks.length === 0) this.journal = []
  }

  async revert(): Promise<void> {
    const mark = this.marks.pop() ?? 0
    const diff = this.diff()
    for (let i = this.journal.length - 1; i >= mark; i--) {
      const e = this.journal[i] as Entry
      e.undo.call(undefined, diff, e)
    }
    this.journal.length = mark
  }

  /** The final values written so far (outside any open checkpoint's undo). */
  diff(): StateDiff {
    return { accounts: this.accounts, storage: this.storage, cleared: this.cleared, code: this.code }
  }

  /** The state under the overlay (the trace_* state diffs read what a key held before the overlay wrote it). */
  underlying(): StateReader {
    return this.base
  }

  async getStateRoot(): Promise<Uint8Array> {
    if (this.computeRoot === undefined) return KECCAK256_RLP
    return this.computeRoot(this.diff())
  }

  async setStateRoot(): Promise<void> {
    throw new Error('setStateRoot is not supported on an execution overlay')
  }

  async hasStateRoot(): Promise<boolean> {
    return false
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    return new JournaledState(this.base, this.computeRoot)
  }
}
