/** createNode options and their defaults. */
import type { OnLog } from './log/entries.js'
import type { Clock } from './clock.js'
import type { Timeouts } from './consensus/tendermint/timeouts.js'
import type { CodeSizeLimit, HardforkName } from './chain/common.js'
import type { ForkOptions } from './fork/options.js'
import { InvalidOptionError } from './option-rules.js'
import type { MiningMode } from './consensus/producer.js'
import type { Database } from './chain/store.js'
import type { Limits } from './limits.js'
import type { PoolOptions } from './txpool/pool.js'

/** A genesis account. */
export interface GenesisAccount {
  balance?: bigint
  nonce?: bigint
  /** Runtime code, hex. */
  code?: `0x${string}`
  /** Storage slot → value, both hex. */
  storage?: Record<`0x${string}`, `0x${string}`>
}

/** A prefunded account given by key. */
export interface AccountOption {
  privateKey: `0x${string}`
  balance?: bigint
}

/** Options of {@link createNode}; every one has a default. */
export interface NodeOptions {
  /** Chain id. Default 31337. */
  chainId?: bigint | number
  /**
   * Fork a live chain: `{ url | provider, blockNumber?, chainId?, headers?, … }`. The node's first
   * block is the remote's fork block, and state is read from the remote on demand, each read
   * verified with eth_getProof (docs/forking.md).
   */
  fork?: ForkOptions
  /** Hardfork from genesis on. Default `prague`, the newest the engine supports fully. */
  hardfork?: HardforkName
  /** Gas limit of every block. Default 30,000,000. */
  blockGasLimit?: bigint
  /** Base fee of the genesis block in wei; later blocks move as EIP-1559 says. Default 1 gwei. */
  initialBaseFee?: bigint
  /** Mnemonic of the prefunded accounts (m/44'/60'/0'/0/i). Default `test test … junk`. */
  mnemonic?: string
  /** How many accounts to derive from the mnemonic. Default 20. */
  accountCount?: number
  /** Balance of each derived account in wei. Default 10,000 ETH. */
  balance?: bigint
  /** Accounts by private key instead of the mnemonic's. */
  accounts?: AccountOption[]
  /** Extra genesis accounts by address (balance, nonce, code, storage). */
  alloc?: Record<`0x${string}`, GenesisAccount>
  /**
   * Genesis state from a dump (`node.dumpState()` or `anvil_dumpState`'s hex): its accounts are
   * added to the genesis allocation, over the derived accounts and `alloc`.
   */
  state?: unknown
  /**
   * A geth-format genesis file (parsed JSON), as Anvil's `--init` takes: chain id, hardfork,
   * header fields and `alloc`. The genesis is exactly the file's (its hash is geth's): the
   * node's keys are still there, funded only if the file funds them. Fork schedules with forks
   * after genesis are not supported yet.
   */
  genesis?: unknown
  /** Genesis timestamp in seconds. Default: now. */
  genesisTimestamp?: bigint
  /**
   * Any abstract-level database (memory-level, classic-level…) to keep the chain in; one that
   * already holds a chain is resumed. Default: none, the chain lives in the node's memory only.
   */
  db?: Database
  /** Block production. Default `{ mode: 'auto' }`. */
  mining?: MiningMode
  /** Namespaces open to in-process callers. Default: all the node serves. */
  api?: string[]
  /** Number of in-process validators. Default 1. */
  validators?: number
  /**
   * How the validators' Tendermint rounds run (several validators, or any fault): time-outs in ms
   * (CometBFT's defaults: propose 3000 + 500 per round, prevote and precommit 1000 + 500 per round),
   * the rounds after which a height is given up and the chain halts (default 16), and the seed of
   * the message bus's random choices. Time-outs are waited out on `clock`.
   */
  consensus?: {
    timeouts?: Partial<Timeouts>
    maxRounds?: number
    seed?: number
  }
  /**
   * Deploy contracts of any size: no EIP-170 code size limit and no EIP-3860 initcode limit
   * (Hardhat's `allowUnlimitedContractSize`, Anvil's `--disable-code-size-limit`). Default false.
   */
  allowUnlimitedContractSize?: boolean
  /**
   * The largest contract code a creation may deploy, in bytes (Anvil's `--code-size-limit`);
   * the initcode limit is twice it (from Shanghai on), as in Anvil. Default 24,576 (EIP-170).
   * Not together with `allowUnlimitedContractSize: true`.
   */
  codeSizeLimit?: number | bigint
  /** Accept legacy transactions without EIP-155 replay protection. Default false (geth's RPC). */
  allowUnprotectedTxs?: boolean
  /**
   * Gas of an eth_sendTransaction without `gas`. Default: estimated, as geth and Anvil do
   * (viem sends JSON-RPC-account transactions without gas); set `90000n` for the spec's fixed value.
   */
  sendTransactionGas?: bigint
  /**
   * Answer eth_sendTransaction / eth_sendRawTransaction of a transaction that fails (reverts,
   * runs out of gas…) in the block automine makes for it with Hardhat's error, carrying the
   * revert data and the transaction hash (`{ message, txHash, data }`), which Hardhat's chai
   * matchers decode; the transaction is mined all the same (receipt status 0). A send without
   * `gas` whose estimate fails is then sent with the call gas cap, mined and answered the same
   * way, as on Hardhat. Default: `hardhatCompat` (false unless it is on: the hash, as geth
   * answers, and a failing estimate's error).
   */
  throwOnTransactionFailures?: boolean
  /**
   * False: eth_call of a call that fails answers its return data (the revert data; `0x` for
   * other failures) instead of an error, as Hardhat's `throwOnCallFailures: false`. Default true.
   */
  throwOnCallFailures?: boolean
  /**
   * Keep a snapshot after `evm_revert` to it, so one snapshot can be reverted to many times.
   * Default false: Hardhat's and Ganache's evm_revert delete the snapshot and later ones.
   */
  reusableSnapshots?: boolean
  /**
   * Hardhat compatibility (the CLI's `--hardhat`): web3_clientVersion answers
   * `HardhatNetwork/finality/<version>/<os>/<runtime>`, which Hardhat's network helpers and
   * plugins accept, and `throwOnTransactionFailures` defaults to true, as on Hardhat Network.
   * Default false: the spec's `finality/<version>/<os>/<runtime>` and geth's answers
   * (docs/hardhat.md).
   */
  hardhatCompat?: boolean
  /** Transaction pool settings: `priceBump` (%), `slotsPerSender`, `slots`, `order` ('fees' | 'fifo'). */
  txpool?: Partial<PoolOptions>
  /** Limits; see {@link Limits}. */
  limits?: Partial<Limits>
  /** Time source. Default: the system clock. */
  clock?: Clock
  /**
   * Receives each Solidity `console.log` message (Hardhat's console.sol ABI), once per execution
   * someone asked for: a mined transaction's when its block is committed; eth_call's,
   * eth_simulateV1's and eth_createAccessList's (its first run); eth_estimateGas's only when the
   * estimate fails (the failing run's), as Hardhat prints them. The node's own runs (the gas
   * search, the estimate of a send without `gas` that succeeds, the `pending` block, traces)
   * deliver nothing. Default: none (then nothing listens and execution pays nothing for it).
   */
  onConsoleLog?: (message: string) => void
  /**
   * The node's log, as the CLI prints it: each request with its time (a failing eth_call's or
   * eth_estimateGas's decoded revert and console.log under it), each mined transaction (hash,
   * contract created, from, to, value, gas used of its limit, block, status, revert reason, panic
   * or custom error selector, console.log), each mined block (empty blocks one request mined as
   * one range), and consensus round changes, time-outs, halts, resumes and evidence. Called with
   * the structured entry and its formatted line(s) (no newline at the end). Default: none (no log
   * is made; execution pays nothing for it). hardhat_/anvil_setLoggingEnabled(false) silences it.
   */
  onLog?: OnLog
  /** Colour the lines `onLog` receives with ANSI codes. Default false. */
  logColor?: boolean
  /**
   * Serve the profiling and runtime methods (debug_memStats, debug_cpuProfile, debug_verbosity, …;
   * docs/debug.md). Off by default: they answer an error naming this setting.
   */
  enableProfiling?: boolean
  /**
   * The directory the profiling methods write files into (default: the working directory); a
   * path leaving it is refused. It must exist.
   */
  profilingDir?: string
}

