/** eth_call and eth_estimateGas. */
import { data, quantity } from '../../hex.js'
import { stateBlock } from '../blocks.js'
import { blockSelector, optional, type BlockSelector } from '../codecs.js'
import { method, type MethodTable } from '../method.js'
import { callRequest } from '../objects.js'

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

export const call: MethodTable = {
  eth_call: method({
    params: [callRequest, optional(blockSelector, LATEST)],
    run: async (s, [req, at]) => data(await s.calls.call(req, await stateBlock(s, at))),
  }),
  eth_estimateGas: method({
    params: [callRequest, optional(blockSelector, LATEST)],
    run: async (s, [req, at]) => quantity(await s.calls.estimate(req, await stateBlock(s, at))),
  }),
}
