/**
 * Inclusion events: a sender that admitted a transaction waits here for it to be settled (in a
 * committed block, refused by execution, dropped, or let go because no block will come for it
 * now). Whoever produces blocks settles; the sender never learns who that is.
 */

/** How a transaction's execution in its block ended. */
export interface TxOutcome {
  /** The EVM's error (`revert`, `out of gas`, …); undefined when the transaction succeeded. */
  error?: string
  /** The return data: the revert data of a reverted transaction. */
  output: Uint8Array
}

/** A registered wait: its promise, and `cancel` when the transaction did not become pending. */
export interface Inclusion {
  readonly settled: Promise<TxOutcome | undefined>
  cancel(): void
}

/** One sender's wait (a class: one object per send, no closures but the promise's executor). */
class Waiter implements Inclusion {
  // Set in the constructor, not by field initializers (defined one by one, then assigned again).
  declare readonly settled: Promise<TxOutcome | undefined>
  declare resolve: (outcome: TxOutcome | undefined) => void
  declare reject: (error: Error) => void
  declare private readonly owner: Inclusions
  declare readonly hash: string

  constructor(owner: Inclusions, hash: string) {
    this.owner = owner
    this.hash = hash
    this.settled = new Promise<TxOutcome | undefined>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
  }

  cancel(): void {
    this.owner.remove(this.hash, this)
  }
}

/**
 * The senders waiting on transactions, by hash (unprefixed hex): one waiter, or several when the
 * same transaction was sent more than once before it was settled (a list is made only then).
 */
export class Inclusions {
  private readonly waiters = new Map<string, Waiter | Waiter[]>()

  /**
   * Registers a wait on `hash` before the transaction enters the pool (so a settlement made while
   * it enters is not missed).
   */
  wait(hash: string): Inclusion {
    const waiter = new Waiter(this, hash)
    const present = this.waiters.get(hash)
    if (present === undefined) this.waiters.set(hash, waiter)
    else if (Array.isArray(present)) present.push(waiter)
    else this.waiters.set(hash, [present, waiter])
    return waiter
  }

  /** True when someone waits on `hash`. */
  has(hash: string): boolean {
    return this.waiters.has(hash)
  }

  /** Settles the waits on `hash`: with `error` rejected, else resolved with `outcome` (undefined: no block for it now). */
  settle(hash: string, error?: Error, outcome?: TxOutcome): void {
    const present = this.waiters.get(hash)
    if (present === undefined) return
    this.waiters.delete(hash)
    if (!Array.isArray(present)) {
      if (error === undefined) present.resolve(outcome)
      else present.reject(error)
      return
    }
    for (const w of present) {
      if (error === undefined) w.resolve(outcome)
      else w.reject(error)
    }
  }

  /** Rejects every wait with `error` (the node closed). */
  rejectAll(error: Error): void {
    for (const hash of [...this.waiters.keys()]) this.settle(hash, error)
  }

  /** @internal Forgets `waiter` (its transaction did not become pending). */
  remove(hash: string, waiter: Waiter): void {
    const present = this.waiters.get(hash)
    if (present === undefined) return
    if (present === waiter) {
      this.waiters.delete(hash)
      return
    }
    if (!Array.isArray(present)) return
    const i = present.indexOf(waiter)
    if (i >= 0) present.splice(i, 1)
    if (present.length === 0) this.waiters.delete(hash)
    else if (present.length === 1) this.waiters.set(hash, present[0] as Waiter)
  }
}
