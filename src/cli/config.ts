/**
 * The command line's settings: flags (node:util parseArgs) over a TOML config file whose
 * `[json-rpc]` section holds the spec's settings, over the defaults.
 */
import type { CosmosOptions } from '../cosmos/options.js'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { parse as parseToml } from 'smol-toml'
import { DEFAULT_HARDFORK, SUPPORTED_HARDFORKS, checkChainId, type HardforkName } from '../chain/common.js'
import { parseAddress } from '../adapters/listen.js'
import { checkOriginRules } from '../adapters/origins.js'
import { ANVIL_EXTRA_API, HARDHAT_EXTRA_API, LOOPBACK_API, PUBLIC_API, loopbackApi } from '../adapters/namespaces.js'
import { checkCombinations, date, path, wei } from './values.js'
import { CONSENSUS_TIMES, type ConsensusTime } from '../consensus/tendermint/timeouts.js'

/** Everything the command line can set. */
export interface CliConfig {
  enable: boolean
  address: string
  wsAddress: string
  /** Namespaces of both transports; undefined = by address (see {@link defaultApi}). */
  api: string[] | undefined
  /** Browser origins allowed (CORS and WebSocket upgrades); undefined = pages on this machine. */
  cors: string[] | undefined
  /** Host names allowed (IP addresses always pass); undefined = `localhost`. */
  hosts: string[] | undefined
  maxOpenConnections: number
  rpcGasCap: bigint
  /** Milliseconds; the spec's `rpc-evm-timeout` (`10s`). */
  rpcEvmTimeoutMs: number
  jwtSecret: string | undefined
  /** Undefined: 31337, or the stored chain's with --db. */
  chainId: bigint | undefined
  accounts: number
  /** Wei. */
  balance: bigint
  mnemonic: string | undefined
  /** Seconds (fractions allowed, at least 0.001); 0 = automine. */
  blockTime: number
  validators: number
  /** The validators' round time-outs given (ms); the others are CometBFT's defaults. */
  consensusTimeouts: Partial<Record<TimeoutName, number>>
  /** `--consensus.time`; undefined: `clock` with `--block-time`, else `simulated` (`consensusTime()`). */
  consensusTime: ConsensusTime | undefined
  hardfork: HardforkName | undefined
  /** Path of a geth-format genesis.json. */
  genesis: string | undefined
  db: string | undefined
  /** The remote to fork (createNode's `fork.url`). */
  forkUrl: string | undefined
  /** The block to fork at; negative: that many before the remote's head. */
  forkBlockNumber: bigint | undefined
  /** Headers sent to the fork's remote, from `--fork-header "Name: value"` (repeatable). */
  forkHeaders: Record<string, string> | undefined
  /** The fork's cache on disk (createNode's `fork.cacheDir`). */
  forkCacheDir: string | undefined
  /** `fork.historyEntries`. */
  forkHistoryEntries: number | undefined
  /** `fork.walkFetches`. */
  forkWalkFetches: number | undefined
  /** Paths of contract metadata (createNode's `artifacts`), from `--artifacts` (repeatable). */
  artifacts: string[]
  /** `--profile cosmos-evm` (createNode's `cosmos`), with the `cosmos.*` settings given. */
  cosmos: CosmosOptions | undefined
  /** Hardhat compatibility (createNode's `hardhatCompat`); on loopback also opens {@link HARDHAT_EXTRA_API} unless `api` is given. */
  hardhat: boolean
  /** Anvil's defaults: on loopback also {@link ANVIL_EXTRA_API} unless `api` is given; 10 accounts unless `accounts` is. */
  anvil: boolean
  /** Hardhat's answers to failing sends and calls; undefined = the node's default. */
  throwOnTransactionFailures: boolean | undefined
  throwOnCallFailures: boolean | undefined
  /** No contract code size limit (Hardhat's allowUnlimitedContractSize, Anvil's --disable-code-size-limit). */
  allowUnlimitedContractSize: boolean
  /** Bytes; undefined = EIP-170's 24,576. */
  codeSizeLimit: number | undefined
  /** createNode's `enableProfiling`: the debug runtime and profiling methods. */
  enableProfiling: boolean
  /** Where profiling methods write; undefined = the working directory. */
  profilingDir: string | undefined
  /** Gas limit of every block (--block-gas-limit, Anvil's --gas-limit); undefined = 30,000,000. */
  blockGasLimit: bigint | undefined
  /** Gas of a send without `gas` (Hardhat's `gas`); undefined = estimated. */
  sendTransactionGas: bigint | undefined
  /** Gas price of a send that names no fee (Hardhat's `gasPrice`); undefined = fee-market fees. */
  gasPrice: bigint | undefined
  /** Genesis base fee (Hardhat's initialBaseFeePerGas, Anvil's --base-fee); undefined = 1 gwei. */
  initialBaseFee: bigint | undefined
  /** When the clock starts: Hardhat's initialDate (a date string). */
  initialDate: string | undefined
  /** When the clock starts, in seconds (Anvil's --timestamp). */
  genesisTimestamp: bigint | undefined
  /** Fee recipient of the blocks. */
  coinbase: `0x${string}` | undefined
  /** Least gas price a transaction may offer (wei). */
  minGasPrice: bigint | undefined
  /** Mine only on request (Anvil's --no-mining). */
  noMining: boolean
  /** Pool order of transactions in a block (Anvil's --order). */
  order: 'fees' | 'fifo' | undefined
  /** Every sender may send without its key (Anvil's --auto-impersonate). */
  autoImpersonate: boolean
  /** Do not print Solidity console.log lines (Anvil's --disable-console-log). */
  disableConsoleLog: boolean
  /** No CREATE2 deployer at genesis (Anvil's --disable-default-create2-deployer): `create2-deployer.ts`. */
  disableDefaultCreate2Deployer: boolean
  /** A state file loaded at start when present and written at exit (Anvil's --state). */
  state: string | undefined
  /** A state file loaded at start (Anvil's --load-state). */
  loadState: string | undefined
  /** A state file written at exit (Anvil's --dump-state). */
  dumpState: string | undefined
  /** Seconds between writes of the state file while running (Anvil's --state-interval); undefined = at exit only. */
  stateInterval: number | undefined
  /** Idle time of an HTTP keep-alive connection (ms); undefined = the limit's default (120 s). */
  httpKeepAliveMs: number | undefined
  /** Print the version and exit. */
  version: boolean
  quiet: boolean
  help: boolean
  /** The settings given by a flag or the file (the others are defaults). */
  given: Set<string>
}

