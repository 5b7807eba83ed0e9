/**
 * Push subscriptions (eth_subscribe): one hub per node listens to the chain and the pool once and
 * formats each event once; each connection (a WebSocket, the EIP-1193 provider) holds its own
 * {@link Subscriptions}, freed all at once when the connection closes.
 */
import type { Block } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { Chain } from '../chain/chain.js'
import type { StoredReceipt } from '../chain/receipts.js'
import { InvalidInput, LimitReached, NotFound } from '../domain-errors.js'
import { fromHex, type Hex } from '../hex.js'
import type { Limits } from '../limits.js'
import type { PoolEntry, TxPool } from '../txpool/pool.js'
import { matchingLogs, type FormatLogs, type LogFilter } from './log-filter.js'
import { newId } from './manager.js'

/** An event's result with its JSON text computed at most once, whatever the number of receivers. */
export interface Payload {
  readonly value: unknown
  json(): string
  /** The namespace of the notification method (`<namespace>_subscription`); default `eth`. */
  readonly namespace?: string
}

function payload(value: unknown): Payload {
  let text: string | undefined
  return { value, json: () => (text ??= JSON.stringify(value)) }
}

/** Receives one notification of subscription `id`. */
export type Notify = (id: Hex, result: Payload) => void

/**
 * How events look on the wire, handed in by the layer that owns the wire format (rpc/format.ts):
 * the hub only decides who receives what.
 */
export interface EventFormat {
  /** A block's header (newHeads). */
  header(block: Block): unknown
  /** A block with its full transactions (newHeads with `includeTransactions`). */
  block(block: Block, receipts: StoredReceipt[]): unknown
  /** A pending transaction in full (newPendingTransactions with `true`). */
  transaction(tx: TypedTransaction, sender: Uint8Array): unknown
  /** The logs of one transaction of a block. */
  logs: FormatLogs
}

/** What a subscription listens to, decoded from eth_subscribe's params by the RPC layer. */
export type SubscriptionKind =
  | { name: 'newHeads'; full: boolean }
  | { name: 'logs'; filter: LogFilter }
  | { name: 'newPendingTransactions'; full: boolean }
  | { name: 'syncing' }
  | { name: 'task' }

interface Subscription {
  readonly id: Hex
  readonly kind: SubscriptionKind
  readonly owner: Subscriptions
  /** Notifications held until the id has been sent to the client. */
  held: Payload[] | undefined
  /** The id was handed to the caller: the next event releases what is held. */
  handed: boolean
}

/** The node-wide fan-out of chain and pool events to live subscriptions. */
export class SubscriptionHub {
  private readonly live = new Set<Subscription>()
  private readonly unlisten: Array<() => void> = []

  constructor(
    chain: Chain,
    pool: TxPool,
    readonly limits: Readonly<Limits>,
    private readonly format: EventFormat,
  ) {
    const onBlock = (block: Block, receipts: StoredReceipt[]) => this.onBlock(block, receipts)
    const onPending = (entry: PoolEntry) => this.onPending(entry)
    chain.on('block', onBlock)
    pool.on('pending', onPending)
    this.unlisten.push(() => chain.off('block', onBlock), () => pool.off('pending', onPending))
  }

  /** Live subscriptions across all connections. */
  get size(): number {
    return this.live.size
  }

  /** @internal */
  add(sub: Subscription): void {
    this.live.add(sub)
  }

  /** @internal */
  remove(sub: Subscription): void {
    this.live.delete(sub)
  }

  /** Stops listening; connections keep their (now silent) subscriptions until they close. */
  close(): void {
    for (const off of this.unlisten.splice(0)) off()
    this.live.clear()
  }

  private onBlock(block: Block, receipts: StoredReceipt[]): void {
    if (this.live.size === 0 || block.header.number === 0n) return
    let header: Payload | undefined
    let full: Payload | undefined
    for (const sub of [...this.live]) {
      const kind = sub.kind
      if (kind.name === 'newHeads') {
        const p = kind.full
          ? (full ??= payload(this.format.block(block, receipts)))
          : (header ??= payload(this.format.header(block)))
        sub.owner.deliver(sub, p)
      } else if (kind.name === 'logs') {
        for (const log of matchingLogs(block, receipts, kind.filter, this.format.logs)) sub.owner.deliver(sub, payload(log))
      }
    }
  }

