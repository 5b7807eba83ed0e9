/**
 * Sends through CometBFT's mempool, answered as a real node's `broadcast_tx_sync`: a send answers
 * only once CometBFT's CheckTx took the transaction, and CheckTx's refusal is the send's error.
 *
 * `eth_sendRawTransaction` hands the bytes to CometBFT as they are: this node's CheckTx admits them
 * into the local pool (eth_sendRawTransaction's checks), and the error it refused them with is the
 * one the send throws (its JSON-RPC code and geth's words). The signing sends
 * (`eth_sendTransaction`, `personal_sendTransaction`) fill and sign into the local pool first, then
 * broadcast; a refusal there takes the transaction out of the pool again. A peer's transaction,
 * which CheckTx put in the local pool, comes through no send and is not broadcast back.
 */
import { createHash } from 'node:crypto'
import { ServerError } from '../errors.js'

/** The JSON-RPC methods that put a transaction in the pool: their answer is its hash. */
export const SEND_METHODS = ['eth_sendRawTransaction', 'eth_sendTransaction', 'personal_sendTransaction'] as const

/** What this node's CheckTx made of bytes a send is waiting on. */
type Outcome = { hash: Uint8Array } | { error: unknown }

const digest = (raw: Uint8Array): string => createHash('sha256').update(raw).digest('hex')

/** CometBFT's mempool at `rpc`, and the CheckTx outcomes of the sends waiting on it. */
export class CometMempool {
  private id = 0
  private readonly waiting = new Map<string, Outcome | undefined>()
  // One broadcast at a time: transactions reach CometBFT's mempool in the order they were sent.
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly rpc: string) {}

  /**
   * Called by this node's CheckTx with what admission made of `raw`: kept when a send waits on
   * those bytes (a peer's transaction is nobody's to answer).
   */
  checked(raw: Uint8Array, outcome: Outcome): void {
    const key = digest(raw)
    if (this.waiting.has(key)) this.waiting.set(key, outcome)
  }

  /**
   * Broadcasts `raw` and answers its hash once CheckTx took it; throws CheckTx's refusal (the
   * admission error itself when this node's CheckTx refused it), or CometBFT's.
   * `knownHash` is the hash of a transaction already in the local pool (a signing send's).
   */
  async send(raw: Uint8Array, knownHash?: Uint8Array): Promise<Uint8Array> {
    const run = this.queue.then(() => this.broadcast(raw, knownHash))
    this.queue = run.catch(() => {})
    return run
  }

  private async broadcast(raw: Uint8Array, knownHash: Uint8Array | undefined): Promise<Uint8Array> {
    const key = digest(raw)
    this.waiting.set(key, undefined)
    try {
      const answer = await this.call(raw)
      const outcome = this.waiting.get(key)
      if (answer.code !== 0) {
        if (outcome !== undefined && 'error' in outcome) throw outcome.error
        throw new ServerError(`CometBFT's CheckTx refused the transaction: ${answer.log}`)
      }
      if (outcome !== undefined && 'hash' in outcome) return outcome.hash
      if (knownHash !== undefined) return knownHash
      // Taken, yet not by this send's admission: the bytes were already in the local pool.
      throw new ServerError('already known')
    } finally {
      this.waiting.delete(key)
    }
  }

  private async call(raw: Uint8Array): Promise<{ code: number; log: string }> {
    let body: { result?: { code: number; log: string }; error?: { message: string; data?: string } }
    try {
      const response = await fetch(this.rpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method: 'broadcast_tx_sync', params: { tx: Buffer.from(raw).toString('base64') } }),
      })
      body = (await response.json()) as typeof body
    } catch (error) {
      throw new ServerError(`CometBFT's RPC at ${this.rpc} is unreachable (${(error as Error).message}): the transaction was not sent`)
    }
    if (body.error !== undefined) {
      const words = `${body.error.message}${body.error.data === undefined || body.error.data === '' ? '' : `: ${body.error.data}`}`
      // CometBFT's mempool cache holds the bytes (in its mempool, or committed lately): geth's words for a transaction it has.
      if (/tx already exists in cache/.test(words)) throw new ServerError('already known')
      throw new ServerError(`CometBFT refused the transaction: ${words}`)
    }
    if (body.result === undefined) throw new ServerError('CometBFT answered broadcast_tx_sync without a result')
    return body.result
  }
}
