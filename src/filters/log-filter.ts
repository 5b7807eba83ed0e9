/** Log filters: what a filter asks for, and the one place a log is matched against it. */
import type { Block } from '@ethereumjs/block'
import { Bloom } from '@ethereumjs/vm'
import type { BlockTag } from '../chain/block-tag.js'
import type { RawLog, StoredReceipt } from '../chain/receipts.js'
import { equalBytes } from '../hex.js'

/** A decoded log filter. */
export interface LogFilter {
  fromBlock?: BlockTag
  toBlock?: BlockTag
  blockHash?: Uint8Array
  /** Any of these addresses; empty = any. */
  addresses: Uint8Array[]
  /** Per position: null = any, else any of the listed topics. */
  topics: Array<Uint8Array[] | null>
}

/** Formats the logs of transaction `index` of `block`, as eth_getLogs returns them. */
export type FormatLogs = (block: Block, index: number, receipts: StoredReceipt[], hash?: Uint8Array) => unknown[]

/** True when a log matches the filter's addresses and topic positions. */
export function logMatches([address, topics]: RawLog, filter: LogFilter): boolean {
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => equalBytes(a, address))) return false
  if (filter.topics.length > topics.length) return false
  return filter.topics.every((alts, i) => alts === null || alts.some((t) => equalBytes(t, topics[i] as Uint8Array)))
}

/** False when the block's bloom rules out every log the filter could match. */
export function bloomMayMatch(block: Block, filter: LogFilter): boolean {
  const bloom = new Bloom(block.header.logsBloom)
  if (filter.addresses.length > 0 && !filter.addresses.some((a) => bloom.check(a))) return false
  return filter.topics.every((alternatives) => alternatives === null || alternatives.some((t) => bloom.check(t)))
}

/** Matching logs of `block`, in block order, formatted by `format`. */
export function matchingLogs(block: Block, receipts: StoredReceipt[], filter: LogFilter, format: FormatLogs): unknown[] {
  const out: unknown[] = []
  let hash: Uint8Array | undefined
  receipts.forEach((receipt, i) => {
    if (!receipt.logs.some((log) => logMatches(log, filter))) return
    hash ??= block.hash()
    const formatted = format(block, i, receipts, hash)
    receipt.logs.forEach((log, j) => {
      if (logMatches(log, filter)) out.push(formatted[j])
    })
  })
  return out
}
