/**
 * Type-level tests of the typed method table, checked by `npm run typecheck` (tsc --noEmit):
 * nothing here runs. Results carry the wire shapes; a request object of a served method
 * (`RpcRequest<M>`) refuses wrong params.
 */
import type {
  CertificateWithSetJson,
  FinalityNode,
  Hex,
  RpcBlock,
  RpcCallFrame,
  RpcLog,
  RpcParityTrace,
  RpcRequest,
  RpcResult,
  RpcStructLogTrace,
  RpcTraceResult,
  RpcTransaction,
  RpcValidator,
} from '../../src/index.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const is = <T extends true>(): T => true as T

declare const node: FinalityNode
declare const hash: Hex
const addr: Hex = '0x0000000000000000000000000000000000000001'

export async function results() {
  const block = await node.request({ method: 'eth_getBlockByNumber', params: ['latest', true] })
  is<Equal<typeof block, RpcBlock | null>>()
  const full = block as RpcBlock<true>
  const first: RpcTransaction | undefined = full.transactions[0]
  const hashes: Hex[] = (block as RpcBlock<false>).transactions
  const logs = await node.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', address: addr, topics: [null, [hash]] }] })
  is<Equal<typeof logs, RpcLog[]>>()
  const cert = await node.provider.request({ method: 'finality_getCommitCertificate', params: ['latest'] })
  is<Equal<typeof cert, CertificateWithSetJson | null>>()
  const signers: Hex[] = cert?.validatorSet.map((v) => v.address) ?? []
  const validators = await node.request({ method: 'finality_getValidators' })
  is<Equal<typeof validators, RpcValidator[]>>()
  const trace = await node.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] })
  is<Equal<typeof trace, RpcTraceResult>>()
  const frame = trace as RpcCallFrame
  const structLogs = (trace as RpcStructLogTrace).structLogs.length
  const flat = await node.request({ method: 'trace_transaction', params: [hash] })
  is<Equal<typeof flat, RpcParityTrace[]>>()
  const mined = await node.request({ method: 'hardhat_mine', params: ['0x2'] })
  is<Equal<typeof mined, true>>()
  const anvilMined = await node.request({ method: 'anvil_mine', params: [2] })
  is<Equal<typeof anvilMined, null>>()
  const snapshot = await node.request({ method: 'evm_snapshot' })
  is<Equal<typeof snapshot, Hex>>()
  const pool = await node.request({ method: 'txpool_status' })
  is<Equal<typeof pool, { pending: Hex; queued: Hex }>>()
  const signed = await node.request({ method: 'personal_sign', params: ['0x68656c6c6f', addr] })
  is<Equal<typeof signed, Hex>>()
  // A name the node does not serve (a method of a newer release) resolves to unknown.
  const other = await node.request({ method: 'eth_someFutureMethod', params: [1, 2] })
  is<Equal<typeof other, unknown>>()
  is<Equal<RpcResult<'eth_someFutureMethod'>, unknown>>()

  // @ts-expect-error: a block's number is hex, not a number.
  const number: number = block!.number
  // @ts-expect-error: eth_getLogs answers logs, not hashes.
  const notHashes: Hex[] = logs
  // @ts-expect-error: hardhat_setBalance answers true, Anvil's null.
  const nothing: null = await node.request({ method: 'hardhat_setBalance', params: [addr, '0x1'] })
  return { first, hashes, signers, frame, structLogs, number, notHashes, nothing }
}

// Request objects of served methods refuse wrong params.
export const ok: RpcRequest<'eth_getBalance'> = { method: 'eth_getBalance', params: [addr, 'latest'] }
export const eip1898: RpcRequest<'eth_call'> = { method: 'eth_call', params: [{ to: addr, data: '0x' }, { blockHash: hash, requireCanonical: true }] }
export const noParams: RpcRequest<'eth_blockNumber'> = { method: 'eth_blockNumber' }
// @ts-expect-error: an address is hex, not a number.
export const numberAddress: RpcRequest<'eth_getBalance'> = { method: 'eth_getBalance', params: [123] }
// @ts-expect-error: eth_getBalance takes at most two params.
export const tooMany: RpcRequest<'eth_getBalance'> = { method: 'eth_getBalance', params: [addr, 'latest', 'x'] }
// @ts-expect-error: 'lastest' is no block tag.
export const typo: RpcRequest<'eth_getCode'> = { method: 'eth_getCode', params: [addr, 'lastest'] }
// @ts-expect-error: eth_getStorageAt needs the slot.
export const missing: RpcRequest<'eth_getStorageAt'> = { method: 'eth_getStorageAt', params: [addr] }
// @ts-expect-error: evm_mine's param is a timestamp or options, not a string.
export const badMine: RpcRequest<'evm_mine'> = { method: 'evm_mine', params: ['soon'] }
