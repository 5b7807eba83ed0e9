/** eth_getStorageValues: many slots of many accounts at one block, in one call. */
import { InvalidParamsError } from '../../errors.js'
import { data, keyOf } from '../../hex.js'
import { stateBlock } from '../blocks.js'
import { CodecError, blockSelector, decodeAddress, objectParam, optional, parseData, type BlockSelector, type Codec } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain'> & HistoryPorts
const method = methodsOf<keyof Here>()

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }
/** Slots one call may read, over all accounts (geth's limit). */
const MAX_SLOTS = 1024

/** `{ address: [slot, …] }`, slots as 32-byte hex. */
const request: Codec<Array<{ address: Uint8Array; given: string; slots: Uint8Array[] }>> = {
  name: 'storage request',
  optional: false,
  decode(v) {
    const o = objectParam(v, 'map[common.Address][]common.Hash')
    let count = 0
    const out = Object.entries(o).map(([address, slots]) => {
      if (!Array.isArray(slots)) throw new CodecError('json: cannot unmarshal non-array into Go value of type []common.Hash')
      count += slots.length
      return {
        address: decodeAddress(address),
        given: address,
        slots: slots.map((s) => {
          const bytes = parseData(s)
          if (bytes.length > 32) throw new CodecError('hex string too long for common.Hash')
          const slot = new Uint8Array(32)
          slot.set(bytes, 32 - bytes.length)
          return slot
        }),
      }
    })
    if (count > MAX_SLOTS) throw new CodecError(`too many slots requested: ${count}, the limit is ${MAX_SLOTS}`)
    return out
  },
}

export const storageValues: MethodTable = {
  eth_getStorageValues: method({
    params: [request, optional(blockSelector, LATEST)],
    run: async (s, [entries, at]) => {
      if (entries.length === 0) throw new InvalidParamsError('empty request')
      const state = s.chain.stateAt(await stateBlock(s, at))
      try {
        const out: Record<string, string[]> = {}
        for (const { address, given, slots } of entries) {
          const values: string[] = []
          for (const slot of slots) {
            const value = await state.getStorage(keyOf(address), keyOf(slot))
            const padded = new Uint8Array(32)
            padded.set(value, 32 - value.length)
            values.push(data(padded))
          }
          out[given] = values
        }
        return out
      } finally {
        state.close()
      }
    },
  }),
  /** The base fee of the next block (geth's eth_baseFee). */
  eth_baseFee: method({
    params: [],
    run: ({ chain }) => (chain.head.header.baseFeePerGas === undefined ? null : `0x${chain.head.header.calcNextBaseFee().toString(16)}`),
  }),
}

