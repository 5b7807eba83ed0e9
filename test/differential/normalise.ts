/**
 * What is compared, and what is not. Each side's answer is rewritten before the comparison:
 *
 * - block hashes (a block's `hash` and `parentHash`, anyone's `blockHash`) become `<block N>`:
 *   finality's headers are not Hardhat's (its own miner, prevRandao and roots), so the hash of the
 *   same block differs; the number it names must agree;
 * - transaction hashes become `<tx i>`, the i-th transaction sent in the run: a transaction whose
 *   fields differ has another hash, and that difference is reported where the fields are (the
 *   transaction object, whose signature `r`, `s`, `yParity` is compared as is);
 * - a block's `mixHash` (prevRandao: each node's own randomness beacon) and `stateRoot` (the
 *   fee recipient differs, so its balance does, and with it the state root) are dropped.
 *
 * Everything else must agree: receipts' gasUsed, logs, status, contractAddress, nonces, balances,
 * return and revert data, error codes, messages and data, traces.
 */
import type { Answer, Side } from './sides.js'

/** A block hash's number on one side, looked up once (a hash names one block for good). */
export class BlockNames {
  private readonly numbers = new Map<string, string>()
  constructor(private readonly side: Side) {}

  /** `<block N>` for a hash of this side's chain, `<unknown block 0x…>` otherwise. */
  async name(hash: string): Promise<string> {
    const key = hash.toLowerCase()
    if (/^0x0{64}$/.test(key)) return '<zero hash>'
    let number = this.numbers.get(key)
    if (number === undefined) {
      const answer = await this.side.request('eth_getBlockByHash', [key, false])
      const block = 'result' in answer ? (answer.result as { number?: string } | null) : null
      if (block?.number === undefined || block.number === null) return `<unknown block ${key.slice(0, 10)}>`
      // Only a found hash is kept: a pending block's hash names a block once it is mined.
      number = BigInt(block.number).toString()
      this.numbers.set(key, number)
    }
    return `<block ${number}>`
  }
}

/** Transaction hashes of one side, named by the order they were first sent in. */
export class TxNames {
  private readonly names = new Map<string, string>()
  name(hash: string): string {
    return this.names.get(hash.toLowerCase()) ?? hash
  }
  /** Names `hash` `<tx i>` (both sides name their i-th send alike). */
  set(hash: string, index: number): void {
    if (!this.names.has(hash.toLowerCase())) this.names.set(hash.toLowerCase(), `<tx ${index}>`)
  }
  has(hash: string): boolean {
    return this.names.has(hash.toLowerCase())
  }
}

const HASH = /^0x[0-9a-fA-F]{64}$/
const BLOCK_HASH_KEYS = new Set(['blockHash', 'parentHash'])
const TX_HASH_KEYS = new Set(['transactionHash', 'txHash'])
const DROPPED_BLOCK_KEYS = new Set(['mixHash', 'stateRoot'])

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** A block object (a header's fields), as opposed to a transaction or receipt. */
function isBlock(o: Record<string, unknown>): boolean {
  return 'parentHash' in o && 'number' in o
}

/** A transaction object (its own `hash` is a transaction hash). */
function isTransaction(o: Record<string, unknown>): boolean {
  return 'nonce' in o && 'from' in o && 'hash' in o && !isBlock(o)
}

/** Rewrites one side's answer as the header comment says. */
export async function normalise(answer: Answer, blocks: BlockNames, txs: TxNames): Promise<unknown> {
  async function walk(value: unknown, key: string | undefined, parent: Record<string, unknown> | undefined): Promise<unknown> {
    if (Array.isArray(value)) {
      const out: unknown[] = []
      for (const v of value) out.push(await walk(v, key === 'transactions' ? 'transactionHash' : undefined, undefined))
      return out
    }
    if (isObject(value)) {
      const out: Record<string, unknown> = {}
      const block = isBlock(value)
      for (const [k, v] of Object.entries(value)) {
        if (block && DROPPED_BLOCK_KEYS.has(k)) continue
        out[k] = await walk(v, k, value)
      }
      return out
    }
    if (typeof value === 'string' && HASH.test(value)) {
      if (key !== undefined && BLOCK_HASH_KEYS.has(key)) return blocks.name(value)
      if (key === 'hash' && parent !== undefined && isBlock(parent)) return blocks.name(value)
      if (key === 'hash' && parent !== undefined && isTransaction(parent)) return txs.name(value)
      if ((key !== undefined && TX_HASH_KEYS.has(key)) || txs.has(value)) return txs.name(value)
    }
    return value
  }
  if ('result' in answer) return { result: await walk(answer.result, undefined, undefined) }
  return { error: await walk(answer.error, undefined, undefined) }
}

/** One place where the two normalised answers differ. */
export interface LeafDiff {
  /** `$.result.gasUsed`, `$.error.message`, `$.result[3]`… */
  path: string
  hardhat: unknown
  finality: unknown
}

function child(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
}

/** Every leaf where `a` (Hardhat) and `b` (finality) differ; a field on one side only is a difference. */
export function leafDiffs(a: unknown, b: unknown, path = '$'): LeafDiff[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [{ path: `${path}.length`, hardhat: a.length, finality: b.length }]
    return a.flatMap((v, i) => leafDiffs(v, b[i], `${path}[${i}]`))
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
    return keys.flatMap((k) => leafDiffs(a[k], b[k], child(path, k)))
  }
  if (a === b) return []
  // eth_feeHistory's gasUsedRatio: the same ratio, its last binary digit depending on how each
  // node divides; a relative difference below 1e-12 is the same answer.
  if (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b))) return []
  // A number and its hex form are different answers on the wire, so only identical values agree.
  return [{ path, hardhat: a, finality: b }]
}
