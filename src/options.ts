/** createNode options and their defaults. */
import type { OnLog } from './log/entries.js'
import type { Clock } from './clock.js'
import type { ConsensusTime, Timeouts } from './consensus/tendermint/timeouts.js'
import type { CodeSizeLimit, HardforkName } from './chain/common.js'
import type { ForkOptions } from './fork/options.js'
import { InvalidOptionError } from './option-rules.js'
import type { MiningMode } from './producer/producer.js'
import type { Database } from './chain/store.js'
import type { Limits } from './limits.js'
import type { PoolOptions } from './txpool/pool.js'
import type { ArtifactSources } from './metadata/registry.js'
import type { CosmosOptions } from './cosmos/options.js'

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
  /** Gas limit of every block. Default 30,000,000 (60,000,000 with `hardhatCompat`, Hardhat 2.29's). */
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
   * Genesis state from a dump: `node.dumpState()`, `anvil_dumpState`'s hex, or Anvil's own dump
   * (its `anvil_dumpState` hex or `--dump-state` file, parsed). Its accounts are added to the
   * genesis allocation, over the derived accounts and `alloc`; an Anvil dump's blocks are not
   * taken (docs/controls.md, "State dumps").
   */
  state?: unknown
  /**
   * A geth-format genesis file (parsed JSON), as Anvil's `--init` takes: chain id, hardfork,
   * header fields and `alloc`. The genesis is exactly the file's (its hash is geth's): the
   * node's keys are still there, funded only if the file funds them. Fork schedules with forks
   * after genesis are not supported yet.
   */
  genesis?: unknown
  /**
   * When the chain's clock starts, in seconds: the genesis block's timestamp, and later blocks'
   * time runs on from it (a block made a minute after `createNode` is a minute later), as Anvil's
   * `--timestamp`; hardhat_reset starts it there again. The same as `initialDate` in seconds: give
   * one of them. Default: now.
   */
  genesisTimestamp?: bigint
  /**
   * When the chain's clock starts, as a date (a `Date`, or a string `new Date()` reads, such as
   * `2020-01-01T00:00:00Z`): Hardhat's `initialDate`. The genesis block has this time, later blocks
   * run on from it at the wall clock's pace, and hardhat_reset starts it there again. The same as
   * `genesisTimestamp` (fractions of a second dropped): give one of them. Default: now.
   */
  initialDate?: Date | string
  /**
   * The fee recipient (`miner`) of the blocks the node makes, which `eth_coinbase` answers
   * (Hardhat's `coinbase`). hardhat_setCoinbase / miner_setEtherbase change it until the next
   * hardhat_reset, which comes back to this one. Default: the proposing validator's address.
   */
  coinbase?: `0x${string}`
  /**
   * The least gas price a transaction may offer; one below is refused when it is sent, with
   * Hardhat's `Transaction gas price is X, which is below the minimum of Y` (Hardhat's
   * `minGasPrice`). A fee-market transaction (EIP-1559 and later) is judged by its max fee per
   * gas: `Transaction max fee per gas is X, …`. Hardhat takes this setting only before London;
   * here it applies under every hardfork. Default 0 (none).
   */
  minGasPrice?: bigint
  /**
   * The gas price of an eth_sendTransaction that names no fee (no `gasPrice`, `maxFeePerGas` or
   * `maxPriorityFeePerGas`): it is sent as a legacy transaction at this price, as Hardhat's network
   * `gasPrice` does (the CLI's `--gas-price`). Default: none, the node fills fee-market fees.
   */
  sendTransactionGasPrice?: bigint
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
   * Cosmos EVM's precompiles (staking, distribution, slashing, governance, bank, bech32 at Cosmos
   * EVM's addresses, with its ABIs and events) backed by this chain's state, and Cosmos EVM's defaults: chain id 262144 unless
   * `chainId` is given, the `atest` denomination with 18 decimals, bech32 prefix `cosmos`. The
   * validators' voting power then follows their bonded tokens. Default: off (docs/cosmos-evm.md).
   */
  cosmos?: CosmosOptions
  /**
   * How the validators' Tendermint rounds run (several validators, or any fault): time-outs in ms
   * (CometBFT's defaults: propose 3000 + 500 per round, prevote and precommit 1000 + 500 per round),
   * the rounds after which a height is given up and the chain halts (default 16), the seed of
   * the message bus's random choices, and how time-outs pass (`time`).
   */
  consensus?: {
    timeouts?: Partial<Timeouts>
    maxRounds?: number
    seed?: number
    /**
     * `'simulated'`: the rounds run on consensus time, which jumps to the next time-out or message
     * delivery as soon as nothing else can happen (every validator and the message bus are in the
     * node's process, so a time-out would be waited for nothing): a silent proposer costs a round,
     * not seconds, and the answer is the same on every run. `'clock'`: time-outs and message
     * delays are waited out on `clock`, as CometBFT waits them (demos, a chain paced by the wall
     * clock). Default `'simulated'`, or `'clock'` when `clock` is given (its owner moves time and
     * steps the rounds with it). Block timestamps never follow consensus time (docs/consensus.md).
     */
    time?: ConsensusTime
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
  /**
   * Accept legacy transactions without EIP-155 replay protection. Default false (geth's RPC); true
   * with `hardhatCompat` (Hardhat Network takes them: the keyless deployments of the CREATE2
   * factory or ERC-1820).
   */
  allowUnprotectedTxs?: boolean
  /**
   * Gas of an eth_sendTransaction without `gas`. Default: estimated, as geth and Anvil do
   * (viem sends JSON-RPC-account transactions without gas); set `90000n` for the spec's fixed value.
   * With `hardhatCompat`: min(2^24, `blockGasLimit`), Hardhat's network `gas`.
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
   * Hardhat compatibility (the CLI's `--hardhat`): the node answers as Hardhat Network does where
   * Hardhat and geth differ. web3_clientVersion answers
   * `HardhatNetwork/finality/<version>/<os>/<runtime>`, which Hardhat's network helpers and
   * plugins accept; the defaults are Hardhat's ({@link HARDHAT_DEFAULTS}: block gas limit,
   * coinbase, no fee cap on sends, unprotected transactions accepted, `throwOnTransactionFailures`);
   * eth_estimateGas runs on `pending` with a gas price; failed calls, estimates and traces answer
   * in Hardhat's form. Explicit options win over these defaults. Default false: the spec's
   * `finality/<version>/<os>/<runtime>` and geth's answers (docs/hardhat.md).
   */
  hardhatCompat?: boolean
  /** Transaction pool settings: `priceBump` (%), `slotsPerSender`, `slots`, `order` ('fees' | 'fifo'). */
  txpool?: Partial<PoolOptions>
  /** Limits; see {@link Limits}. */
  limits?: Partial<Limits>
  /**
   * Time source. Default: the system clock. Given, the validators' round time-outs are waited out
   * on it too (`consensus.time` defaults to `'clock'`: whoever injects a clock moves time).
   */
  clock?: Clock
  /**
   * Receives each Solidity `console.log` message (Hardhat's console.sol ABI), once per execution
   * someone asked for: a mined transaction's when its block is committed; eth_call's,
   * eth_simulateV1's and eth_createAccessList's (its first run); eth_estimateGas's only when the
   * estimate fails (the failing run's), as Hardhat prints them. The node's own runs (the gas
   * search, the estimate of a send without `gas` that succeeds, the `pending` block, traces)
   * deliver nothing. Default: each message printed with `console.log`, one line per call, as
   * Hardhat's in-process network prints them; a function receives them instead (routes them);
   * `false` silences them (then nothing listens and execution pays nothing for it).
   */
  onConsoleLog?: ((message: string) => void) | false
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
  /**
   * Contract metadata, so that in Hardhat mode a failed call, estimate or transaction names its
   * custom error (`reverted with custom error 'TooEarly(1, 2)'`) and carries its Solidity frames
   * in the error's stack, as Hardhat does with its compilation: Hardhat 2 and 3 build-info
   * objects, solc standard-JSON output, artifact objects (`{ abi, bytecode, deployedBytecode,
   * sourceMap? }`, viem-style, Hardhat's or Foundry's), or paths of a Foundry `out/` or Hardhat
   * `artifacts/` folder or of a JSON file. Deployed code is matched to its contract by bytecode.
   * `node.addArtifacts` adds more later. Default: none (failures are worded from their data alone;
   * docs/errors.md).
   */
  artifacts?: ArtifactSources
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
 * When the chain's clock starts, in seconds, from `genesisTimestamp` or `initialDate` (one of them:
 * both at once is refused, even when they agree, so a configuration says it once); undefined = now.
 */
