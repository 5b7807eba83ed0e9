/**
 * Records the JSON-RPC stream a Hardhat project sends to finality in-process (`hardhat test
 * --network inprocess`, through Hardhat's HTTP-network wrappers, which estimate gas and fill in
 * fees before sending). test/hardhat/project's config imports `createNode` from FINALITY_MODULE; pointed
 * at this file, it gets a node whose provider appends each request to FINALITY_RECORD (JSON
 * lines, as record.cjs writes them) and whose clock starts at the differential run's genesis date.
 */
import { appendFileSync, writeFileSync } from 'node:fs'
import { createNode as create, type NodeOptions } from '../../src/index.js'

const file = process.env.FINALITY_RECORD
if (file === undefined) throw new Error('record-finality.ts: FINALITY_RECORD (the output file) is not set')
const date = new Date(process.env.FINALITY_RECORD_DATE ?? '2025-01-01T00:00:00Z')
writeFileSync(file, '')

/** What a replay needs of an answer (as record.cjs keeps it). */
function compact(method: string, result: unknown): unknown {
  if (method === 'eth_sendTransaction' || method === 'eth_sendRawTransaction' || method === 'evm_snapshot') return result
  const blocks: unknown[] = []
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk)
    if (v === null || typeof v !== 'object') return
    const o = v as Record<string, unknown>
    if (typeof o.hash === 'string' && typeof o.number === 'string' && 'parentHash' in o) blocks.push({ hash: o.hash, number: o.number, parentHash: o.parentHash })
    if (typeof o.blockHash === 'string' && typeof o.blockNumber === 'string') blocks.push({ blockHash: o.blockHash, blockNumber: o.blockNumber })
    Object.values(o).forEach(walk)
  }
  walk(result)
  return blocks.length === 0 ? undefined : blocks
}

/** finality's createNode, recording its provider's requests. */
export async function createNode(options: NodeOptions) {
  const offset = date.getTime() - Date.now()
  const node = await create({
    ...options,
    genesisTimestamp: BigInt(Math.floor(date.getTime() / 1000)),
    clock: {
      now: () => Date.now() + offset,
      setTimer: (fn, ms) => {
        const t = setTimeout(fn, ms)
        t.unref()
        return () => clearTimeout(t)
      },
    },
  })
  const request = node.provider.request.bind(node.provider)
  node.provider.request = (async (args: { method: string; params?: unknown }) => {
    const entry = { method: args.method, params: args.params ?? [] }
    try {
      const result = await request(args as never)
      const kept = compact(args.method, result)
      appendFileSync(file!, JSON.stringify(kept === undefined ? entry : { ...entry, result: kept }) + '\n')
      return result
    } catch (error) {
      const data = (error as { data?: { txHash?: string } }).data
      appendFileSync(file!, JSON.stringify({ ...entry, error: data?.txHash === undefined ? {} : { transactionHash: data.txHash } }) + '\n')
      throw error
    }
  }) as typeof node.provider.request
  return node
}
