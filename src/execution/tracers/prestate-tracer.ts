/**
 * geth's `prestateTracer`: every account (and storage slot) the transaction touched, as it was
 * before the transaction touched it; with `diffMode`, `{ pre, post }` of only what changed. Empty
 * accounts are left out unless `includeEmpty` (not allowed with `diffMode`, as in geth).
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { Address, KECCAK256_NULL } from '@ethereumjs/util'
import { keccak256 } from '../../crypto/keccak.js'
import { Refused } from '../../domain-errors.js'
import { concat, data, equalBytes, fromHex, keyOf, quantity, word } from '../../hex.js'
import type { Step, Tracer, TxEnd, TxStart } from './types.js'

/** `tracerConfig` of the prestate tracer. */
export interface PrestateTracerConfig {
  diffMode?: boolean
  disableCode?: boolean
  disableStorage?: boolean
  includeEmpty?: boolean
}

interface AccountState {
  balance: bigint
  nonce: bigint
  code: Uint8Array
  /** Undefined for accounts without code (geth leaves the empty code hash out). */
  codeHash: Uint8Array | undefined
  /** Slot → 32-byte value, keys as 64 hex digits. */
  storage: Map<string, Uint8Array>
  /** Nothing in it before the transaction: no nonce, balance or code. */
  empty: boolean
}

interface PostState {
  balance?: bigint
  nonce?: bigint
  code?: Uint8Array
  codeHash?: Uint8Array
  storage: Map<string, Uint8Array>
}

const ZERO_WORD = new Uint8Array(32)
const DELEGATION_PREFIX = fromHex('ef0100')

const SLOAD = 0x54
const SSTORE = 0x55
const ACCOUNT_READS = new Set([0x3b, 0x3c, 0x3f, 0x31, 0xff]) // EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, BALANCE, SELFDESTRUCT
const CALLS = new Set([0xf1, 0xf2, 0xf4, 0xfa])

function pad32(value: Uint8Array): Uint8Array {
  if (value.length === 32) return value
  const out = new Uint8Array(32)
  out.set(value, 32 - value.length)
  return out
}

function address20(value: bigint): Uint8Array {
  return word(value).subarray(12)
}

