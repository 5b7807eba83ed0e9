/**
 * Sends on to CometBFT's mempool: a transaction the local pool takes as pending (a send to this
 * node's JSON-RPC) is broadcast through CometBFT's RPC (`broadcast_tx_sync`, which runs CheckTx
 * and gossips it to the peers). A peer's transaction, which CheckTx put in the local pool, is not
 * broadcast back.
 */
import { keyOf } from '../hex.js'
import type { PoolEntry, TxPool } from '../txpool/pool.js'

export interface SendForwarder {
  /** The transaction `hash` came from CometBFT (CheckTx): do not broadcast it. */
  skip(hash: Uint8Array): void
  unskip(hash: Uint8Array): void
}

/** Broadcasts the pool's new pending transactions to CometBFT at `rpc`. */
export function forwardSends(pool: TxPool, rpc: string, onError: (error: Error) => void = () => {}): SendForwarder {
  const skipped = new Set<string>()
  let id = 0
  const broadcast = async (entry: PoolEntry): Promise<void> => {
    const raw = entry.tx.serialize()
    const response = await fetch(rpc, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'broadcast_tx_sync', params: { tx: Buffer.from(raw).toString('base64') } }),
    })
    const body = (await response.json()) as { result?: { code: number; log: string }; error?: { message: string; data?: string } }
    if (body.error !== undefined) throw new Error(`CometBFT refused ${entry.hash}: ${body.error.message} ${body.error.data ?? ''}`.trim())
    if (body.result !== undefined && body.result.code !== 0) throw new Error(`CometBFT's CheckTx refused ${entry.hash}: ${body.result.log}`)
  }
  pool.on('pending', (entry) => {
    if (skipped.has(entry.hash)) return
    broadcast(entry).catch((error: Error) => {
      // The network will not carry it: it leaves the local pool too.
      pool.remove(entry.hash)
      onError(error)
    })
  })
  return { skip: (hash) => skipped.add(keyOf(hash)), unskip: (hash) => skipped.delete(keyOf(hash)) }
}
