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

interface Waiter {
  resolve: (outcome: TxOutcome | undefined) => void
  reject: (error: Error) => void
}

/** A registered wait: its promise, and `cancel` when the transaction did not become pending. */
export interface Inclusion {
  readonly settled: Promise<TxOutcome | undefined>
  cancel(): void
}

/** The senders waiting on transactions, by hash (unprefixed hex). */
export class Inclusions {
  private readonly waiters = new Map<string, Set<Waiter>>()

  /**
   * Registers a wait on `hash` before the transaction enters the pool (so a settlement made while
   * it enters is not missed).
   */
  wait(hash: string): Inclusion {
    let waiter: Waiter | undefined
    const settled = new Promise<TxOutcome | undefined>((resolve, reject) => {
      waiter = { resolve, reject }
    })
    const entry = waiter as Waiter
    let set = this.waiters.get(hash)
    if (set === undefined) this.waiters.set(hash, (set = new Set()))
    set.add(entry)
    return { settled, cancel: () => this.remove(hash, entry) }
  }

  /** True when someone waits on `hash`. */
  has(hash: string): boolean {
    return this.waiters.has(hash)
  }

  /** Settles the waits on `hash`: with `error` rejected, else resolved with `outcome` (undefined: no block for it now). */
  settle(hash: string, error?: Error, outcome?: TxOutcome): void {
    const set = this.waiters.get(hash)
    if (set === undefined) return
    this.waiters.delete(hash)
    for (const w of set) {
      if (error === undefined) w.resolve(outcome)
      else w.reject(error)
    }
  }

  /** Rejects every wait with `error` (the node closed). */
  rejectAll(error: Error): void {
    for (const hash of [...this.waiters.keys()]) this.settle(hash, error)
  }

  private remove(hash: string, waiter: Waiter): void {
    const set = this.waiters.get(hash)
    if (set === undefined) return
    set.delete(waiter)
    if (set.size === 0) this.waiters.delete(hash)
  }
}
