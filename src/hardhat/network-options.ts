/**
 * A Hardhat network config (Hardhat 2's resolved `networks.hardhat`, Hardhat 3's simulated
 * network: the same fields) as createNode options. Every setting either has a counterpart or
 * fails with an error that names it and says why; none is silently dropped. `gas`, `gasPrice`,
 * `gasMultiplier` and `from` are not the node's: Hardhat's provider wrappers apply them to each
 * request (Hardhat 2's `applyProviderWrappers`), so they are left to Hardhat. `loggingEnabled` is
 * the plugin's request log, not a node option. Settings other plugins add to the config are theirs.
 */
import type { AccountOption, NodeOptions } from '../options.js'
import type { HardforkName } from '../chain/common.js'

/** A prefunded account as Hardhat resolves one: a private key and a balance in wei. */
export interface HardhatAccount {
  privateKey: string
  balance: string | bigint | number
}

/** Hardhat's mnemonic form of the accounts. */
export interface HardhatHdAccounts {
  mnemonic: string
  path?: string
  initialIndex?: number
  count?: number
  accountsBalance?: string | bigint | number
  passphrase?: string
}

/** The fields of a Hardhat network config this mapping reads (numbers or bigints: HH2 or HH3). */
export interface HardhatNetworkSettings {
  chainId?: number | bigint
  hardfork?: string
  accounts?: readonly HardhatAccount[] | HardhatHdAccounts
  allowUnlimitedContractSize?: boolean
  mining?: { auto?: boolean; interval?: number | bigint | readonly [number, number]; mempool?: { order?: string } }
  initialBaseFeePerGas?: number | bigint
  blockGasLimit?: number | bigint
  throwOnTransactionFailures?: boolean
  throwOnCallFailures?: boolean
  forking?: { url?: string; blockNumber?: number | bigint; httpHeaders?: Record<string, string>; enabled?: boolean }
  coinbase?: string
  minGasPrice?: bigint | number | string
  initialDate?: string | Date
  allowBlocksWithSameTimestamp?: boolean
  enableTransientStorage?: boolean
  enableRip7212?: boolean
  chains?: unknown
}

/** What the mapping needs from the Hardhat that calls it. */
export interface HardhatNetworkContext {
  /**
   * Whether the user set a setting themselves. Hardhat 2 resolves some settings to a value of
   * the moment (`initialDate`: now; `chains`: its table) whether or not the user wrote them;
   * only a setting the user wrote is refused. Default: every setting present counts as set.
   */
  userSet?: (setting: 'initialDate' | 'chains') => boolean
  /**
   * The keys of a mnemonic form finality's `mnemonic` option cannot express (another path, a
   * first index other than 0, a passphrase), derived by Hardhat's own code. Without it such a
   * form is refused.
   */
  deriveAccounts?: (accounts: HardhatHdAccounts) => readonly HardhatAccount[]
}

/** A Hardhat network setting this node cannot honour, named with the reason. */
export class HardhatNetworkSettingError extends TypeError {
  /** The setting, as the Hardhat config names it (`mining.interval`). */
  readonly setting: string
  constructor(setting: string, reason: string) {
    super(`finality-evm/hardhat: networks.hardhat.${setting} ${reason}`)
    this.name = 'HardhatNetworkSettingError'
    this.setting = setting
  }
}

/** Hardhat's hardfork names of the forks finality runs (London on; `merge` is Paris). */
const HARDFORKS: Readonly<Record<string, HardforkName>> = {
  london: 'london',
  merge: 'paris',
  shanghai: 'shanghai',
  cancun: 'cancun',
  prague: 'prague',
  osaka: 'osaka',
}
const HARDFORK_ORDER = Object.values(HARDFORKS)

/** Hardhat's default derivation path (accounts at `<path>/<index>`), the one finality's mnemonic uses. */
const DEFAULT_PATH = "m/44'/60'/0'/0"


function wei(setting: string, value: string | bigint | number): bigint {
  try {
    const out = BigInt(value)
    if (out >= 0n) return out
  } catch {
    // refused below
  }
  throw new HardhatNetworkSettingError(setting, `must be an amount of wei, got ${JSON.stringify(String(value))}`)
}

function hardforkOf(name: string): HardforkName {
  const fork = HARDFORKS[name]
  if (fork === undefined) {
    throw new HardhatNetworkSettingError('hardfork', `${JSON.stringify(name)} is not a hardfork finality runs: it runs ${Object.keys(HARDFORKS).join(', ')} (Hardhat's names)`)
  }
  return fork
}

function accountsOf(accounts: HardhatNetworkSettings['accounts'], context: HardhatNetworkContext): Partial<NodeOptions> {
  if (accounts === undefined) return {}
  if (Array.isArray(accounts)) {
    const list = accounts as readonly HardhatAccount[]
    return { accounts: list.map((a, i): AccountOption => ({ privateKey: a.privateKey as `0x${string}`, balance: wei(`accounts[${i}].balance`, a.balance) })) }
  }
  const hd = accounts as HardhatHdAccounts
  const plain = (hd.path ?? DEFAULT_PATH) === DEFAULT_PATH && (hd.initialIndex ?? 0) === 0 && (hd.passphrase ?? '') === ''
  if (plain) {
    return {
      mnemonic: hd.mnemonic,
      ...(hd.count === undefined ? {} : { accountCount: hd.count }),
      ...(hd.accountsBalance === undefined ? {} : { balance: wei('accounts.accountsBalance', hd.accountsBalance) }),
    }
  }
  if (context.deriveAccounts === undefined) {
    throw new HardhatNetworkSettingError('accounts', 'with a path, initialIndex or passphrase of its own needs its keys derived by Hardhat; give the accounts as [{ privateKey, balance }]')
  }
  return accountsOf(context.deriveAccounts(hd), context)
}