export const DEFAULTS = {
  chainId: 31337n,
  blockGasLimit: 30_000_000n,
  initialBaseFee: 1_000_000_000n,
  accountCount: 20,
  balance: 10_000n * 10n ** 18n,
  validators: 1,
} as const

/**
 * The code size limit the options ask for: undefined for EIP-170's own. Runs after
 * `checkNodeOptions` (types and ranges); refuses what that table cannot see: both forms at once
 * (which one should win is not obvious), and a limit past 2^53 bytes.
 */
export function codeSizeLimitOf(options: Pick<NodeOptions, 'allowUnlimitedContractSize' | 'codeSizeLimit'>): CodeSizeLimit | undefined {
  const { allowUnlimitedContractSize: unlimited, codeSizeLimit: limit } = options
  if (unlimited === true && limit !== undefined) {
    throw new InvalidOptionError('createNode', 'codeSizeLimit', 'cannot be set together with allowUnlimitedContractSize: true')
  }
  if (unlimited === true) return 'unlimited'
  if (limit === undefined) return undefined
  if (BigInt(limit) > BigInt(Number.MAX_SAFE_INTEGER)) throw new InvalidOptionError('createNode', 'codeSizeLimit', `must be at most ${Number.MAX_SAFE_INTEGER} bytes, got ${limit}`)
  return Number(limit)
}
