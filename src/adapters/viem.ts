/**
 * viem settings for a node in the same process (`finality-evm/viem`). viem is an optional peer
 * dependency: only this entry imports it, so `import 'finality-evm'` never loads viem.
 *
 * Why not plain `custom(node.provider)`: viem's `custom` transport recognises an error only by
 * its own error classes or a code from its list (-32700…-32006, 4001…4902, 57xx). A revert is
 * code 3, which viem maps to `UnknownRpcError` for a custom transport and retries three times
 * with back-off (~1 s a revert). Over HTTP viem keeps code 3 and does not retry. The transport
 * here sets `retryCount: 0` (an in-process request never fails transiently), and the client
 * settings read a fresh block number after every block, as Hardhat's viem plugin does for its
 * development network.
 *
 * @example
 * ```ts
 * import { createNode } from 'finality-evm'
 * import { clientConfig } from 'finality-evm/viem'
 * import { createPublicClient, createWalletClient, createTestClient } from 'viem'
 *
 * const node = await createNode()
 * const client = createPublicClient(clientConfig(node))
 * const wallet = createWalletClient({ ...clientConfig(node), account: node.accounts[0].address })
 * const test = createTestClient({ ...clientConfig(node), mode: 'hardhat' })
 * ```
 */
import { custom, type Chain, type CustomTransport, type CustomTransportConfig } from 'viem'
import type { FinalityNode } from '../node.js'

/** The part of a node the viem settings read. */
export type ViemNodeLike = Pick<FinalityNode, 'provider' | 'chainId'>

/** Client settings to spread into `createPublicClient`, `createWalletClient`, `createTestClient`. */
export interface FinalityClientConfig {
  readonly chain: Chain
  readonly transport: CustomTransport
  /** 0: `getBlockNumber` asks the node every time (viem caches it for 4 s by default). */
  readonly cacheTime: number
  /** ms between polls of `waitForTransactionReceipt` and the `watch*` actions (viem's default is 4 s). */
  readonly pollingInterval: number
}

/** Polling interval of {@link clientConfig}: Hardhat's viem plugin uses the same for its local network. */
export const DEFAULT_POLLING_INTERVAL = 50

/**
 * A viem transport over the node's EIP-1193 provider that does not retry: a revert or any other
 * error reaches the caller after one request.
 *
 * @param config viem's `custom` transport settings; `retryCount` defaults to 0 here.
 */
export function finalityTransport(node: ViemNodeLike, config: CustomTransportConfig = {}): CustomTransport {
  return custom(node.provider, { key: 'finality', name: 'finality', retryCount: 0, ...config })
}

/**
 * A viem `Chain` for the node: its chain id, ether as the currency, no URL (the chain is in
 * the process). The id is read when this is called: after `anvil_setChainId`, call it again.
 */
export function finalityChain(node: ViemNodeLike): Chain {
  // viem's Chain.id is a number: past 2^53 - 1 it would name another chain and sign for it.
  if (node.chainId > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`finalityChain: viem's Chain.id is a number, exact up to 2^53 - 1; this chain's id ${node.chainId} is larger`)
  return {
    id: Number(node.chainId),
    name: 'finality',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [] } },
    testnet: true,
  }
}

/**
 * The settings for any viem client of the node: {@link finalityChain}, {@link finalityTransport},
 * `cacheTime: 0` and a 50 ms polling interval.
 */
export function clientConfig(
  node: ViemNodeLike,
  options: { readonly pollingInterval?: number; readonly transport?: CustomTransportConfig } = {},
): FinalityClientConfig {
  return {
    chain: finalityChain(node),
    transport: finalityTransport(node, options.transport),
    cacheTime: 0,
    pollingInterval: options.pollingInterval ?? DEFAULT_POLLING_INTERVAL,
  }
}