function sortedEntries<V>(map: Map<string, V>): Array<[string, V]> {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

function storageJson(storage: Map<string, Uint8Array>): Record<string, string> {
  return Object.fromEntries(sortedEntries(storage).map(([slot, value]) => [`0x${slot}`, data(value)]))
}

/** geth's `prestateTracer`, for one transaction. */
export class PrestateTracer implements Tracer {
  readonly wantsSteps = true
  private readonly pre = new Map<string, AccountState>()
  private readonly post = new Map<string, PostState>()
  private readonly deleted = new Set<string>()
  private state: StateManagerInterface | undefined
  private delegations = false

  constructor(private readonly config: PrestateTracerConfig = {}) {
    if (config.diffMode === true && config.includeEmpty === true) throw new Refused('cannot use diffMode with includeEmpty')
  }

  async onTxStart(tx: TxStart): Promise<void> {
    this.state = tx.state
    this.delegations = tx.delegations
    await this.lookupAccount(tx.from)
    await this.lookupAccount(tx.to)
    await this.lookupAccount(tx.coinbase)
    for (const authority of tx.authorities) await this.lookupAccount(authority)
  }

  async onStep(step: Step): Promise<void> {
    const stack = step.stack
    const n = stack.length
    const op = step.op
    if ((op === SLOAD || op === SSTORE) && n >= 1) {
      await this.lookupStorage(step.address, stack[n - 1] as bigint)
    } else if (ACCOUNT_READS.has(op) && n >= 1) {
      await this.lookupAccount(address20(stack[n - 1] as bigint))
      if (op === 0xff) this.deleted.add(keyOf(step.address))
    } else if (CALLS.has(op) && n >= 5) {
      const target = address20(stack[n - 2] as bigint)
      await this.lookupAccount(target)
      if (this.delegations) {
        const code = await step.state.getCode(new Address(target))
        if (code.length === 23 && equalBytes(code.subarray(0, 3), DELEGATION_PREFIX)) await this.lookupAccount(code.subarray(3))
      }
    } else if (op === 0xf0) {
      const nonce = (await step.state.getAccount(new Address(step.address)))?.nonce ?? 0n
      await this.lookupAccount(keccak256(RLP.encode([step.address, nonce])).subarray(12))
    } else if (op === 0xf5 && n >= 4) {
      const offset = Number(stack[n - 2] as bigint)
      const size = Number(stack[n - 3] as bigint)
      const init = new Uint8Array(size)
      if (offset < step.memory.length) init.set(step.memory.subarray(offset, Math.min(step.memory.length, offset + size)))
      const salt = word(stack[n - 4] as bigint)
      await this.lookupAccount(keccak256(concat(Uint8Array.of(0xff), step.address, salt, keccak256(init))).subarray(12))
    }
  }

  async onTxEnd(end: TxEnd): Promise<void> {
    if (this.config.diffMode === true) await this.diff(end.state)
    if (this.config.includeEmpty === true) return
    for (const [address, account] of this.pre) if (account.empty) this.pre.delete(address)
  }

  result(): unknown {
    const pre = Object.fromEntries(sortedEntries(this.pre).map(([address, a]) => [`0x${address}`, this.preJson(a)]))
    if (this.config.diffMode !== true) return pre
    const post = Object.fromEntries(sortedEntries(this.post).map(([address, a]) => [`0x${address}`, postJson(a)]))
    return { post, pre }
  }

  private preJson(a: AccountState): Record<string, unknown> {
    const out: Record<string, unknown> = { balance: quantity(a.balance) }
    if (this.config.disableCode !== true && a.code.length > 0) out.code = data(a.code)
    if (a.codeHash !== undefined) out.codeHash = data(a.codeHash)
    if (a.nonce > 0n) out.nonce = Number(a.nonce)
    if (a.storage.size > 0) out.storage = storageJson(a.storage)
    return out
  }

  private async lookupAccount(address: Uint8Array): Promise<void> {
    const key = keyOf(address)
    if (this.pre.has(key) || this.state === undefined) return
    const at = new Address(address)
    const account = await this.state.getAccount(at)
    const code = await this.state.getCode(at)
    const balance = account?.balance ?? 0n
    const nonce = account?.nonce ?? 0n
    const codeHash = account === undefined || equalBytes(account.codeHash, KECCAK256_NULL) ? undefined : account.codeHash
    this.pre.set(key, { balance, nonce, code, codeHash, storage: new Map(), empty: nonce === 0n && balance === 0n && code.length === 0 })
  }

  private async lookupStorage(address: Uint8Array, slot: bigint): Promise<void> {
    if (this.config.disableStorage === true || this.state === undefined) return
    const account = this.pre.get(keyOf(address))
    const key = slot.toString(16).padStart(64, '0')
    if (account === undefined || account.storage.has(key)) return
    account.storage.set(key, pad32(await this.state.getStorage(new Address(address), word(slot))))
  }

  /** geth's `processDiffState`: keep only what changed, with the new values in `post`. */
  private async diff(state: StateManagerInterface): Promise<void> {
    for (const [key, pre] of this.pre) {
      // A self-destructed account stays in `pre` and is left out of `post`.
      if (this.deleted.has(key)) continue
      const at = new Address(fromHex(key))
      const account = await state.getAccount(at)
      const post: PostState = { storage: new Map() }
      let modified = false
      const balance = account?.balance ?? 0n
      if (balance !== pre.balance) {
        modified = true
        post.balance = balance
      }
      const nonce = account?.nonce ?? 0n
      if (nonce !== pre.nonce) {
        modified = true
        post.nonce = nonce
      }
      const hash = account === undefined || equalBytes(account.codeHash, KECCAK256_NULL) ? ZERO_WORD : account.codeHash
      if (!equalBytes(hash, pre.codeHash ?? ZERO_WORD)) {
        modified = true
        post.codeHash = hash
      }
      if (this.config.disableCode !== true) {
        const code = await state.getCode(at)
        if (!equalBytes(code, pre.code)) {
          modified = true
          post.code = code
        }
      }
      if (this.config.disableStorage !== true) {
        for (const [slot, before] of pre.storage) {
          if (equalBytes(before, ZERO_WORD)) pre.storage.delete(slot)
          const now = pad32(await state.getStorage(at, fromHex(slot)))
          if (equalBytes(before, now)) {
            pre.storage.delete(slot)
          } else {
            modified = true
            if (!equalBytes(now, ZERO_WORD)) post.storage.set(slot, now)
          }
        }
      }
      if (modified) this.post.set(key, post)
      else this.pre.delete(key)
    }
  }
}

function postJson(a: PostState): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (a.balance !== undefined) out.balance = quantity(a.balance)
  if (a.code !== undefined && a.code.length > 0) out.code = data(a.code)
  if (a.codeHash !== undefined) out.codeHash = data(a.codeHash)
  if (a.nonce !== undefined && a.nonce > 0n) out.nonce = Number(a.nonce)
  if (a.storage.size > 0) out.storage = storageJson(a.storage)
  return out
}
