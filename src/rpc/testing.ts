/**
 * The `testing_` namespace (geth's): testing_buildBlockV1 builds a block on the head from payload
 * attributes and raw transactions, or the pool's when they are null, and answers it in the
 * engine API's `engine_getPayload` shape without committing it. Private, like `debug_`.
 */
import type { Block } from '@ethereumjs/block'
import type { WithdrawalData } from '@ethereumjs/util'
import { buildTestingBlock, type PayloadAttributes } from '../execution/build-block.js'
import { data, quantity } from '../hex.js'
import {
  CodecError,
  bytes,
  decodeAddress,
  decodeHash,
  field,
  hash,
  objectParam,
  optField,
  optional,
  optionalArray,
  parseData,
  parseQuantity,
  type Codec,
} from './codecs.js'
import { type MethodTable, methodsOf, type Ports } from './method.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'calls' | 'chain' | 'pool' | 'producer'>
const method = methodsOf<keyof Here>()

/** A field geth's generated decoder requires (`gencodec:"required"`). */
function required<T>(o: Record<string, unknown>, name: string, type: string, decode: (v: unknown) => T): T {
  const value = optField(o, name, decode)
  if (value === undefined) throw new CodecError(`missing required field '${name}' for ${type}`)
  return value
}

function withdrawal(v: unknown): WithdrawalData {
  const o = objectParam(v, 'types.Withdrawal')
  const u64 = (x: unknown) => parseQuantity(x, 64)
  return {
    index: required(o, 'index', 'Withdrawal', u64),
    validatorIndex: required(o, 'validatorIndex', 'Withdrawal', u64),
    address: required(o, 'address', 'Withdrawal', decodeAddress),
    amount: required(o, 'amount', 'Withdrawal', u64),
  }
}

/** The engine API's `PayloadAttributesV3` (geth's `engine.PayloadAttributes`). */
const payloadAttributes: Codec<PayloadAttributes> = {
  name: 'payload attributes',
  optional: false,
  decode(v) {
    const o = objectParam(v, 'engine.PayloadAttributes')
    const list = field(o, 'withdrawals')
    if (list !== undefined && list !== null && !Array.isArray(list)) {
      throw new CodecError('json: cannot unmarshal non-array into Go struct field PayloadAttributes.withdrawals of type []*types.Withdrawal')
    }
    return {
      timestamp: required(o, 'timestamp', 'PayloadAttributes', (x) => parseQuantity(x, 64)),
      prevRandao: required(o, 'prevRandao', 'PayloadAttributes', decodeHash),
      suggestedFeeRecipient: required(o, 'suggestedFeeRecipient', 'PayloadAttributes', decodeAddress),
      withdrawals: Array.isArray(list) ? list.map(withdrawal) : undefined,
      parentBeaconBlockRoot: optField(o, 'parentBeaconBlockRoot', decodeHash),
    }
  },
}

/** An array of raw transactions, or null (then the pool's are used). */
const rawTransactions: Codec<Uint8Array[] | undefined> = {
  name: 'raw transactions',
  optional: true,
  decode: (v) => optionalArray(v, '[]hexutil.Bytes')?.map(parseData),
}

/** geth's `ExecutableData`: the header fields, the raw transactions and the withdrawals. */
function executionPayload(block: Block): Record<string, unknown> {
  const h = block.header
  return {
    parentHash: data(h.parentHash),
    feeRecipient: h.coinbase.toString(),
    stateRoot: data(h.stateRoot),
    receiptsRoot: data(h.receiptTrie),
    logsBloom: data(h.logsBloom),
    prevRandao: data(h.mixHash),
    blockNumber: quantity(h.number),
    gasLimit: quantity(h.gasLimit),
    gasUsed: quantity(h.gasUsed),
    timestamp: quantity(h.timestamp),
    extraData: data(h.extraData),
    baseFeePerGas: h.baseFeePerGas === undefined ? null : quantity(h.baseFeePerGas),
    blockHash: data(block.hash()),
    transactions: block.transactions.map((tx) => data(tx.serialize())),
    withdrawals:
      block.withdrawals?.map((w) => ({
        index: quantity(w.index),
        validatorIndex: quantity(w.validatorIndex),
        address: w.address.toString(),
        amount: quantity(w.amount),
      })) ?? null,
    blobGasUsed: h.blobGasUsed === undefined ? null : quantity(h.blobGasUsed),
    excessBlobGas: h.excessBlobGas === undefined ? null : quantity(h.excessBlobGas),
  }
}

export const testing: MethodTable = {
  testing_buildBlockV1: method({
    params: [hash, payloadAttributes, rawTransactions, optional(bytes, new Uint8Array())],
    run: async (s, [parentHash, attributes, transactions, extraData]) => {
      const { block, value, requests } = await buildTestingBlock(s.chain, s.pool, {
        parentHash,
        attributes,
        transactions,
        extraData,
        gasCeiling: s.producer.blockGasLimit,
      }, s.calls.ecrecover, s.calls.precompiles)
      return {
        executionPayload: executionPayload(block),
        blockValue: quantity(value),
        // Blob transactions are taken in their canonical form: no sidecar is kept to return.
        blobsBundle: { commitments: [], proofs: [], blobs: [] },
        executionRequests: requests?.map(data) ?? null,
        shouldOverrideBuilder: false,
      }
    },
  }),
}
