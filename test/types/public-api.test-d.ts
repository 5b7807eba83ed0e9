/**
 * Type-level tests of the public API, checked by `npm run typecheck` (tsc --noEmit): nothing here
 * runs. A line that stops compiling is a regression in what users can write.
 */
import type { Abi, EIP1193Provider } from 'viem'
import { createPublicClient, createTestClient, createWalletClient, custom } from 'viem'
import { BrowserProvider, type Eip1193Provider as EthersEip1193Provider } from 'ethers'
import type {
  FinalityNode,
  Hex,
  HttpHandler,
  HttpOptions,
  Listening,
  ListenOptions,
  MiningMode,
  NodeOptions,
  RpcError,
  RpcTraceResult,
  RpcTransactionReceipt,
  Validator,
  WsEndpoint,
  WsOptions,
} from '../../src/index.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const is = <T extends true>(): T => true as T

declare const node: FinalityNode

// node.provider is an EIP-1193 provider as viem and ethers type it.
export const viemProvider: EIP1193Provider = node.provider
export const ethersProvider: EthersEip1193Provider = node.provider
export const clients = [
  createPublicClient({ transport: custom(node.provider) }),
  createWalletClient({ transport: custom(node.provider) }),
  createTestClient({ mode: 'hardhat', transport: custom(node.provider) }),
  new BrowserProvider(node.provider),
]

// Typed results of the common methods, through node.request and the provider.
export async function results() {
  is<Equal<Awaited<ReturnType<typeof blockNumber>>, Hex>>()
  const blockNumber = () => node.request({ method: 'eth_blockNumber' })
  const balance: Hex = await node.request({ method: 'eth_getBalance', params: ['0x0000000000000000000000000000000000000001', 'latest'] })
  const chainId: Hex = await node.provider.request({ method: 'eth_chainId' })
  const accounts: Hex[] = await node.request({ method: 'eth_accounts' })
  const hash: Hex = await node.request({ method: 'eth_sendTransaction', params: [{ from: accounts[0], to: accounts[1], value: '0x1' }] })
  const receipt = await node.request({ method: 'eth_getTransactionReceipt', params: [hash] })
  is<Equal<typeof receipt, RpcTransactionReceipt | null>>()
  const status: Hex | undefined = receipt?.status
  // Every served method is typed; any other name is callable and resolves to unknown.
  const trace = await node.request({ method: 'debug_traceTransaction', params: [hash] })
  is<Equal<typeof trace, RpcTraceResult>>()
  const other = await node.request({ method: 'eth_someFutureMethod', params: [hash] })
  is<Equal<typeof other, unknown>>()
  // @ts-expect-error: eth_blockNumber's result is hex, not a number.
  const wrong: number = await node.request({ method: 'eth_blockNumber' })
  return { balance, chainId, status, wrong }
}

// The option and transport types users annotate their code with.
export const options: NodeOptions = { chainId: 1337, mining: { mode: 'interval', blockTime: 1000 } satisfies MiningMode }
export const listenOptions: ListenOptions = { port: 0, host: '127.0.0.1' }
export const httpOptions: HttpOptions = { cors: ['http://localhost:5173'] }
export const wsOptions: WsOptions = { path: '/ws' }
export declare const listening: Listening
export declare const handler: HttpHandler
export declare const endpoint: WsEndpoint
export const address: Hex = node.accounts[0]!.address
export const validator: Validator | undefined = node.validators[0]
export const code: number = (null as unknown as RpcError).code
export type { Abi }
