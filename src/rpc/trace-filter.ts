/**
 * trace_filter's filter object, with reth's and Anvil's rules: `fromBlock` / `toBlock` are block
 * numbers (Anvil takes no tags there), `fromAddress` / `toAddress` lists (an empty list matches
 * every address), `mode` `union` (either side matches; the default) or `intersection` (both),
 * `after` / `count` page the matches; any other field is refused.
 */
import { CodecError, decodeAddress, objectParam, parseQuantity, type Codec } from './codecs.js'

/** A decoded trace filter. */
export interface TraceFilter {
  fromBlock: bigint | undefined
  toBlock: bigint | undefined
  /** Lower-case 0x-prefixed addresses. */
  fromAddress: Set<string>
  toAddress: Set<string>
  mode: 'union' | 'intersection'
  after: bigint | undefined
  count: bigint | undefined
}

const FIELDS = ['fromBlock', 'toBlock', 'fromAddress', 'toAddress', 'mode', 'after', 'count']

function addresses(v: unknown, name: string): Set<string> {
  if (v === undefined || v === null) return new Set()
  if (!Array.isArray(v)) throw new CodecError(`invalid type for ${name}: expected a sequence of addresses`)
  return new Set(v.map((a) => `0x${Buffer.from(decodeAddress(a)).toString('hex')}`))
}

function number(v: unknown, name: string): bigint | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string' && !v.startsWith('0x')) throw new CodecError(`invalid value for ${name}: ${JSON.stringify(v)}, expected a hex block number`)
  return parseQuantity(v, 64)
}

/** The filter param of trace_filter. */
export const traceFilter: Codec<TraceFilter> = {
  name: 'trace filter',
  optional: false,
  decode(v) {
    const o = objectParam(v, 'TraceFilter')
    for (const key of Object.keys(o)) {
      if (!FIELDS.includes(key)) throw new CodecError(`unknown field \`${key}\`, expected one of ${FIELDS.map((f) => `\`${f}\``).join(', ')}`)
    }
    const mode = o.mode ?? 'union'
    if (mode !== 'union' && mode !== 'intersection') throw new CodecError(`unknown variant \`${String(mode)}\`, expected \`union\` or \`intersection\``)
    const count = (name: string) => {
      const n = o[name]
      if (n === undefined || n === null) return undefined
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new CodecError(`invalid value for ${name}: expected a non-negative integer`)
      return BigInt(n)
    }
    return {
      fromBlock: number(o.fromBlock, 'fromBlock'),
      toBlock: number(o.toBlock, 'toBlock'),
      fromAddress: addresses(o.fromAddress, 'fromAddress'),
      toAddress: addresses(o.toAddress, 'toAddress'),
      mode,
      after: count('after'),
      count: count('count'),
    }
  },
}

function side(set: Set<string>, address: unknown): boolean {
  return set.size === 0 || (typeof address === 'string' && set.has(address))
}

/**
 * Whether a localized trace matches: a call by `from` / `to`, a creation by its creator and the
 * address it made, a selfdestruct by the contract and its heir (alloy's `TraceFilterMatcher`).
 */
export function matches(f: TraceFilter, trace: Record<string, unknown>): boolean {
  const action = trace.action as Record<string, unknown>
  const result = trace.result as Record<string, unknown> | null
  let from: boolean
  let to: boolean
  if (trace.type === 'call') {
    from = side(f.fromAddress, action.from)
    to = side(f.toAddress, action.to)
  } else if (trace.type === 'create') {
    from = side(f.fromAddress, action.from)
    to = result === null ? f.toAddress.size === 0 : side(f.toAddress, result.address)
  } else {
    from = side(f.fromAddress, action.address)
    to = side(f.toAddress, action.refundAddress)
  }
  if (f.mode === 'intersection') return from && to
  if (f.fromAddress.size === 0) return to
  if (f.toAddress.size === 0) return from
  return from || to
}