export const DEFAULT_CONFIG: Readonly<CliConfig> = Object.freeze({
  enable: true,
  address: '127.0.0.1:8545',
  wsAddress: '127.0.0.1:8546',
  api: undefined,
  cors: undefined,
  hosts: undefined,
  maxOpenConnections: 0,
  rpcGasCap: 0n,
  rpcEvmTimeoutMs: 10_000,
  jwtSecret: undefined,
  chainId: undefined,
  accounts: 20,
  balance: 10_000n * 10n ** 18n,
  mnemonic: undefined,
  blockTime: 0,
  validators: 1,
  consensusTimeouts: {},
  consensusTime: undefined,
  hardfork: undefined,
  genesis: undefined,
  db: undefined,
  forkUrl: undefined,
  forkBlockNumber: undefined,
  forkHeaders: undefined,
  forkCacheDir: undefined,
  forkHistoryEntries: undefined,
  forkWalkFetches: undefined,
  artifacts: [],
  cosmos: undefined,
  hardhat: false,
  anvil: false,
  throwOnTransactionFailures: undefined,
  throwOnCallFailures: undefined,
  allowUnlimitedContractSize: false,
  codeSizeLimit: undefined,
  enableProfiling: false,
  profilingDir: undefined,
  blockGasLimit: undefined,
  sendTransactionGas: undefined,
  gasPrice: undefined,
  initialBaseFee: undefined,
  initialDate: undefined,
  genesisTimestamp: undefined,
  coinbase: undefined,
  minGasPrice: undefined,
  noMining: false,
  order: undefined,
  autoImpersonate: false,
  disableConsoleLog: false,
  disableDefaultCreate2Deployer: false,
  state: undefined,
  loadState: undefined,
  dumpState: undefined,
  stateInterval: undefined,
  httpKeepAliveMs: undefined,
  version: false,
  quiet: false,
  help: false,
  given: new Set<string>(),
})

export { PUBLIC_API, LOOPBACK_API, HARDHAT_EXTRA_API, ANVIL_EXTRA_API }

/**
 * The namespaces a transport bound to `address` serves when `--json-rpc.api` is not given; beyond
 * loopback the public set only, `--hardhat` / `--anvil` or not (private namespaces there need a token).
 */
export function defaultApi(address: string, isLoopback: (host: string) => boolean, hardhat = false, anvil = false): string[] {
  if (!isLoopback(parseAddress(address).host)) return [...PUBLIC_API]
  return loopbackApi(hardhat, anvil)
}

const HARDFORKS = new Set<string>(SUPPORTED_HARDFORKS)

