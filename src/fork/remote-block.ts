/**
 * A block of a fork's remote at or below the fork block, whole: its transactions built from the
 * remote's JSON (checked against the header's transactions root, and its hash against the
 * remote's), its receipts (checked against the receipts root), so that it can be replayed by the
 * debug_trace* methods and re-encoded by debug_getRaw*.
 */
import { Block, createBlockHeaderFromRPC } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { Blob4844Tx, createTx, normalizeTxParams, type TypedTransaction } from '@ethereumjs/tx'
import { createWithdrawal, type WithdrawalData } from '@ethereumjs/util'
import { encodeConsensusReceipt, type RawLog, type StoredReceipt } from '../chain/receipts.js'
import { Refused } from '../domain-errors.js'
import { equalBytes, fromHex, keyOf } from '../hex.js'
import { orderedRoot } from '../execution/builder.js'
import type { RemoteForks } from './remote-forks.js'

/** A remote block with its transactions and receipts. */
export interface RemoteBlock {
  block: Block
  receipts: StoredReceipt[]
}

type Call = (method: string, params: unknown[]) => Promise<unknown>

const hexOf = (v: unknown, what: string): Uint8Array => {
  if (typeof v !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(v)) throw new Refused(`${what} is not hex: ${JSON.stringify(v)?.slice(0, 60)}`)
  return fromHex(v)
}

const quantityOf = (v: unknown, what: string): bigint => {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]+$/.test(v)) throw new Refused(`${what} is not a quantity: ${JSON.stringify(v)?.slice(0, 60)}`)
  return BigInt(v)
}

/** A receipt of the remote's JSON as this chain keeps receipts. */
function storedReceipt(json: Record<string, unknown>, where: string): StoredReceipt {
  const logs = (Array.isArray(json.logs) ? json.logs : []) as Record<string, unknown>[]
  const receipt: StoredReceipt = {
    status: json.status === undefined || json.status === null ? 1 : quantityOf(json.status, `${where} status`) === 0n ? 0 : 1,
    cumulativeGasUsed: quantityOf(json.cumulativeGasUsed, `${where} cumulativeGasUsed`),
    gasUsed: quantityOf(json.gasUsed, `${where} gasUsed`),
    logs: logs.map((l): RawLog => [hexOf(l.address, `${where} log address`), ((l.topics ?? []) as unknown[]).map((t) => hexOf(t, `${where} log topic`)), hexOf(l.data, `${where} log data`)]),
    bloom: hexOf(json.logsBloom, `${where} logsBloom`),
    from: hexOf(json.from, `${where} from`),
  }
  if (typeof json.contractAddress === 'string') receipt.contractAddress = fromHex(json.contractAddress)
  if (typeof json.blobGasUsed === 'string') receipt.blobGasUsed = BigInt(json.blobGasUsed)
  if (typeof json.root === 'string' && json.root.length === 66 && (json.status === undefined || json.status === null)) receipt.root = fromHex(json.root)
  return receipt
}

/**
 * The remote's block `at` (a number or a hash) with its transactions and receipts, verified:
 * undefined when the remote has no such block.
 */
