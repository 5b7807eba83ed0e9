/** eth_createAccessList (EIP-2930): the access list a call needs and the gas it uses with it. */
import { createAccessList } from '../../execution/access-list.js'
import { data, quantity } from '../../hex.js'
import { stateBlock } from '../blocks.js'
import { blockSelector, optional, type BlockSelector } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { callRequest } from '../objects.js'
import { blockOverrides, stateOverrides } from '../overrides.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'calls' | 'common'> & HistoryPorts
const method = methodsOf<keyof Here>()

const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

export const accessList: MethodTable = {
  eth_createAccessList: method({
    params: [callRequest, optional(blockSelector, LATEST), stateOverrides, blockOverrides],
    run: async (s, [req, at, state, block]) => {
      const result = await createAccessList(s.calls, s.common, req, await stateBlock(s, at), { state, block })
      const out: Record<string, unknown> = {
        accessList: result.accessList.map((e) => ({ address: data(e.address), storageKeys: e.storageKeys.map(data) })),
        gasUsed: quantity(result.gasUsed),
      }
      if (result.error !== undefined) out.error = result.error
      return out
    },
  }),
}