/** Flag name → [type, help]. */
export const FLAGS = {
  config: ['string', '<file.toml>  read settings from a TOML file ([json-rpc] section; flags win)'],
  'json-rpc.enable': ['string', '<bool>  serve JSON-RPC (default true)'],
  'json-rpc.address': ['string', '<host:port>  HTTP address (default 127.0.0.1:8545; port 0 = any free port, WebSocket on the same server)'],
  'json-rpc.ws-address': ['string', '<host:port>  WebSocket address (default 127.0.0.1:8546, or the HTTP server\'s with --port or an HTTP port 0; port 0 = a free port of its own)'],
  'json-rpc.api': ['string', '<list>  namespaces served over HTTP and WebSocket (default on loopback eth,web3,net,rpc,evm,hardhat,anvil,txpool,finality; elsewhere eth,web3,net,rpc)'],
  'json-rpc.cors': ['string', '<origins>  browser origins allowed, CORS and WebSocket (default http://localhost,http://127.0.0.1,http://[::1], any port; * = any)'],
  'json-rpc.hosts': ['string', '<names>  Host names allowed, against DNS rebinding; IP addresses always pass (default localhost; * = any)'],
  host: ['string', '<host>  bind address of HTTP and WebSocket (Anvil\'s --host; default 127.0.0.1)'],
  port: ['string', '<port>  one server, one port for HTTP and WebSocket (Anvil\'s --port; 0 = any free port)'],
  'json-rpc.max-open-connections': ['string', '<n>  simultaneous connections per server, 0 = unlimited (default 0)'],
  'json-rpc.rpc-gas-cap': ['string', '<gas>  gas cap of eth_call / eth_estimateGas, 0 = none (default 0)'],
  'json-rpc.rpc-evm-timeout': ['string', '<duration>  time-out of eth_call, e.g. 10s, 500ms (default 10s)'],
  'json-rpc.jwt-secret': ['string', '<hex|file>  JWT secret: private methods need Authorization: Bearer <JWT>'],
  'chain-id': ['string', '<id>  chain id, 1 to 2^64 - 1 (default 31337; with --db, the chain id stored there)'],
  accounts: ['string', '<n>  prefunded accounts (default 20)'],
  balance: ['string', '<ether>  balance of each account in ETH (default 10000)'],
  mnemonic: ['string', '<words>  BIP-39 mnemonic of the accounts (default test test ... junk)'],
  'block-time': ['string', '<seconds>  mine a block every N seconds instead of automine (fractions allowed, e.g. 0.5)'],
  validators: ['string', '<n>  validators of the BFT block producer (default 1)'],
  profile: ['string', '<name>  cosmos-evm: Cosmos EVM\'s staking, bank and bech32 precompiles on this chain\'s state, chain id 262144 (docs/cosmos-evm.md)'],
  'cosmos.unbonding-blocks': ['string', '<n>  blocks an undelegation takes with --profile cosmos-evm (default 10)'],
  'cosmos.bech32-prefix': ['string', '<prefix>  bech32 prefix of accounts with --profile cosmos-evm (default cosmos)'],
  'cosmos.signed-blocks-window': ['string', '<n>  blocks a validator\'s signatures are counted over for downtime (default 100)'],
  'cosmos.min-signed-per-window': ['string', '<0..1>  share of that window a validator must sign (default 0.5)'],
  'cosmos.downtime-jail-blocks': ['string', '<n>  blocks a validator jailed for downtime stays jailed (default 100)'],
  'cosmos.slash-fraction-downtime': ['string', '<0..1>  share of its stake a validator loses for downtime (default 0.01)'],
  'consensus.timeout-propose': ['string', '<duration>  round 0\'s propose time-out, CometBFT\'s timeout_propose (default 3s)'],
  'consensus.timeout-propose-delta': ['string', '<duration>  added per round (default 500ms)'],
  'consensus.timeout-prevote': ['string', '<duration>  round 0\'s prevote time-out (default 1s)'],
  'consensus.timeout-prevote-delta': ['string', '<duration>  added per round (default 500ms)'],
  'consensus.timeout-precommit': ['string', '<duration>  round 0\'s precommit time-out (default 1s)'],
  'consensus.timeout-precommit-delta': ['string', '<duration>  added per round (default 500ms)'],
  'consensus.time': ['string', '<simulated|clock>  rounds on consensus time, no waiting (default), or time-outs waited out on the wall clock (default with --block-time)'],
  hardfork: ['string', `<name>  ${SUPPORTED_HARDFORKS.slice(0, -1).join(', ')} or ${SUPPORTED_HARDFORKS.at(-1)} (default ${DEFAULT_HARDFORK})`],
  genesis: ['string', '<file>  start from a geth-format genesis.json (chain id, hardfork, alloc; as Anvil --init)'],
  db: ['string', '<dir>  keep the chain in a LevelDB directory (classic-level) instead of memory'],
  'fork-url': ['string', '<url>  fork the chain at this JSON-RPC endpoint (http(s):// or ws(s)://; state read on demand, verified with eth_getProof)'],
  'fork-block-number': ['string', '<n>  block to fork at (default the remote\'s latest; negative: that many before it)'],
  'fork-header': ['string', '<"Name: value">  header sent to --fork-url (repeatable), e.g. an API key'],
  'fork-cache-dir': ['string', '<dir>  keep the fork\'s remote answers on disk between runs (by chain id and fork block)'],
  'fork-history-entries': ['string', '<n>  most answers of the remote\'s history kept in memory (default 1000; 0 keeps none)'],
  'fork-walk-fetches': ['string', '<n>  most remote trie nodes one debug_accountRange / debug_dumpBlock may fetch (default 1000)'],
  artifacts: ['string', '<dir|file>  contract metadata: a Hardhat artifacts/ or Foundry out/ folder, or a build-info or artifact file (repeatable); with --hardhat, failures name custom errors and Solidity frames'],
  hardhat: ['boolean', 'Hardhat compatibility: a client version Hardhat\'s helpers accept, failed transactions throw, debug and personal served on loopback too'],
  anvil: ['boolean', 'Anvil\'s defaults: debug, trace and personal served on loopback too (cast run, cast trace), 10 accounts unless --accounts'],
  'throw-on-transaction-failures': ['string', '<bool>  answer a send whose transaction fails in its automined block with Hardhat\'s error (default false; true with --hardhat)'],
  'throw-on-call-failures': ['string', '<bool>  false: eth_call of a failing call answers its return data, as Hardhat can (default true)'],
  'allow-unlimited-contract-size': ['boolean', 'deploy contracts of any size: no EIP-170 code or EIP-3860 initcode limit'],
  'disable-code-size-limit': ['boolean', 'the same as --allow-unlimited-contract-size (Anvil\'s name)'],
  'code-size-limit': ['string', '<bytes>  largest contract code a creation may deploy; initcode twice it (default 24576)'],
  'enable-profiling': ['boolean', 'serve the debug runtime and profiling methods (debug_memStats, debug_cpuProfile, debug_verbosity, …)'],
  'profiling-dir': ['string', '<dir>  directory profiling methods write files into; nothing outside it (default: the working directory)'],
  'block-gas-limit': ['string', '<gas>  gas limit of every block (Hardhat\'s blockGasLimit; default 30000000)'],
  'gas-limit': ['string', '<gas>  the same as --block-gas-limit (Anvil\'s name)'],
  gas: ['string', '<gas|auto>  gas of an eth_sendTransaction without gas (Hardhat\'s gas; default auto: estimated)'],
  'gas-price': ['string', '<wei|auto>  gas price of an eth_sendTransaction that names no fee: a legacy transaction at it (Hardhat\'s gasPrice; default: EIP-1559 fees)'],
  'initial-base-fee-per-gas': ['string', '<wei>  base fee of the genesis block; later blocks follow EIP-1559 (default 1000000000)'],
  'block-base-fee-per-gas': ['string', '<wei>  the same as --initial-base-fee-per-gas (Anvil\'s name; also --base-fee)'],
  'base-fee': ['string', '<wei>  the same as --initial-base-fee-per-gas'],
  'initial-date': ['string', '<date>  the chain\'s clock starts at this date, e.g. 2020-01-01T00:00:00Z (Hardhat\'s initialDate; default now)'],
  timestamp: ['string', '<seconds>  the chain\'s clock starts at this Unix time: the genesis timestamp, later blocks run on (Anvil\'s --timestamp)'],
  coinbase: ['string', '<address>  fee recipient of the blocks, eth_coinbase (default: the proposing validator\'s address)'],
  'min-gas-price': ['string', '<wei>  refuse transactions offering a lower gas price / max fee per gas (default 0)'],
  'no-mining': ['boolean', 'mine only on request (evm_mine, anvil_mine…), no automine (Anvil\'s --no-mining, also --no-mine)'],
  'no-mine': ['boolean', 'the same as --no-mining'],
  order: ['string', '<fees|fifo>  order of pool transactions in a block: best tip first or arrival (default fees)'],
  'auto-impersonate': ['boolean', 'accept eth_sendTransaction from any address, without its key (Anvil\'s --auto-impersonate)'],
  'auto-unlock': ['boolean', 'the same as --auto-impersonate (Anvil\'s alias)'],
  init: ['string', '<file>  the same as --genesis (Anvil\'s name)'],
  'rpc-url': ['string', '<url>  the same as --fork-url (Anvil\'s alias)'],
  'disable-console-log': ['boolean', 'do not print Solidity console.log lines (Anvil\'s; also --no-console-log)'],
  'no-console-log': ['boolean', 'the same as --disable-console-log'],
  'disable-default-create2-deployer': ['boolean', 'place no CREATE2 deployer at 0x4e59b44847b379578588920cA78FbF26c0B4956C at genesis (Anvil places one; forge script deploys with a salt through it)'],
  state: ['string', '<path>  load the state from this file if it exists, write it there at exit (Anvil\'s --state; a directory: <dir>/state.json)'],
  'load-state': ['string', '<path>  start from the state in this file: ours or Anvil\'s (--dump-state, anvil_dumpState)'],
  'dump-state': ['string', '<path>  write the state to this file at exit, in a form Anvil loads too (a directory: <dir>/state.json)'],
  'state-interval': ['string', '<seconds>  also write the state file every N seconds while running (Anvil\'s; with --state or --dump-state)'],
  'json-rpc.http-keep-alive': ['string', '<duration>  how long an idle HTTP keep-alive connection stays open (default 120s; 0 = until the client closes it)'],
  version: ['boolean', 'print the version and exit'],
  quiet: ['boolean', 'do not log requests, transactions, blocks or consensus events (console.log lines still print)'],
  help: ['boolean', 'print this help'],
} as const

