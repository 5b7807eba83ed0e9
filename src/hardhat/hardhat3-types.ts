/**
 * The parts of Hardhat 3's plugin API the Hardhat 3 plugin touches, written out structurally:
 * the repository builds against Hardhat 2's types (its own tests run Hardhat 2), and the plugin
 * must not depend on Hardhat at run time. The names follow Hardhat 3's (`hardhat/types/hooks`,
 * `hardhat/types/config`, `hardhat/types/network`); only the members used here are listed.
 */
import type { NodeOptions } from '../options.js'

/** A configuration variable as Hardhat 3 resolves one (`configVariable('KEY')` or a plain string). */
export interface ResolvedConfigurationVariable {
  get(): Promise<string>
}

/** Hardhat 3's resolved accounts of a simulated network: keys with balances, or a mnemonic. */
export type EdrAccountsConfig =
  | readonly { privateKey: ResolvedConfigurationVariable; balance: bigint }[]
  | {
      mnemonic: ResolvedConfigurationVariable
      accountsBalance: bigint
      count: number
      initialIndex: number
      passphrase: ResolvedConfigurationVariable
      path: string
    }

/** Hardhat 3's resolved `forking` of a simulated network. */
export interface EdrForkingConfig {
  enabled: boolean
  url: ResolvedConfigurationVariable
  blockNumber?: bigint
  httpHeaders?: Record<string, string>
}

/**
 * A network's own finality options: createNode options Hardhat's network config has no field
 * for (`validators`, `consensus`, `onConsoleLog`, `limits`, …). The settings Hardhat's config
 * does have (chain id, hardfork, accounts, mining, …) are written on the network itself.
 */
export type FinalityNetworkUserConfig = Omit<
  NodeOptions,
  | 'chainId'
  | 'hardfork'
  | 'accounts'
  | 'mnemonic'
  | 'accountCount'
  | 'balance'
  | 'allowUnlimitedContractSize'
  | 'mining'
  | 'txpool'
  | 'initialBaseFee'
  | 'blockGasLimit'
  | 'throwOnTransactionFailures'
  | 'throwOnCallFailures'
  | 'fork'
  | 'hardhatCompat'
>

/** What the plugin keeps in a finality network's resolved config. */
export interface FinalityNetworkConfig {
  /** The network's own finality options (`finality: { … }`; `{}` for `finality: true`). */
  options: FinalityNetworkUserConfig
  /** The network settings the user wrote (Hardhat fills the others with values of its own). */
  userSet: readonly string[]
  /** The network's `forking`, kept here so that Hardhat's own simulated network never forks. */
  forking?: EdrForkingConfig
}

/** The fields of Hardhat 3's resolved simulated network config (`EdrNetworkConfig`) read here. */
export interface EdrNetworkConfig {
  type: 'edr-simulated'
  chainId: number
  chainType?: string
  hardfork: string
  accounts: EdrAccountsConfig
  allowUnlimitedContractSize?: boolean
  allowBlocksWithSameTimestamp: boolean
  blockGasLimit?: bigint | false
  coinbase: Uint8Array
  gasEstimationMode: string
  initialBaseFeePerGas?: bigint
  initialDate: string | Date
  loggingEnabled: boolean
  minGasPrice: bigint
  mining: { auto: boolean; interval: number | [number, number]; mempool: { order: string } }
  networkId: number
  throwOnCallFailures: boolean
  throwOnTransactionFailures: boolean
  transactionGasCap?: bigint | false
  finality?: FinalityNetworkConfig
}

/** Any resolved network config: a simulated one, or another type the plugin leaves alone. */
export type NetworkConfig = EdrNetworkConfig | { type: string; finality?: undefined }

/** A JSON-RPC request as Hardhat's `onRequest` hook passes it. */
export interface JsonRpcRequest {
  jsonrpc: '2.0'
  id: number | string
  method: string
  params?: unknown[] | object
}

/** A JSON-RPC response as Hardhat's `onRequest` hook returns it. */
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: number | string | null; result: unknown }
  | { jsonrpc: '2.0'; id: number | string | null; error: { code: number; message: string; data?: unknown } }

/** Hardhat 3's EIP-1193 provider of a connection (an EventEmitter). */
export interface HardhatProvider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>
  close(): Promise<void>
  emit(event: string | symbol, ...args: unknown[]): boolean
}

/** Hardhat 3's network connection. */
export interface NetworkConnection {
  readonly id: number
  readonly networkName: string
  readonly networkConfig: Readonly<NetworkConfig>
  readonly chainType: string
  readonly provider: HardhatProvider
}

/** Hardhat 3's hook manager, as far as the plugin runs other plugins' `onRequest` handlers. */
export interface HookManager {
  runHandlerChain(
    category: 'network',
    hook: 'onRequest',
    params: [NetworkConnection, JsonRpcRequest],
    defaultImplementation: (context: HookContext, connection: NetworkConnection, request: JsonRpcRequest) => Promise<JsonRpcResponse>,
  ): Promise<JsonRpcResponse>
}

/** Hardhat 3's hook context (the runtime environment without its tasks). */
export interface HookContext {
  hooks: HookManager
  /** The project's artifacts; absent in a runtime made without them. */
  artifacts?: ArtifactsManager
}

/** Hardhat 3's artifacts manager, as far as the plugin reads the project's build-info files. */
export interface ArtifactsManager {
  getAllBuildInfoIds(): Promise<ReadonlySet<string>>
  getBuildInfoPath(id: string): Promise<string | undefined>
  getBuildInfoOutputPath(id: string): Promise<string | undefined>
}

/** A user config error as Hardhat 3's `validateUserConfig` hook reports one. */
export interface UserConfigValidationError {
  path: (string | number)[]
  message: string
}

/** The part of Hardhat 3's user config the plugin reads. */
export interface HardhatUserConfig {
  networks?: Record<string, Record<string, unknown> & { type?: string }>
  [key: string]: unknown
}

/** The part of Hardhat 3's resolved config the plugin changes. */
export interface HardhatConfig {
  networks: Record<string, NetworkConfig>
  [key: string]: unknown
}

/** Hardhat 3's resolver of configuration variables, handed to `resolveUserConfig`. */
export type ConfigurationVariableResolver = (variable: unknown) => ResolvedConfigurationVariable
