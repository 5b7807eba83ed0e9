/**
 * The fork's memory of the remote's history answers (blocks, transactions, receipts, logs at or
 * below the fork block): at most `maxEntries` answers, the least recently used going first. An
 * answer on its way counts as an entry, so the same request asked twice at once goes out once.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Promise<unknown>>()

  constructor(readonly maxEntries: number) {}

  /** Answers kept now. */
  get size(): number {
    return this.entries.size
  }

  /** The answer kept for `key`, else `fetch()`'s (kept unless it fails or is null). */
  get(key: string, fetch: () => Promise<unknown>): Promise<unknown> {
    const known = this.entries.get(key)
    if (known !== undefined) {
      // Used: it moves to the newest end.
      this.entries.delete(key)
      this.entries.set(key, known)
      return known
    }
    const answer = fetch()
    if (this.maxEntries === 0) return answer
    const forget = () => {
      if (this.entries.get(key) === answer) this.entries.delete(key)
    }
    answer.then((v) => v === null && forget(), forget)
    this.entries.set(key, answer)
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
    return answer
  }

  clear(): void {
    this.entries.clear()
  }
}
