/**
 * The state a JavaScript tracer reads through `db`, which is synchronous in geth's API. The
 * journaled state answers synchronously from its overlay and from a base that reads without
 * promises (the head state); an older block's trie reads through promises only. For that case
 * the reads a step may make (the accounts and slot its opcode touches) are read ahead before the
 * step, and the accounts of the transaction's frames before `result`. What the base answers does
 * not change during a transaction, so each is read once.
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import { Address } from '@ethereumjs/util'
import { data } from '../../hex.js'
import type { Step } from './types.js'

/** The journaled state's synchronous reads (`JournaledState.accountNow` and friends). */
type Now = {
  accountNow?(a: Address): { balance: bigint; nonce: bigint } | undefined | symbol
  codeNow?(a: Address): Uint8Array | undefined
  storageNow?(a: Address, key: Uint8Array): Uint8Array | undefined
}

/** An address no transaction touches, to ask the state whether its base reads synchronously. */
const PROBE = new Uint8Array(20).fill(0xfe)

/** Opcodes whose step reads another account (stack top, or the CALL family's second item). */
const READS_ACCOUNT = new Map<number, number>([
  [0x31, 0],
  [0x3b, 0],
  [0x3c, 0],
  [0x3f, 0],
  [0xff, 0],
  [0xf1, 1],
  [0xf2, 1],
  [0xf4, 1],
  [0xfa, 1],
])

const keys = new WeakMap<Uint8Array, string>()
/** `0x…` of an address, made once per byte array (the same arrays come back every step). */
function keyFor(a: Uint8Array): string {
  let key = keys.get(a)
  if (key === undefined) {
    key = data(a)
    keys.set(a, key)
  }
  return key
}

/** The bytes of `0x…` hex text. */
export function bytesOf(text: string): Uint8Array {
  const h = text.startsWith('0x') ? text.slice(2) : text
  const out = new Uint8Array(h.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16)
  return out
}

function wordOf(v: bigint): Uint8Array {
  const out = new Uint8Array(32)
  let x = v
  for (let i = 31; i >= 0 && x > 0n; i--) {
    out[i] = Number(x & 0xffn)
    x >>= 8n
  }
  return out
}

/** A JavaScript tracer's view of the state of one transaction. */
export class TracerState {
  private state: StateManagerInterface | undefined
  /** The transaction's state reads its base through promises (an older block's trie). */
  private asyncBase = false
  private readonly accounts = new Map<string, { balance: bigint; nonce: bigint } | undefined>()
  private readonly code = new Map<string, Uint8Array>()
  private readonly storage = new Map<string, Uint8Array>()

  /** The transaction starts on `state`. */
  begin(state: StateManagerInterface): void {
    this.state = state
    // The overlay holds nothing for this address: a promise-only answer means the base is one.
    this.asyncBase = typeof (state as unknown as Now).accountNow?.(new Address(PROBE)) === 'symbol'
  }

  /** The state of the moment (a step's, the transaction's end). */
  at(state: StateManagerInterface): void {
    this.state = state
  }

  private now(): Now {
    if (this.state === undefined) throw new Error('no state to read')
    return this.state as unknown as Now
  }

  // What the state reads through promises is its base, which no transaction changes: what was
  // read ahead stays valid while the overlay has no value of its own.
  account(addr: string): { balance: bigint; nonce: bigint } | undefined {
    const now = this.now()
    const a = now.accountNow?.(new Address(bytesOf(addr)))
    if (typeof a !== 'symbol' && now.accountNow !== undefined) return a
    if (this.accounts.has(addr)) return this.accounts.get(addr)
    throw notAtHand(addr)
  }

  codeOf(addr: string): Uint8Array {
    const known = this.now().codeNow?.(new Address(bytesOf(addr))) ?? this.code.get(addr)
    if (known === undefined) throw notAtHand(addr)
    return known
  }

  /** A slot's value as a 32-byte word. */
  slot(addr: string, slot: string): Uint8Array {
    const known = this.now().storageNow?.(new Address(bytesOf(addr)), bytesOf(slot)) ?? this.storage.get(`${addr}:${slot}`)
    if (known === undefined) throw notAtHand(addr)
    const word = new Uint8Array(32)
    word.set(known.subarray(Math.max(0, known.length - 32)), 32 - Math.min(32, known.length))
    return word
  }

  /**
   * Before a step whose tracer reads `db`: on a base read through promises, what the step may ask
   * (the contract, its caller, the account the opcode names, an SLOAD / SSTORE slot); a promise
   * only when something had to be read.
   */
  beforeStep(s: Step, caller: Uint8Array | undefined): Promise<void> | undefined {
    if (!this.asyncBase) return undefined
    const accounts = [s.address]
    const arg = READS_ACCOUNT.get(s.op)
    if (arg !== undefined && s.stack.length > arg) accounts.push(wordOf(s.stack[s.stack.length - 1 - arg] as bigint).subarray(12))
    if (caller !== undefined) accounts.push(caller)
    const slot = (s.op === 0x54 || s.op === 0x55) && s.stack.length > 0 ? wordOf(s.stack[s.stack.length - 1] as bigint) : undefined
    if (!this.missing(s.state, accounts, slot, s.address)) return undefined
    return this.readAhead(s.state, accounts, slot, s.address)
  }

  /** Before `result`: the accounts of the transaction's frames. */
  async beforeResult(state: StateManagerInterface, accounts: Uint8Array[]): Promise<void> {
    this.state = state
    if (this.asyncBase && this.missing(state, accounts, undefined, PROBE)) await this.readAhead(state, accounts, undefined, undefined)
  }

  private async readAhead(state: StateManagerInterface, accounts: Iterable<Uint8Array>, slot: Uint8Array | undefined, at: Uint8Array | undefined): Promise<void> {
    const now = state as unknown as Now
    for (const a of accounts) {
      const address = new Address(a)
      const key = keyFor(a)
      if (typeof now.accountNow?.(address) === 'symbol' && !this.accounts.has(key)) this.accounts.set(key, await state.getAccount(address))
      if (now.codeNow?.(address) === undefined && !this.code.has(key)) this.code.set(key, await state.getCode(address))
    }
    if (slot !== undefined && at !== undefined) {
      const address = new Address(at)
      const key = `${keyFor(at)}:${data(slot)}`
      if (now.storageNow?.(address, slot) === undefined && !this.storage.has(key)) this.storage.set(key, await state.getStorage(address, slot))
    }
  }

  /** True when `db` could be asked something `state` reads through promises only and that was not read ahead. */
  private missing(state: StateManagerInterface, accounts: Uint8Array[], slot: Uint8Array | undefined, at: Uint8Array): boolean {
    const now = state as unknown as Now
    if (now.accountNow === undefined) return false
    for (const a of accounts) {
      const key = keyFor(a)
      if (this.accounts.has(key) && this.code.has(key)) continue
      const address = new Address(a)
      if (typeof now.accountNow(address) === 'symbol' && !this.accounts.has(key)) return true
      if (now.codeNow?.(address) === undefined && !this.code.has(key)) return true
    }
    if (slot === undefined) return false
    const key = `${keyFor(at)}:${data(slot)}`
    return !this.storage.has(key) && now.storageNow?.(new Address(at), slot) === undefined
  }
}

function notAtHand(addr: string): Error {
  return new Error(`db: the state of ${addr} at this block is not at hand (an account the traced transaction touches can be read)`)
}
