/** eth_call and eth_estimateGas, with geth's state overrides (3rd param) and block overrides (4th). */
import { data, quantity } from '../../hex.js'
import { callBlock } from '../blocks.js'
import { blockSelector, optional, type BlockSelector } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { callRequest } from '../objects.js'
import { blockOverrides, stateOverrides } from '../overrides.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'calls' | 'hardhatCompat'> & HistoryPorts
const method = methodsOf<keyof Here>()

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }
const PENDING: BlockSelector = { kind: 'tag', tag: 'pending' }

export const call: MethodTable = {
  eth_call: method({
    params: [callRequest, optional(blockSelector, LATEST), stateOverrides, blockOverrides],
    run: async (s, [req, at, state, block]) => data(await s.calls.call(req, await callBlock(s, at), { state, block })),
  }),
  // Without a block: geth's `latest`; Hardhat's `pending` (the next block's number and timestamp),
  // where Hardhat 3 and hardhat-ethers estimate every send.
  eth_estimateGas: method({
    params: [callRequest, optional(blockSelector, undefined), stateOverrides, blockOverrides],
    run: async (s, [req, at, state, block]) =>
      quantity(await s.calls.estimate(req, await callBlock(s, at ?? (s.hardhatCompat ? PENDING : LATEST)), { state, block, consoleLogOnFailure: true })),
  }),
}
