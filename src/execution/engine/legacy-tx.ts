/**
 * The unsigned legacy transaction of a call (eth_call, eth_estimateGas and the other runs of a
 * request that names no fee cap, tip or access list), made as @ethereumjs/tx's `createLegacyTx`
 * makes it, without its generic checks' cost: the constructor turns each bigint into bytes through
 * a hex string and back, copies every field and walks the values through `Object.entries`, ~7 µs
 * of a ~100 µs `eth_call`, every call.
 *
 * The fast path takes only values that pass every check of the library's constructor, tested here
 * directly (the 64-bit nonce and gas, 256-bit value and price, the fee product, the EIP-7825 gas
 * cap, the EIP-3860 initcode limit, a 20-byte recipient); anything else goes to the library, whose
 * error words the refusal. Where @ethereumjs/tx's version is not a verified one (gate.ts), the
 * library makes every transaction. The object has the library's prototype, its own properties in
 * the constructor's order and the same values (test/execution/engine/legacy-tx.test.ts compares
 * the two).
 */
import type { Common } from '@ethereumjs/common'
import { Capability, createLegacyTx, LegacyTx, TransactionType } from '@ethereumjs/tx'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { fastPaths } from './gate.js'
import { baseTx, initcodeTooLarge, overGasCap, plainBaseFields } from './tx-base.js'

const MAX_INTEGER = (1n << 256n) - 1n

/** The fields of an unsigned legacy transaction, as `createLegacyTx` takes them from a request. */
export interface LegacyFields {
  nonce: bigint
  gasLimit: bigint
  gasPrice: bigint
  to: Uint8Array | undefined
  value: bigint
  data: Uint8Array
}

/** The options the transaction is made with (kept on it as `txOptions`, as the library does). */
export interface LegacyOptions {
  common: Common
  freeze: boolean
}

/**
 * The transaction `createLegacyTx({ ...fields, type: 0 }, opts)` makes: by the fast path when the
 * library's checks would all pass (and its version is a verified one), else by the library.
 */
export function unsignedLegacy(fields: LegacyFields, opts: LegacyOptions): LegacyTx {
  const { nonce, gasLimit, gasPrice, to, value, data } = fields
  const { common } = opts
  const plain =
    plainBaseFields(to, data, nonce, gasLimit, value) &&
    gasPrice >= 0n &&
    gasPrice <= MAX_INTEGER &&
    gasPrice * gasLimit <= MAX_INTEGER &&
    !overGasCap(common, gasLimit) &&
    !(to === undefined && initcodeTooLarge(common, data.length))
  if (!plain || !fastPaths('@ethereumjs/tx')) return createLegacyTx({ ...fields, type: TransactionType.Legacy }, opts)
  // The constructor's assignments in its order (its own and sharedConstructor's, then the
  // legacy class's).
  const capabilities: number[] = []
  const tx = baseTx(LegacyTx.prototype, TransactionType.Legacy, capabilities, opts, to, nonce, gasLimit, value, data, undefined, undefined, undefined)
  const txCommon = tx.common
  tx.gasPrice = gasPrice
  tx.keccakFunction = txCommon.customCrypto.keccak256 ?? keccak_256
  // Unsigned under Spurious Dragon and later: signed (or hashed) with the chain id, EIP-155.
  if (txCommon.gteHardfork('spuriousDragon')) capabilities.push(Capability.EIP155ReplayProtection)
  if (opts.freeze) Object.freeze(tx)
  return tx as unknown as LegacyTx
}
