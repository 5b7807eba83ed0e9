/**
 * Values of the command line's network settings (amounts, dates, paths) and the settings that
 * cannot go together, each refused with a message naming the flag.
 */
/** A whole amount (wei, gas, seconds), decimal or 0x-hex, at least `min`. */
export function wei(v: unknown, what: string, min = 0n): bigint {
  const s = String(v).trim()
  if (!/^(0x[0-9a-fA-F]{1,64}|\d{1,78})$/.test(s)) throw new Error(`${what}: want a whole number (decimal or 0x-hex), got ${s}`)
  const n = BigInt(s)
  if (n < min) throw new Error(`${what}: want at least ${min}, got ${s}`)
  if (n >= 2n ** 256n) throw new Error(`${what}: want a number below 2^256, got ${s}`)
  return n
}

/** A date `new Date()` reads (ISO 8601 such as 2020-01-01T00:00:00Z), not before 1970. */
export function date(v: unknown, what: string): string {
  const s = String(v).trim()
  const ms = new Date(s).getTime()
  if (s === '' || Number.isNaN(ms) || ms < 0) throw new Error(`${what}: want a date such as 2020-01-01T00:00:00Z, got ${JSON.stringify(s)}`)
  return s
}

export function path(v: unknown, what: string): string {
  const s = String(v)
  if (s.trim() === '' || typeof v === 'boolean') throw new Error(`${what}: want a file path`)
  return s
}

/** Settings that cannot go together, refused as Anvil refuses them (or where the meaning would be unclear). */
export function checkCombinations(c: { given: ReadonlySet<string>; noMining: boolean }): void {
  const both = (a: string, b: string, why: string) => {
    if (c.given.has(a) && c.given.has(b)) throw new Error(`give either --${a} or --${b}, not both: ${why}`)
  }
  for (const mining of ['no-mining', 'no-mine']) if (c.noMining) both(mining, 'block-time', 'one mines on request only, the other every N seconds')
  both('initial-date', 'timestamp', 'both say when the clock starts')
  for (const other of ['load-state', 'dump-state']) both('state', other, '--state is both of them')
  if (c.given.has('state-interval') && !c.given.has('state') && !c.given.has('dump-state')) {
    throw new Error('--state-interval needs --state or --dump-state: the file it writes')
  }
  const aliases = [['genesis', 'init'], ['fork-url', 'rpc-url'], ['block-gas-limit', 'gas-limit'], ['initial-base-fee-per-gas', 'block-base-fee-per-gas'], ['initial-base-fee-per-gas', 'base-fee'], ['block-base-fee-per-gas', 'base-fee']]
  for (const [a, b] of aliases) both(a as string, b as string, 'they are the same setting')
}
