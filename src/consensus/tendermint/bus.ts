/**
 * The in-process network between validators: it delivers each message after the sender's delay
 * (plus a seeded random jitter), drops what an offline validator sends or should receive (and,
 * when told, a share of all messages for good), and
 * holds what crosses a partition or is lost in transit until the network heals, when it is
 * delivered (as CometBFT's gossip sends peers the votes they lack once they are reachable).
 * Driven by the injected clock, and by a seeded generator: a schedule replays exactly.
 */
import type { Clock } from '../../clock.js'
import type { Hex } from '../../hex.js'
import { SeededRandom } from './random.js'

/** How the network treats messages now. */
export interface BusConditions {
  /** Validators that neither send nor receive. */
  offline: ReadonlySet<Hex>
  /** Extra delay of each sender's messages, in ms. */
  delay: ReadonlyMap<Hex, number>
  /** Groups that cannot reach each other; undefined: no partition. */
  partition: ReadonlyArray<ReadonlySet<Hex>> | undefined
  /** Share of messages lost in transit until the next heal, when gossip delivers them (0 … 1). */
  lossRate: number
  /** Share of messages dropped for good (0 … 1): never delivered, heal or not. */
  dropRate?: number
  /** Up to this many ms of random extra delay per message. */
  jitter: number
}

export const CALM: BusConditions = { offline: new Set(), delay: new Map(), partition: undefined, lossRate: 0, jitter: 0 }

export interface BusStats {
  sent: number
  delivered: number
  /** To or from an offline validator, or dropped for good. */
  dropped: number
  /** Across a partition or lost, waiting for the heal. */
  held: number
}

export class MessageBus<M> {
  private readonly random: SeededRandom
  private readonly timers = new Set<() => void>()
  private held: Array<{ from: Hex; to: Hex; message: M }> = []
  readonly stats: BusStats = { sent: 0, delivered: 0, dropped: 0, held: 0 }

  constructor(
    private readonly clock: Clock,
    seed: number,
    private readonly deliver: (to: Hex, message: M) => void,
    public conditions: BusConditions = CALM,
  ) {
    this.random = new SeededRandom(seed)
  }

  send(from: Hex, to: Hex, message: M, extraDelay = 0): void {
    this.stats.sent++
    const c = this.conditions
    if (c.offline.has(from) || c.offline.has(to) || (from !== to && c.dropRate !== undefined && c.dropRate > 0 && this.random.next() < c.dropRate)) {
      this.stats.dropped++
      return
    }
    if (from !== to && (this.separated(from, to) || (c.lossRate > 0 && this.random.next() < c.lossRate))) {
      this.stats.held++
      this.held.push({ from, to, message })
      return
    }
    const delay = from === to ? 0 : (c.delay.get(from) ?? 0) + extraDelay + (c.jitter > 0 ? this.random.below(c.jitter + 1) : 0)
    this.schedule(to, message, delay)
  }

  /** Whether `a` and `b` are in different groups of the partition. */
  separated(a: Hex, b: Hex): boolean {
    const p = this.conditions.partition
    if (p === undefined) return false
    const ga = p.findIndex((g) => g.has(a))
    const gb = p.findIndex((g) => g.has(b))
    return ga !== gb
  }

  /** New conditions; messages held that can now pass are delivered (in the order sent). */
  setConditions(conditions: BusConditions): void {
    this.conditions = conditions
    const held = this.held
    this.held = []
    for (const h of held) {
      this.stats.held--
      this.send(h.from, h.to, h.message)
      this.stats.sent--
    }
  }

  /** Deliveries under way (delayed messages not yet delivered). */
  get inFlight(): number {
    return this.timers.size
  }

  /** Cancels every pending delivery. */
  close(): void {
    for (const cancel of this.timers) cancel()
    this.timers.clear()
    this.held = []
  }

  private schedule(to: Hex, message: M, delay: number): void {
    if (delay <= 0) {
      this.stats.delivered++
      this.deliver(to, message)
      return
    }
    const cancel = this.clock.setTimer(() => {
      this.timers.delete(cancel)
      if (this.conditions.offline.has(to)) {
        this.stats.dropped++
        return
      }
      this.stats.delivered++
      this.deliver(to, message)
    }, delay)
    this.timers.add(cancel)
  }
}
