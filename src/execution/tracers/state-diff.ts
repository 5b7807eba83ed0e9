/**
 * OpenEthereum's `stateDiff` of one transaction (trace_replay*, trace_call*): every account whose
 * balance, nonce, code or storage the transaction changed, each field as `"="` (unchanged),
 * `{"+": new}` (added), or `{"*": {from, to}}` (changed), with the rules reth's and Anvil's
 * builder (revm-inspectors' `populate_state_diff`) follows: a contract the transaction created on
 * an address without balance is all `+`; a contract created and destroyed in the same
 * transaction is left out; code counts as changed only for a contract the transaction created;
 * storage lists only the slots whose value differs from the transaction's start.
 *
 * The replay runs every transaction of a block on one journaled overlay; at a transaction's start
 * this copies what the overlay has written so far, so that a key's value before the transaction
 * is the copy's, or the state under the overlay's for a key the transaction wrote first.
 */
import { Address, KECCAK256_NULL, type Account } from '@ethereumjs/util'
import { data, equalBytes, fromHex, keyOf, quantity, toBigInt } from '../../hex.js'
import { JournaledState } from '../../state/journaled-state.js'
import type { StateReader } from '../../state/types.js'
import type { FrameEnd, Tracer, TxEnd } from './types.js'

/** A field's change, in OpenEthereum's notation. */
export type Delta = '=' | { '+': string } | { '*': { from: string; to: string } }

/** One account's entry of a state diff. */
export interface AccountDiff {
  balance: Delta
  code: Delta
  nonce: Delta
  storage: Record<string, Delta>
}

interface Snapshot {
  accounts: Map<string, Account | null>
  storage: Map<string, Map<string, Uint8Array>>
  cleared: Set<string>
  code: Map<string, Uint8Array>
}

/**
 * The state a transaction started on, read after it ran: a copy of what the replay's overlay had
 * written before the transaction, over the state under the overlay.
 */
export class TxStartState {
  private snapshot: Snapshot | undefined
  private base: StateReader | undefined

  /** Copies the overlay's writes so far (at the transaction's start). */
  capture(state: unknown): void {
    if (!(state instanceof JournaledState)) throw new Error('the state a transaction started on needs the journaled overlay')
    const now = state.diff()
    this.base = state.underlying()
    this.snapshot = {
      accounts: new Map(now.accounts),
      storage: new Map([...now.storage].map(([a, slots]) => [a, new Map(slots)])),
      cleared: new Set(now.cleared),
      code: new Map(now.code),
    }
  }

  private get at(): { snapshot: Snapshot; base: StateReader } {
    if (this.snapshot === undefined || this.base === undefined) throw new Error('no transaction started')
    return { snapshot: this.snapshot, base: this.base }
  }

  async account(key: string): Promise<Account | undefined> {
    const { snapshot, base } = this.at
    return snapshot.accounts.has(key) ? (snapshot.accounts.get(key) ?? undefined) : base.getAccount(key)
  }

  async storage(key: string, slot: string): Promise<Uint8Array> {
    const { snapshot, base } = this.at
    const own = snapshot.storage.get(key)?.get(slot)
    if (own !== undefined) return own
    if (snapshot.cleared.has(key) || snapshot.accounts.get(key) === null) return EMPTY
    return base.getStorage(key, slot)
  }

  async code(key: string): Promise<Uint8Array> {
    const { snapshot, base } = this.at
    const own = snapshot.code.get(key)
    if (own !== undefined) return own
    if (snapshot.accounts.get(key) === null) return EMPTY
    return base.getCode(key)
  }
}

interface AccountValues {
  balance: bigint
  nonce: bigint
  codeHash: Uint8Array
  exists: boolean
}

const EMPTY = new Uint8Array(0)

function valuesOf(account: Account | null | undefined): AccountValues {
  if (account === undefined || account === null) return { balance: 0n, nonce: 0n, codeHash: KECCAK256_NULL, exists: false }
  return { balance: account.balance, nonce: account.nonce, codeHash: account.codeHash, exists: true }
}

/** A storage value as the 32-byte word OpenEthereum prints. */
function slotWord(value: Uint8Array): string {
  return `0x${toBigInt(value).toString(16).padStart(64, '0')}`
}

function delta(from: string, to: string): Delta {
  return from === to ? '=' : { '*': { from, to } }
}

/** Records the state diff of one transaction. */
export class StateDiffTracer implements Tracer {
  readonly wantsSteps = false
  private readonly created = new Set<string>()
  private diff: Record<string, AccountDiff> = {}

  /** `before` is captured at the transaction's start by whoever runs this tracer. */
  constructor(private readonly before: TxStartState) {}

  onExit(end: FrameEnd): void {
    if (end.created !== undefined) this.created.add(keyOf(end.created))
  }

  async onTxEnd(end: TxEnd): Promise<void> {
    const state = end.state
    if (!(state instanceof JournaledState)) return
    const now = state.diff()
    const addresses = new Set<string>([...now.accounts.keys(), ...now.storage.keys(), ...now.code.keys(), ...now.cleared])
    const out: Record<string, AccountDiff> = {}
    for (const key of [...addresses].sort()) {
      const entry = await this.accountDiff(key, state)
      if (entry !== undefined) out[`0x${key}`] = entry
    }
    this.diff = out
  }

  result(): Record<string, AccountDiff> {
    return this.diff
  }

  private async accountDiff(key: string, state: JournaledState): Promise<AccountDiff | undefined> {
    const address = new Address(fromHex(key))
    const before = valuesOf(await this.before.account(key))
    const after = valuesOf(await state.getAccount(address))
    const created = this.created.has(key)
    // Created and destroyed in this transaction, or a creation an outer frame undid: nothing is left.
    if (created && !after.exists) return undefined
    const storage: Record<string, Delta> = {}
    const slots = now(state, key)
    const added = created && before.balance === 0n
    for (const slot of [...slots].sort()) {
      const from = slotWord(await this.before.storage(key, slot))
      const to = slotWord(await state.getStorage(address, fromHex(slot)))
      if (from === to) continue
      storage[`0x${slot}`] = added ? { '+': to } : { '*': { from, to } }
    }
    if (added) {
      return {
        balance: { '+': quantity(after.balance) },
        code: { '+': data(await state.getCode(address)) },
        nonce: { '+': quantity(after.nonce) },
        storage,
      }
    }
    const same = before.balance === after.balance && before.nonce === after.nonce && equalBytes(before.codeHash, after.codeHash)
    if (same && Object.keys(storage).length === 0) return undefined
    return {
      balance: delta(quantity(before.balance), quantity(after.balance)),
      code: created ? delta(data(await this.before.code(key)), data(await state.getCode(address))) : '=',
      nonce: delta(quantity(before.nonce), quantity(after.nonce)),
      storage,
    }
  }
}

/** The slots the overlay holds written for `key` (this transaction's among them). */
function now(state: JournaledState, key: string): Set<string> {
  return new Set(state.diff().storage.get(key)?.keys() ?? [])
}