/** One-letter flags, as Anvil's (`-p 8545`, `-a 5`, `-m "…"`, `-b 2`, `-f <url>`, `-V`, `-q`, `-h`). */
export const SHORT_FLAGS: Readonly<Record<string, string>> = Object.freeze({
  port: 'p',
  accounts: 'a',
  mnemonic: 'm',
  'block-time': 'b',
  'state-interval': 's',
  'fork-url': 'f',
  version: 'V',
  quiet: 'q',
  help: 'h',
})

/** The `--help` text. */
export function helpText(): string {
  const rows = Object.entries(FLAGS).map(([name, [, help]]) => {
    const [arg, ...rest] = help.startsWith('<') ? help.split('  ') : ['', help]
    const short = SHORT_FLAGS[name]
    return `  ${short === undefined ? '' : `-${short}, `}--${name}${arg === '' ? '' : ` ${arg}`}`.padEnd(48) + rest.join('  ')
  })
  return ['Usage: finality [flags]', '', 'Starts an in-process EVM chain and serves it over HTTP and WebSocket.', '', 'Flags:', ...rows, ''].join('\n')
}

function bool(v: unknown, what: string): boolean {
  if (typeof v === 'boolean') return v
  if (v === 'true' || v === '1' || v === '') return true
  if (v === 'false' || v === '0') return false
  throw new Error(`${what}: want true or false, got ${String(v)}`)
}

