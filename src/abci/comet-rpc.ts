/**
 * Reads from a CometBFT node's RPC (JSON over HTTP, v0.38): the commit of a height and the
 * validator set of a height, decoded at this edge into bytes and bigints. Its JSON gives numbers
 * as decimal strings, hashes and addresses as upper-case hex, keys and signatures as base64.
 */
import { fromHex } from '../hex.js'

/** A precommit in a CometBFT commit (`block_id_flag` 2: a vote for the committed block). */
export interface CometPrecommit {
  /** The validator's 20-byte address (the first 20 bytes of SHA-256 of its ed25519 key). */
  validator: Uint8Array
  signature: Uint8Array
  /** The vote's time as signed: whole seconds since the epoch and nanoseconds. */
  seconds: bigint
  nanos: bigint
}

/** A CometBFT commit: the +2/3 of precommits that decided a block, and what they signed. */
export interface CometCommit {
  chainId: string
  height: bigint
  round: bigint
  /** CometBFT's block id: its header hash and the part set header of the block's parts. */
  blockHash: Uint8Array
  partsTotal: bigint
  partsHash: Uint8Array
  /** The block's proposer (CometBFT's address, the EVM block's fee recipient). */
  proposer: Uint8Array
  precommits: CometPrecommit[]
}

/** A member of a CometBFT validator set. */
export interface CometValidator {
  address: Uint8Array
  /** The 32-byte ed25519 public key. */
  publicKey: Uint8Array
  power: bigint
}

/** The answer of a CometBFT RPC call that failed (an unknown height among them), with CometBFT's words. */
export class CometRpcError extends Error {
  constructor(readonly method: string, message: string) {
    super(`CometBFT's ${method}: ${message}`)
    this.name = 'CometRpcError'
  }
}

const base64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'))

/** RFC 3339 with up to nine fraction digits (CometBFT's form) to seconds and nanoseconds. */
export function parseCometTime(text: string): { seconds: bigint; nanos: bigint } {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(text)
  if (match === null) throw new Error(`not a CometBFT time: ${JSON.stringify(text)}`)
  const ms = Date.parse(`${match[1]}Z`)
  if (Number.isNaN(ms)) throw new Error(`not a CometBFT time: ${JSON.stringify(text)}`)
  return { seconds: BigInt(ms / 1000), nanos: BigInt((match[2] ?? '').padEnd(9, '0')) }
}

/** A CometBFT RPC endpoint (`http://127.0.0.1:26657`). */
export class CometRpc {
  constructor(readonly url: string) {}

  private async get(method: string, query: Record<string, string>): Promise<any> {
    const search = new URLSearchParams(query).toString()
    let response: Response
    try {
      response = await fetch(`${this.url}/${method}${search === '' ? '' : `?${search}`}`)
    } catch (error) {
      throw new CometRpcError(method, `unreachable at ${this.url} (${(error as Error).message})`)
    }
    const body = (await response.json().catch(() => undefined)) as { result?: unknown; error?: { message?: string; data?: string } } | undefined
    if (body === undefined) throw new CometRpcError(method, `answered HTTP ${response.status} without JSON`)
    if (body.error !== undefined) throw new CometRpcError(method, [body.error.message, body.error.data].filter((s) => s !== undefined && s !== '').join(': '))
    return body.result
  }

  /** The commit of `height` (the seen commit for the latest height, canonical ones below it). */
  async commit(height: bigint): Promise<CometCommit> {
    const result = await this.get('commit', { height: height.toString() })
    const header = result.signed_header.header
    const commit = result.signed_header.commit
    return {
      chainId: String(header.chain_id),
      height: BigInt(commit.height),
      round: BigInt(commit.round),
      blockHash: fromHex(commit.block_id.hash),
      partsTotal: BigInt(commit.block_id.parts.total),
      partsHash: fromHex(commit.block_id.parts.hash),
      proposer: fromHex(header.proposer_address),
      // Only the votes for the block: absent validators (flag 1) signed nothing, nil votes (flag 3) signed another block id.
      precommits: (commit.signatures as Array<{ block_id_flag: number; validator_address: string; timestamp: string; signature: string }>)
        .filter((s) => s.block_id_flag === 2)
        .map((s) => ({ validator: fromHex(s.validator_address), signature: base64(s.signature), ...parseCometTime(s.timestamp) })),
    }
  }

  /** The validator set of `height` (known up to the latest height + 1). */
  async validators(height: bigint): Promise<CometValidator[]> {
    const out: CometValidator[] = []
    for (let page = 1; ; page++) {
      const result = await this.get('validators', { height: height.toString(), page: String(page), per_page: '100' })
      for (const v of result.validators as Array<{ address: string; pub_key: { type: string; value: string }; voting_power: string }>) {
        if (v.pub_key.type !== 'tendermint/PubKeyEd25519') throw new CometRpcError('validators', `a ${v.pub_key.type} key; this application knows ed25519 keys`)
        out.push({ address: fromHex(v.address), publicKey: base64(v.pub_key.value), power: BigInt(v.voting_power) })
      }
      if (out.length >= Number(result.total) || result.validators.length === 0) return out
    }
  }
}
