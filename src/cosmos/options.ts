/**
 * The `cosmos` option: Cosmos EVM's precompiles backed by this chain's state, and Cosmos EVM's
 * defaults (its evmd example chain: EVM chain id 262144, bond denomination `atest` with 18
 * decimals, bech32 prefix `cosmos`).
 */

/** `createNode({ cosmos: { … } })`. */
export interface CosmosOptions {
  /** The bech32 prefix of account addresses (`cosmos1…`); validators take `<prefix>valoper`. Default `cosmos`. */
  bech32Prefix?: string
  /** The bond (and fee) denomination. Default `atest`. */
  denom?: string
  /** Blocks an undelegation takes to complete (Cosmos counts 21 days; here blocks). Default 10. */
  unbondingBlocks?: number
  /** Blocks a governance proposal is voted on. Default 5. */
  votingBlocks?: number
  /**
   * The ERC-20 address the bank precompile names the native coin by. Default Cosmos EVM's
   * example chain's (its WERC20 precompile's), where this chain has no contract.
   */
  nativeErc20?: `0x${string}`
}

/** The options with their defaults. */
export interface CosmosSettings {
  readonly bech32Prefix: string
  readonly denom: string
  readonly decimals: 18
  readonly unbondingBlocks: bigint
  readonly votingBlocks: bigint
  readonly nativeErc20: `0x${string}`
  /** Tokens per unit of voting power (Cosmos EVM's `sdk.DefaultPowerReduction`: 10^18). */
  readonly powerReduction: bigint
}

/** Cosmos EVM's default EVM chain id (`DefaultEVMChainID`). */
export const COSMOS_EVM_CHAIN_ID = 262144n

/** The option resolved. */
export function cosmosSettings(options: CosmosOptions): CosmosSettings {
  return {
    bech32Prefix: options.bech32Prefix ?? 'cosmos',
    denom: options.denom ?? 'atest',
    decimals: 18,
    unbondingBlocks: BigInt(options.unbondingBlocks ?? 10),
    votingBlocks: BigInt(options.votingBlocks ?? 5),
    nativeErc20: options.nativeErc20 ?? '0xD4949664cD82660AaE99bEdc034a0deA8A0bd517',
    powerReduction: 10n ** 18n,
  }
}
