/**
 * A token bucket for `requestsPerSecond`: it fills at that rate up to one second's worth (so a
 * burst after a pause is at most one second of requests) and each JSON-RPC request takes a token,
 * batch items included, as providers count them.
 */
export interface TokenBucket {
  /** Tokens available now, whole (Infinity without a cap). */
  available(now: number): number
  /** Takes `n` tokens (at most `available`). */
  take(n: number, now: number): void
  /** Milliseconds until one token is available. */
  msUntilNext(now: number): number
}

/** A bucket of `perSecond` tokens per second; 0 = no cap. */
export function tokenBucket(perSecond: number, start: number): TokenBucket {
  if (perSecond === 0) return { available: () => Infinity, take: () => {}, msUntilNext: () => 0 }
  const capacity = Math.max(1, perSecond)
  let tokens = capacity
  let at = start
  const refill = (now: number) => {
    tokens = Math.min(capacity, tokens + ((now - at) * perSecond) / 1000)
    at = now
  }
  return {
    available(now) {
      refill(now)
      return Math.floor(tokens)
    },
    take(n, now) {
      refill(now)
      tokens -= n
    },
    msUntilNext(now) {
      refill(now)
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / perSecond)
    },
  }
}