  private onPending(entry: PoolEntry): void {
    if (this.live.size === 0) return
    let hash: Payload | undefined
    let full: Payload | undefined
    for (const sub of [...this.live]) {
      const kind = sub.kind
      if (kind.name !== 'newPendingTransactions') continue
      const p = kind.full
        ? (full ??= payload(this.format.transaction(entry.tx, fromHex(entry.sender))))
        : (hash ??= payload(`0x${entry.hash}`))
      sub.owner.deliver(sub, p)
    }
  }
}

/** The subscriptions of one connection. */
export class Subscriptions {
  private readonly subs = new Map<string, Subscription>()
  private closed = false

  constructor(
    private readonly hub: SubscriptionHub,
    private readonly notify: Notify,
  ) {}

  /** Number of live subscriptions on this connection. */
  get size(): number {
    return this.subs.size
  }

  /**
   * Creates a subscription of `kind`. Its notifications are held until {@link release} (after
   * the transport has sent the id), so the id always comes first.
   */
  subscribe(kind: SubscriptionKind): Hex {
    if (this.subs.size >= this.hub.limits.wsSubscriptions) {
      throw new LimitReached(`too many subscriptions, the limit is ${this.hub.limits.wsSubscriptions}`)
    }
    const sub: Subscription = { id: newId(), kind, owner: this, held: [], handed: false }
    this.subs.set(sub.id, sub)
    if (kind.name === 'syncing') sub.held?.push(payload(false))
    else this.hub.add(sub)
    return sub.id
  }

  /**
   * A subscription fed by a task instead of chain events (debug_subscribe's traceChain): `emit`
   * notifies under `namespace`, `live()` turns false once it is unsubscribed or the connection
   * closed. Created synchronously, held until {@link release} like any other.
   */
  subscribeTask(namespace: string): { id: Hex; emit: (value: unknown) => void; live: () => boolean } {
    if (this.subs.size >= this.hub.limits.wsSubscriptions) {
      throw new LimitReached(`too many subscriptions, the limit is ${this.hub.limits.wsSubscriptions}`)
    }
    const sub: Subscription = { id: newId(), kind: { name: 'task' }, owner: this, held: [], handed: false }
    this.subs.set(sub.id, sub)
    const live = () => !this.closed && this.subs.get(sub.id) === sub
    return {
      id: sub.id,
      live,
      emit: (value) => {
        let text: string | undefined
        this.deliver(sub, { value, namespace, json: () => (text ??= JSON.stringify(value)) })
      },
    }
  }

  /** Sends what the subscription `id` held back; from now on it notifies directly. */
  release(id: Hex): void {
    const sub = this.subs.get(id)
    if (sub === undefined || sub.held === undefined) return
    const held = sub.held
    sub.held = undefined
    for (const p of held) this.notify(sub.id, p)
  }

  /** Marks the id as handed to an in-process caller: held notifications go out with the next event. */
  handed(id: Hex): void {
    const sub = this.subs.get(id)
    if (sub !== undefined) sub.handed = true
  }

  /** eth_unsubscribe: true for a live subscription of this connection; any other id is geth's -32000 `subscription not found`. */
  unsubscribe(id: unknown): boolean {
    if (typeof id !== 'string') throw InvalidInput.argument(0, 'json: cannot unmarshal non-string into Go value of type rpc.ID')
    const sub = this.subs.get(id)
    if (sub === undefined) throw new NotFound('subscription not found')
    this.subs.delete(id)
    this.hub.remove(sub)
    return true
  }

  /** Frees every subscription (the connection closed). */
  close(): void {
    this.closed = true
    for (const sub of this.subs.values()) this.hub.remove(sub)
    this.subs.clear()
  }

  /** @internal */
  deliver(sub: Subscription, p: Payload): void {
    if (this.closed || !this.subs.has(sub.id)) return
    if (sub.held !== undefined && sub.handed) this.release(sub.id)
    if (sub.held !== undefined) sub.held.push(p)
    else this.notify(sub.id, p)
  }
}
