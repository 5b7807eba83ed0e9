/**
 * What the fast transaction constructors (legacy-tx.ts, fee-market-tx.ts) share: the checks of
 * @ethereumjs/tx's constructor that depend on the fork, and the assignments its shared
 * constructor makes, in its order, so that each kind's objects keep one hidden class in V8.
 */
import type { Common } from '@ethereumjs/common'
import { paramsTx } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { wideBelow } from './wide.js'

const MAX_UINT64 = (1n << 64n) - 1n
const MAX_INTEGER = (1n << 256n) - 1n

/**
 * Whether the fields every kind's constructor checks pass its checks: a 20-byte recipient or
 * none, bytes as data, the 64-bit nonce (below its maximum) and gas, the 256-bit value.
 */
export function plainBaseFields(to: unknown, data: unknown, nonce: bigint, gasLimit: bigint, value: bigint): boolean {
  return (
    (to === undefined || (to instanceof Uint8Array && to.length === 20)) &&
    data instanceof Uint8Array &&
    nonce >= 0n &&
    nonce < MAX_UINT64 &&
    gasLimit >= 0n &&
    gasLimit <= MAX_UINT64 &&
    // Compared with a 256-bit bound first and through wide.ts: a value of 2^63 or more is common.
    value <= MAX_INTEGER &&
    !wideBelow(value, 0n)
  )
}

/** Whether the fork refuses the gas limit (EIP-7825's cap, lifted again by EIP-8037). */
export function overGasCap(common: Common, gasLimit: bigint): boolean {
  return common.isActivatedEIP(7825) && !common.isActivatedEIP(8037) && gasLimit > common.param('maxTransactionGasLimit')
}

/** Whether a creation's initcode is over EIP-3860's limit on this fork. */
export function initcodeTooLarge(common: Common, length: number): boolean {
  if (!common.isActivatedEIP(3860)) return false
  const max = common.param('maxInitCodeSize')
  return Boolean(max) && BigInt(length) > max
}

/**
 * A transaction object of `prototype` with the shared constructor's assignments done in its order
 * (the recipient and data copied as its `toBytes` copies them); the kind's own fields follow. Its
 * `common` is its own copy of `opts.common`. (Positional, so that a call allocates nothing else.)
 */
export function baseTx(
  prototype: object,
  type: number,
  capabilities: number[],
  opts: { common: Common },
  to: Uint8Array | undefined,
  nonce: bigint,
  gasLimit: bigint,
  value: bigint,
  data: Uint8Array,
  v: bigint | undefined,
  r: bigint | undefined,
  s: bigint | undefined,
): Record<string, unknown> & { common: Common } {
  const tx = Object.create(prototype) as Record<string, unknown> & { common: Common }
  tx.type = type
  tx.cache = {}
  tx.activeCapabilities = capabilities
  const txCommon = opts.common.copy()
  tx.common = txCommon
  txCommon.updateParams(paramsTx)
  tx.txOptions = opts
  tx.to = to !== undefined ? new Address(to.slice()) : undefined
  tx.nonce = nonce
  tx.gasLimit = gasLimit
  tx.value = value
  tx.data = data.slice()
  tx.v = v
  tx.r = r
  tx.s = s
  return tx
}
