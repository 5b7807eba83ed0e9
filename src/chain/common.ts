/** The `@ethereumjs/common` configuration of a finality chain. */
import { type ChainConfig, type Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { paramsTx } from '@ethereumjs/tx'
import { customCrypto } from '../crypto/secp256k1.js'
import { createNodeCommon, isNodeCommon, type NodeCommon } from '../execution/engine/common.js'

/** Hardforks the engine supports fully, oldest first; the default is the newest. */
export const SUPPORTED_HARDFORKS = [
  Hardfork.London,
  Hardfork.Paris,
  Hardfork.Shanghai,
  Hardfork.Cancun,
  Hardfork.Prague,
  Hardfork.Osaka,
] as const

/** A hardfork name a node can run. */
export type HardforkName = (typeof SUPPORTED_HARDFORKS)[number]

/**
 * The default hardfork: Prague, what mainnet tooling targets. Osaka runs too (the conformance
 * chain is Osaka) and is chosen with `hardfork: 'osaka'`.
 */
export const DEFAULT_HARDFORK: HardforkName = Hardfork.Prague

/** The largest contract code a creation may deploy, in bytes (EIP-170), or no limit at all. */
export type CodeSizeLimit = number | 'unlimited'

/**
 * Sets the contract code size limit of `common` (Hardhat's `allowUnlimitedContractSize`,
 * Anvil's `--code-size-limit` / `--disable-code-size-limit`). The initcode limit (EIP-3860,
 * Shanghai on) follows it at twice the size, as revm derives it for Anvil and Hardhat's EDR;
 * `unlimited` lifts both. Every VM, transaction and trace of the node reads these parameters
 * through the one Common, so mined blocks, calls, estimates, simulations and replayed traces
 * apply the same limit.
 */
export function setCodeSizeLimit(common: Common, limit: CodeSizeLimit): void {
  if (!isNodeCommon(common)) throw new Error('the code size limit applies to a node\'s own Common')
  // No size in memory reaches 2^53: "unlimited" is a limit nothing can exceed.
  const code = limit === 'unlimited' ? BigInt(Number.MAX_SAFE_INTEGER) : BigInt(limit)
  const initcode = limit === 'unlimited' ? code : 2n * code
  common.overrideParam('maxCodeSize', code)
  common.overrideParam('maxInitCodeSize', initcode)
}

/**
 * The fork schedule of a node's own chain: every fork up to `hardfork` active from genesis
 * (block 0, or time 0 for the forks mainnet scheduled by time), the later ones unscheduled. It
 * keeps mainnet's order of forks, which @ethereumjs/common compares by, and none of mainnet's
 * activation numbers: with them, @ethereumjs/block applies mainnet's one-block rules at mainnet's
 * heights (the DAO fork's `extraData` on blocks 1,920,000 to 1,920,009, the initial base fee on
 * London's block 12,965,000) and refuses such blocks of a chain that ran `hardfork` from its
 * genesis on. The DAO fork is never scheduled: it was an irregular state change of mainnet only.
 */
/**
 * The largest chain id: a uint64, the chain id field of EDR (Hardhat's node), Anvil (alloy's
 * `ChainId = u64`) and of the transactions they sign. EIP-2294's "max range" is lower,
 * floor(MAX_UINT64 / 2) - 36, so that an EIP-155 `v` (2 * id + 36) fits a uint64 too; finality
 * computes `v` as a bigint, so ids between the two work here but may not in tools that do not.
 */
export const MAX_CHAIN_ID = 2n ** 64n - 1n

/**
 * The largest chain id of a legacy (EIP-155) transaction here: @ethereumjs/tx reads its `v`
 * (2 * id + 35 or 36) as a JavaScript number, exact up to 2^53 - 1. Typed transactions carry the
 * chain id as such and work up to {@link MAX_CHAIN_ID}.
 */
export const MAX_LEGACY_CHAIN_ID = (2n ** 53n - 1n - 36n) / 2n

/** Refuses a chain id outside [1, {@link MAX_CHAIN_ID}], naming where it came from. */
export function checkChainId(chainId: bigint, what: string): bigint {
  if (chainId < 1n || chainId > MAX_CHAIN_ID) {
    throw new RangeError(`${what} ${chainId} is out of range: a chain id is an integer from 1 to 2^64 - 1 (${MAX_CHAIN_ID}), a uint64 as in EDR and Anvil`)
  }
  return chainId
}

export function localChainConfig(chainId: bigint, hardfork: string): ChainConfig {
  const last = Mainnet.hardforks.findIndex((h) => h.name === hardfork)
  if (last === -1) throw new Error(`hardfork ${hardfork} is not one @ethereumjs/common knows`)
  const hardforks = Mainnet.hardforks.map((h, i) => {
    if (i > last || h.name === Hardfork.Dao || (h.block === null && (h.timestamp === undefined || h.timestamp === null))) return { name: h.name, block: null }
    return h.timestamp === undefined || h.timestamp === null ? { name: h.name, block: 0 } : { name: h.name, block: null, timestamp: 0 }
  })
  // A decimal string, which Common reads with BigInt: a number would lose digits past 2^53.
  return { ...Mainnet, chainId: chainId.toString(), name: 'finality', hardforks }
}

/**
 * A Common fixed at one hardfork from genesis on, with the fast crypto hooks, shared by every
 * block, transaction and VM of the node (the engine's, src/execution/engine/common.ts). Without `chain`
 * it is the node's own chain ({@link localChainConfig}) under the node's chain id; a geth
 * genesis supplies its own configuration and a fork of a known chain the remote's (mainnet's
 * activation numbers are kept there, for the remote's blocks), both under `chainId`.
 */
export function createChainCommon(chainId: bigint, hardfork: string, chain?: ChainConfig, codeSizeLimit?: CodeSizeLimit): NodeCommon {
  const common = createNodeCommon({
    chain: chain === undefined ? localChainConfig(chainId, hardfork) : { ...chain, chainId: chainId.toString() },
    hardfork,
    customCrypto: customCrypto(),
  })
  // Transaction parameters from the start: ethereumjs merges them when it first builds a
  // transaction, and a call capped by Osaka's per-transaction gas limit (EIP-7825) may come first.
  common.updateParams(paramsTx)
  if (codeSizeLimit !== undefined) setCodeSizeLimit(common, codeSizeLimit)
  return common
}
