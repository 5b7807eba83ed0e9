/** The logs of a just-committed block that match a filter, formatted as eth_getLogs returns them. */
import type { Block } from '@ethereumjs/block'
import type { StoredReceipt } from '../chain/receipts.js'
import { logMatches } from '../rpc/eth/logs.js'
import { formatLogs } from '../rpc/format.js'
import type { LogFilter } from '../rpc/objects.js'

/** Matching logs of `block`, in block order. */
export function matchingLogs(block: Block, receipts: StoredReceipt[], filter: LogFilter): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  let hash: Uint8Array | undefined
  receipts.forEach((receipt, i) => {
    if (!receipt.logs.some((log) => logMatches(log, filter))) return
    hash ??= block.hash()
    const formatted = formatLogs(block, i, receipts, hash)
    receipt.logs.forEach((log, j) => {
      if (logMatches(log, filter)) out.push(formatted[j] as Record<string, unknown>)
    })
  })
  return out
}
