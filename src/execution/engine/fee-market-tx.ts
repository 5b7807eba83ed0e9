/**
 * A signed EIP-1559 transaction from its decoded RLP values (eth_sendRawTransaction's common
 * case), made as @ethereumjs/tx's `create1559FeeMarketTxFromBytesArray` makes it, without its
 * generic checks' cost: those walk every field through `Object.entries`, convert bytes to bigints
 * through hex strings and copy each field, ~5 % of a raw transfer's intake in a fresh process.
 *
 * The fast path only takes values that pass every check of the library's constructor, tested
 * here directly and at least as strictly (no leading zeros, sizes, the chain id, EIP-1559 on,
 * the 64-bit nonce and gas, the EIP-7825 gas cap, the EIP-3860 initcode limit, the fee product,
 * the fee order, the y-parity, a low `s`); anything else, including any access list, goes to the
 * library, whose error words the refusal. Where @ethereumjs/tx's version is not a verified one
 * (gate.ts), the library makes every transaction. The object it makes has the library's prototype, its
 * own properties in the constructor's order and the same values (test/execution/engine/fee-market-tx.test.ts
 * compares the two). eth_sendTransaction's unsigned transaction is made the same way from the
 * filled fields ({@link unsignedFeeMarket}).
 */
import type { Common } from '@ethereumjs/common'
import { Capability, FeeMarket1559Tx, create1559FeeMarketTxFromBytesArray, createFeeMarket1559Tx, TransactionType } from '@ethereumjs/tx'
import { toBigInt } from '../../hex.js'
import { fastPaths } from './gate.js'
import { baseTx, initcodeTooLarge, overGasCap, plainBaseFields } from './tx-base.js'

const MAX_UINT64 = (1n << 64n) - 1n
const MAX_INTEGER = (1n << 256n) - 1n
/** secp256k1n / 2: EIP-2's bound on a signature's `s`. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

/** The options the transaction is made with (kept on it as `txOptions`, as the library does). */
export interface FeeMarketOptions {
  common: Common
  freeze: false
}

/**
 * The transaction `values` describe: by the fast path when it applies (and @ethereumjs/tx's
 * version is a verified one, gate.ts), else by @ethereumjs/tx.
 */
export function feeMarketFromValues(values: unknown, opts: FeeMarketOptions): FeeMarket1559Tx {
  return (fastPaths('@ethereumjs/tx') ? fastFeeMarket(values, opts) : undefined) ?? create1559FeeMarketTxFromBytesArray(values as never, opts)
}

/** A string item with a leading zero byte (ethereumjs' `validateNoLeadingZeroes` refuses it). */
function leadingZero(b: Uint8Array): boolean {
  return b.length > 0 && b[0] === 0
}

/** The fast path: undefined whenever the library might refuse the values or build differently. */
export function fastFeeMarket(values: unknown, opts: FeeMarketOptions): FeeMarket1559Tx | undefined {
  if (!Array.isArray(values) || values.length !== 12) return undefined
  const [chainIdB, nonceB, tipB, feeB, gasB, toB, valueB, dataB, accessList, vB, rB, sB] = values as unknown[]
  if (
    !(chainIdB instanceof Uint8Array) ||
    !(nonceB instanceof Uint8Array) ||
    !(tipB instanceof Uint8Array) ||
    !(feeB instanceof Uint8Array) ||
    !(gasB instanceof Uint8Array) ||
    !(toB instanceof Uint8Array) ||
    !(valueB instanceof Uint8Array) ||
    !(dataB instanceof Uint8Array) ||
    !(vB instanceof Uint8Array) ||
    !(rB instanceof Uint8Array) ||
    !(sB instanceof Uint8Array) ||
    !Array.isArray(accessList) ||
    accessList.length !== 0
  ) {
    return undefined
  }
  if (leadingZero(nonceB) || leadingZero(tipB) || leadingZero(feeB) || leadingZero(gasB) || leadingZero(valueB) || leadingZero(vB) || leadingZero(rB) || leadingZero(sB)) return undefined
  if (nonceB.length > 8 || gasB.length > 8 || tipB.length > 32 || feeB.length > 32 || valueB.length > 32 || rB.length > 32 || sB.length > 32) return undefined
  // An empty v is y-parity 0; an empty r or s makes the library's transaction unsigned.
  if ((toB.length !== 0 && toB.length !== 20) || rB.length === 0 || sB.length === 0) return undefined
  const { common } = opts
  if (!common.isActivatedEIP(1559) || toBigInt(chainIdB) !== common.chainId()) return undefined
  const nonce = toBigInt(nonceB)
  const gasLimit = toBigInt(gasB)
  if (nonce >= MAX_UINT64 || gasLimit > MAX_UINT64) return undefined
  if (overGasCap(common, gasLimit) || (toB.length === 0 && initcodeTooLarge(common, dataB.length))) return undefined
  const maxFeePerGas = toBigInt(feeB)
  const maxPriorityFeePerGas = toBigInt(tipB)
  if (gasLimit * maxFeePerGas > MAX_INTEGER || maxFeePerGas < maxPriorityFeePerGas) return undefined
  const v = toBigInt(vB)
  const s = toBigInt(sB)
  if ((v !== 0n && v !== 1n) || s > HALF_N) return undefined

  return make(opts, toB.length > 0 ? toB : undefined, nonce, gasLimit, toBigInt(valueB), dataB, v, toBigInt(rB), s, accessList, maxFeePerGas, maxPriorityFeePerGas)
}

