/**
 * The node's components, each made once with what it depends on (no member set afterwards): the
 * chain and its start, consensus and block production, execution, the fork session, the controls
 * and the filters. The node (src/node.ts) puts them behind the dispatcher and the transports.
 */
import { resolve } from 'node:path'
import { Keyring } from '../accounts/keyring.js'
import { EvmApplication } from '../app/application.js'
import { CosmosControls } from '../cosmos/controls.js'
import { CosmosModule, type GenesisValidator } from '../cosmos/module.js'
import { sealGenesis, trackWrite } from '../cosmos/supply.js'
import { Chain } from '../chain/chain.js'
import { BftEngine } from '../consensus/bft.js'
import { ConsensusControls } from '../consensus/consensus-controls.js'
import { Producer } from '../producer/producer.js'
import { DEFAULT_TIMEOUTS } from '../consensus/tendermint/timeouts.js'
import { createValidator, validatorSeed } from '../consensus/keys.js'
import { Controls } from '../controls/controls.js'
import { Impersonation } from '../controls/impersonation.js'
import { BlockBuilder } from '../execution/builder.js'
import type { Block } from '@ethereumjs/block'
import { commitVotes } from '../consensus/certificate.js'
import type { JournaledState } from '../state/journaled-state.js'
import { CallExecutor, type CallOptions } from '../execution/call.js'
import type { CallRequest } from '../execution/call-request.js'
import { FailureExplainer } from '../execution/failures.js'
import type { FailureReport } from '../metadata/source-map.js'
import { ContractRegistry } from '../metadata/registry.js'
import { EcrecoverOverrides } from '../execution/ecrecover-overrides.js'
import { Transactions } from '../execution/transactions.js'
import { Tracing } from '../execution/tracers/replay.js'
import { FilterManager } from '../filters/manager.js'
import { ForkSession } from '../fork/session.js'
import { LogSwitch } from '../log/log-switch.js'
import { NodeLog } from '../log/node-log.js'
import { AbiNames } from '../metadata/names.js'
import { DEFAULTS, HARDHAT_DEFAULTS } from '../options.js'
import { Profiling } from '../profiling/profiling.js'
import { eventFormat } from '../rpc/format.js'
import { DEFAULT_POOL_OPTIONS, TxPool } from '../txpool/pool.js'
import { startChain } from './genesis.js'
import type { NodeSettings } from './settings.js'

/** The node's console.log sink: `onConsoleLog` (printed by default), while the output switch lets it through. */
function consoleSink(settings: NodeSettings, output: LogSwitch): ((message: string) => void) | undefined {
  const { onConsoleLog } = settings.options
  // Printed by default, one line per call, as Hardhat's in-process network prints them; `false` is
  // silence. console.log is looked up at each call, so a later spy or a replaced console sees them.
  const user = onConsoleLog === false ? undefined : (onConsoleLog ?? ((message: string) => console.log(message)))
  if (user === undefined) return undefined
  return (message) => {
    try {
      if (output.allows('console')) user(message)
    } catch {
      // A throwing callback must not change the execution it observes.
    }
  }
}

/** What a node behind another consensus gives instead of the in-process validators. */
export interface ComponentOverrides {
  /** The validators the `cosmos` option bonds at genesis (CometBFT's, on a devnet); default the in-process ones. */
  cosmosValidators?: readonly GenesisValidator[]
}

