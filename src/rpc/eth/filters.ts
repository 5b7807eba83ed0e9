/** Polling filters: eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter and their polls. */
import { FilterType } from '../../filters/manager.js'
import type { Codec } from '../codecs.js'
import { CodecError } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import type { LogFilter } from '../objects.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'filters' | 'hardhatCompat' | 'history'> & HistoryPorts
const method = methodsOf<keyof Here>()

/** A FILTER_ID: any string (unknown ones answer `filter not found`, null in Hardhat mode), as geth's rpc.ID. */
export const filterId: Codec<string> = {
  name: 'FILTER_ID',
  optional: false,
  decode(v) {
    if (typeof v !== 'string') throw new CodecError('json: cannot unmarshal non-string into Go value of type rpc.ID')
    return v
  },
}

/** The filter methods, with the node's log filter codec. */
export function filters(logFilter: Codec<LogFilter>): MethodTable {
  return {
    eth_newFilter: method({
      params: [logFilter],
      run: ({ filters }, [criteria]) => filters.install(FilterType.logs, criteria),
    }),
    eth_newBlockFilter: method({ params: [], run: ({ filters }) => filters.install(FilterType.blocks) }),
    eth_newPendingTransactionFilter: method({
      params: [],
      run: ({ filters }) => filters.install(FilterType.pendingTransactions),
    }),
    // Hardhat mode answers an unknown (or removed, or expired) filter id with null, as Hardhat does.
    eth_getFilterChanges: method({ params: [filterId], run: (s, [id]) => (s.hardhatCompat && !s.filters.has(id) ? null : s.filters.changes(id)) }),
    eth_getFilterLogs: method({ params: [filterId], run: (s, [id]) => (s.hardhatCompat && !s.filters.has(id) ? null : s.history.logs(s, s.filters.criteria(id))) }),
    eth_uninstallFilter: method({ params: [filterId], run: ({ filters }, [id]) => filters.uninstall(id) }),
  }
}
