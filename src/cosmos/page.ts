/**
 * Cosmos's pagination (`query.PageRequest` → `query.PageResponse`) over a list the module state
 * holds in its store's order, with the Cosmos SDK's rules (types/query's collection pagination):
 * a key or an offset, not both; a limit of 0 means the default 100 and counts the total; the total
 * is counted only for an offset page that asks (`countTotal`); `reverse` walks from the end.
 *
 * The next key is this chain's own cursor (the position after the page, 8 bytes), not the store
 * key Cosmos hands back: a client passes it back as it is, as it must with Cosmos's.
 */
import { toBigInt, word } from '../hex.js'
import { PrecompileRevert } from './precompile.js'

/** The ABI tuple of a `PageRequest`: key, offset, limit, countTotal, reverse. */
export const PAGE_REQUEST = '(bytes,uint64,uint64,bool,bool)'
/** The ABI tuple of a `PageResponse`: nextKey, total. */
export const PAGE_RESPONSE = '(bytes,uint64)'

const DEFAULT_LIMIT = 100n

/** One page of `items` (in store order) as `request` asks; answers the page and its response tuple. */
export function paginate<T>(items: readonly T[], request: unknown): { page: T[]; response: [Uint8Array, bigint] } {
  const [key, offset, limitAsked, countAsked, reverse] = request as [Uint8Array, bigint, bigint, boolean, boolean]
  if (offset > 0n && key.length > 0) throw new PrecompileRevert('invalid request, either offset or key is expected, got both')
  const limit = limitAsked === 0n ? DEFAULT_LIMIT : limitAsked
  const countTotal = limitAsked === 0n || countAsked
  const ordered = reverse ? [...items].reverse() : items
  const total = BigInt(ordered.length)
  let start = offset
  if (key.length > 0) {
    if (key.length !== 8) throw new PrecompileRevert('invalid pagination key: pass back the nextKey of a previous page')
    start = toBigInt(key)
  }
  const from = start > total ? total : start
  const to = from + limit > total ? total : from + limit
  const page = ordered.slice(Number(from), Number(to))
  const nextKey = to < total ? word(to).subarray(24) : new Uint8Array(0)
  // Cosmos counts the total only for an offset page.
  return { page, response: [nextKey, key.length === 0 && countTotal ? total : 0n] }
}
