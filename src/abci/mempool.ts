/**
 * Sends on to CometBFT's mempool: a transaction a send method put in the local pool (pending, or
 * queued behind a nonce gap) is broadcast through CometBFT's RPC (`broadcast_tx_sync`, which runs
 * CheckTx and gossips it to the peers). A peer's transaction, which CheckTx put in the local pool,
 * comes through no send method and is not broadcast back.
 */
import { fromHex } from '../hex.js'
import type { PoolEntry, TxPool } from '../txpool/pool.js'

/** The JSON-RPC methods that put a transaction in the pool: their answer is its hash. */
export const SEND_METHODS = ['eth_sendRawTransaction', 'eth_sendTransaction', 'personal_sendTransaction'] as const

/** Broadcasts to CometBFT at `rpc` what the send methods put in `pool`: `forward` with the hash a send answered. */
export function forwardSends(pool: TxPool, rpc: string, onError: (error: Error) => void = () => {}): { forward(hash: string): void } {
  let id = 0
  const broadcast = async (entry: PoolEntry): Promise<void> => {
    const raw = entry.tx.serialize()
    const response = await fetch(rpc, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'broadcast_tx_sync', params: { tx: Buffer.from(raw).toString('base64') } }),
    })
    const body = (await response.json()) as { result?: { code: number; log: string }; error?: { message: string; data?: string } }
    if (body.error !== undefined) throw new Error(`CometBFT refused 0x${entry.hash}: ${body.error.message} ${body.error.data ?? ''}`.trim())
    if (body.result !== undefined && body.result.code !== 0) throw new Error(`CometBFT's CheckTx refused 0x${entry.hash}: ${body.result.log}`)
  }
  // One broadcast at a time: a sender's transactions reach CometBFT's mempool in the order sent.
  let queue: Promise<void> = Promise.resolve()
  return {
    forward(hash) {
      const entry = pool.get(fromHex(hash.slice(2)))
      if (entry === undefined) return
      queue = queue.then(() =>
        broadcast(entry).catch((error: Error) => {
          // The network will not carry it: it leaves the local pool too.
          pool.remove(entry.hash)
          onError(error)
        }),
      )
    },
  }
}
