/**
 * A node's settings, resolved from its options (checked by the option table, options-check.ts)
 * and what the options point at: the genesis file, the fork's remote, the database. What depends
 * on more than one option or on an outside source is decided here, once, in this order: the
 * genesis file, the fork, the database's chain id, then the chain id, hardfork and Common.
 */
import { COSMOS_EVM_CHAIN_ID } from '../cosmos/options.js'
import { DEFAULT_MNEMONIC, addressOf, deriveAccounts, seedOf, type LocalAccount } from '../accounts/accounts.js'
import { DEFAULT_HARDFORK, checkChainId, createChainCommon, setCodeSizeLimit } from '../chain/common.js'
import { Forks } from '../chain/forks.js'
import { storedChainId as chainIdOf } from '../chain/store.js'
import { systemClock } from '../clock.js'
import { ForkSession } from '../fork/session.js'
import { fromHex } from '../hex.js'
import { resolveLimits, type Limits } from '../limits.js'
import { DEFAULTS, HARDHAT_DEFAULTS, codeSizeLimitOf, startTimeOf, type NodeOptions } from '../options.js'
import { readGenesisFile, type ChainStart } from './genesis.js'

/** What a node is made with. */
export interface NodeSettings extends ChainStart {
  /** Hardhat compatibility (`hardhatCompat`). */
  readonly hardhat: boolean
  readonly limits: Readonly<Limits>
  /** The BIP-39 seed: the accounts' keys and the validators'. */
  readonly seed: Uint8Array
  /** The accounts the node holds keys for. */
  readonly local: LocalAccount[]
  readonly forks: Forks
}

/** Resolves the settings; a fork's remote is opened and the database opened here. */
export async function resolveSettings(options: NodeOptions): Promise<NodeSettings> {
  const startTime = startTimeOf(options)
  const genesisFile = readGenesisFile(options)
  if (options.fork !== undefined) {
    for (const name of ['genesis', 'db', 'state', 'alloc'] as const) {
      if (options[name] !== undefined) throw new Error(`fork and ${name} cannot be given together: a fork's state is the remote's at the fork block`)
    }
  }
  if (options.cosmos !== undefined) {
    for (const name of ['fork', 'genesis', 'db', 'state'] as const) {
      if (options[name] !== undefined) throw new Error(`cosmos and ${name} cannot be given together: the cosmos option's staking state starts at a genesis of the node's own`)
    }
  }
  const opened = options.fork === undefined ? undefined : await ForkSession.open(options.fork, options.chainId)
  // Without a database the chain lives in memory (see ChainStore); with one it is kept there, and
  // a stored chain resumes under its own chain id unless another is asked for (refused by the node).
  const db = options.db
  await db?.open()
  const storedChainId = db === undefined ? undefined : await chainIdOf(db)
  const chainId = checkChainId(
    opened?.chainId ?? genesisFile?.chainId ?? BigInt(options.chainId ?? storedChainId ?? (options.cosmos !== undefined ? COSMOS_EVM_CHAIN_ID : DEFAULTS.chainId)),
    opened !== undefined ? "the fork's chain id" : genesisFile !== undefined ? "the genesis file's config.chainId" : options.chainId === undefined && storedChainId !== undefined ? "the database's chain id" : 'chainId',
  )
  const hardfork = options.hardfork ?? (opened?.hardfork as typeof options.hardfork) ?? DEFAULT_HARDFORK
  // With a fork schedule, new blocks are built under its newest fork; each block's own fork is
  // picked by `forks` (decoding, import).
  const codeSizeLimit = codeSizeLimitOf(options)
  const common = genesisFile === undefined
    ? createChainCommon(chainId, hardfork, undefined, codeSizeLimit)
    : genesisFile.laterForks.length === 0
      ? genesisFile.common
      : createChainCommon(chainId, genesisFile.headHardfork, genesisFile.config, codeSizeLimit)
  if (codeSizeLimit !== undefined && common === genesisFile?.common) setCodeSizeLimit(common, codeSizeLimit)
  const forks = genesisFile === undefined || genesisFile.laterForks.length === 0
    ? new Forks(common)
    : new Forks(common, { common: genesisFile.schedule, chainId, config: genesisFile.config, codeSizeLimit })
  const hardhat = options.hardhatCompat ?? false
  // Hardhat caps no transaction fee; a txFeeCap given still wins.
  const limits = resolveLimits(hardhat ? { txFeeCap: HARDHAT_DEFAULTS.txFeeCap, ...options.limits } : options.limits)
  const seed = seedOf(options.mnemonic ?? DEFAULT_MNEMONIC)
  const local: LocalAccount[] = options.accounts !== undefined
    ? options.accounts.map((a) => {
        const privateKey = fromHex(a.privateKey)
        return { address: addressOf(privateKey), privateKey }
      })
    : deriveAccounts(seed, options.accountCount ?? DEFAULTS.accountCount)
  const balances = local.map((a, i) => ({
    address: a.address,
    balance: options.accounts?.[i]?.balance ?? options.balance ?? DEFAULTS.balance,
  }))
  const blockGasLimit = options.blockGasLimit
    ?? (genesisFile?.header.gasLimit as bigint | undefined)
    ?? (opened === undefined ? undefined : BigInt(opened.header.gasLimit as string))
    ?? (hardhat ? HARDHAT_DEFAULTS.blockGasLimit : DEFAULTS.blockGasLimit)
  return {
    options, hardhat, limits, clock: options.clock ?? systemClock, startTime, seed, local, balances, db, storedChainId,
    chainId, common, forks, genesisFile, opened, blockGasLimit,
  }
}
