/**
 * A user's code against `node.request` and `node.provider.request`, compiled by tsc: nothing here
 * runs. test/types/user-requests.test.ts compiles it as is (no error: every `@ts-expect-error`
 * is used) and with the `@ts-expect-error` lines taken out, where each call under one must fail
 * with the message its `(tsc: …)` names, so each marks a wrong call the types refuse for that
 * reason. Served methods take only their params; other names, and a plain `string`, take any.
 */
import type { EIP1193Provider } from 'viem'
import { createPublicClient, createTestClient, createWalletClient, custom } from 'viem'
import { BrowserProvider, type Eip1193Provider as EthersEip1193Provider } from 'ethers'
import type {
  CertificateWithSetJson,
  FinalityNode,
  Hex,
  RpcBlock,
  RpcLog,
  RpcTraceResult,
  RpcTransactionReceipt,
  RpcValidator,
} from '../../src/index.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const is = <T extends true>(): T => true as T

declare const node: FinalityNode
declare const hash: Hex
const addr: Hex = '0x00000000000000000000000000000000000000aa'

/** Wrong params of served methods do not compile, through node.request and the provider alike. */
export async function wrongParams(): Promise<void> {
  // @ts-expect-error an address is hex, not a number (tsc: Type 'number' is not assignable to type '`0x${string}`')
  await node.request({ method: 'eth_getBalance', params: [123] })
  // @ts-expect-error the same through the provider (tsc: Type 'number' is not assignable to type '`0x${string}`')
  await node.provider.request({ method: 'eth_getBalance', params: [123] })
  // @ts-expect-error a misspelt block tag (tsc: Type '"lastest"' is not assignable to type 'BlockSelector | undefined'. Did you mean '"latest"'?)
  await node.request({ method: 'eth_getBalance', params: [addr, 'lastest'] })
  // @ts-expect-error eth_getBalance takes at most two params (tsc: Source has 3 element(s) but target allows only 2)
  await node.request({ method: 'eth_getBalance', params: [addr, 'latest', 'extra'] })
  // @ts-expect-error eth_call needs its transaction object first (tsc: Type 'string' has no properties in common with type 'RpcTransactionRequest')
  await node.request({ method: 'eth_call', params: ['latest'] })
  // @ts-expect-error eth_call has a required param (tsc: Property 'params' is missing)
  await node.request({ method: 'eth_call' })
  // @ts-expect-error a value is hex, not a bigint (tsc: Type 'bigint' is not assignable to type '`0x${string}`')
  await node.request({ method: 'eth_sendTransaction', params: [{ from: addr, to: addr, value: 1n }] })
  // @ts-expect-error eth_blockNumber takes no params (tsc: Type 'string' is not assignable to type 'undefined')
  await node.request({ method: 'eth_blockNumber', params: ['latest'] })
  // @ts-expect-error params are positional, not an object (tsc: is not assignable to type '[]')
  await node.request({ method: 'eth_blockNumber', params: {} })
  // @ts-expect-error seconds are a number or hex, not decimal text (tsc: Type '"60"' is not assignable to type 'NumberOrHex')
  await node.request({ method: 'evm_increaseTime', params: ['60'] })
  // @ts-expect-error nor an object (tsc: Type '{ seconds: string; }' is not assignable to type 'NumberOrHex')
  await node.request({ method: 'evm_increaseTime', params: [{ seconds: '60' }] })
  // @ts-expect-error hardhat_setBalance takes hex, not a bigint (tsc: Type 'bigint' is not assignable to type '`0x${string}`')
  await node.request({ method: 'hardhat_setBalance', params: [addr, 10n ** 18n] })
  // @ts-expect-error a fault is an object of flags (tsc: Type 'string' has no properties in common with type 'Fault')
  await node.request({ method: 'finality_setFault', params: [addr, 'offline'] })
  // @ts-expect-error a partition is a list of groups (tsc: Type '`0x${string}`' is not assignable to type '`0x${string}`[]')
  await node.request({ method: 'finality_partition', params: [[addr, addr]] })
  // @ts-expect-error a block is a tag or hex, not a bigint (tsc: Type 'bigint' is not assignable to type 'BlockTag')
  await node.provider.request({ method: 'finality_getCommitCertificate', params: [1n] })
  // @ts-expect-error a trace config is an object (tsc: Type 'string' has no properties in common with type 'RpcTraceConfig')
  await node.request({ method: 'debug_traceTransaction', params: [hash, 'callTracer'] })
  // @ts-expect-error debug_traceCall needs the block (tsc: Source has 1 element(s) but target requires 2)
  await node.request({ method: 'debug_traceCall', params: [{ to: addr }] })
  // @ts-expect-error a log filter's blocks are tags or hex (tsc: Type 'number' is not assignable to type 'BlockTag | undefined')
  await node.request({ method: 'eth_getLogs', params: [{ fromBlock: 1, toBlock: 'latest' }] })
  // @ts-expect-error a block number is hex on the wire (tsc: Type 'number' is not assignable to type 'BlockTag')
  await node.request({ method: 'debug_traceBlockByNumber', params: [1, { tracer: 'callTracer' }] })
  // @ts-expect-error a raw block is read by a block selector (tsc: Type 'true' is not assignable to type 'BlockSelector')
  await node.request({ method: 'debug_getRawBlock', params: [true] })
}

