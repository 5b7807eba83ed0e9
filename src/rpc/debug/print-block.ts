/**
 * debug_printBlock: a block as readable text. geth answers `spew.Sdump` of its in-memory Go
 * struct (pointer addresses and caches included), which no other program can reproduce; this
 * node answers a format of its own, documented in docs/debug.md: the fields of
 * eth_getBlockByNumber(n, true), one per line, quantities in decimal.
 */
import type { Block } from '@ethereumjs/block'
import type { StoredReceipt } from '../../chain/receipts.js'
import { formatBlock } from '../format.js'

/** Fields that are quantities on the wire and read better in decimal. */
const QUANTITIES = new Set([
  'number', 'gasLimit', 'gasUsed', 'timestamp', 'difficulty', 'totalDifficulty', 'baseFeePerGas', 'blobGasUsed', 'excessBlobGas', 'size',
  'nonce', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'maxFeePerBlobGas', 'value', 'type', 'chainId', 'transactionIndex', 'v', 'yParity',
  'index', 'validatorIndex', 'amount',
])

function value(key: string, v: unknown, isTx: boolean): string {
  // A block's `nonce` is 8 bytes of data, a transaction's a quantity.
  if (typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v) && QUANTITIES.has(key) && (isTx || key !== 'nonce')) return BigInt(v).toString()
  return typeof v === 'string' ? v : JSON.stringify(v)
}

function fields(o: Record<string, unknown>, indent: string, isTx: boolean, skip: ReadonlySet<string>): string[] {
  const keys = Object.keys(o).filter((k) => !skip.has(k))
  const width = Math.max(0, ...keys.map((k) => k.length)) + 1
  return keys.map((k) => `${indent}${`${k}:`.padEnd(width)} ${value(k, o[k], isTx)}`)
}

const BLOCK_SKIP = new Set(['transactions', 'withdrawals', 'uncles', 'hash', 'number'])
const TX_SKIP = new Set(['blockHash', 'blockNumber', 'blockTimestamp', 'transactionIndex', 'hash'])

/** The text debug_printBlock answers. */
export function printBlock(block: Block, receipts: StoredReceipt[]): string {
  const json = formatBlock(block, true, receipts) as Record<string, unknown>
  const txs = (json.transactions ?? []) as Array<Record<string, unknown>>
  const lines = [`Block #${block.header.number} ${String(json.hash)}`, ...fields(json, '  ', false, BLOCK_SKIP)]
  lines.push(`Transactions (${txs.length}):`)
  txs.forEach((tx, i) => {
    lines.push(`  [${i}] ${String(tx.hash)}`, ...fields(tx, '      ', true, TX_SKIP))
  })
  lines.push(`Uncles (${(json.uncles as unknown[]).length}):`, ...(json.uncles as string[]).map((u) => `  ${u}`))
  const withdrawals = json.withdrawals as Array<Record<string, unknown>> | undefined
  if (withdrawals !== undefined) {
    lines.push(`Withdrawals (${withdrawals.length}):`)
    withdrawals.forEach((w, i) => lines.push(`  [${i}]`, ...fields(w, '      ', true, new Set())))
  }
  return `${lines.join('\n')}\n`
}
