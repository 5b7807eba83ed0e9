/**
 * The Hardhat 2 plugin (`require('finality-evm/hardhat')` in hardhat.config.js): Hardhat's own
 * `hardhat` network becomes a finality node configured from `networks.hardhat`.
 *
 * Hardhat 2 makes a network's provider lazily (`LazyInitializationProviderAdapter`), on the first
 * request, with `createProvider` (internal/core/providers/construction): for the `hardhat`
 * network it first creates EDR's provider and only then hands it to the `extendProvider`
 * extenders, so an extender cannot avoid EDR. This plugin replaces `hre.network.provider` in an
 * `extendEnvironment` (which runs when the runtime environment is made, before any request)
 * with a lazy provider that does what `createProvider` does after EDR: the node's provider, the
 * project's extenders in order, then `applyProviderWrappers` (sender, `gas`, `gasPrice`,
 * `gasMultiplier`, `from`) and the `BackwardsCompatibilityProviderAdapter`. hardhat-ethers,
 * the chai matchers and the network helpers see Hardhat's own network name, so they behave as on
 * Hardhat Network (a fixed gas per send, no estimate on `pending`).
 *
 * `hardhat node` serves the same provider with Hardhat's own JSON-RPC server (HTTP and
 * WebSocket, 127.0.0.1:8545 by default, the banner listing the accounts): its `node:get-provider`
 * subtask takes `hre.network.provider` on the `hardhat` network, and this plugin builds the
 * same node when another network is the default.
 */
import type { EIP1193Provider, EthereumProvider, HardhatRuntimeEnvironment, RequestArguments } from 'hardhat/types/index.js'
import { extendEnvironment, subtask } from 'hardhat/config.js'
import { TASK_NODE_GET_PROVIDER } from 'hardhat/builtin-tasks/task-names.js'
import { HardhatContext } from 'hardhat/internal/context.js'
import { applyProviderWrappers } from 'hardhat/internal/core/providers/construction.js'
import { BackwardsCompatibilityProviderAdapter } from 'hardhat/internal/core/providers/backwards-compatibility.js'
import { LazyInitializationProviderAdapter } from 'hardhat/internal/core/providers/lazy-initialization.js'
import { ProviderWrapper } from 'hardhat/internal/core/providers/wrapper.js'
import { ProviderError } from 'hardhat/internal/core/providers/errors.js'
import { normalizeHardhatNetworkAccountsConfig } from 'hardhat/internal/core/providers/util.js'
import type { HardhatNetworkConfig, HardhatNetworkHDAccountsConfig, Network } from 'hardhat/types/index.js'
import { hardhatNetworkOptions, type HardhatNetworkSettings } from './network-options.js'

type Finality = typeof import('../index.js')

const HARDHAT = 'hardhat'

/**
 * The package's main entry, loaded at the first request (a Hardhat command that sends none,
 * `hardhat compile`, never loads the node). Built, this is dist/index.cjs beside this plugin's
 * dist/hardhat.cjs (the build maps the specifier), so the engine bundle is loaded once.
 */
function finality(): Finality {
  return require('../index.js') as Finality
}

/**
 * The node's provider as Hardhat's code expects the `hardhat` network's: errors are Hardhat's
 * `ProviderError` (its JSON-RPC server keeps the code, message, transaction hash and revert data
 * only of those; any other error it answers as -32603 with the class name in the message), each
 * subscription message is also the `notification` event its WebSocket server listens for, and
 * the request log of `loggingEnabled` (switched by `hardhat_setLoggingEnabled`, which `hardhat
 * node` sends at start) prints the name of each method called.
 */
class NodeAdapter extends ProviderWrapper {
  constructor(provider: EIP1193Provider, private enabled: boolean) {
    super(provider)
    provider.on('message', (message: { type?: string; data?: { subscription: string; result: unknown } }) => {
      if (message.type === 'eth_subscription' && message.data !== undefined) provider.emit('notification', message.data)
    })
  }

  async request(args: RequestArguments): Promise<unknown> {
    if (this.enabled) console.log(args.method)
    let result: unknown
    try {
      result = await this._wrappedProvider.request(args)
    } catch (thrown) {
      throw providerError(thrown)
    }
    if (args.method === 'hardhat_setLoggingEnabled' && Array.isArray(args.params)) this.enabled = args.params[0] === true
    return result
  }
}

/**
 * A JSON-RPC error of the node as Hardhat's `ProviderError`, its `data` kept as the node gave it
 * (`{ message, txHash, data }` for a failed transaction, as Hardhat's node answers) and the hash
 * also as `transactionHash`, where Hardhat's server and EDR's provider put it.
 */