export async function fetchRemoteBlock(call: Call, remoteName: string, forks: RemoteForks, at: bigint | Uint8Array): Promise<RemoteBlock | undefined> {
  const json = (await (typeof at === 'bigint' ? call('eth_getBlockByNumber', [`0x${at.toString(16)}`, true]) : call('eth_getBlockByHash', [`0x${keyOf(at)}`, true]))) as Record<string, unknown> | null
  if (json === null || json === undefined) return undefined
  if (typeof json !== 'object' || typeof json.hash !== 'string') throw new Refused(`fork: the remote ${remoteName} answered a block request with no block`)
  const hash = fromHex(json.hash)
  const number = quantityOf(json.number, 'the block number')
  const where = `block ${number} of the remote ${remoteName}`
  const uncleHashes = (Array.isArray(json.uncles) ? json.uncles : []) as unknown[]
  const uncles = await Promise.all(uncleHashes.map((_, i) => call('eth_getUncleByBlockHashAndIndex', [json.hash, `0x${i.toString(16)}`])))
  const common = forks.at(json)
  const options = { common, setHardfork: false, skipConsensusFormatValidation: true } as const
  let block: Block
  try {
    block = blockFromRPC(json, uncles, options)
  } catch (error) {
    throw new Refused(`fork: ${where} cannot be read here: ${(error as Error).message}`)
  }
  if (!equalBytes(block.hash(), hash)) throw new Refused(`fork: ${where} does not hash to ${json.hash} under hardfork ${common.hardfork()}`)
  if (!(await block.transactionsTrieIsValid())) throw new Refused(`fork: the transactions the remote ${remoteName} answered for block ${number} do not match its transactions root`)
  if (uncles.length > 0 && !block.uncleHashIsValid()) throw new Refused(`fork: the uncles the remote ${remoteName} answered for block ${number} do not match its uncle hash`)
  const receipts = await remoteReceipts(call, json, block, where)
  const root = orderedRoot(receipts.map((r, i) => encodeConsensusReceipt(r.root === undefined ? { status: r.status, cumulativeBlockGasUsed: r.cumulativeGasUsed, bitvector: r.bloom, logs: r.logs } : { stateRoot: r.root, cumulativeBlockGasUsed: r.cumulativeGasUsed, bitvector: r.bloom, logs: r.logs }, block.transactions[i]!.type)))
  if (!equalBytes(root, block.header.receiptTrie)) throw new Refused(`fork: the receipts the remote ${remoteName} answered for block ${number} do not match its receipts root`)
  return { block, receipts }
}

/**
 * A block from the remote's JSON, as @ethereumjs/block's createBlockFromRPC makes it but for
 * blob transactions, which it builds only with a KZG setup (src/chain/decode.ts says why none is
 * loaded): their canonical form needs none.
 */
function blockFromRPC(json: Record<string, unknown>, uncles: unknown[], options: { readonly common: Common; readonly setHardfork: false; readonly skipConsensusFormatValidation: true }): Block {
  const header = createBlockHeaderFromRPC(json as never, options)
  const transactions = ((json.transactions ?? []) as unknown[]).map((raw): TypedTransaction => {
    const params = normalizeTxParams(raw as never)
    return Number(params.type ?? 0) === 3 ? new Blob4844Tx(params as never, { common: header.common }) : createTx(params as never, { common: header.common })
  })
  const uncleHeaders = uncles.map((u) => createBlockHeaderFromRPC(u as never, options))
  const withdrawals = header.common.isActivatedEIP(4895) ? ((json.withdrawals ?? []) as WithdrawalData[]).map(createWithdrawal) : undefined
  return new Block(header, transactions, uncleHeaders, withdrawals, options)
}

/** The block's receipts: eth_getBlockReceipts, or one eth_getTransactionReceipt each where the remote lacks it. */
async function remoteReceipts(call: Call, json: Record<string, unknown>, block: Block, where: string): Promise<StoredReceipt[]> {
  const count = block.transactions.length
  if (count === 0) return []
  let list: unknown
  try {
    list = await call('eth_getBlockReceipts', [json.hash])
  } catch {
    list = undefined
  }
  if (!Array.isArray(list) || list.length !== count) {
    list = await Promise.all(block.transactions.map((tx) => call('eth_getTransactionReceipt', [`0x${keyOf(tx.hash())}`])))
  }
  return (list as unknown[]).map((r, i) => {
    if (typeof r !== 'object' || r === null) throw new Refused(`fork: ${where} has no receipt for its transaction ${i}`)
    return storedReceipt(r as Record<string, unknown>, `the receipt of transaction ${i} of ${where}`)
  })
}