function int(v: unknown, what: string, min = 0): number {
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : /^\d+$/.test(String(v)) ? Number(v) : NaN
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${what}: want an integer >= ${min}, got ${String(v)}`)
  return n
}

/** A share from 0 to 1, as a decimal (`0.05`). */
function fraction(v: unknown, what: string): number {
  const n = typeof v === 'number' ? v : /^(0|1|0?\.\d+|1\.0*)$/.test(String(v)) ? Number(v) : NaN
  if (!(n >= 0 && n <= 1)) throw new Error(`${what}: want a share from 0 to 1 (such as 0.05), got ${String(v)}`)
  return n
}

function big(v: unknown, what: string): bigint {
  const s = String(v)
  if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(s)) throw new Error(`${what}: want a number, got ${s}`)
  return BigInt(s)
}

/** `10s`, `500ms`, `1m`, or a number of seconds → milliseconds. */
export function parseDuration(v: unknown, what: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(v).trim())
  if (m === null) throw new Error(`${what}: want a duration like 10s or 500ms, got ${String(v)}`)
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h']
  return Math.round(Number(m[1]) * unit)
}

function ether(v: unknown, what: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,18}))?$/.exec(String(v))
  if (m === null) throw new Error(`${what}: want an amount of ETH, got ${String(v)}`)
  return BigInt(m[1] as string) * 10n ** 18n + BigInt((m[2] ?? '').padEnd(18, '0') || '0')
}

function list(v: unknown): string[] {
  const items = Array.isArray(v) ? v.map(String) : String(v).split(',')
  return items.map((s) => s.trim()).filter((s) => s !== '')
}

function jwt(v: unknown): string {
  const s = String(v).trim()
  return /^(0x)?[0-9a-fA-F]{64,}$/.test(s) ? s : readFileSync(s, 'utf8').trim()
}

/** Seconds, fractions allowed: 0 or at least 0.001. */
function seconds(v: unknown, what: string): number {
  const n = typeof v === 'number' ? v : /^\d+(\.\d+)?$/.test(String(v).trim()) ? Number(v) : NaN
  if (!Number.isFinite(n) || n < 0 || (n > 0 && n < 0.001)) throw new Error(`${what}: want a number of seconds (0 = automine, else at least 0.001), got ${String(v)}`)
  return n
}

type Raw = Record<string, unknown>

/** `--host` / `--port` as they arrive, before they are folded into the addresses. */
type Parsing = CliConfig & { host?: string; port?: number }

type TimeoutName = 'propose' | 'proposeDelta' | 'prevote' | 'prevoteDelta' | 'precommit' | 'precommitDelta'

const TIMEOUT_FLAGS: Record<string, TimeoutName> = {
  'consensus.timeout-propose': 'propose',
  'consensus.timeout-propose-delta': 'proposeDelta',
  'consensus.timeout-prevote': 'prevote',
  'consensus.timeout-prevote-delta': 'prevoteDelta',
  'consensus.timeout-precommit': 'precommit',
  'consensus.timeout-precommit-delta': 'precommitDelta',
}

/** Applies settings by their flag / TOML name onto `c`. */
function apply(c: Parsing, raw: Raw, origin: string): void {
  const at = (k: string) => `${origin} ${k}`
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue
    c.given.add(k)
    switch (k) {
      case 'json-rpc.enable': c.enable = bool(v, at(k)); break
      case 'json-rpc.address': c.address = String(v); break
      case 'json-rpc.ws-address': c.wsAddress = String(v); break
      case 'json-rpc.api': c.api = list(v); break
      case 'json-rpc.cors': c.cors = list(v); checkOriginRules(c.cors, at(k)); break
      case 'json-rpc.hosts': c.hosts = list(v); break
      case 'host': c.host = String(v); break
      case 'port': c.port = int(v, at(k)); if (c.port > 65535) throw new Error(`${at(k)}: want a port up to 65535, got ${String(v)}`); break
      case 'validators': c.validators = int(v, at(k), 1); break
      case 'consensus.timeout-propose':
      case 'consensus.timeout-propose-delta':
      case 'consensus.timeout-prevote':
      case 'consensus.timeout-prevote-delta':
      case 'consensus.timeout-precommit':
      case 'consensus.timeout-precommit-delta':
        c.consensusTimeouts = { ...c.consensusTimeouts, [TIMEOUT_FLAGS[k] as TimeoutName]: parseDuration(v, at(k)) }
        break
      case 'consensus.time':
        if (!(CONSENSUS_TIMES as readonly string[]).includes(String(v))) throw new Error(`${at(k)}: want ${CONSENSUS_TIMES.join(' or ')}, got ${String(v)}`)
        c.consensusTime = String(v) as ConsensusTime
        break
      case 'json-rpc.max-open-connections': c.maxOpenConnections = int(v, at(k)); break
      case 'json-rpc.rpc-gas-cap': c.rpcGasCap = big(v, at(k)); break
      case 'json-rpc.rpc-evm-timeout': c.rpcEvmTimeoutMs = parseDuration(v, at(k)); break
      case 'json-rpc.jwt-secret': c.jwtSecret = jwt(v); break
      case 'chain-id': c.chainId = checkChainId(big(v, at(k)), at(k)); break
      case 'accounts': c.accounts = int(v, at(k)); break
      case 'balance': c.balance = ether(v, at(k)); break
      case 'mnemonic': c.mnemonic = String(v); break
      case 'block-time': c.blockTime = seconds(v, at(k)); break
      case 'hardfork':
        if (!HARDFORKS.has(String(v))) throw new Error(`${at(k)}: unknown hardfork ${String(v)}`)
        c.hardfork = String(v) as HardforkName
        break
      case 'genesis':
      case 'init':
        c.genesis = String(v)
        break
      case 'db': c.db = String(v); break
      case 'fork-url':
      case 'rpc-url':
        c.forkUrl = String(v)
        break
      case 'fork-cache-dir': c.forkCacheDir = String(v); break
      case 'fork-history-entries': c.forkHistoryEntries = int(v, at(k)); break
      case 'fork-walk-fetches': c.forkWalkFetches = int(v, at(k)); break
      case 'fork-block-number': {
        const n = String(v)
        if (!/^-?\d+$/.test(n)) throw new Error(`${at(k)}: want a block number (negative: that many before the remote's head), got ${n}`)
        c.forkBlockNumber = BigInt(n)
        break
      }
      case 'fork-header':
        c.forkHeaders = { ...c.forkHeaders }
        for (const header of Array.isArray(v) ? v.map(String) : [String(v)]) {
          const m = /^([^:\s]+):\s*(.*)$/.exec(header)
          if (m === null) throw new Error(`${at(k)}: want "Name: value", got ${JSON.stringify(header)}`)
          c.forkHeaders[m[1] as string] = m[2] as string
        }
        break
      case 'artifacts': c.artifacts = [...c.artifacts, ...(Array.isArray(v) ? v.map(String) : [String(v)])]; break
      case 'profile':
        if (String(v) !== 'cosmos-evm') throw new Error(`${at(k)}: the one profile is cosmos-evm, got ${JSON.stringify(v)}`)
        c.cosmos = { ...c.cosmos }
        break
      case 'cosmos.unbonding-blocks': c.cosmos = { ...c.cosmos, unbondingBlocks: int(v, at(k), 1) }; break
      case 'cosmos.bech32-prefix': c.cosmos = { ...c.cosmos, bech32Prefix: String(v) }; break
      case 'cosmos.signed-blocks-window': c.cosmos = { ...c.cosmos, signedBlocksWindow: int(v, at(k), 1) }; break
      case 'cosmos.min-signed-per-window': c.cosmos = { ...c.cosmos, minSignedPerWindow: fraction(v, at(k)) }; break
      case 'cosmos.downtime-jail-blocks': c.cosmos = { ...c.cosmos, downtimeJailBlocks: int(v, at(k), 1) }; break
      case 'cosmos.slash-fraction-downtime': c.cosmos = { ...c.cosmos, slashFractionDowntime: fraction(v, at(k)) }; break
      case 'hardhat': c.hardhat = bool(v, at(k)); break
      case 'anvil': c.anvil = bool(v, at(k)); break
      case 'throw-on-transaction-failures': c.throwOnTransactionFailures = bool(v, at(k)); break
      case 'throw-on-call-failures': c.throwOnCallFailures = bool(v, at(k)); break
      case 'allow-unlimited-contract-size':
      case 'disable-code-size-limit':
        c.allowUnlimitedContractSize = bool(v, at(k))
        break
      case 'code-size-limit': c.codeSizeLimit = int(v, at(k), 1); break
      case 'enable-profiling': c.enableProfiling = bool(v, at(k)); break
      case 'profiling-dir': c.profilingDir = String(v); break
      case 'block-gas-limit':
      case 'gas-limit':
        c.blockGasLimit = wei(v, at(k), 21_000n)
        break
      // Hardhat's `auto`: the node's own choice (estimated gas, fee-market fees).
      case 'gas': c.sendTransactionGas = v === 'auto' ? undefined : wei(v, at(k), 21_000n); break
      case 'gas-price': c.gasPrice = v === 'auto' ? undefined : wei(v, at(k)); break
      case 'initial-base-fee-per-gas':
      case 'block-base-fee-per-gas':
      case 'base-fee':
        c.initialBaseFee = wei(v, at(k))
        break
      case 'initial-date': c.initialDate = date(v, at(k)); break
      case 'timestamp': c.genesisTimestamp = wei(v, at(k)); break
      case 'coinbase':
        if (!/^0x[0-9a-fA-F]{40}$/.test(String(v))) throw new Error(`${at(k)}: want a 0x-prefixed 20-byte hex address, got ${String(v)}`)
        c.coinbase = String(v) as `0x${string}`
        break
      case 'min-gas-price': c.minGasPrice = wei(v, at(k)); break
      case 'no-mining':
      case 'no-mine':
        c.noMining = bool(v, at(k))
        break
      case 'order':
        if (v !== 'fees' && v !== 'fifo') throw new Error(`${at(k)}: want fees or fifo, got ${String(v)}`)
        c.order = v
        break
      case 'auto-impersonate':
      case 'auto-unlock':
        c.autoImpersonate = bool(v, at(k))
        break
      case 'disable-console-log':
      case 'no-console-log':
        c.disableConsoleLog = bool(v, at(k))
        break
      case 'disable-default-create2-deployer': c.disableDefaultCreate2Deployer = bool(v, at(k)); break
      case 'state': c.state = path(v, at(k)); break
      case 'load-state': c.loadState = path(v, at(k)); break
      case 'dump-state': c.dumpState = path(v, at(k)); break
      case 'state-interval': {
        // A timer holds at most 2^31 - 1 ms (24 days); longer would fire at once.
        const n = wei(v, at(k), 1n)
        if (n > 2_000_000n) throw new Error(`${at(k)}: want at most 2000000 seconds, got ${n}`)
        c.stateInterval = Number(n)
        break
      }
      case 'json-rpc.http-keep-alive': c.httpKeepAliveMs = parseDuration(v, at(k)); break
      case 'version': c.version = bool(v, at(k)); break
      case 'quiet': c.quiet = bool(v, at(k)); break
      case 'help': c.help = bool(v, at(k)); break
      case 'config': break
      default: throw new Error(`${origin}: unknown setting ${k}`)
    }
  }
}

