/** createNode(): wires the chain, pool, consensus, executor and dispatcher together. */
import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { initKeccak, keccak256 as keccak_256 } from './crypto/keccak.js'
import { nodeClosed, nodeStarted } from './compile-cache.js'
import { checksumAddress } from './crypto/checksum.js'
import { installEngine } from './execution/engine/install.js'
import { DEFAULT_MNEMONIC, addressOf, deriveAccounts, seedOf, type LocalAccount } from './accounts/accounts.js'
import { Keyring } from './accounts/keyring.js'
import { EvmApplication } from './app/application.js'
import { Chain } from './chain/chain.js'
import { storedChainId as chainIdOf } from './chain/store.js'
import { DEFAULT_HARDFORK, SUPPORTED_HARDFORKS, checkChainId, createChainCommon, setCodeSizeLimit } from './chain/common.js'
import { parseGethGenesis } from './chain/geth-genesis.js'
import { Forks } from './chain/forks.js'
import { importBlocks } from './chain/import.js'
import { SYSTEM_CONTRACTS } from './chain/system-contracts.js'
import { systemClock } from './clock.js'
import { BftEngine, verifyCertificate } from './consensus/bft.js'
import { DEFAULT_TIMEOUTS } from './consensus/tendermint/timeouts.js'
import type { Fault } from './consensus/tendermint/faults.js'
import { ConsensusControls } from './consensus/consensus-controls.js'
import { certificateWithSetToJson, type CertificateWithSetJson } from './consensus/certificate.js'
import { Producer, type MiningMode } from './producer/producer.js'
import { createValidator, validatorSeed } from './consensus/keys.js'
import type { ValidatorStatus } from './consensus/validator.js'
import { Eip1193Provider } from './adapters/eip1193.js'
import type { HttpHandler, HttpOptions } from './adapters/http.js'
import type { ListenOptions, Listening } from './adapters/listen.js'
import { createTransports } from './adapters/transports.js'
import type { WsEndpoint, WsOptions } from './adapters/ws.js'
import { FilterManager } from './filters/manager.js'
import { eventFormat } from './rpc/format.js'
import type { Server } from 'node:http'
import type { RpcRequestArgs, RpcResult } from './rpc-types.js'
import { resolve } from 'node:path'
import { InvalidRequestError, NodeClosedError, type RpcError } from './errors.js'
import { BlockBuilder } from './execution/builder.js'
import { EcrecoverOverrides } from './execution/ecrecover-overrides.js'
import { CallExecutor } from './execution/call.js'
import { Transactions } from './execution/transactions.js'
import { Tracing } from './execution/tracers/replay.js'
import { fromHex, keyOf, quantity, type Hex } from './hex.js'
import { resolveLimits } from './limits.js'
import { DEFAULTS, HARDHAT_DEFAULTS, codeSizeLimitOf, startTimeOf, type NodeOptions } from './options.js'
import { checkMiningMode, checkNodeOptions } from './options-check.js'
import { Dispatcher, type RpcResponse } from './rpc/dispatcher.js'
import { NAMESPACES, buildRegistry } from './rpc/registry.js'
import { clientVersion } from './rpc/web3.js'
import { Profiling } from './profiling/profiling.js'
import type { Services } from './services.js'
import { emptyDiff, type StateDiff } from './state/types.js'
import { DEFAULT_POOL_OPTIONS, TxPool } from './txpool/pool.js'
import { Controls } from './controls/controls.js'
import { dumpState, dumpToAlloc, parseDump, type StateDump } from './controls/state-dump.js'
import { data } from './hex.js'
import { forkBlock, openFork, switchRemote, type ForkStatus, type OpenedFork } from './fork/fork.js'
import { DEFAULT_HISTORY_ENTRIES, DEFAULT_WALK_FETCHES, type ForkOptions } from './fork/options.js'
import { AnswerCache } from './fork/answer-cache.js'
import { ForkState } from './fork/lazy-state.js'
import { FlatState } from './state/flat-state.js'
import { ForkHistory } from './fork/history.js'
import { fetchRemoteBlock } from './fork/remote-block.js'
import { RemoteForks } from './fork/remote-forks.js'
import { recording, replaying } from './fork/recorded.js'
import { nodeHelpers, type Quantity } from './node-helpers.js'
import { NodeLog } from './log/node-log.js'

