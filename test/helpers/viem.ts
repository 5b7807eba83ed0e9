/** viem clients over a finality node's EIP-1193 provider, shared by the viem-based tests. */
import {
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  type Account,
  type Chain,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem'
import type { FinalityNode } from '../../src/index.js'

/** The node's default chain (id 31337), as viem needs it to sign and to check the chain id. */
export const finalityChain = defineChain({
  id: 31337,
  name: 'finality',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:0'] } },
})

export type TestPublicClient = PublicClient<Transport, typeof finalityChain>
export type TestWalletClient = WalletClient<Transport, Chain, Account | undefined>

/** A public client reading through `node.provider`. Polling is fast: blocks are committed before a send returns. */
export function publicClientOf(node: FinalityNode): TestPublicClient {
  return createPublicClient({ chain: finalityChain, transport: custom(node.provider), pollingInterval: 50 })
}

/** A wallet client; `account` is a JSON-RPC address (the node signs) or a local viem account (viem signs). */
export function walletClientOf(node: FinalityNode, account: Account | `0x${string}`): TestWalletClient {
  return createWalletClient({ account, chain: finalityChain, transport: custom(node.provider), pollingInterval: 50 })
}

/** The prefunded account `i` of a node (throws if it does not exist, so tests never see undefined). */
export function accountAt(node: FinalityNode, i: number): { address: `0x${string}`; privateKey: `0x${string}` } {
  const account = node.accounts[i]
  if (account === undefined) throw new Error(`node has no prefunded account ${i}`)
  return account
}

/** Runs `fn` expecting it to reject; returns the rejection (fails the test if it resolves). */
export async function rejectionOf(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to reject, but it resolved')
}
