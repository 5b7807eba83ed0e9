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
  /** x/slashing's `signed_blocks_window`: the blocks a validator's signatures are counted over. Default 100. */
  signedBlocksWindow?: number
  /** x/slashing's `min_signed_per_window` (0 to 1): the share of the window it must sign. Default 0.5. */
  minSignedPerWindow?: number
  /** Blocks a validator jailed for downtime stays jailed (Cosmos's `downtime_jail_duration`, 600 s). Default 100. */
  downtimeJailBlocks?: number
  /** x/slashing's `slash_fraction_downtime` (0 to 1). Default 0.01. */
  slashFractionDowntime?: number
}

/** The options with their defaults. */
export interface CosmosSettings {
  readonly bech32Prefix: string
  readonly denom: string
  readonly decimals: 18
  readonly unbondingBlocks: bigint
  readonly votingBlocks: bigint
  readonly nativeErc20: `0x${string}`
  readonly signedBlocksWindow: bigint
  /** Fractions as 18-decimal integers (Cosmos's `Dec`). */
  readonly minSignedPerWindow: bigint
  readonly downtimeJailBlocks: bigint
  readonly slashFractionDowntime: bigint
  /** Tokens per unit of voting power (Cosmos EVM's `sdk.DefaultPowerReduction`: 10^18). */
  readonly powerReduction: bigint
}

/** Cosmos EVM's default EVM chain id (`DefaultEVMChainID`). */
export const COSMOS_EVM_CHAIN_ID = 262144n

/** A fraction (0 to 1) as an 18-decimal integer, exact for the decimals a user writes. */
function dec(value: number): bigint {
  // The shortest decimal that reads back as the number (0.1 as 0.1, not 0.1000000000000000055…).
  const text = String(value)
  const [whole, fractional = ''] = (text.includes('e') ? value.toFixed(18) : text).split('.')
  return BigInt(whole ?? '0') * 10n ** 18n + BigInt(fractional.padEnd(18, '0').slice(0, 18))
}

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
    signedBlocksWindow: BigInt(options.signedBlocksWindow ?? 100),
    minSignedPerWindow: dec(options.minSignedPerWindow ?? 0.5),
    downtimeJailBlocks: BigInt(options.downtimeJailBlocks ?? 100),
    slashFractionDowntime: dec(options.slashFractionDowntime ?? 0.01),
  }
}