/** A running in-process node. */
export interface FinalityNode {
  /** The chain id. */
  readonly chainId: bigint
  /** The prefunded accounts the node holds keys for; addresses EIP-55 checksummed. */
  readonly accounts: ReadonlyArray<{ address: Hex; privateKey: Hex }>
  /** The EIP-1193 provider (viem `custom()`, ethers `BrowserProvider`). */
  readonly provider: Eip1193Provider
  /**
   * Calls one JSON-RPC method; rejects with an {@link RpcError} carrying `code` and `data`. A
   * method the node serves, named by its literal, is typed ({@link RpcMethodTypes}): its params
   * must have their types (wrong ones do not compile) and it resolves to its wire type. Any other
   * name (a method of a newer release) or a plain `string` takes any params and resolves to
   * `unknown`: the node checks those params at run time (-32602).
   */
  request<M extends string>(args: RpcRequestArgs<M>): Promise<RpcResult<M>>
  /** Answers a whole JSON-RPC payload (one request or a batch), as transports do. */
  handle(payload: unknown): Promise<RpcResponse | RpcResponse[] | undefined>
  /** Produces one block now with the pending transactions (any mining mode); `timestamp` after the parent's. */
  mine(options?: { timestamp?: Quantity }): Promise<{ number: bigint; hash: Hex } | undefined>
  /** Changes the mining mode. */
  setMining(mode: MiningMode): void
  /** The validators and their status. */
  readonly validators: ReadonlyArray<ValidatorStatus>
  /** Takes a validator offline or back online; with too few online, the chain halts. */
  setValidatorOnline(address: Hex, online: boolean): void
  /**
   * Gives a validator faults (replacing its previous ones): `offline`, `silent` (never proposes),
   * `nil` (votes nil), `equivocate` (signs two proposals and two votes per round), `delay` (ms).
   * With more than 1/3 of the power faulty the chain halts until healed.
   */
  setValidatorFault(address: Hex, fault: Fault): void
  /** Heals one validator, or every validator and the partition; a halted chain resumes. */
  healValidators(address?: Hex): void
  /** Splits the validators into groups that cannot reach each other (the ones not listed form one more). */
  partitionValidators(groups: Hex[][]): void
  /**
   * Requests validator-set changes (a power of 0 removes; `index` adds the validator of that key
   * index of the mnemonic); they take effect two heights after the head. Answers that height.
   */
  changeValidators(changes: Array<{ address?: Hex; index?: number; power: bigint | number }>): bigint
  /**
   * The commit certificate of block `number` (a quantity, or a tag such as `latest`; undefined for
   * genesis or a block not yet made), and whether it verifies.
   */
  commitCertificate(number: Quantity | 'latest' | 'earliest' | 'safe' | 'finalized'): Promise<(CertificateWithSetJson & { valid: boolean }) | undefined>
  /** The head state as a versioned JSON dump (the format of docs/controls.md, which Anvil loads too). */
  dumpState(): StateDump
  /**
   * Replaces accounts with a dump's (`anvil_loadState`): ours (object or RPC hex), or Anvil's
   * (its `anvil_dumpState` hex, or its `--dump-state` file parsed).
   */
  loadState(dump: StateDump | Hex | Record<string, unknown>): Promise<void>
  /** Remembers the chain, pool and time (`evm_snapshot`); returns the id for {@link revert}. */
  snapshot(): Promise<Hex>
  /** Back to a snapshot (`evm_revert`); false for an unknown or used-up id. */
  revert(id: Quantity): Promise<boolean>
  /** Mines `count` blocks, `interval` seconds apart (`hardhat_mine`). */
  mineBlocks(count: Quantity, interval?: Quantity): Promise<void>
  /** Moves the clock of later blocks forward (`evm_increaseTime`); returns the total offset. */
  increaseTime(seconds: Quantity): Promise<bigint>
  /** The exact timestamp of the next block (`evm_setNextBlockTimestamp`). */
  setNextBlockTimestamp(timestamp: Quantity): Promise<void>
  /** Automine on or off (`evm_setAutomine`). */
  setAutomine(on: boolean): Promise<void>
  /**
   * State writes without a block (`hardhat_setBalance`, `setCode`, `setNonce`, `setStorageAt`).
   * Every helper takes what its RPC method takes (a quantity also as a bigint or a safe integer)
   * and refuses the rest with -32602 naming the helper and the argument.
   */
  setBalance(address: Hex, wei: Quantity): Promise<void>
  setCode(address: Hex, code: Hex): Promise<void>
  setNonce(address: Hex, nonce: Quantity): Promise<void>
  setStorageAt(address: Hex, slot: Quantity, value: Hex): Promise<void>
  /** Sends for an address without its key (`hardhat_impersonateAccount`), and stops. */
  impersonate(address: Hex): Promise<void>
  stopImpersonating(address: Hex): Promise<void>
  /** Back to genesis (`hardhat_reset`). */
  reset(): Promise<void>
  /**
   * Imports an exported chain (concatenated RLP blocks) on top of the head, executing and
   * checking each block; refuses a bad block and keeps nothing of it. Returns the count imported.
   */
  importBlocks(bytes: Uint8Array): Promise<{ imported: number }>
  /**
   * A `(req, res, next?)` handler for `http.createServer(handler)` or Express
   * (`app.use('/rpc', node.http())`). Namespaces `eth, web3, net, rpc` unless `api` says otherwise.
   */
  http(options?: HttpOptions): HttpHandler
  /** Attaches the WebSocket transport (subscriptions included) to the caller's `http.Server`. */
  ws(server: Server, options?: WsOptions): WsEndpoint
  /** Serves HTTP and WebSocket on their own servers (127.0.0.1:8545 / 8546 by default, port 0 = ephemeral). */
  listen(options?: ListenOptions): Promise<Listening>
  /**
   * Closes the node: lets the blocks already under way finish (a send in flight settles with its
   * receipt or NodeClosedError), then stops block production, closes the node's servers and
   * WebSocket endpoints and the database, and disconnects the provider. From the moment it is
   * called every other member rejects (or throws) NodeClosedError (code 4900), including handlers
   * made by `http()` before. Calling it again returns the same promise.
   */
  close(): Promise<void>
}

