/**
 * debug_traceChain as geth serves it: `debug_subscribe("traceChain", start, end, config?)` on a
 * connection that carries notifications; the blocks after `start` up to `end` are traced in
 * order, each one notified as `debug_subscription` with `{ block, hash, traces }` (geth's
 * `blockTraceResult`, traces as debug_traceBlockByNumber's). Unsubscribing or closing the
 * connection stops the tracing between blocks.
 */
import { ServerError } from '../../errors.js'
import { data, quantity, type Hex } from '../../hex.js'
import type { Services } from '../../services.js'
import type { Subscriptions } from '../../filters/subscriptions.js'
import { blockByTag, receiptsOf } from '../blocks.js'
import { blockTag, decodeParam, type BlockTag } from '../codecs.js'
import { traceConfig } from './trace.js'

async function blockAt(s: Services, tag: BlockTag) {
  const block = await blockByTag(s, tag)
  if (block === undefined) throw new ServerError(`block #${tag.kind === 'number' ? tag.number : s.chain.height} not found`)
  return block
}

/**
 * Subscribes `traceChain` on `subs`. The subscription is made before the blocks are looked up so
 * that its id is known while the handler is still synchronous (the transport sends the id before
 * any notification); a bad range removes it again and answers geth's error.
 */
export async function traceChain(s: Services, subs: Subscriptions, created: (id: Hex) => void, args: unknown[]): Promise<Hex> {
  const start = decodeParam(blockTag, args[0], 1)
  const end = decodeParam(blockTag, args[1], 2)
  const config = decodeParam(traceConfig, args[2], 3)
  const task = subs.subscribeTask('debug')
  created(task.id)
  try {
    const from = await blockAt(s, start)
    const to = await blockAt(s, end)
    if (from.header.number >= to.header.number) {
      throw new ServerError(`end block (#${to.header.number}) needs to come after start block (#${from.header.number})`)
    }
    void (async () => {
      for (let n = from.header.number + 1n; n <= to.header.number && task.live(); n++) {
        const block = await s.chain.blockByNumber(n)
        if (block === undefined || !task.live()) return
        let traces: unknown
        try {
          traces = await s.tracing.traceBlock(block, await receiptsOf(s, block), config)
        } catch (error) {
          // geth puts a block's failure in each transaction's entry.
          traces = block.transactions.map((tx) => ({ txHash: data(tx.hash()), error: (error as Error).message }))
        }
        task.emit({ block: quantity(n), hash: data(block.hash()), traces })
      }
    })()
    return task.id
  } catch (error) {
    subs.unsubscribe(task.id)
    throw error
  }
}