/** Makes the components and starts the chain (its genesis, resumed blocks or fork block). */
export async function createComponents(settings: NodeSettings, overrides: ComponentOverrides = {}) {
  const { options, common, limits, clock, hardhat, seed, chainId, startTime } = settings
  const keyring = new Keyring(settings.local, clock)
  const chain = new Chain(common, settings.db, settings.forks)
  const fork = new ForkSession({ chain, common, balances: settings.balances }, options.fork)
  const validators = Array.from({ length: options.validators ?? DEFAULTS.validators }, (_, i) => createValidator(validatorSeed(seed, i)))
  // The cosmos option: its module's genesis accounts, block hooks and precompiles (none otherwise).
  const bonded = overrides.cosmosValidators ?? validators
  const cosmos = options.cosmos === undefined ? undefined : new CosmosModule(options.cosmos, bonded)
  await startChain(chain, settings, fork, cosmos === undefined ? {} : { accounts: cosmos.genesisAccounts(bonded), seal: sealGenesis })
  // The supply counter follows the test controls' writes (none runs without the option).
  if (cosmos !== undefined) chain.setWriteHook(trackWrite)

  const bft = new BftEngine(chainId, validators, {
    clock,
    timeouts: { ...DEFAULT_TIMEOUTS, ...options.consensus?.timeouts },
    maxRounds: options.consensus?.maxRounds,
    seed: options.consensus?.seed,
    // `clock` is always given here (the wall clock by default): the default follows the option.
    time: options.consensus?.time ?? (options.clock === undefined ? 'simulated' : 'clock'),
    head: () => chain.height,
  })
  const pool = new TxPool({ ...DEFAULT_POOL_OPTIONS, ...options.txpool }, options.minGasPrice ?? 0n)
  // anvil_impersonateSignature's pairs: one registry for the VMs of blocks, calls and traces.
  const ecrecover = new EcrecoverOverrides()
  const builder = await BlockBuilder.create(chain, common, ecrecover, cosmos)
  const profiling = new Profiling(options.enableProfiling ?? false, resolve(options.profilingDir ?? process.cwd()))
  // console.log output and the node's log go out while logging is on (hardhat_/anvil_setLoggingEnabled).
  const output = new LogSwitch(profiling.log)
  const onConsoleLog = consoleSink(settings, output)
  // The node's log (onLog): made only when asked for, so that nothing runs for it otherwise.
  // Contract metadata explains failures (in Hardhat mode) and names errors and events in the log:
  // read only after a failure or by the log, and only when some was given.
  const contracts = new ContractRegistry()
  if (options.artifacts !== undefined) contracts.add(options.artifacts)
  const log = options.onLog === undefined ? undefined : new NodeLog(options.onLog, options.logColor ?? false, (source) => output.allows(source), new AbiNames(contracts))
  if (onConsoleLog !== undefined || log !== undefined) builder.collectConsoleLog()
  const application = new EvmApplication(chain, builder, log === undefined ? undefined : (committed) => log.committed(committed))
  const producer = new Producer(chain, pool, application, bft, clock, options.mining ?? { mode: 'auto' }, () => settings.blockGasLimit, {
    onConsoleLog,
    // Halts go to the log and to consensus's listeners (finality_subscribe's `halt` / `resume`).
    onHalt: (halted, height, reason) => {
      log?.halted(halted, height)
      bft.reportHalt(halted, height, reason)
    },
    settingBase: () => ({
      coinbase: options.coinbase?.toLowerCase() ?? (hardhat ? HARDHAT_DEFAULTS.coinbase : undefined),
      // The clock starts at the given time when the node is made, and again at each hardhat_reset.
      timeOffset: startTime === undefined ? undefined : startTime - BigInt(Math.floor(clock.now() / 1000)),
    }),
  })
  if (log !== undefined) bft.subscribe((event) => log.consensus(event))
  // Calls' console.log goes to the log (under its request) as well as to onConsoleLog.
  const callConsoleLog = log === undefined ? onConsoleLog : (message: string) => {
    log.consoleLog(message)
    onConsoleLog?.(message)
  }
  const explainCall = (req: CallRequest, block: Block, o: CallOptions): Promise<FailureReport | undefined> => failures.ofCall(req, block, o)
  const calls = new CallExecutor(chain, common, limits, clock, { onConsoleLog: callConsoleLog, throwOnCallFailures: options.throwOnCallFailures ?? true, ecrecover, precompiles: cosmos?.precompiles, hardhat, explain: explainCall })
  const impersonation = new Impersonation()
  const blockGasLimit = settings.blockGasLimit
  const transactions = new Transactions(common, chain, pool, keyring, calls, limits, {
    allowUnprotectedTxs: options.allowUnprotectedTxs ?? (hardhat && HARDHAT_DEFAULTS.allowUnprotectedTxs),
    defaultGas: options.sendTransactionGas ?? (hardhat ? (blockGasLimit < HARDHAT_DEFAULTS.sendTransactionGasCap ? blockGasLimit : HARDHAT_DEFAULTS.sendTransactionGasCap) : undefined),
    defaultGasPrice: options.sendTransactionGasPrice,
    // Hardhat compatibility turns on what Hardhat Network does by default.
    throwOnTransactionFailures: options.throwOnTransactionFailures ?? hardhat,
    nextBlockGasLimit: () => producer.blockGasLimit,
    hardhat,
    automine: () => producer.mode.mode === 'auto',
    impersonated: (address) => impersonation.has(address),
    explain: (hash): Promise<FailureReport | undefined> => failures.ofTransaction(hash),
  })
  const controls = new Controls(chain, pool, producer, impersonation, output, fork, {
    reusableSnapshots: options.reusableSnapshots ?? false,
    hardhatCompat: hardhat,
    noFork: cosmos === undefined ? undefined : 'a reset to a fork is refused with the cosmos option: its staking and bank state (the supply counter included) start at a genesis of the node\'s own',
  })
  const consensus = new ConsensusControls(
    bft,
    () => producer.consensusChanged(),
    (i) => createValidator(validatorSeed(seed, i)),
    () => chain.height,
    cosmos === undefined ? undefined : 'with the cosmos option the staking state sets the voting power: delegate or undelegate through the staking precompile (0x…0800)',
  )
  const filters = new FilterManager(chain, pool, clock, limits, eventFormat.logs)
  // A replay re-runs BeginBlock with what the block was handed: the evidence it committed and
  // who signed its parent's certificate.
  const beginBlock =
    cosmos === undefined
      ? undefined
      : async (state: JournaledState, block: Block) => {
          const height = block.header.number
          const lastCommit = commitVotes(await chain.certificate(block.header.parentHash), bft.setAt(height - 1n).validators)
          await cosmos.beginBlock(state, height, bft.evidence.committedBy(height), lastCommit)
        }
  const tracing: Tracing = new Tracing(chain, calls, clock, limits, hardhat, beginBlock)
  const failures: FailureExplainer = new FailureExplainer(contracts, () => tracing, chain)
  const cosmosControls = cosmos === undefined ? undefined : new CosmosControls(chain, (task) => producer.exclusive(task))
  return { cosmos, cosmosControls, keyring, chain, fork, bft, pool, profiling, output, log, application, producer, calls, transactions, controls, consensus, filters, tracing, contracts, failures }
}

/** The components of a node. */
export type Components = Awaited<ReturnType<typeof createComponents>>
