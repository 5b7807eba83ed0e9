/**
 * The transaction pool: per-sender pending (executable in nonce order) and queued (behind a nonce
 * gap) transactions. Admission checks follow geth and keep its messages, which viem and ethers
 * recognise. The producer takes transactions in fee order, then arrival order.
 */
import type { TypedTransaction } from '@ethereumjs/tx'
import { Capability } from '@ethereumjs/tx'
import { EventEmitter } from 'eventemitter3'
import { emptyObjects } from '../arrays.js'
import { keyOf } from '../hex.js'
import { minimumGasLimit } from '../execution/engine/intrinsic-gas.js'
import { wideBelow, wideSum } from '../execution/engine/wide.js'
import { TxRejected } from '../domain-errors.js'
import { Inclusions } from './inclusions.js'

/** A transaction in the pool. */
export interface PoolEntry {
  tx: TypedTransaction
  hash: string
  sender: string
  nonce: bigint
  arrival: number
  /**
   * Sent for an impersonated account (no key signed it): its sender may be a contract, as
   * Hardhat and Anvil allow, so the block builder skips EIP-3607 for it.
   */
  impersonated: boolean
}

/** Where an admitted transaction went. */
export type Admission = 'pending' | 'queued'

/** What admission needs to know about the sender and the next block. */
export interface AdmissionContext {
  stateNonce: bigint
  balance: bigint
  baseFee: bigint
  blockGasLimit: bigint
}

export interface PoolEvents {
  pending: (entry: PoolEntry) => void
}

/** The pool's settings. */
export interface PoolOptions {
  /** Minimal fee bump of a replacement, in percent. Default 10 (geth's). */
  priceBump: bigint
  /** Transactions one sender may have in the pool. Default 1024. */
  slotsPerSender: number
  /** Transactions in the whole pool. Default 10,000. */
  slots: number
  /** Block order: best tip first (`fees`, geth and Anvil's default) or arrival order (`fifo`). */
  order: 'fees' | 'fifo'
}

export const DEFAULT_POOL_OPTIONS: Readonly<PoolOptions> = Object.freeze({
  priceBump: 10n,
  slotsPerSender: 1024,
  slots: 10_000,
  order: 'fees',
})

/** The most a transaction pays per gas: its fee cap, or its gas price. */
export function feeCap(tx: TypedTransaction): bigint {
  return 'maxFeePerGas' in tx ? tx.maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice
}

function tipCap(tx: TypedTransaction): bigint {
  return 'maxPriorityFeePerGas' in tx ? tx.maxPriorityFeePerGas : (tx as { gasPrice: bigint }).gasPrice
}

/**
 * The pool read: what method handlers and block builders outside the producer may see. Entries
 * are added through the intake (src/execution/transactions.ts) and removed by the producer and
 * the controls, never by a handler.
 */
export type PoolReads = Pick<TxPool, 'minTip' | 'size' | 'has' | 'get' | 'pendingNonce' | 'select' | 'partition' | 'entriesOf' | 'all'>

/** The tip a transaction pays per gas over `baseFee`. */
export function effectiveTip(tx: TypedTransaction, baseFee: bigint): bigint {
  const cap = feeCap(tx) - baseFee
  const tip = tipCap(tx)
  return cap < tip ? cap : tip
}

export class TxPool extends EventEmitter<PoolEvents> {
  private readonly byHash = new Map<string, PoolEntry>()
  private readonly bySender = new Map<string, Map<bigint, PoolEntry>>()
  private arrivals = 0
  private tipFloor = 0n

  constructor(
    readonly options: Readonly<PoolOptions> = DEFAULT_POOL_OPTIONS,
    /** The least gas price (a fee-market transaction: fee cap) a transaction may offer; createNode's `minGasPrice`. */
    private readonly minGasPrice = 0n,
  ) {
    super()
  }

  /** The least tip per gas a new transaction must offer (geth's txpool price limit); 0 = none. */
  get minTip(): bigint {
    return this.tipFloor
  }

  get size(): number {
    return this.byHash.size
  }

  has(hash: Uint8Array): boolean {
    return this.byHash.has(keyOf(hash))
  }

  get(hash: Uint8Array): PoolEntry | undefined {
    return this.byHash.get(keyOf(hash))
  }

  /** Senders waiting on their transactions' inclusion; block production settles them. */
  readonly inclusions = new Inclusions()

