/**
 * eth_subscribe / eth_unsubscribe. Without a connection that can carry notifications (HTTP,
 * `node.request`) they answer geth's -32601 `notifications not supported`; a WebSocket or the
 * EIP-1193 provider binds them to its own {@link Subscriptions}.
 */
import { InvalidParamsError, MethodNotFoundError } from '../../errors.js'
import { traceChain } from '../debug/trace-chain.js'
import { finalitySubscribe } from '../finality-events.js'
import type { Hex } from '../../hex.js'
import type { Limits } from '../../limits.js'
import type { SubscriptionKind, Subscriptions } from '../../filters/subscriptions.js'
import { decodeParam, field, objectParam, type Codec } from '../codecs.js'
import { type MethodTable, methodsOf } from '../method.js'
import { logFilter } from '../objects.js'
import type { Services } from '../../services.js'


/** The services these handlers read: all of them, as debug_subscribe and finality_subscribe hand them on. */
const method = methodsOf<keyof Services>()

const any: Codec<unknown> = { name: 'any', optional: false, decode: (v) => v }
const anyOptional: Codec<unknown> = { name: 'any', optional: true, decode: (v) => v }

function unsupported(name: string): never {
  throw new MethodNotFoundError(name, 'notifications not supported')
}

/** The stateless transports' entries. */
export const subscribeUnsupported: MethodTable = {
  eth_subscribe: method({ params: [anyOptional, anyOptional], run: () => unsupported('eth_subscribe') }),
  eth_unsubscribe: method({ params: [anyOptional], run: () => unsupported('eth_unsubscribe') }),
  debug_subscribe: method({ params: [anyOptional, anyOptional, anyOptional, anyOptional], run: () => unsupported('debug_subscribe') }),
  debug_unsubscribe: method({ params: [anyOptional], run: () => unsupported('debug_unsubscribe') }),
  finality_subscribe: method({ params: [anyOptional], run: () => unsupported('finality_subscribe') }),
  finality_unsubscribe: method({ params: [anyOptional], run: () => unsupported('finality_unsubscribe') }),
}

/**
 * The entries of one connection; `created` learns each new id so the transport can release its
 * notifications once the id is on the wire.
 */
export function subscribeMethods(subs: Subscriptions, created: (id: Hex) => void): MethodTable {
  return {
    eth_subscribe: method({
      params: [any, anyOptional],
      run: (s, [name, args]) => {
        const id = subs.subscribe(subscriptionKind(name, args, s.limits))
        created(id)
        return id
      },
    }),
    eth_unsubscribe: method({ params: [any], run: (_s, [id]) => subs.unsubscribe(id) }),
    // geth's debug namespace has one subscription, traceChain.
    debug_subscribe: method({
      params: [any, anyOptional, anyOptional, anyOptional],
      run: (s, [name, ...args]) => {
        if (typeof name !== 'string') throw new InvalidParamsError('expected subscription name as first argument')
        // geth's subscriptionNotFoundError.
        if (name !== 'traceChain') throw new MethodNotFoundError('debug_subscribe', `no ${JSON.stringify(name)} subscription in debug namespace`)
        return traceChain(s, subs, created, args)
      },
    }),
    debug_unsubscribe: method({ params: [any], run: (_s, [id]) => subs.unsubscribe(id) }),
    // The validators' consensus events (docs/consensus.md).
    finality_subscribe: method({ params: [any], run: (s, [name]) => finalitySubscribe(s, subs, created, name) }),
    finality_unsubscribe: method({ params: [any], run: (_s, [id]) => subs.unsubscribe(id) }),
  }
}

/** What eth_subscribe's params ask for; geth's errors for unknown names and bad arguments. */
export function subscriptionKind(name: unknown, args: unknown, limits: Readonly<Limits>): SubscriptionKind {
  if (typeof name !== 'string') throw new InvalidParamsError('expected subscription name as first argument')
  const noArgs = args === undefined || args === null
  switch (name) {
    case 'newHeads': {
      if (noArgs) return { name, full: false }
      const o = decodeParam({ name: 'options', optional: true, decode: (v) => objectParam(v, 'newHeadsOptions') }, args, 1)
      return { name, full: field(o, 'includeTransactions') === true }
    }
    case 'logs':
      return { name, filter: noArgs ? { addresses: [], topics: [] } : decodeParam(logFilter(limits), args, 1) }
    case 'newPendingTransactions':
      if (!noArgs && typeof args !== 'boolean') throw InvalidParamsError.argument(1, 'json: cannot unmarshal into Go value of type bool')
      return { name, full: args === true }
    case 'syncing':
      return { name }
    default:
      throw new MethodNotFoundError(name, `no "${name}" subscription in eth namespace`)
  }
}
