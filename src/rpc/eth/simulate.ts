/** eth_simulateV1: geth's multi-block call simulation, with its result shape and -38xxx errors. */
import { simulate, sendersAsReceipts, type SimBlock, type SimulateRequest } from '../../execution/simulate.js'
import { data, quantity } from '../../hex.js'
import { stateBlock } from '../blocks.js'
import { CodecError, blockSelector, field, objectParam, optional, type BlockSelector, type Codec } from '../codecs.js'
import { simulatedCallError } from '../error-map.js'
import { formatBlock } from '../format.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { callRequest } from '../objects.js'
import { decodeBlockOverrides, decodeStateOverrides } from '../overrides.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'calls' | 'chain'> & HistoryPorts
const method = methodsOf<keyof Here>()

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

function flag(o: Record<string, unknown>, name: string): boolean {
  const v = field(o, name)
  if (v === undefined || v === null) return false
  if (typeof v !== 'boolean') throw new CodecError(`json: cannot unmarshal ${typeof v} into Go struct field simOpts.${name} of type bool`)
  return v
}

const simulateRequest: Codec<SimulateRequest> = {
  name: 'simulate options',
  optional: false,
  decode(v, index) {
    const o = objectParam(v, 'ethapi.simOpts')
    const raw = field(o, 'blockStateCalls') ?? []
    if (!Array.isArray(raw)) throw new CodecError('json: cannot unmarshal non-array into Go struct field simOpts.blockStateCalls of type []ethapi.simBlock')
    const blockStateCalls = raw.map((item): SimBlock => {
      const b = objectParam(item, 'ethapi.simBlock')
      const calls = field(b, 'calls') ?? []
      if (!Array.isArray(calls)) throw new CodecError('json: cannot unmarshal non-array into Go struct field simBlock.calls of type []ethapi.TransactionArgs')
      const out: SimBlock = { calls: calls.map((c) => callRequest.decode(c, index)) }
      const bo = field(b, 'blockOverrides')
      const so = field(b, 'stateOverrides')
      if (bo !== undefined && bo !== null) out.blockOverrides = decodeBlockOverrides(bo)
      if (so !== undefined && so !== null) out.stateOverrides = decodeStateOverrides(so)
      return out
    })
    return {
      blockStateCalls,
      validation: flag(o, 'validation'),
      traceTransfers: flag(o, 'traceTransfers'),
      returnFullTransactions: flag(o, 'returnFullTransactions'),
    }
  },
}

export const simulation: MethodTable = {
  eth_simulateV1: method({
    params: [simulateRequest, optional(blockSelector, LATEST)],
    run: async (s, [request, at]) => {
      const base = await stateBlock(s, at)
      const blocks = await simulate(s.calls, s.chain, base, request)
      return blocks.map(({ block, senders, calls }) => {
        const out = formatBlock(block, request.returnFullTransactions, sendersAsReceipts(senders))
        const blockHash = data(block.hash())
        const number = quantity(block.header.number)
        const timestamp = quantity(block.header.timestamp)
        out.calls = calls.map((c, i) => {
          const txHash = data((block.transactions[i] as { hash(): Uint8Array }).hash())
          const result: Record<string, unknown> = {
            // geth: a failed call's output is in its error's `data`, not in `returnData`.
            returnData: c.error === undefined ? data(c.returnData) : '0x',
            logs: c.logs.map(({ log: [address, topics, payload], index }) => ({
              address: data(address),
              topics: topics.map(data),
              data: data(payload),
              blockNumber: number,
              blockHash,
              blockTimestamp: timestamp,
              transactionHash: txHash,
              transactionIndex: quantity(i),
              logIndex: quantity(index),
              removed: false,
            })),
            gasUsed: quantity(c.gasUsed),
            maxUsedGas: quantity(c.maxUsedGas),
            status: quantity(c.status),
          }
          if (c.error !== undefined) result.error = simulatedCallError(c.error)
          return result
        })
        return out
      })
    },
  }),
}
