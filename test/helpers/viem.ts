/** viem clients over a finality node's EIP-1193 provider, shared by the viem-based tests. */
import {
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  getAddress,
  type Account,
  type JsonRpcAccount,
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

/**
 * The transport over `node.provider`. No retries: viem's custom transport turns provider errors
 * with codes it does not know (such as 3, execution reverted) into UnknownRpcError and retries
 * them with backoff, which only slows reverting calls down and could hide a flaky node.
 */
function transportOf(node: FinalityNode) {
  return custom(node.provider, { retryCount: 0 })
}

/** A public client reading through `node.provider`. Polling is fast: blocks are committed before a send returns. */
export function publicClientOf(node: FinalityNode): TestPublicClient {
  return createPublicClient({ chain: finalityChain, transport: transportOf(node), pollingInterval: 50 })
}

/** A wallet client; `account` is a JSON-RPC address (the node signs) or a local viem account (viem signs). */
export function walletClientOf(node: FinalityNode, account: Account | `0x${string}`): TestWalletClient {
  return createWalletClient({
    account: typeof account === 'string' ? toJsonRpcAccount(account) : account,
    chain: finalityChain,
    transport: transportOf(node),
    pollingInterval: 50,
  })
}

/** A wallet client with an account set, so actions need neither `account` nor `chain`. */
export type TestWalletClient = WalletClient<Transport, typeof finalityChain, Account>

function toJsonRpcAccount(address: `0x${string}`): JsonRpcAccount {
  return { address, type: 'json-rpc' }
}

/**
 * The prefunded account `i` of a node (throws if it does not exist, so tests never see undefined),
 * with the address checksummed as viem returns decoded addresses.
 */
export function accountAt(node: FinalityNode, i: number): { address: `0x${string}`; privateKey: `0x${string}` } {
  const account = node.accounts[i]
  if (account === undefined) throw new Error(`node has no prefunded account ${i}`)
  return { address: getAddress(account.address), privateKey: account.privateKey }
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