function genesisDiff(options: NodeOptions, accounts: Array<{ address: Hex; balance: bigint }>, withSystem: boolean): StateDiff {
  const diff = emptyDiff()
  const put = (address: string, a: { balance?: bigint; nonce?: bigint; code?: Uint8Array; storage?: Record<string, string> }) => {
    const key = address.toLowerCase().replace(/^0x/, '')
    const code = a.code ?? new Uint8Array()
    diff.accounts.set(key, new Account(a.nonce ?? 0n, a.balance ?? 0n, undefined, code.length > 0 ? keccak_256(code) : KECCAK256_NULL))
    if (code.length > 0) diff.code.set(key, code)
    if (a.storage !== undefined) {
      const slots = new Map<string, Uint8Array>()
      for (const [k, v] of Object.entries(a.storage)) {
        const value = fromHex(v)
        let i = 0
        while (i < value.length && value[i] === 0) i++
        slots.set(keyOf(fromHex(k)).padStart(64, '0'), value.subarray(i))
      }
      diff.storage.set(key, slots)
    }
  }
  if (withSystem) for (const c of SYSTEM_CONTRACTS) put(c.address, { nonce: 1n, code: fromHex(c.code) })
  for (const a of accounts) put(a.address, { balance: a.balance })
  const fromDump = options.state === undefined ? {} : dumpToAlloc(parseDump(options.state))
  for (const [address, a] of Object.entries({ ...options.alloc, ...fromDump })) {
    put(address, { balance: a.balance, nonce: a.nonce, code: a.code === undefined ? undefined : fromHex(a.code), storage: a.storage })
  }
  return diff
}

/**
 * Creates an in-process chain: genesis with prefunded accounts, a BFT producer, the JSON-RPC
 * dispatcher and an EIP-1193 provider.
 */
