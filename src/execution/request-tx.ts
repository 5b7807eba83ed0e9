/**
 * The one builder of the transaction a request describes. eth_call, eth_estimateGas,
 * eth_createAccessList, debug_traceCall, eth_simulateV1 and eth_sendTransaction's fill each
 * choose a type and fees their own way (geth's rules differ per method), and all make the
 * transaction here, so no path can drop a field of the request: an access list, an EIP-7702
 * authorization list (its delegations and its intrinsic gas), EIP-4844 blob hashes.
 */
import type { Common } from '@ethereumjs/common'
import { Blob4844Tx, createTx, TransactionType, type TypedTransaction } from '@ethereumjs/tx'
import { data } from '../hex.js'
import type { Authorization, CallRequest } from './call-request.js'
import { unsignedFeeMarket } from './engine/fee-market-tx.js'
import { unsignedLegacy } from './engine/legacy-tx.js'

/** What a transaction pays per gas: a gas price (legacy, EIP-2930) or a fee cap and tip. */
export type Fees = { gasPrice: bigint } | { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

/**
 * Where each field of a request goes. Typed as a record of every key, so a field added to
 * `CallRequest` does not compile until it is given a place here (and in {@link requestTransaction}).
 */
export const REQUEST_FIELDS: Readonly<Record<keyof CallRequest, string>> = {
  from: 'the sender (each path sets it on the transaction or signs with its key)',
  to: 'transaction',
  gas: 'the gas limit (each path caps or estimates it)',
  gasPrice: 'fees',
  maxFeePerGas: 'fees',
  maxPriorityFeePerGas: 'fees',
  value: 'transaction',
  data: 'transaction',
  nonce: 'the nonce (sends: as given; calls: the state nonce, as geth)',
  accessList: 'transaction (EIP-2930 and later types)',
  type: 'the type (sends)',
  chainId: "not used: the node's chain id signs",
  authorizationList: 'transaction (EIP-7702)',
  blobVersionedHashes: 'transaction (EIP-4844)',
  maxFeePerBlobGas: 'transaction (EIP-4844)',
}

/** An authorization as `createTx` takes it. */
function authorizationItem(a: Authorization) {
  return {
    chainId: `0x${a.chainId.toString(16)}`,
    address: data(a.address),
    nonce: `0x${a.nonce.toString(16)}`,
    yParity: `0x${a.yParity.toString(16)}`,
    r: `0x${a.r.toString(16)}`,
    s: `0x${a.s.toString(16)}`,
  }
}

/** The fee cap and tip of `fees`: a gas price is both, as geth reads a price on a dynamic-fee call. */
function dynamic(fees: Fees): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  return 'gasPrice' in fees ? { maxFeePerGas: fees.gasPrice, maxPriorityFeePerGas: fees.gasPrice } : fees
}

/** The transaction of `req` as `type`, with its nonce, gas limit and fees chosen by the caller. */
export function requestTransaction(
  req: CallRequest,
  type: TransactionType,
  nonce: bigint,
  gasLimit: bigint,
  fees: Fees,
  opts: { common: Common; freeze: boolean },
): TypedTransaction {
  const base = {
    nonce,
    gasLimit,
    to: req.to,
    value: req.value ?? 0n,
    data: req.data ?? new Uint8Array(),
    accessList: req.accessList?.map((e) => [e.address, e.storageKeys]) as never,
  }
  // Object.assign: properties an object literal adds after a spread take V8's slow path.
  switch (type) {
    case TransactionType.Legacy:
      // Every call that names no fee cap, tip or access list: by the constructor's fast path.
      return unsignedLegacy({ nonce, gasLimit, gasPrice: 'gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas, to: base.to, value: base.value, data: base.data }, opts)
    case TransactionType.AccessListEIP2930:
      return createTx(Object.assign(base, { type, gasPrice: 'gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas }), opts)
    case TransactionType.FeeMarketEIP1559:
      // A send's transaction (not frozen: it is signed next) by the constructor's fast path.
      if (!opts.freeze) return unsignedFeeMarket(Object.assign(base, dynamic(fees)), { common: opts.common, freeze: false })
      return createTx(Object.assign(base, { type }, dynamic(fees)), opts)
    case TransactionType.EOACodeEIP7702:
      return createTx(Object.assign(base, { type, authorizationList: (req.authorizationList ?? []).map(authorizationItem) }, dynamic(fees)) as never, opts)
    case TransactionType.BlobEIP4844:
      // Made directly: @ethereumjs/tx's factory wants a KZG setup for any blob transaction,
      // and one without blobs needs none.
      return new Blob4844Tx(
        Object.assign(base, { type, maxFeePerBlobGas: req.maxFeePerBlobGas ?? 0n, blobVersionedHashes: req.blobVersionedHashes ?? [] }, dynamic(fees)) as never,
        opts,
      )
    default:
      throw new Error(`unsupported transaction type ${type}`)
  }
}
