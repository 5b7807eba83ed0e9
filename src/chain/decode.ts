/**
 * Block decoding that does not need a KZG setup. `@ethereumjs/tx` refuses to build any EIP-4844
 * transaction without `customCrypto.kzg`, even the canonical form inside a block, which carries
 * no blobs and needs no KZG work; loading one (kzg-wasm) takes ~16 s. Blob transactions are
 * built here from their fields instead; everything else is decoded as @ethereumjs/block does.
 */
import { Block, createBlockHeaderFromBytesArray } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { Blob4844Tx, createTxFromBlockBodyData, type TypedTransaction } from '@ethereumjs/tx'
import { createWithdrawal } from '@ethereumjs/util'
import { toBigInt } from '../hex.js'

type Values = Uint8Array | Values[]

/** An EIP-4844 transaction from its canonical encoding (no blobs), without a KZG setup. */
export function blobTransaction(serialized: Uint8Array, common: Common, freeze = true): TypedTransaction {
  const fields = RLP.decode(serialized.subarray(1)) as Values
  if (!Array.isArray(fields) || (fields.length !== 11 && fields.length !== 14)) {
    throw new Error(`an EIP-4844 transaction has 11 fields, 14 when signed; got ${Array.isArray(fields) ? fields.length : 'a byte string'}`)
  }
  const lists = [8, 10]
  for (const [i, field] of fields.entries()) {
    if (Array.isArray(field) !== lists.includes(i)) throw new Error(`field ${i} of an EIP-4844 transaction has the wrong type`)
  }
  const [chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to, value, data, accessList, maxFeePerBlobGas, blobVersionedHashes, v, r, s] =
    fields as Uint8Array[]
  return new Blob4844Tx(
    {
      chainId: toBigInt(chainId as Uint8Array),
      nonce,
      maxPriorityFeePerGas,
      maxFeePerGas,
      gasLimit,
      to,
      value,
      data,
      accessList: (accessList ?? []) as never,
      maxFeePerBlobGas,
      blobVersionedHashes: blobVersionedHashes as unknown as Uint8Array[],
      v: v === undefined ? undefined : toBigInt(v),
      r,
      s,
    },
    { common, freeze },
  )
}

/** The number and timestamp of a block from its bytes, to pick the hardfork it runs under. */
export function blockNumberAndTime(bytes: Uint8Array): { number: bigint; timestamp: bigint } {
  const block = RLP.decode(bytes) as Values
  const header = Array.isArray(block) ? block[0] : undefined
  if (!Array.isArray(header) || header.length < 15 || header.slice(0, 15).some((f) => Array.isArray(f))) {
    throw new Error('not a block: expected a list whose first item is a header of at least 15 byte strings')
  }
  const fields = header as Uint8Array[]
  return { number: toBigInt(fields[8] as Uint8Array), timestamp: toBigInt(fields[11] as Uint8Array) }
}

/** A block from its RLP bytes, under `common` (fixed at the block's hardfork). */
export function decodeBlock(bytes: Uint8Array, common: Common): Block {
  const values = RLP.decode(bytes) as Values[]
  return decodeBlockValues(values, common)
}

/** A block from its decoded RLP values. */
export function decodeBlockValues(values: Values[], common: Common): Block {
  const [headerValues, txValues, uncleValues, withdrawalValues] = values as [Uint8Array[], Values[], Uint8Array[][], Uint8Array[][] | undefined]
  const opts = { common, setHardfork: false }
  const header = createBlockHeaderFromBytesArray(headerValues, opts)
  const transactions = (txValues ?? []).map((tx) =>
    tx instanceof Uint8Array && tx[0] === 3 ? blobTransaction(tx, common) : createTxFromBlockBodyData(tx as Uint8Array, opts),
  )
  const uncles = (uncleValues ?? []).map((u) => createBlockHeaderFromBytesArray(u, opts))
  const withdrawals = common.isActivatedEIP(4895)
    ? (withdrawalValues ?? []).map(([index, validatorIndex, address, amount]) => createWithdrawal({ index: index!, validatorIndex: validatorIndex!, address: address!, amount: amount! }))
    : undefined
  return new Block(header, transactions, uncles, withdrawals, opts)
}