function providerError(thrown: unknown): unknown {
  const e = thrown as { code?: unknown; message?: unknown; data?: { txHash?: unknown } | unknown }
  if (!(thrown instanceof Error) || typeof e.code !== 'number') return thrown
  const error = new ProviderError(thrown.message, e.code, thrown) as ProviderError & { transactionHash?: string }
  error.data = e.data
  const hash = (e.data as { txHash?: unknown } | undefined)?.txHash
  if (typeof hash === 'string') error.transactionHash = hash
  // The Solidity frames above the JavaScript ones, as Hardhat's own errors carry them.
  const frames = (thrown as { solidityStack?: readonly string[] }).solidityStack
  if (frames !== undefined && frames.length > 0) {
    // Hardhat's ProviderError gives `stack` a getter only (its own stack, then the cause's): the
    // property is redefined, joined when read, as the node's own errors are (rpc/error-map.ts).
    const own = Object.getOwnPropertyDescriptor(error, 'stack')
    const read = (): string | undefined => (own?.get !== undefined ? (own.get.call(error) as string | undefined) : (own?.value as string | undefined))
    let stack: string | undefined
    Object.defineProperty(error, 'stack', {
      configurable: true,
      enumerable: false,
      get: () => {
        if (stack !== undefined) return stack
        const lines = (read() ?? String(error)).split('\n')
        const at = lines.findIndex((l) => l.startsWith('    at '))
        lines.splice(at === -1 ? lines.length : at, 0, ...frames.map((f) => `    at ${f}`))
        return (stack = lines.join('\n'))
      },
      set: (value: string) => {
        stack = value
      },
    })
  }
  return error
}

/** What the user wrote under networks.hardhat (Hardhat resolves `initialDate` to now and `chains` to its table when absent). */
function userSetting(hre: HardhatRuntimeEnvironment) {
  const written = (hre.userConfig.networks?.[HARDHAT] ?? {}) as Record<string, unknown>
  return (setting: 'initialDate' | 'chains') => written[setting] !== undefined
}

/**
 * The project's build-info files handed to the node, as Hardhat 2 hands them to EDR when it makes
 * its provider (at the first request, after `hardhat test` compiled): failures then name custom
 * errors and carry Solidity frames. One that cannot be read is warned about and passed over, as
 * Hardhat does ("Stack traces engine could not be initialized").
 */
async function addBuildInfos(hre: HardhatRuntimeEnvironment, node: { addArtifacts(paths: string[]): number }): Promise<void> {
  const paths = await hre.artifacts.getBuildInfoPaths()
  if (paths.length === 0) return
  try {
    node.addArtifacts(paths)
  } catch (error) {
    console.warn(`finality: the build-info files could not be read, failures will not name custom errors: ${(error as Error).message}`)
  }
}

/** The `hardhat` network's provider: a finality node behind Hardhat's own wrappers. */
function finalityProvider(hre: HardhatRuntimeEnvironment, extenders: HardhatContext['providerExtenders']): EthereumProvider {
  return new LazyInitializationProviderAdapter(async () => {
    const config = hre.config.networks[HARDHAT] as HardhatNetworkConfig
    const options = hardhatNetworkOptions(config as unknown as HardhatNetworkSettings, {
      userSet: userSetting(hre),
      deriveAccounts: (accounts) => normalizeHardhatNetworkAccountsConfig(accounts as HardhatNetworkHDAccountsConfig),
    })
    // Solidity console.log goes to standard output, as Hardhat prints it.
    const node = await finality().createNode({ ...options, onConsoleLog: (message) => console.log(message) })
    await addBuildInfos(hre, node)
    let provider: EIP1193Provider = new NodeAdapter(node.provider as unknown as EIP1193Provider, config.loggingEnabled)
    for (const extender of extenders) provider = await extender(provider, hre.config, HARDHAT)
    provider = applyProviderWrappers(provider, config, extenders)
    return new BackwardsCompatibilityProviderAdapter(provider)
  })
}

extendEnvironment((hre) => {
  if (hre.network.name !== HARDHAT) return
  hre.network.provider = finalityProvider(hre, HardhatContext.getHardhatContext().providerExtenders)
})

// `hardhat node` with another network as the default: Hardhat makes its `hardhat` provider
// itself there (with EDR, without extenders); the node is finality's here too.
subtask(TASK_NODE_GET_PROVIDER).setAction(async (args, hre, runSuper) => {
  if (hre.network.name === HARDHAT) return runSuper(args)
  // The subtask reads hre.network; it is the hardhat network for this call only.
  const env = hre as { network: Network }
  const network = env.network
  env.network = { name: HARDHAT, config: hre.config.networks[HARDHAT], provider: finalityProvider(hre, []) }
  try {
    return await runSuper(args)
  } finally {
    env.network = network
  }
})