/**
 * The transaction the constructor makes of checked values: its assignments in its order
 * (sharedConstructor's, tx-base.ts, then the EIP-1559 class's).
 */
function make(
  opts: FeeMarketOptions,
  to: Uint8Array | undefined,
  nonce: bigint,
  gasLimit: bigint,
  value: bigint,
  data: Uint8Array,
  v: bigint | undefined,
  r: bigint | undefined,
  s: bigint | undefined,
  accessList: unknown[],
  maxFeePerGas: bigint,
  maxPriorityFeePerGas: bigint,
): FeeMarket1559Tx {
  const tx = baseTx(FeeMarket1559Tx.prototype, TransactionType.FeeMarketEIP1559, [], opts, to, nonce, gasLimit, value, data, v, r, s)
  const txCommon = tx.common
  tx.chainId = txCommon.chainId()
  tx.activeCapabilities = [Capability.EIP1559FeeMarket, Capability.EIP2718TypedTransaction, Capability.EIP2930AccessLists]
  tx.accessList = accessList
  tx.maxFeePerGas = maxFeePerGas
  tx.maxPriorityFeePerGas = maxPriorityFeePerGas
  return tx as unknown as FeeMarket1559Tx
}

/** The fields of an unsigned EIP-1559 transaction a send fills in, as `createFeeMarket1559Tx` takes them. */
export interface FeeMarketFields {
  nonce: bigint
  gasLimit: bigint
  to: Uint8Array | undefined
  value: bigint
  data: Uint8Array
  accessList: unknown
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/**
 * The unsigned transaction `createFeeMarket1559Tx(fields, opts)` makes, for a send's filled
 * fields (bigints and bytes, no access list): the constructor's checks done directly (it turns
 * each bigint into bytes through a hex string and back); anything they would refuse, or that is
 * not of that plain form, goes to the library.
 */
export function unsignedFeeMarket(fields: FeeMarketFields, opts: FeeMarketOptions): FeeMarket1559Tx {
  const { nonce, gasLimit, to, value, data, accessList, maxFeePerGas, maxPriorityFeePerGas } = fields
  const { common } = opts
  const plain =
    plainBaseFields(to, data, nonce, gasLimit, value) &&
    (accessList === undefined || (Array.isArray(accessList) && accessList.length === 0)) &&
    maxFeePerGas >= 0n &&
    maxFeePerGas <= MAX_INTEGER &&
    maxPriorityFeePerGas >= 0n &&
    maxPriorityFeePerGas <= MAX_INTEGER &&
    gasLimit * maxFeePerGas <= MAX_INTEGER &&
    maxFeePerGas >= maxPriorityFeePerGas &&
    common.isActivatedEIP(1559) &&
    !overGasCap(common, gasLimit) &&
    !(to === undefined && initcodeTooLarge(common, data.length))
  if (!plain || !fastPaths('@ethereumjs/tx')) return createFeeMarket1559Tx({ ...fields, type: TransactionType.FeeMarketEIP1559 } as never, opts)
  return make(opts, to, nonce, gasLimit, value, data, undefined, undefined, undefined, [], maxFeePerGas, maxPriorityFeePerGas)
}