/** Served methods resolve to their wire types. */
export async function results() {
  const balance = await node.request({ method: 'eth_getBalance', params: [addr, 'latest'] })
  is<Equal<typeof balance, Hex>>()
  const chainId = await node.provider.request({ method: 'eth_chainId' })
  is<Equal<typeof chainId, Hex>>()
  const block = await node.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
  is<Equal<typeof block, RpcBlock | null>>()
  const receipt = await node.provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })
  is<Equal<typeof receipt, RpcTransactionReceipt | null>>()
  const logs = await node.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', address: addr }] })
  is<Equal<typeof logs, RpcLog[]>>()
  const called = await node.request({ method: 'eth_call', params: [{ to: addr, data: '0x' }, { blockNumber: 'latest' }, null, { time: '0x1' }] })
  is<Equal<typeof called, Hex>>()
  const offset = await node.request({ method: 'evm_increaseTime', params: [60] })
  is<Equal<typeof offset, string>>()
  const mined = await node.request({ method: 'hardhat_mine', params: ['0x2', 1] })
  is<Equal<typeof mined, true>>()
  const validators = await node.request({ method: 'finality_getValidators' })
  is<Equal<typeof validators, RpcValidator[]>>()
  const certificate = await node.request({ method: 'finality_getCommitCertificate', params: ['latest'] })
  is<Equal<typeof certificate, CertificateWithSetJson | null>>()
  const faulted = await node.request({ method: 'finality_setFault', params: [addr, { offline: true }] })
  is<Equal<typeof faulted, true>>()
  const trace = await node.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] })
  is<Equal<typeof trace, RpcTraceResult>>()
  const raw = await node.request({ method: 'debug_getRawBlock', params: ['0x1'] })
  is<Equal<typeof raw, Hex | null>>()
  // A method of several served names: each name's params, the union of the results.
  const control = Math.random() < 0.5 ? ('hardhat_setBalance' as const) : ('anvil_setBalance' as const)
  const set = await node.request({ method: control, params: [addr, '0x1'] })
  is<Equal<typeof set, true | null>>()
  return { balance, chainId, block, receipt, logs, called, offset, mined, validators, certificate, faulted, trace, raw, set }
}

/** A name the node does not serve, or a plain `string` name, takes any params and resolves to unknown. */
export async function untyped(method: string) {
  const future = await node.request({ method: 'eth_methodOfANewerRelease', params: { any: 'shape' } })
  is<Equal<typeof future, unknown>>()
  const dynamic = await node.request({ method, params: [123] })
  is<Equal<typeof dynamic, unknown>>()
  const viaProvider = await node.provider.request({ method, params: [123] })
  is<Equal<typeof viaProvider, unknown>>()
  // The provider's second type parameter: the result a caller names for a name it is not typed for.
  const named = await node.provider.request<string, { ok: boolean }>({ method })
  is<Equal<typeof named, { ok: boolean }>>()
  // @ts-expect-error a served method's result is its own, whatever the caller names (tsc: Type '`0x${string}`' is not assignable to type 'number')
  const notANumber: number = await node.provider.request<'eth_chainId', number>({ method: 'eth_chainId' })
  return { future, dynamic, viaProvider, named, notANumber }
}

/** viem and ethers take the provider as an EIP-1193 provider. */
export const viemProvider: EIP1193Provider = node.provider
export const ethersProvider: EthersEip1193Provider = node.provider
export const clients = [
  createPublicClient({ transport: custom(node.provider) }),
  createWalletClient({ transport: custom(node.provider) }),
  createTestClient({ mode: 'anvil', transport: custom(node.provider) }),
  new BrowserProvider(node.provider),
]