function miningOf(mining: NonNullable<HardhatNetworkSettings['mining']>): Partial<NodeOptions> {
  const out: Partial<NodeOptions> = {}
  const auto = mining.auto ?? true
  const interval = mining.interval ?? 0
  if (Array.isArray(interval)) {
    throw new HardhatNetworkSettingError('mining.interval', 'as a [min, max] range (a random time between blocks) has no counterpart: finality mines at a fixed interval; give a number of milliseconds')
  }
  const ms = Number(interval as number | bigint)
  if (!Number.isSafeInteger(ms) || ms < 0) throw new HardhatNetworkSettingError('mining.interval', `must be a number of milliseconds, got ${String(interval)}`)
  if (auto && ms > 0) {
    throw new HardhatNetworkSettingError('mining.interval', `with mining.auto true has no counterpart: finality mines either each transaction at once (auto) or every interval; set auto: false to mine every ${ms} ms`)
  }
  out.mining = auto ? { mode: 'auto' } : ms > 0 ? { mode: 'interval', blockTime: ms } : { mode: 'manual' }
  const order = mining.mempool?.order
  if (order !== undefined) {
    if (order !== 'priority' && order !== 'fifo') throw new HardhatNetworkSettingError('mining.mempool.order', `must be "priority" or "fifo", got ${JSON.stringify(order)}`)
    out.txpool = { order: order === 'priority' ? 'fees' : 'fifo' }
  }
  return out
}

function forkOf(forking: NonNullable<HardhatNetworkSettings['forking']>): Partial<NodeOptions> {
  if (forking.enabled === false || forking.url === undefined) return {}
  const headers = forking.httpHeaders !== undefined && Object.keys(forking.httpHeaders).length > 0 ? { headers: forking.httpHeaders } : {}
  return { fork: { url: forking.url, ...(forking.blockNumber === undefined ? {} : { blockNumber: BigInt(forking.blockNumber) }), ...headers } }
}

/**
 * createNode options for a Hardhat network config: Hardhat compatibility on, then each setting
 * mapped. Throws {@link HardhatNetworkSettingError} for a setting with no counterpart.
 */
export function hardhatNetworkOptions(config: HardhatNetworkSettings, context: HardhatNetworkContext = {}): NodeOptions {
  const userSet = context.userSet ?? (() => true)
  const options: NodeOptions = { hardhatCompat: true }
  if (config.chainId !== undefined) options.chainId = BigInt(config.chainId)
  const hardfork = config.hardfork === undefined ? undefined : hardforkOf(config.hardfork)
  if (hardfork !== undefined) options.hardfork = hardfork
  Object.assign(options, accountsOf(config.accounts, context))
  if (config.allowUnlimitedContractSize !== undefined) options.allowUnlimitedContractSize = config.allowUnlimitedContractSize
  if (config.mining !== undefined) Object.assign(options, miningOf(config.mining))
  if (config.initialBaseFeePerGas !== undefined) options.initialBaseFee = wei('initialBaseFeePerGas', config.initialBaseFeePerGas)
  if (config.blockGasLimit !== undefined) options.blockGasLimit = wei('blockGasLimit', config.blockGasLimit)
  if (config.throwOnTransactionFailures !== undefined) options.throwOnTransactionFailures = config.throwOnTransactionFailures
  if (config.throwOnCallFailures !== undefined) options.throwOnCallFailures = config.throwOnCallFailures
  if (config.forking !== undefined) Object.assign(options, forkOf(config.forking))
  if (config.coinbase !== undefined) options.coinbase = config.coinbase as `0x${string}`
  if (config.minGasPrice !== undefined && BigInt(config.minGasPrice) !== 0n) options.minGasPrice = BigInt(config.minGasPrice)
  // Hardhat fills in the time of the moment when the user wrote none: only the user's own is a date to start at.
  if (config.initialDate !== undefined && userSet('initialDate')) options.initialDate = config.initialDate
  if (config.allowBlocksWithSameTimestamp === true) {
    throw new HardhatNetworkSettingError('allowBlocksWithSameTimestamp', 'has no counterpart: every finality block is a decided block whose timestamp is after its parent\'s')
  }
  const fork = hardfork ?? 'prague'
  if (config.enableTransientStorage === true && HARDFORK_ORDER.indexOf(fork) < HARDFORK_ORDER.indexOf('cancun')) {
    throw new HardhatNetworkSettingError('enableTransientStorage', `has no counterpart before Cancun: finality runs each hardfork's own EIPs; use hardfork "cancun" or later (transient storage is on from Cancun)`)
  }
  if (config.enableRip7212 === true && fork !== 'osaka') {
    throw new HardhatNetworkSettingError('enableRip7212', 'has no counterpart before Osaka: finality runs each hardfork\'s own precompiles; use hardfork "osaka", which has the P-256 precompile (EIP-7951)')
  }
  if (config.chains !== undefined && userSet('chains')) {
    throw new HardhatNetworkSettingError('chains', 'has no counterpart: a fork reads the remote\'s blocks under the schedule finality knows for its chain, or the hardfork its headers show (docs/forking.md)')
  }
  return options
}