export async function createNode(options: NodeOptions = {}): Promise<FinalityNode> {
  checkNodeOptions(options)
  const startTime = startTimeOf(options)
  await initKeccak()
  await installEngine()
  const genesisFile = options.genesis === undefined ? undefined : parseGethGenesis(options.genesis)
  if (genesisFile !== undefined) {
    if (genesisFile.laterForks.length === 0 && !(SUPPORTED_HARDFORKS as readonly string[]).includes(genesisFile.hardfork)) {
      throw new Error(`the genesis file's hardfork ${genesisFile.hardfork} is not supported; supported: ${SUPPORTED_HARDFORKS.join(', ')}`)
    }
    if (options.chainId !== undefined && BigInt(options.chainId) !== genesisFile.chainId) {
      throw new Error(`chainId ${options.chainId} differs from the genesis file's ${genesisFile.chainId}`)
    }
  }
  if (options.fork !== undefined) {
    for (const name of ['genesis', 'db', 'state', 'alloc'] as const) {
      if (options[name] !== undefined) throw new Error(`fork and ${name} cannot be given together: a fork's state is the remote's at the fork block`)
    }
  }
  let forkOptions: ForkOptions | undefined = options.fork
  let fork = options.fork === undefined ? undefined : await openFork({ ...options.fork, chainId: options.fork.chainId ?? options.chainId })
  // Without a database the chain lives in memory (see ChainStore); with one it is kept there, and
  // a stored chain resumes under its own chain id unless another is asked for (refused below).
  const db = options.db
  await db?.open()
  const storedChainId = db === undefined ? undefined : await chainIdOf(db)
  const chainId = checkChainId(
    fork?.chainId ?? genesisFile?.chainId ?? BigInt(options.chainId ?? storedChainId ?? DEFAULTS.chainId),
    fork !== undefined ? "the fork's chain id" : genesisFile !== undefined ? "the genesis file's config.chainId" : options.chainId === undefined && storedChainId !== undefined ? "the database's chain id" : 'chainId',
  )
  const hardfork = options.hardfork ?? (fork?.hardfork as typeof options.hardfork) ?? DEFAULT_HARDFORK
  if (!(SUPPORTED_HARDFORKS as readonly string[]).includes(hardfork)) {
    throw new Error(`hardfork ${String(hardfork)} is not supported; supported: ${SUPPORTED_HARDFORKS.join(', ')}`)
  }
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
  const clock = options.clock ?? systemClock
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
  const keyring = new Keyring(local, clock)

  const chain = new Chain(common, db, forks)
  const blockGasLimit = options.blockGasLimit ?? (genesisFile?.header.gasLimit as bigint | undefined) ?? (fork === undefined ? undefined : BigInt(fork.header.gasLimit as string)) ?? (hardhat ? HARDHAT_DEFAULTS.blockGasLimit : DEFAULTS.blockGasLimit)
  // Checked before the stored blocks are read: decoded under another chain id they fail obscurely.
  if (db !== undefined && storedChainId !== undefined && storedChainId !== chainId) {
    await db.close()
    throw new Error(
      `the database holds a chain with chain id ${storedChainId}, not ${chainId}: to resume it, leave chainId out or pass ${storedChainId} (CLI: --chain-id); for a new chain, use another database directory`,
    )
  }
  let forkState: ForkState | undefined
  let forkHistory: ForkHistory | undefined
  // The hardfork each remote block at or below the fork block is read and replayed under.
  let remoteForks: RemoteForks | undefined
  // History answers of the remote, by request (the remote is pinned below the fork block), least recently used dropped past the bound.
  const historyAnswers = new AnswerCache(forkOptions?.historyEntries ?? DEFAULT_HISTORY_ENTRIES)
  const walkFetches = forkOptions?.walkFetches ?? DEFAULT_WALK_FETCHES
  const historyCall = (opened: OpenedFork, method: string, params: unknown[]): Promise<unknown> =>
    historyAnswers.get(`${opened.remoteName} ${opened.number} ${method} ${JSON.stringify(params)}`, () => opened.remote.request({ method, params }))
  // The fork block is the first block; the node's accounts keep their remote nonce and code and get their balance.
  // Everything the remote must answer is asked first, on a throwaway state, while the chain is
  // untouched: a remote that fails leaves the node as it was (a reset to another fork included).
  const startFork = async (opened: OpenedFork): Promise<void> => {
    const block = forkBlock(opened, common)
    const point = () => ({ tag: quantity(opened.number), stateRoot: block.header.stateRoot, remote: opened.remoteName, proofs: opened.proofs })
    const keys = balances.map((b) => b.address.toLowerCase().replace(/^0x/, ''))
    const recorder = recording(opened.remote)
    const probe = new FlatState()
    probe.setLazy(new ForkState(recorder, point(), probe, () => {}))
    await Promise.all(keys.map((key) => probe.getAccount(key)))
    const remote = replaying(opened.remote, recorder.answers)
    const forksOfRemote = new RemoteForks(common, opened.chainId)
    const history = new ForkHistory(opened.remote, opened.remoteName, opened.number, forksOfRemote, (nodes) => chain.addTrieNodes(nodes), opened.proofs, historyAnswers.maxEntries)
    await chain.initFork(block, (flat) => (forkState = new ForkState(remote, point(), flat, (nodes) => chain.addTrieNodes(nodes), (hash, code) => chain.addCode(hash, code), (keys) => chain.addPreimages(keys))), async (c) => {
      const diff = emptyDiff()
      // Answered from the recorded answers: nothing here waits on the remote.
      const accounts = await Promise.all(keys.map((key) => c.headState().getAccount(key)))
      balances.forEach((b, i) => {
        const account = accounts[i] ?? new Account()
        account.balance = b.balance
        diff.accounts.set(keys[i] as string, account)
      })
      return diff
    }, history, opened.proofs)
    forkHistory = history
    remoteForks = forksOfRemote
  }
  if (fork !== undefined) {
    await startFork(fork)
  } else if (db !== undefined && (await chain.resume())) {
    // A stored chain goes on where it stopped; genesis options no longer apply.
  } else if (genesisFile !== undefined) {
    // The file's genesis exactly, so its hash is the one geth computes: no accounts added.
    await chain.initGenesis(genesisFile.alloc, genesisFile.header)
    await chain.recordChainId(chainId)
  } else {
    await chain.initGenesis(genesisDiff(options, balances, common.isActivatedEIP(4788)), {
      gasLimit: blockGasLimit,
      timestamp: startTime ?? BigInt(Math.floor(clock.now() / 1000)),
      baseFeePerGas: common.isActivatedEIP(1559) ? (options.initialBaseFee ?? DEFAULTS.initialBaseFee) : undefined,
    })
    await chain.recordChainId(chainId)
  }

  const validatorCount = options.validators ?? DEFAULTS.validators
  const validators = Array.from({ length: validatorCount }, (_, i) => createValidator(validatorSeed(seed, i)))
  const bft = new BftEngine(chainId, validators, {
    clock,
    timeouts: { ...DEFAULT_TIMEOUTS, ...options.consensus?.timeouts },
    maxRounds: options.consensus?.maxRounds,
    seed: options.consensus?.seed,
    head: () => chain.height,
  })
  const pool = new TxPool({ ...DEFAULT_POOL_OPTIONS, ...options.txpool }, options.minGasPrice ?? 0n)
  // anvil_impersonateSignature's pairs: one registry for the VMs of blocks, calls and traces.
  const ecrecover = new EcrecoverOverrides()
  const builder = await BlockBuilder.create(chain, common, ecrecover)
  const profiling = new Profiling(options.enableProfiling ?? false, resolve(options.profilingDir ?? process.cwd()))
  // console.log output goes out while logging is on (hardhat_/anvil_setLoggingEnabled).
  // Printed by default, one line per call, as Hardhat's in-process network prints them; `false` is
  // silence. console.log is looked up at each call, so a later spy or a replaced console sees them.
  const userConsoleLog = options.onConsoleLog === false ? undefined : (options.onConsoleLog ?? ((message: string) => console.log(message)))
  const onConsoleLog = userConsoleLog === undefined ? undefined : (message: string) => {
    try {
      if (controls.logging && profiling.log.enabled('console')) userConsoleLog(message)
    } catch {
      // A throwing callback must not change the execution it observes.
    }
  }
  // The node's log (onLog): made only when asked for, so that nothing runs for it otherwise.
  const log = options.onLog === undefined ? undefined : new NodeLog(options.onLog, options.logColor ?? false, (source) => controls.logging && profiling.log.enabled(source))
  if (onConsoleLog !== undefined || log !== undefined) builder.collectConsoleLog()
  const application = new EvmApplication(chain, builder)
  const producer = new Producer(chain, pool, application, bft, clock, options.mining ?? { mode: 'auto' }, () => blockGasLimit, onConsoleLog, () => ({
    coinbase: options.coinbase?.toLowerCase() ?? (hardhat ? HARDHAT_DEFAULTS.coinbase : undefined),
    // The clock starts at the given time when the node is made, and again at each hardhat_reset.
    timeOffset: startTime === undefined ? undefined : startTime - BigInt(Math.floor(clock.now() / 1000)),
  }))
  // Calls' console.log goes to the log (under its request) as well as to onConsoleLog.
  const callConsoleLog = log === undefined ? onConsoleLog : (message: string) => {
    log.consoleLog(message)
    onConsoleLog?.(message)
  }
  if (log !== undefined) {
    application.onCommitted = (committed) => log.committed(committed)
    producer.onHalt = (halted, height) => log.halted(halted, height)
    bft.subscribe((event) => log.consensus(event))
  }
  for (const name of ['throwOnTransactionFailures', 'throwOnCallFailures'] as const) {
    const value = options[name]
    if (value !== undefined && typeof value !== 'boolean') throw new Error(`${name} must be true or false, got ${String(value)}`)
  }
  const calls = new CallExecutor(chain, common, limits, clock, { onConsoleLog: callConsoleLog, throwOnCallFailures: options.throwOnCallFailures ?? true, ecrecover, hardhat })
  const transactions = new Transactions(common, chain, pool, keyring, calls, limits, {
    allowUnprotectedTxs: options.allowUnprotectedTxs ?? (hardhat && HARDHAT_DEFAULTS.allowUnprotectedTxs),
    defaultGas: options.sendTransactionGas ?? (hardhat ? (blockGasLimit < HARDHAT_DEFAULTS.sendTransactionGasCap ? blockGasLimit : HARDHAT_DEFAULTS.sendTransactionGasCap) : undefined),
    defaultGasPrice: options.sendTransactionGasPrice,
    // Hardhat compatibility turns on what Hardhat Network does by default.
    throwOnTransactionFailures: options.throwOnTransactionFailures ?? hardhat,
    nextBlockGasLimit: () => producer.blockGasLimit,
    hardhat,
    automine: () => producer.mode.mode === 'auto',
  })
  const controls = new Controls(chain, pool, producer, { reusableSnapshots: options.reusableSnapshots ?? false, hardhatCompat: options.hardhatCompat ?? false })
  const consensus = new ConsensusControls(bft, () => producer.consensusChanged(), (i) => createValidator(validatorSeed(seed, i)), () => chain.height)
  // hardhat_reset / anvil_reset with `forking`: a URL forks that remote; without one a fork goes
  // back to its remote at the block asked (its fork block when none), and a node that is no fork
  // back to genesis.
  controls.forker = async ({ url, blockNumber }) => {
    if (url === undefined && (fork === undefined || blockNumber === undefined || blockNumber === fork.number)) return chain.resetToGenesis()
    // Another URL is forked with the default settings (the headers given for one remote are not sent to another).
    const base: ForkOptions = url !== undefined ? { url } : (forkOptions ?? {})
    const opened = await openFork({ ...base, blockNumber, chainId: undefined })
    try {
      await startFork(opened)
    } catch (error) {
      await opened.remote.close()
      throw error
    }
    if (opened.chainId !== common.chainId()) chain.setChainId(opened.chainId)
    const previous = fork
    fork = opened
    forkOptions = base
    historyAnswers.clear()
    if (previous !== undefined && previous.remote !== opened.remote) await previous.remote.close()
  }
  transactions.impersonation = (address) => controls.isImpersonated(address)
  const enabled = new Set(options.api ?? NAMESPACES)
  const filters = new FilterManager(chain, pool, clock, limits, eventFormat.logs)
  const services: Services = {
    // The EVM chain id can change (anvil_setChainId); consensus keeps the genesis one as its domain.
    get chainId() {
      return common.chainId()
    },
    common, chain, pool, producer, bft, consensus, keyring, limits, clock, calls, transactions, filters, controls,
    tracing: new Tracing(chain, calls, clock, limits, hardhat),
    profiling,
    log,
    // classic-level (the CLI's --db) names its directory; a database without one has none.
    get closed() {
      return closing !== undefined
    },
    dataDir: typeof (db as { location?: unknown } | undefined)?.location === 'string' ? resolve((db as unknown as { location: string }).location) : undefined,
    clientVersion: clientVersion(hardhat),
    hardhatCompat: hardhat,
    // The transports are made with the services; admin methods reach them only when called.
    get servers() {
      return transports.servers
    },
    namespaces: () => [...enabled].sort(),
    get fork(): ForkStatus | undefined {
      if (fork === undefined || forkState === undefined) return undefined
      const [opened, state] = [fork, forkState]
      return {
        url: opened.url,
        remote: opened.remoteName,
        chainId: opened.chainId,
        blockNumber: opened.number,
        blockHash: opened.hash,
        proofs: opened.proofs,
        stats: () => ({ remote: opened.remote.stats(), state: { ...state.stats }, history: { entries: historyAnswers.size, maxEntries: historyAnswers.maxEntries } }),
        remoteCall: (method, params) => historyCall(opened, method, params),
        walking: (what, run) => state.walking(what, walkFetches, run),
        remoteBlock: async (at) => {
          const found = await fetchRemoteBlock((method, params) => historyCall(opened, method, params), opened.remoteName, remoteForks ?? new RemoteForks(common, opened.chainId), at)
          return found !== undefined && found.block.header.number <= opened.number ? found : undefined
        },
        setRpcUrl: async (url) => {
          const next = await switchRemote(opened, forkOptions, url)
          const previous = opened.remote
          state.setRemote(next.remote, next.remoteName)
          forkHistory?.setRemote(next.remote, next.remoteName)
          Object.assign(opened, { remote: next.remote, remoteName: next.remoteName, url })
          forkOptions = { ...forkOptions, url, provider: undefined, headers: undefined }
          await previous.close()
        },
      }
    },
  }
  const methods = buildRegistry(limits)
  const dispatcher = new Dispatcher(methods, services, limits)
  const scope = { namespaces: enabled }
  const call = (method: string, params: unknown) => dispatcher.call(method, params, scope)
  const dispatch = ({ method, params }: { method: string; params?: unknown }) => call(method, params)
  const transports = createTransports(methods, services, limits, { chain, pool, format: eventFormat })
  const provider: Eip1193Provider = new Eip1193Provider(
    transports.providerCall((subscription, p) => provider.emit('message', { type: `${p.namespace ?? 'eth'}_subscription`, data: { subscription, result: p.value } }), scope),
    quantity(chainId),
  )
  chain.on('chainChanged', (id: bigint) => provider.emit('chainChanged', quantity(id)))
  let closing: Promise<void> | undefined
  // Every member but close() refuses once close() began: a closed node neither answers nor mines.
  const live = (): void => {
    if (closing !== undefined) throw new NodeClosedError()
  }
  const alive = <A extends unknown[], R>(f: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    live()
    return f(...args)
  }
  // A transport's request log (the CLI's) follows hardhat_/anvil_setLoggingEnabled too.
  const withLogSwitch = <O extends { onRequest?: ((info: { methods: string[]; ms: number }) => void) | undefined }>(o: O | undefined): O | undefined => {
    const onRequest = o?.onRequest
    if (o === undefined || onRequest === undefined) return o
    return { ...o, onRequest: (info: { methods: string[]; ms: number }) => controls.logging && profiling.log.enabled('rpc') && onRequest(info) }
  }

  // Every node.* helper decodes its arguments with its RPC method's codecs (node-helpers.ts).
  const helpers = nodeHelpers({
    services,
    methods,
    scope: { namespaces: new Set(NAMESPACES), methods },
    hexLimit: limits.hexParamLength,
    certificate: async (block) => {
      const cert = await chain.certificate(block.hash())
      if (cert === undefined) return undefined
      return { ...certificateWithSetToJson(cert, bft.setAt(cert.height).validators), valid: verifyCertificate(cert, bft.setAt(cert.height), chainId, block.hash()) }
    },
    mine: async (mineOptions) => {
      const block = await producer.mine(mineOptions)
      return block === undefined ? undefined : { number: block.header.number, hash: data(block.hash()) }
    },
    importBlocks: (bytes) => producer.exclusive(async () => ({ imported: await importBlocks(chain, bytes) })),
  })

  nodeStarted()
  return {
    get chainId() {
      return common.chainId()
    },
    // EIP-55 checksummed, as viem's getAddresses and privateKeyToAccount give them.
    accounts: local.map((a) => ({ address: checksumAddress(a.address) as Hex, privateKey: data(a.privateKey) })),
    provider,
    // The consensus set's order (by address), the one finality_getValidators answers in.
    // Read-only views: the validator set owns whether each is online.
    // The next height's set; read-only views whose `online` reads the fault plan.
    get validators() {
      return Object.freeze(bft.set.validators.map((v): ValidatorStatus => Object.freeze({ ...v, get online() { return bft.isOnline(v.address) } })))
    },
    // Not through `alive` (an async wrapper with rest arguments): the dispatcher's promise is
    // handed on; a closed node or a bad argument still answers with a rejected promise.
    request: ((args: { method: string; params?: unknown }) => {
      try {
        live()
        // As the provider: a call is an object with a method name (not a string, not null).
        if (typeof args !== 'object' || args === null || typeof args.method !== 'string') throw new InvalidRequestError('invalid request: node.request takes { method: string, params?: unknown[] }')
        return dispatch(args)
      } catch (error) {
        return Promise.reject(error)
      }
    }) as FinalityNode['request'],
    handle: (payload) => dispatcher.handle(payload, scope),
    http(httpOptions) {
      live()
      return transports.http(withLogSwitch(httpOptions))
    },
    ws(server, wsOptions) {
      live()
      return transports.ws(server, withLogSwitch(wsOptions))
    },
    listen: alive((listenOptions) => transports.listen(withLogSwitch(listenOptions))),
    mine: alive(helpers.mine),
    setMining(mode) {
      live()
      checkMiningMode(mode)
      producer.setMode(mode)
    },
    setValidatorOnline(address, online) {
      live()
      helpers.setValidatorOnline(address, online)
    },
    setValidatorFault(address, fault) {
      live()
      helpers.setValidatorFault(address, fault)
    },
    healValidators(address) {
      live()
      helpers.healValidators(address)
    },
    partitionValidators(groups) {
      live()
      helpers.partitionValidators(groups)
    },
    changeValidators(changes) {
      live()
      return helpers.changeValidators(changes)
    },
    dumpState() {
      live()
      return dumpState(chain, common.chainId())
    },
    loadState: alive(helpers.loadState),
    snapshot: alive(helpers.snapshot),
    revert: alive(helpers.revert),
    mineBlocks: alive(helpers.mineBlocks),
    increaseTime: alive(helpers.increaseTime),
    setNextBlockTimestamp: alive(helpers.setNextBlockTimestamp),
    setAutomine: alive(helpers.setAutomine),
    setBalance: alive(helpers.setBalance),
    setCode: alive(helpers.setCode),
    setNonce: alive(helpers.setNonce),
    setStorageAt: alive(helpers.setStorageAt),
    impersonate: alive(helpers.impersonate),
    stopImpersonating: alive(helpers.stopImpersonating),
    reset: alive(helpers.reset),
    importBlocks: alive(helpers.importBlocks),
    commitCertificate: alive(helpers.commitCertificate),
    close: () =>
      (closing ??= (async () => {
        // Queued heights finish first (in-flight sends get receipts), then the servers go.
        await producer.close()
        await transports.close()
        filters.close()
        provider.disconnect()
        await profiling.close()
        await db?.close()
        await fork?.remote.close()
        nodeClosed()
      })()),
  }
}
