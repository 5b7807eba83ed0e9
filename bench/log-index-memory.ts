/**
 * Heap the log index keeps per log, beside the receipts the chain holds anyway: `blocks` blocks
 * of one transaction with one ERC20-Transfer-shaped log each (address, three topics, 32 bytes of
 * data), fed through a stand-in chain's `block` event. Run with
 * `node --expose-gc --import tsx bench/log-index-memory.ts [blocks] [perBlock]`.
 */
import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'eventemitter3'
import type { Chain } from '../src/chain/chain.js'
import type { RawLog, StoredReceipt } from '../src/chain/receipts.js'
import { LogIndex } from '../src/filters/log-index.js'

const blocks = Number(process.argv[2] ?? 100_000)
const perBlock = Number(process.argv[3] ?? 1)
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with --expose-gc')
const heap = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}
const token = randomBytes(20)
const topic0 = randomBytes(32)
const fakeBlock = (n: number) => {
  const hash = randomBytes(32)
  const txHash = randomBytes(32)
  return { header: { number: BigInt(n), timestamp: BigInt(1_700_000_000 + n), parentHash: randomBytes(32) }, hash: () => hash, transactions: [{ hash: () => txHash }] }
}
const genesis = fakeBlock(0)
const chain = Object.assign(new EventEmitter(), { height: 0n, firstNumber: 0n, head: genesis }) as unknown as Chain
// What the chain holds anyway: the blocks and receipts.
const made = Array.from({ length: blocks }, (_, i) => {
  const receipts: StoredReceipt[] = [{
    status: 1, cumulativeGasUsed: 0n, gasUsed: 0n, bloom: new Uint8Array(256), from: new Uint8Array(20),
    logs: Array.from({ length: perBlock }, () => [token, [topic0, randomBytes(32), randomBytes(32)], randomBytes(32)] as RawLog),
  }]
  return { block: fakeBlock(i + 1), receipts }
})
;(globalThis as { keep?: unknown }).keep = made
const before = heap()
const index = new LogIndex(chain)
for (const { block, receipts } of made) chain.emit('block', block as never, receipts)
const after = heap()
if (index.size !== blocks * perBlock) throw new Error(`indexed ${index.size} logs`)
console.log(`${blocks} blocks of ${perBlock} log(s) in one transaction: ${((after - before) / (blocks * perBlock)).toFixed(0)} bytes of heap per log (its share of the block entry included)`)
