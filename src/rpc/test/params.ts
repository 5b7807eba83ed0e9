/** Param codecs for the test controls, which accept what Hardhat and Anvil accept. */
import { CodecError, parseQuantity, type Codec } from '../codecs.js'

/** A quantity given as a JSON number: a safe, non-negative integer. */
export function jsonNumber(v: number): bigint {
  if (!Number.isSafeInteger(v) || v < 0) throw new CodecError(`invalid number ${v}`)
  return BigInt(v)
}

/** A JSON number or a QTY (evm_increaseTime, evm_mine's timestamp, counts). */
export const numberOrQuantity: Codec<bigint> = {
  name: 'number|QTY',
  optional: false,
  decode(v) {
    return typeof v === 'number' ? jsonNumber(v) : parseQuantity(v, 64)
  },
}

/** evm_mine's param: a timestamp, or Ganache's `{ timestamp, blocks }`. */
export const mineParam: Codec<{ timestamp?: bigint; blocks: bigint } | undefined> = {
  name: 'timestamp|options',
  optional: true,
  decode(v) {
    if (v === undefined || v === null) return undefined
    if (typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>
      const out: { timestamp?: bigint; blocks: bigint } = { blocks: 1n }
      if (Object.hasOwn(o, 'timestamp') && o.timestamp !== undefined) out.timestamp = numberOrQuantity.decode(o.timestamp, 0)
      if (Object.hasOwn(o, 'blocks') && o.blocks !== undefined) out.blocks = numberOrQuantity.decode(o.blocks, 0)
      return out
    }
    return { timestamp: numberOrQuantity.decode(v, 0), blocks: 1n }
  },
}