/** Reads a TOML config file: the `[json-rpc]` and `[consensus]` sections and top-level node settings. */
export function readConfigFile(path: string): Raw {
  const doc = parseToml(readFileSync(path, 'utf8')) as Raw
  const out: Raw = {}
  for (const [k, v] of Object.entries(doc)) {
    if ((k === 'json-rpc' || k === 'consensus') && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      // CometBFT's config.toml spells them timeout_propose; both spellings are taken.
      for (const [kk, vv] of Object.entries(v)) out[`${k}.${k === 'consensus' ? kk.replaceAll('_', '-') : kk}`] = vv
    } else out[k] = v
  }
  return out
}

const BOOL_SETTINGS = new Set(['--json-rpc.enable', '--throw-on-transaction-failures', '--throw-on-call-failures'])

/** Parses argv (without `node script`) into a config: defaults, then the file, then flags. */
export function parseCli(argv: string[]): CliConfig {
  // A setting that takes <bool> given alone means true, as a boolean flag would.
  const joined: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string
    // parseArgs takes a value starting with a dash for a flag: a negative block number is joined to its flag.
    if (a === '--fork-block-number' && /^-\d+$/.test(argv[i + 1] ?? '')) joined.push(`${a}=${argv[++i] as string}`)
    else joined.push(a)
  }
  const args = joined.flatMap((a, i) => (BOOL_SETTINGS.has(a) && !/^(true|false|1|0)$/.test(joined[i + 1] ?? '') ? [`${a}=true`] : [a]))
  const options = Object.fromEntries(
    Object.entries(FLAGS).map(([name, [type]]) => [name, { type, ...(name === 'fork-header' || name === 'artifacts' ? { multiple: true } : {}), ...(SHORT_FLAGS[name] === undefined ? {} : { short: SHORT_FLAGS[name] }) }]),
  ) as Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>
  const { values } = parseArgs({ args, options, strict: true, allowPositionals: false })
  const c: Parsing = { ...DEFAULT_CONFIG, given: new Set() }
  if (typeof values.config === 'string') apply(c, readConfigFile(values.config), values.config)
  apply(c, values as Raw, 'flag')
  checkCombinations(c)
  const { host, port, ...config } = c
  if (config.anvil && !config.given.has('accounts')) config.accounts = 10
  for (const k of ['cosmos.unbonding-blocks', 'cosmos.bech32-prefix', 'cosmos.signed-blocks-window', 'cosmos.min-signed-per-window', 'cosmos.downtime-jail-blocks', 'cosmos.slash-fraction-downtime']) {
    if (config.given.has(k) && !config.given.has('profile')) throw new Error(`--${k} needs --profile cosmos-evm`)
  }
  if (host !== undefined || port !== undefined) {
    // Anvil's shorthands: one host and port for HTTP and WebSocket, one server (port 0 too).
    if (c.given.has('json-rpc.address')) throw new Error('give either --host / --port or --json-rpc.address, not both')
    const http = parseAddress(c.address)
    const h = host ?? http.host
    config.address = `${h.includes(':') ? `[${h}]` : h}:${port ?? http.port}`
    if (!c.given.has('json-rpc.ws-address')) config.wsAddress = config.address
  }
  // An ephemeral HTTP port never leaves the WebSocket on the fixed 8546: it shares the HTTP server.
  if (!c.given.has('json-rpc.ws-address') && parseAddress(config.address).port === 0) config.wsAddress = config.address
  return config
}

/**
 * How the validators' rounds pass time: `--consensus.time` when given; else `clock` with
 * `--block-time` (a chain paced by the wall clock: its rounds take the time CometBFT's would),
 * else `simulated`. The validators are in the node's process whoever calls it over HTTP, so a
 * time-out would be waited for nothing: cast, forge and test suites get their answer at once.
 */
export function consensusTime(c: Pick<CliConfig, 'consensusTime' | 'blockTime' | 'noMining'>): ConsensusTime {
  return c.consensusTime ?? (c.blockTime > 0 && !c.noMining ? 'clock' : 'simulated')
}
