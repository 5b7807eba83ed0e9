/** eth_call and eth_estimateGas, with geth's state overrides (3rd param) and block overrides (4th). */
import { data, quantity } from '../../hex.js'
import { stateBlock } from '../blocks.js'
import { blockSelector, optional, type BlockSelector } from '../codecs.js'
import { method, type MethodTable } from '../method.js'
import { callRequest } from '../objects.js'
import { blockOverrides, stateOverrides } from '../overrides.js'

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

export const call: MethodTable = {
  eth_call: method({
    params: [callRequest, optional(blockSelector, LATEST), stateOverrides, blockOverrides],
    run: async (s, [req, at, state, block]) => data(await s.calls.call(req, await stateBlock(s, at), { state, block })),
  }),
  eth_estimateGas: method({
    params: [callRequest, optional(blockSelector, LATEST), stateOverrides, blockOverrides],
    run: async (s, [req, at, state, block]) => quantity(await s.calls.estimate(req, await stateBlock(s, at), { state, block, consoleLogOnFailure: true })),
  }),
}
