/**
 * The Hardhat 3 plugin's config hooks. A finality network is one of Hardhat 3's simulated
 * networks (`type: 'edr-simulated'`) with a `finality` field: Hardhat 3 admits only its `http` and
 * `edr-simulated` network types (its network manager refuses any other `type` when it resolves
 * the config, and its config types are closed unions), while a simulated network's config is an
 * interface plugins extend, and carries every setting the node takes (chain id, hardfork,
 * accounts, mining, …) under Hardhat's own names.
 */
import type {
  ConfigurationVariableResolver,
  EdrForkingConfig,
  FinalityNetworkConfig,
  FinalityNetworkUserConfig,
  HardhatConfig,
  HardhatUserConfig,
  NetworkConfig,
  UserConfigValidationError,
} from './hardhat3-types.js'

/**
 * Settings of Hardhat's simulated network config that the node takes from the network itself:
 * written inside `finality` they would be a second, conflicting place for the same setting.
 */
const NETWORK_SETTINGS: Readonly<Record<string, string>> = {
  chainId: 'chainId',
  hardfork: 'hardfork',
  accounts: 'accounts',
  mnemonic: 'accounts',
  accountCount: 'accounts',
  balance: 'accounts',
  allowUnlimitedContractSize: 'allowUnlimitedContractSize',
  mining: 'mining',
  txpool: 'mining.mempool',
  initialBaseFee: 'initialBaseFeePerGas',
  blockGasLimit: 'blockGasLimit',
  throwOnTransactionFailures: 'throwOnTransactionFailures',
  throwOnCallFailures: 'throwOnCallFailures',
  fork: 'forking',
  hardhatCompat: 'type',
}

/** Whether a user network config asks for a finality node. */
function isFinalityNetwork(network: Record<string, unknown>): boolean {
  return network.finality !== undefined
}

/** `validateUserConfig`: a `finality` field only on a simulated network, and of the right shape. */
export async function validateUserConfig(config: HardhatUserConfig): Promise<UserConfigValidationError[]> {
  const errors: UserConfigValidationError[] = []
  for (const [name, network] of Object.entries(config.networks ?? {})) {
    if (network === null || typeof network !== 'object' || !isFinalityNetwork(network)) continue
    const path = ['networks', name, 'finality']
    if (network.type !== 'edr-simulated') {
      errors.push({ path, message: `a finality node is a simulated network: set type: "edr-simulated" on network "${name}" (got ${JSON.stringify(network.type)})` })
      continue
    }
    const finality = network.finality
    if (finality === true) continue
    if (finality === null || typeof finality !== 'object' || Array.isArray(finality)) {
      errors.push({ path, message: 'Expected true or an object of createNode options' })
      continue
    }
    for (const key of Object.keys(finality)) {
      const setting = NETWORK_SETTINGS[key]
      if (setting !== undefined) {
        errors.push({
          path: [...path, key],
          message: setting === 'type' ? 'is always on for a finality network' : `is a setting of the network itself: write ${setting} on network "${name}", not inside finality`,
        })
      }
    }
  }
  return errors
}

function resolveForking(forking: Record<string, unknown>, resolve: ConfigurationVariableResolver): EdrForkingConfig {
  return {
    enabled: forking.enabled !== false,
    url: resolve(forking.url),
    ...(forking.blockNumber === undefined ? {} : { blockNumber: BigInt(forking.blockNumber as number | bigint) }),
    ...(forking.httpHeaders === undefined ? {} : { httpHeaders: forking.httpHeaders as Record<string, string> }),
  }
}

/**
 * `resolveUserConfig`: Hardhat resolves a finality network as the simulated network it is, then
 * the plugin adds its own part. `forking` is taken out before Hardhat sees it, so that the
 * simulated network Hardhat creates beside the node (and never asks anything) does not fork the
 * remote too; the node forks it.
 */
export async function resolveUserConfig(
  userConfig: HardhatUserConfig,
  resolveConfigurationVariable: ConfigurationVariableResolver,
  next: (config: HardhatUserConfig, resolve: ConfigurationVariableResolver) => Promise<HardhatConfig>,
): Promise<HardhatConfig> {
  const finalityNetworks = Object.entries(userConfig.networks ?? {}).filter(([, n]) => n !== null && typeof n === 'object' && isFinalityNetwork(n))
  if (finalityNetworks.length === 0) return next(userConfig, resolveConfigurationVariable)
  const networks = { ...userConfig.networks }
  for (const [name, network] of finalityNetworks) {
    const { forking: _forking, ...rest } = network
    networks[name] = rest
  }
  const resolved = await next({ ...userConfig, networks }, resolveConfigurationVariable)
  const resolvedNetworks = { ...resolved.networks }
  for (const [name, network] of finalityNetworks) {
    const base = resolvedNetworks[name]
    if (base === undefined || base.type !== 'edr-simulated') continue
    const forking = network.forking as Record<string, unknown> | undefined
    const finality: FinalityNetworkConfig = {
      options: network.finality === true ? {} : (network.finality as FinalityNetworkUserConfig),
      userSet: Object.keys(network).filter((key) => key !== 'finality' && key !== 'type'),
      ...(forking === undefined ? {} : { forking: resolveForking(forking, resolveConfigurationVariable) }),
    }
    resolvedNetworks[name] = { ...base, finality } as NetworkConfig
  }
  return { ...resolved, networks: resolvedNetworks }
}
