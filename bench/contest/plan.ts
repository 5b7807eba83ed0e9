/**
 * What every contestant runs: the sizes of the workloads and the signed transactions, made once
 * by the parent process (`contest.ts`) and read by each child (`runner.ts`), so finality, EDR and
 * Anvil receive the very same bytes.
 */
import type { Hex } from 'viem'

/** The chains measured, in the order each repetition runs them. */
export const CONTESTANTS = ['finality', 'edr', 'anvil'] as const
export type Contestant = (typeof CONTESTANTS)[number]

/**
 * The kinds of child process; each runs in a fresh process per contestant and repetition.
 * `transfers`: cold start, then ETH transfers. `token`: ERC20 deploy, transfers, logs, calls and
 * memory. `controls`: snapshot cycles and mining empty blocks on a fresh chain. `suite`: the
 * shape of a real test file, timed as a whole.
 */
export const KINDS = ['transfers', 'token', 'controls', 'suite'] as const
export type Kind = (typeof KINDS)[number]

/** Workload sizes (the full run; `BENCH_QUICK=1` divides most by ten). */
export interface Sizes {
  ethFirst: number
  ethWarm: number
  ethSteady: number
  /** ERC20 transfers of token holders 1..9, sent before the timed ones (one Transfer event each). */
  erc20Seed: number
  erc20First: number
  erc20Warm: number
  erc20Steady: number
  calls: number
  cycles: number
  mineBlocks: number
  suiteTransfers: number
  suiteCalls: number
}

export interface PlanAccount {
  address: Hex
  privateKey: Hex
}

/** The whole plan, written as JSON to a temporary file the children read. */
export interface Plan {
  chainId: number
  hardfork: 'prague'
  /** Each account's genesis balance, wei, decimal. */
  balanceWei: string
  /** The 20 accounts of the mnemonic every contestant derives by default (Hardhat's and Anvil's). */
  accounts: PlanAccount[]
  sizes: Sizes
  /** ETH transfers: the first `ethFirst`, then `ethWarm` untimed, then `ethSteady`. */
  eth: Hex[]
  /** The token's deployment (account #0, nonce 0): the same address on every chain. */
  tokenDeploy: Hex
  tokenAddress: Hex
  erc20Seed: Hex[]
  /** ERC20 transfers: the first `erc20First`, then `erc20Warm` untimed, then `erc20Steady`. */
  erc20: Hex[]
  /** The suite process's token transfers (account #0, after the same deployment). */
  suiteTransfers: Hex[]
  /** Calldata of `balanceOf(account #0)`. */
  balanceOfData: Hex
  /** keccak256("Transfer(address,address,uint256)"). */
  transferTopic: Hex
}

/** What one child process reports: named figures (ms, per second or MB, named by the key). */
export type Figures = Record<string, number>
