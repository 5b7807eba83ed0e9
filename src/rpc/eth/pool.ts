/** eth methods about the transaction pool: pending transactions and geth's eth_resend. */
import { ServerError } from '../../errors.js'
import { data, keyOf } from '../../hex.js'
import { optional, quantity as qty, CodecError, type Codec } from '../codecs.js'
import { formatTransaction } from '../format.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { callRequest, type CallRequest } from '../objects.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'keyring' | 'pool' | 'transactions'>
const method = methodsOf<keyof Here>()

const pendingOf = (s: Here) => s.pool.partition((sender) => s.chain.nonce(sender)).pending

/**
 * eth_resend's first param: a transaction object that must name its nonce. geth checks the nonce
 * in the handler: -32000 without `invalid argument 0:`.
 */
const resendRequest: Codec<CallRequest & { nonce: bigint; from: Uint8Array }> = {
  name: 'transaction object',
  optional: false,
  decode(v, index) {
    const req = callRequest.decode(v, index)
    if (req.nonce === undefined) throw new ServerError('missing transaction nonce in transaction spec')
    if (req.from === undefined) throw new CodecError('missing from address')
    return req as CallRequest & { nonce: bigint; from: Uint8Array }
  },
}

export const pool: MethodTable = {
  /** geth: the pending transactions sent from one of the node's accounts. */
  eth_pendingTransactions: method({
    params: [],
    run: (s) =>
      pendingOf(s)
        .filter((e) => s.keyring.has(e.sender))
        .map((e) => formatTransaction(e.tx, Buffer.from(e.sender, 'hex'))),
  }),
  /** Every pending transaction in the pool (the older, node-agnostic name). */
  eth_getPendingTransactions: method({
    params: [],
    run: (s) => pendingOf(s).map((e) => formatTransaction(e.tx, Buffer.from(e.sender, 'hex'))),
  }),
  /**
   * geth's eth_resend: replaces the node-account transaction with this sender and nonce by one
   * with the new gas price and gas limit; the replacement has to pass the pool's fee bump.
   */
  eth_resend: method({
    params: [resendRequest, optional(qty, undefined), optional(qty, undefined)],
    run: async (s, [req, gasPrice, gasLimit]) => {
      const sender = keyOf(req.from)
      const existing = s.pool.entriesOf(sender).find((e) => e.nonce === req.nonce)
      if (existing === undefined) throw new ServerError(`transaction with nonce ${req.nonce} from 0x${sender} not found`)
      const next: CallRequest = { ...req }
      if (gasLimit !== undefined) next.gas = gasLimit
      if (gasPrice !== undefined) {
        if (next.maxFeePerGas !== undefined || 'maxFeePerGas' in existing.tx) {
          next.maxFeePerGas = gasPrice
          next.maxPriorityFeePerGas = gasPrice
          delete next.gasPrice
        } else {
          next.gasPrice = gasPrice
        }
      }
      return data(await s.transactions.submit(next))
    },
  }),
}