export function startTimeOf(options: Pick<NodeOptions, 'genesisTimestamp' | 'initialDate'>): bigint | undefined {
  const { genesisTimestamp, initialDate } = options
  if (genesisTimestamp !== undefined && initialDate !== undefined) {
    throw new InvalidOptionError('createNode', 'initialDate', 'cannot be set together with genesisTimestamp: both say when the clock starts (initialDate is genesisTimestamp as a date)')
  }
  if (initialDate === undefined) return genesisTimestamp
  const ms = (typeof initialDate === 'string' ? new Date(initialDate) : initialDate).getTime()
  return BigInt(Math.floor(ms / 1000))
}

/**
 * The defaults `hardhatCompat` changes, Hardhat Network's (Hardhat 2.29, EDR): measured from its
 * provider, the same values `test/hardhat/defaults.test.ts` compares.
 */
export const HARDHAT_DEFAULTS = {
  /** Hardhat 2.29's `blockGasLimit` (older Hardhat had 30,000,000). */
  blockGasLimit: 60_000_000n,
  /** Hardhat's DEFAULT_COINBASE, the fee recipient of its blocks. */
  coinbase: '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e',
  /** Hardhat caps no transaction fee (geth's RPCTxFeeCap is 1 ether). */
  txFeeCap: 0n,
  /** Hardhat accepts transactions without EIP-155 replay protection. */
  allowUnprotectedTxs: true,
  /**
   * The gas of an eth_sendTransaction without `gas`: Hardhat's network `gas` setting, which its
   * provider fills in (no estimate): min(2^24, the block gas limit).
   */
  sendTransactionGasCap: 16_777_216n,
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
