/** Codecs for the object params: call / transaction requests and log filters. */
import type { AccessListEntry, Authorization, CallRequest } from '../execution/call-request.js'
import type { LogFilter } from '../filters/log-filter.js'
import type { Limits } from '../limits.js'
import { CodecError, blockTag, decodeAddress, decodeHash, field, objectParam, optField, parseData, parseQuantity, type Codec } from './codecs.js'

export type { AccessListEntry, Authorization, CallRequest } from '../execution/call-request.js'
export type { LogFilter } from '../filters/log-filter.js'

function authorizationList(v: unknown): Authorization[] {
  if (!Array.isArray(v)) throw new CodecError('json: cannot unmarshal non-array into Go value of type []types.SetCodeAuthorization')
  return v.map((item) => {
    const o = objectParam(item, 'types.SetCodeAuthorization')
    const need = <T>(name: string, decode: (x: unknown) => T): T => {
      const value = optField(o, name, decode)
      if (value === undefined) throw new CodecError(`missing required field '${name}' for SetCodeAuthorization`)
      return value
    }
    return {
      chainId: need('chainId', qty),
      address: need('address', decodeAddress),
      nonce: need('nonce', (x) => parseQuantity(x, 64)),
      yParity: need('yParity', (x) => parseQuantity(x, 8)),
      r: need('r', qty),
      s: need('s', qty),
    }
  })
}

const qty = (v: unknown) => parseQuantity(v)

function accessList(v: unknown): AccessListEntry[] {
  if (!Array.isArray(v)) throw new CodecError('json: cannot unmarshal non-array into Go value of type types.AccessList')
  return v.map((item) => {
    const o = objectParam(item, 'types.AccessTuple')
    const keys = field(o, 'storageKeys') ?? []
    if (!Array.isArray(keys)) throw new CodecError('json: cannot unmarshal non-array into Go struct field AccessTuple.storageKeys')
    return { address: decodeAddress(field(o, 'address')), storageKeys: keys.map(decodeHash) }
  })
}

function blobHashes(v: unknown): Uint8Array[] {
  if (!Array.isArray(v)) throw new CodecError('json: cannot unmarshal non-array into Go struct field TransactionArgs.blobVersionedHashes of type []common.Hash')
  return v.map(decodeHash)
}

/** The call / transaction object, geth's `TransactionArgs`. */
export const callRequest: Codec<CallRequest> = {
  name: 'call object',
  optional: false,
  decode(v) {
    const o = objectParam(v, 'ethapi.TransactionArgs')
    const input = optField(o, 'input', parseData)
    const dataField = optField(o, 'data', parseData)
    if (input !== undefined && dataField !== undefined && Buffer.compare(input, dataField) !== 0) {
      throw new CodecError('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data')
    }
    // Every field present, absent ones undefined, in one order: every request decoded has one
    // hidden class, so the sites that read them (the send's fill, the call's set-up) see one map.
    const req: CallRequest = {
      from: optField(o, 'from', decodeAddress),
      to: optField(o, 'to', decodeAddress),
      gas: optField(o, 'gas', (x) => parseQuantity(x, 64)) ?? optField(o, 'gasLimit', (x) => parseQuantity(x, 64)),
      gasPrice: optField(o, 'gasPrice', qty),
      maxFeePerGas: optField(o, 'maxFeePerGas', qty),
      maxPriorityFeePerGas: optField(o, 'maxPriorityFeePerGas', qty),
      value: optField(o, 'value', qty),
      data: input ?? dataField,
      nonce: optField(o, 'nonce', (x) => parseQuantity(x, 64)),
      accessList: optField(o, 'accessList', accessList),
      type: optField(o, 'type', (x) => parseQuantity(x, 64)),
      chainId: optField(o, 'chainId', qty),
      authorizationList: optField(o, 'authorizationList', authorizationList),
      blobVersionedHashes: optField(o, 'blobVersionedHashes', blobHashes),
      maxFeePerBlobGas: optField(o, 'maxFeePerBlobGas', qty),
    }
    if (req.gasPrice !== undefined && (req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined)) {
      throw new CodecError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
    }
    return req
  },
}

/** The log filter object with the limits of RELIABILITY.md. */
export function logFilter(limits: Readonly<Limits>): Codec<LogFilter> {
  return {
    name: 'filter object',
    optional: false,
    decode(v) {
      const o = objectParam(v, 'filters.FilterCriteria')
      const filter: LogFilter = { addresses: [], topics: [] }
      const blockHash = optField(o, 'blockHash', decodeHash) ?? optField(o, 'blockhash', decodeHash)
      const from = optField(o, 'fromBlock', (x) => blockTag.decode(x, 0))
      const to = optField(o, 'toBlock', (x) => blockTag.decode(x, 0))
      if (blockHash !== undefined) {
        if (from !== undefined || to !== undefined) throw new CodecError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
        filter.blockHash = blockHash
      }
      if (from !== undefined) filter.fromBlock = from
      if (to !== undefined) filter.toBlock = to
      const addr = field(o, 'address')
      if (addr !== undefined && addr !== null) {
        const list = Array.isArray(addr) ? addr : [addr]
        if (list.length > limits.filterAddresses) throw new CodecError(`too many addresses in filter, max is ${limits.filterAddresses}`)
        filter.addresses = list.map(decodeAddress)
      }
      const topics = field(o, 'topics')
      if (topics !== undefined && topics !== null) {
        if (!Array.isArray(topics)) throw new CodecError('json: cannot unmarshal non-array into Go struct field FilterCriteria.topics')
        if (topics.length > 4) throw new CodecError('exceed max topics')
        filter.topics = topics.map((t) => {
          if (t === null) return null
          if (Array.isArray(t)) {
            if (t.length > limits.filterTopicAlternatives) throw new CodecError(`too many topic alternatives, max is ${limits.filterTopicAlternatives}`)
            if (t.length === 0 || t.includes(null)) return null
            return t.map(decodeHash)
          }
          return [decodeHash(t)]
        })
      }
      return filter
    },
  }
}