  /**
   * Checks a transaction against the sender's state and files it; throws geth's refusals.
   * `impersonated`: sent for an impersonated account (see {@link PoolEntry.impersonated});
   * `hash`: the transaction's hash as a key, when the caller has it already.
   */
  add(tx: TypedTransaction, sender: string, ctx: AdmissionContext, impersonated = false, hash = keyOf(tx.hash())): Admission {
    if (this.byHash.has(hash)) throw new TxRejected('already known')
    if (tx.nonce < ctx.stateNonce) {
      throw new TxRejected(`nonce too low: address 0x${sender}, tx: ${tx.nonce} state: ${ctx.stateNonce}`)
    }
    if (tx.gasLimit > ctx.blockGasLimit) throw new TxRejected('exceeds block gas limit')
    const intrinsic = minimumGasLimit(tx)
    if (tx.gasLimit < intrinsic) {
      throw new TxRejected(`intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${intrinsic}`)
    }
    if (tx.supports(Capability.EIP1559FeeMarket) && tipCap(tx) > feeCap(tx)) {
      throw new TxRejected(
        `max priority fee per gas higher than max fee per gas: address 0x${sender}, maxPriorityFeePerGas: ${tipCap(tx)}, maxFeePerGas: ${feeCap(tx)}`,
      )
    }
    if (tipCap(tx) < this.tipFloor) {
      throw new TxRejected(`transaction gas price below minimum: gas tip cap ${tipCap(tx)}, minimum needed ${this.tipFloor}`)
    }
    if (feeCap(tx) < this.minGasPrice) {
      // Hardhat's words for a gas price; a fee cap is named as such.
      const what = tx.supports(Capability.EIP1559FeeMarket) ? 'max fee per gas' : 'gas price'
      throw new TxRejected(`Transaction ${what} is ${feeCap(tx)}, which is below the minimum of ${this.minGasPrice}`)
    }
    if (feeCap(tx) < ctx.baseFee) {
      throw new TxRejected(
        `max fee per gas less than block base fee: address 0x${sender}, maxFeePerGas: ${feeCap(tx)}, baseFee: ${ctx.baseFee}`,
      )
    }
    // The sum may pass 2^63 (engine/wide.ts).
    const cost = wideSum(tx.gasLimit * feeCap(tx), tx.value)
    if (wideBelow(ctx.balance, cost)) {
      throw new TxRejected(`insufficient funds for gas * price + value: address 0x${sender} have ${ctx.balance} want ${cost}`)
    }
    let slots = this.bySender.get(sender)
    const existing = slots?.get(tx.nonce)
    if (existing !== undefined) {
      const oldFee = feeCap(existing.tx)
      const oldTip = tipCap(existing.tx)
      const bump = 100n + this.options.priceBump
      if (feeCap(tx) * 100n < oldFee * bump || tipCap(tx) * 100n < oldTip * bump) {
        throw new TxRejected('replacement transaction underpriced')
      }
      this.byHash.delete(existing.hash)
    }
    if (existing === undefined) {
      if (this.byHash.size >= this.options.slots) throw new TxRejected('txpool is full')
      if ((slots?.size ?? 0) >= this.options.slotsPerSender) {
        throw new TxRejected(`account limit exceeded: address 0x${sender} has ${this.options.slotsPerSender} transactions in the pool`)
      }
    }
    const entry: PoolEntry = { tx, hash, sender, nonce: tx.nonce, arrival: this.arrivals++, impersonated }
    if (slots === undefined) {
      slots = new Map()
      this.bySender.set(sender, slots)
    }
    slots.set(tx.nonce, entry)
    this.byHash.set(hash, entry)
    const admission = this.isExecutable(sender, tx.nonce, ctx.stateNonce) ? 'pending' : 'queued'
    if (admission === 'pending') this.emit('pending', entry)
    return admission
  }

  /** The nonce the sender's next transaction would take, counting its pending ones. */
  pendingNonce(sender: string, stateNonce: bigint): bigint {
    const slots = this.bySender.get(sender)
    let nonce = stateNonce
    while (slots?.has(nonce) === true) nonce++
    return nonce
  }

  private isExecutable(sender: string, nonce: bigint, stateNonce: bigint): boolean {
    return this.pendingNonce(sender, stateNonce) > nonce
  }

