/**
 * A Hardhat 3 simulated network's resolved config as the settings `hardhatNetworkOptions` maps:
 * configuration variables read, and only the settings the node honours or the user wrote.
 * Hardhat 3 resolves every setting to a value (`coinbase`, `initialDate`: now, `minGasPrice`: 0,
 * …); one the user did not write is Hardhat's default, not a wish, and is passed only where the
 * node's own default differs from Hardhat's (chain id, hardfork, accounts, failures thrown).
 */
import { HardhatNetworkSettingError, type HardhatNetworkSettings } from './network-options.js'
import type { EdrNetworkConfig } from './hardhat3-types.js'

/**
 * Hardhat 3 settings the mapping does not know (Hardhat 2 has none of them), each refused when
 * the user wrote a value other than Hardhat's default.
 */
function checkHardhat3Only(config: EdrNetworkConfig, userSet: ReadonlySet<string>): void {
  if (userSet.has('chainType') && config.chainType !== 'l1' && config.chainType !== 'generic') {
    throw new HardhatNetworkSettingError('chainType', `${JSON.stringify(config.chainType)} has no counterpart: finality runs an Ethereum L1 chain ("l1" or "generic")`)
  }
  if (userSet.has('transactionGasCap') && config.transactionGasCap !== undefined) {
    throw new HardhatNetworkSettingError('transactionGasCap', 'has no counterpart: a finality node caps a transaction\'s gas by the block gas limit (and Osaka\'s EIP-7825 cap)')
  }
  if (userSet.has('gasEstimationMode') && config.gasEstimationMode !== 'noInternalOutOfGas') {
    throw new HardhatNetworkSettingError('gasEstimationMode', `${JSON.stringify(config.gasEstimationMode)} has no counterpart: finality's estimate is the least gas with which the transaction succeeds`)
  }
  if (userSet.has('networkId') && config.networkId !== config.chainId) {
    throw new HardhatNetworkSettingError('networkId', 'other than the chain id has no counterpart: a finality node\'s net_version is its chain id')
  }
  if (config.loggingEnabled) {
    throw new HardhatNetworkSettingError('loggingEnabled', 'has no counterpart in-process: a finality node logs no requests; run the CLI (npx finality --hardhat) to see them')
  }
}

/** The settings of `config` for {@link hardhatNetworkOptions}, configuration variables read. */
export async function hardhat3NetworkSettings(config: EdrNetworkConfig, userSetList: readonly string[]): Promise<HardhatNetworkSettings> {
  const userSet = new Set(userSetList)
  checkHardhat3Only(config, userSet)
  const settings: HardhatNetworkSettings = {
    chainId: config.chainId,
    hardfork: config.hardfork,
    throwOnTransactionFailures: config.throwOnTransactionFailures,
    throwOnCallFailures: config.throwOnCallFailures,
  }
  const accounts = config.accounts
  if (Array.isArray(accounts)) {
    settings.accounts = await Promise.all(accounts.map(async (a) => ({ privateKey: await a.privateKey.get(), balance: a.balance })))
  } else {
    const hd = accounts as Exclude<EdrNetworkConfig['accounts'], readonly unknown[]>
    settings.accounts = {
      mnemonic: await hd.mnemonic.get(),
      path: hd.path,
      initialIndex: hd.initialIndex,
      count: hd.count,
      accountsBalance: hd.accountsBalance,
      passphrase: await hd.passphrase.get(),
    }
  }
  if (config.allowUnlimitedContractSize !== undefined) settings.allowUnlimitedContractSize = config.allowUnlimitedContractSize
  if (userSet.has('mining')) settings.mining = config.mining
  if (config.initialBaseFeePerGas !== undefined) settings.initialBaseFeePerGas = config.initialBaseFeePerGas
  if (userSet.has('blockGasLimit')) {
    if (config.blockGasLimit === false) throw new HardhatNetworkSettingError('blockGasLimit', 'false (no limit) has no counterpart: every finality block has a gas limit')
    if (config.blockGasLimit !== undefined) settings.blockGasLimit = config.blockGasLimit
  }
  if (userSet.has('coinbase')) settings.coinbase = `0x${Buffer.from(config.coinbase).toString('hex')}`
  if (userSet.has('minGasPrice')) settings.minGasPrice = config.minGasPrice
  if (userSet.has('initialDate')) settings.initialDate = config.initialDate
  if (userSet.has('allowBlocksWithSameTimestamp')) settings.allowBlocksWithSameTimestamp = config.allowBlocksWithSameTimestamp
  const forking = config.finality?.forking
  if (forking !== undefined) {
    settings.forking = {
      enabled: forking.enabled,
      url: await forking.url.get(),
      ...(forking.blockNumber === undefined ? {} : { blockNumber: forking.blockNumber }),
      ...(forking.httpHeaders === undefined ? {} : { httpHeaders: forking.httpHeaders }),
    }
  }
  return settings
}
