/**
 * The explicit list of method tables. Namespaces, rpc_modules and the docs' coverage table are
 * derived from it; nothing registers itself by import.
 */
import type { Limits } from '../limits.js'
import { accessList } from './eth/access-list.js'
import { blocks } from './eth/blocks.js'
import { call } from './eth/call.js'
import { chain } from './eth/chain.js'
import { fees } from './eth/fees.js'
import { filters } from './eth/filters.js'
import { subscribeUnsupported } from './eth/subscribe.js'
import { logs, logFilter } from './eth/logs.js'
import { raw } from './eth/raw.js'
import { sign } from './eth/sign.js'
import { personal, signMessages } from './eth/sign-messages.js'
import { simulation } from './eth/simulate.js'
import { state } from './eth/state.js'
import { transactions } from './eth/transactions.js'
import { finality } from './finality.js'
import { finalityControls } from './finality-controls.js'
import { finalityLogs } from './finality-logs.js'
import { admin } from './admin.js'
import { miner } from './miner.js'
import { personalAccounts } from './personal.js'
import { anvil, evm, hardhat } from './test/controls.js'
import { anvilExtras } from './test/anvil-extras.js'
import { txpool } from './txpool.js'
import { testing } from './testing.js'
import { pool } from './eth/pool.js'
import { proof } from './eth/proof.js'
import { storageValues } from './eth/storage-values.js'
import { config } from './eth/config.js'
import { debugRaw } from './debug/raw.js'
import { debugTrace } from './debug/trace.js'
import { debugBadBlocks } from './debug/bad-blocks.js'
import { debugState } from './debug/state.js'
import { debugRuntime } from './debug/runtime.js'
import { debugTraceToFile } from './debug/trace-to-file.js'
import { debugDump } from './debug/dump.js'
import { trace } from './trace.js'
import { method, type Method, type MethodTable } from './method.js'
import { openRpcDocument } from './discover.js'
import { net, web3 } from './web3.js'

/** Every namespace this node serves. */
export const NAMESPACES = ['eth', 'web3', 'net', 'rpc', 'finality', 'txpool', 'personal', 'admin', 'miner', 'debug', 'trace', 'testing', 'evm', 'hardhat', 'anvil'] as const

/** The namespaces open to a caller unless configured otherwise (in-process callers get all). */
export const PUBLIC_NAMESPACES = ['eth', 'web3', 'net', 'rpc'] as const

/** Assembles all methods of a node. */
export function buildRegistry(limits: Readonly<Limits>): Map<string, Method> {
  const filterCodec = logFilter(limits)
  const tables: MethodTable[] = [web3, net, chain, blocks, state, transactions, call, accessList, simulation, raw, sign, signMessages, personal, personalAccounts, admin, miner, fees, logs(filterCodec), filters(filterCodec), subscribeUnsupported, finality, finalityControls, finalityLogs, txpool, pool, proof, storageValues, config, debugRaw, debugTrace, debugBadBlocks, debugState, debugRuntime, debugTraceToFile, debugDump, trace, testing, evm, hardhat, anvil, anvilExtras]
  const methods = new Map<string, Method>()
  for (const table of tables) for (const [name, m] of Object.entries(table)) methods.set(name, m)
  methods.set(
    'rpc_modules',
    method({
      params: [],
      // What this caller's transport serves, not every namespace of the node.
      run: ({ namespaces }, _params, scope) => Object.fromEntries(namespaces().filter((ns) => scope.namespaces.has(ns)).map((ns) => [ns, '1.0'])),
    }),
  )
  // eth_subscribe / eth_unsubscribe of a transport without notifications answer -32601: not served there.
  const unsupported = new Set<Method>(Object.values(subscribeUnsupported))
  methods.set(
    'rpc_discover',
    method({
      params: [],
      run: (s, _params, scope) => {
        const gate = (name: string, m: Method) => m.namespace ?? name.slice(0, Math.max(0, name.indexOf('_')))
        const served = [...(scope.methods ?? methods)].filter(([name, m]) => scope.namespaces.has(gate(name, m)) && !unsupported.has(m))
        return openRpcDocument(served, s.clientVersion)
      },
    }),
  )
  return methods
}