  /**
   * Executable transactions for the next block, best tip first (arrival order between equals),
   * each sender's in nonce order. `nonceOf` gives each sender's state nonce.
   */
  select(baseFee: bigint, nonceOf: (sender: string) => bigint, max = Infinity): PoolEntry[] {
    const heads: PoolEntry[] = []
    const next = new Map<string, bigint>()
    for (const [sender, slots] of this.bySender) {
      const nonce = nonceOf(sender)
      const head = slots.get(nonce)
      if (head !== undefined) {
        heads.push(head)
        next.set(sender, nonce + 1n)
      }
    }
    // Empty or not, of the one hidden class a selection has (arrays.ts).
    const out: PoolEntry[] = emptyObjects()
    while (out.length < max && heads.length > 0) {
      let best = 0
      for (let i = 1; i < heads.length; i++) {
        const a = heads[i] as PoolEntry
        const b = heads[best] as PoolEntry
        if (this.options.order === 'fifo') {
          if (a.arrival < b.arrival) best = i
          continue
        }
        const ta = effectiveTip(a.tx, baseFee)
        const tb = effectiveTip(b.tx, baseFee)
        if (ta > tb || (ta === tb && a.arrival < b.arrival)) best = i
      }
      const chosen = heads[best] as PoolEntry
      out.push(chosen)
      const nonce = next.get(chosen.sender) as bigint
      const following = this.bySender.get(chosen.sender)?.get(nonce)
      if (following !== undefined) {
        heads[best] = following
        next.set(chosen.sender, nonce + 1n)
      } else {
        heads.splice(best, 1)
      }
    }
    return out
  }

  /** Removes one transaction (included, failed or dropped). */
  remove(hash: string): PoolEntry | undefined {
    const entry = this.byHash.get(hash)
    if (entry === undefined) return undefined
    this.byHash.delete(hash)
    const slots = this.bySender.get(entry.sender)
    slots?.delete(entry.nonce)
    if (slots?.size === 0) this.bySender.delete(entry.sender)
    return entry
  }

  /**
   * Sets the minimum tip; a raised one drops the pooled transactions below it, as geth's
   * SetGasTip does. Returns the dropped entries.
   */
  setMinTip(tip: bigint): PoolEntry[] {
    const raised = tip > this.tipFloor
    this.tipFloor = tip
    if (!raised) return []
    const dropped = [...this.byHash.values()].filter((e) => tipCap(e.tx) < tip)
    for (const e of dropped) this.remove(e.hash)
    return dropped
  }

  /** Removes every transaction of `sender` (anvil_removePoolTransactions). */
  removeSender(sender: string): void {
    for (const entry of [...(this.bySender.get(sender)?.values() ?? [])]) this.remove(entry.hash)
  }

  /** Drops a sender's transactions below its new state nonce; reports those that became pending. */
  settle(sender: string, stateNonce: bigint): void {
    const slots = this.bySender.get(sender)
    if (slots === undefined) return
    for (const [nonce, entry] of slots) if (nonce < stateNonce) this.remove(entry.hash)
  }

  /** Replaces the whole pool with saved entries (evm_revert restores the pool of a snapshot). */
  replaceAll(entries: PoolEntry[]): void {
    this.byHash.clear()
    this.bySender.clear()
    for (const e of entries) {
      this.byHash.set(e.hash, e)
      let slots = this.bySender.get(e.sender)
      if (slots === undefined) {
        slots = new Map()
        this.bySender.set(e.sender, slots)
      }
      slots.set(e.nonce, e)
    }
  }

  /** Pending (executable) and queued entries, given each sender's state nonce. */
  partition(nonceOf: (sender: string) => bigint): { pending: PoolEntry[]; queued: PoolEntry[] } {
    const pending: PoolEntry[] = []
    const queued: PoolEntry[] = []
    for (const [sender, slots] of this.bySender) {
      const executableBelow = this.pendingNonce(sender, nonceOf(sender))
      for (const e of slots.values()) (e.nonce < executableBelow ? pending : queued).push(e)
    }
    return { pending, queued }
  }

  /** All entries of one sender, pending then queued, by nonce. */
  entriesOf(sender: string): PoolEntry[] {
    return [...(this.bySender.get(sender)?.values() ?? [])].sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
  }

  /** Every entry. */
  all(): PoolEntry[] {
    return [...this.byHash.values()]
  }
}
