/**
 * An ethers v6 provider for a node in the same process (`finality-evm/ethers`), whose failed calls
 * and estimates carry the Solidity frames. ethers is an optional peer dependency: only this entry
 * imports it, so `import 'finality-evm'` never loads ethers.
 *
 * Why not plain `new BrowserProvider(node.provider)`: ethers keeps only the code, message and data
 * of an EIP-1193 error (a JSON copy, in `error.info.error`), and its `Contract` makes a
 * `CALL_EXCEPTION` of its own from the revert data for a static call: the Solidity frames of the
 * node's error are lost. This provider throws the node's error itself for a failed `eth_call` or
 * `eth_estimateGas` when it carries Solidity frames, as hardhat-ethers throws Hardhat's own (its
 * `message` reads `VM Exception while processing transaction: reverted with reason string '…'`,
 * its `data` is the revert data, its stack the Solidity frames, then the caller's JavaScript
 * frames down to the test's line). In the default (geth) mode the error stays ethers' own
 * `CALL_EXCEPTION`, with the frames added to its stack and as `solidityTrace`; a `Contract`'s
 * static call makes a `CALL_EXCEPTION` of its own from the revert data there, without them. A
 * failure without frames (no contract metadata) stays ethers' own error.
 *
 * @example
 * ```ts
 * import { createNode } from 'finality-evm'
 * import { FinalityEthersProvider } from 'finality-evm/ethers'
 *
 * const node = await createNode()
 * const provider = new FinalityEthersProvider(node)
 * const signer = await provider.getSigner(node.accounts[0].address)
 * ```
 */
import { BrowserProvider, type BrowserProviderOptions, type Eip1193Provider, type JsonRpcError, type JsonRpcPayload, type TransactionRequest } from 'ethers'
import type { FinalityNode } from '../node.js'
import { callerStack, solidityStackOf, solidityTraceOf, withSolidityStack, withSolidityTrace } from '../rpc/error-map.js'

/** The part of a node the provider reads. */
export type EthersNodeLike = Pick<FinalityNode, 'provider'>

/** The methods whose failures are thrown as the node's own error when it has Solidity frames. */
const PASSED_ON = new Set(['eth_call', 'eth_estimateGas'])

/** An ethers `BrowserProvider` over the node's EIP-1193 provider; see the module's note. */
export class FinalityEthersProvider extends BrowserProvider {
  /** The node's error of each failed request, by the request's `params` (the array ethers passes on). */
  readonly #failures: WeakMap<object, unknown>

  /**
   * @param options ethers' `BrowserProvider` options; by default no cache of the block number
   * (`cacheTimeout: -1`) and receipts polled every 50 ms, as docs/in-process.md sets them for a
   * plain `BrowserProvider`.
   */
  constructor(node: EthersNodeLike, options: BrowserProviderOptions = { cacheTimeout: -1, pollingInterval: 50 }) {
    const failures = new WeakMap<object, unknown>()
    const eip1193: Eip1193Provider = {
      async request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown> {
        try {
          return await node.provider.request(args as never)
        } catch (error) {
          if (typeof args.params === 'object' && args.params !== null) failures.set(args.params, error)
          throw error
        }
      },
    }
    super(eip1193, undefined, options)
    this.#failures = failures
  }

  /** ethers' error for a failed request, or the node's own when it carries Solidity frames (`eth_call`, `eth_estimateGas`). */
  override getRpcError(payload: JsonRpcPayload, error: JsonRpcError): Error {
    const original = typeof payload.params === 'object' && payload.params !== null ? this.#failures.get(payload.params) : undefined
    const frames = PASSED_ON.has(payload.method) && original instanceof Error ? solidityStackOf(original) : undefined
    if (frames === undefined) return super.getRpcError(payload, error)
    // Hardhat's form: thrown as hardhat-ethers throws Hardhat's own error.
    if ((original as { code?: unknown }).code !== 3) return original as Error
    // geth's form (the default mode): ethers' own CALL_EXCEPTION, which ethers' users read, with the frames.
    return withSolidityTrace(withSolidityStack(super.getRpcError(payload, error), frames), solidityTraceOf(original))
  }

  override async call(tx: TransactionRequest): Promise<string> {
    try {
      return await super.call(tx)
    } catch (error) {
      throw withCaller(error)
    }
  }

  override async estimateGas(tx: TransactionRequest): Promise<bigint> {
    try {
      return await super.estimateGas(tx)
    } catch (error) {
      throw withCaller(error)
    }
  }
}

/**
 * The node's error with the JavaScript frames of the awaiting caller: taken here, after the
 * failure, where V8's async frames reach the test's line through ethers' `Contract` and signer
 * (the frames the EIP-1193 provider took were those of ethers' request queue, a timer).
 */
function withCaller(error: unknown): unknown {
  const frames = solidityStackOf(error)
  if (frames === undefined || !(error instanceof Error)) return error
  return withSolidityStack(error, frames, callerStack(withCaller))
}
