/**
 * @ethereumjs/evm's `runCall` (one message frame: the top frame of a transaction or a call, and
 * every frame a CALL or CREATE opens) owned by the engine, as its run of a transaction is
 * (run-tx.ts), for the EVMs the engine owns on the forks it verified (London to Osaka).
 *
 * The library's method takes, for every frame, steps of forks the node does not run (EIP-7928's
 * block access lists, EIP-8037's state gas, Frontier's code-store rule), its profiler's and its
 * debug log's checks, and awaits its `beforeMessage` and `afterMessage` events even with no
 * listener (two promises a frame). And it is the library's code that V8 compiles: its first read
 * of a failed frame's error (`err.error`) comes after TurboFan compiled it when the suite's
 * first failed frame comes late, and throws the compiled code away (once in a Seaport replay).
 *
 * This one takes the same steps in the same order through the same EVM, journal and
 * transient-storage methods, and skips what has no effect on those forks: the events are
 * emitted (through the library's `_emit`, which awaits a listener that takes a callback) only
 * when something listens. A failed frame's steps are a function of their own (`revertFrame`), so
 * the first failure after V8's compile deopts nothing. Anything else, EIPs of
 * later forks that add steps to a frame (2780, 6800, 7708, 7864, 7928, 8037), the debug log and
 * the profiler, goes to the library's method. test/execution/engine/differential.test.ts compares
 * both on every supported fork (its programs' frames, nested calls and creations, failures at
 * every gas limit).
 */
import { EVMError, Message, type EVMResult } from '@ethereumjs/evm'
import { Account, createZeroAddress, type Address } from '@ethereumjs/util'

/** EIPs of later forks that add steps to a frame's run: where any is active, the library runs. */
const LIBRARY_EIPS = [2780, 6800, 7708, 7864, 7928, 8037] as const

type ExecResult = EVMResult['execResult'] & { gasRefund?: bigint }

/** What `runCall` takes (the library's `EVMRunCallOpts`, the fields it reads). */
export interface RunCallOpts {
  message?: Message
  block?: unknown
  caller?: Address
  gasPrice?: bigint
  origin?: Address
  value?: bigint
  skipBalance?: boolean
  gasLimit?: bigint
  to?: Address
  data?: Uint8Array
  code?: Uint8Array
  depth?: number
  isCompiled?: boolean
  isStatic?: boolean
  salt?: Uint8Array
  selfdestruct?: Map<`0x${string}`, boolean>
  createdAddresses?: Set<`0x${string}`>
  delegatecall?: boolean
  blobVersionedHashes?: `0x${string}`[]
  skipNonceIncrement?: boolean
}

/** What the run reads and calls of an EVM (private members listed in internals.ts). */
export interface RunCallEvm {
  DEBUG: boolean
  common: { isActivatedEIP(eip: number): boolean }
  events: { listenerCount(topic: string): number }
  _optsCached: { profiler?: { enabled?: boolean } }
  _block: unknown
  _tx: { gasPrice: bigint; origin: Address } | undefined
  stateManager: { getAccount(address: Address): Promise<Account | undefined> }
  journal: {
    putAccount(address: Address, account: Account): Promise<void>
    addWarmedAddress(address: Uint8Array): void
    checkpoint(): Promise<void>
    commit(): Promise<void>
    revert(): Promise<void>
  }
  transientStorage: { checkpoint(): void; commit(): void; revert(): void }
  _emit(topic: string, data: unknown): Promise<void>
  _generateAddress(message: Message): Promise<Address>
  _executeCall(message: Message): Promise<EVMResult>
  _executeCreate(message: Message): Promise<EVMResult>
}

/** `EVM#runCall`. */
export type RunCall = (this: RunCallEvm, opts: RunCallOpts) => Promise<EVMResult>

/**
 * `runCall` through the engine's own run for the EVMs `fast` accepts, where nothing it leaves
 * out is reachable; through `library` (the library's own method) for the rest. A top frame
 * without a block (`runCall` without `block`, which the node never makes) goes to the library,
 * whose stand-in block is its own.
 */
export function engineRunCall(library: RunCall, fast: (evm: RunCallEvm) => boolean): RunCall {
  return function (this: RunCallEvm, opts: RunCallOpts): Promise<EVMResult> {
    if (!fast(this) || this.DEBUG || this._optsCached.profiler?.enabled === true) return library.call(this, opts)
    if (opts.message === undefined && opts.block === undefined) return library.call(this, opts)
    const common = this.common
    for (let i = 0; i < LIBRARY_EIPS.length; i++) if (common.isActivatedEIP(LIBRARY_EIPS[i] as number)) return library.call(this, opts)
    // The options are read here, not in the frame's run: they come in one literal per caller (the
    // interpreter's CALL and CREATE `{ message }`, the run of a transaction's, the system calls'),
    // and the frame's run, compiled before the first of another one reached it (OpenZeppelin's
    // first nested call after ~500 transactions), was thrown away at `opts.message` ("wrong map").
    const message = opts.message
    const skipNonceIncrement = opts.skipNonceIncrement === true
    if (message !== undefined) return runFrame(this, message, skipNonceIncrement, undefined)
    // A top frame given by its fields: its message made here, without another async step unless
    // the caller is to be given the value it lacks.
    if (opts.skipBalance === true) return runGivenValue(this, opts, skipNonceIncrement)
    return runFrame(this, topMessage(this, opts), skipNonceIncrement, undefined)
  }
}

/** The error kind a failed frame keeps its result's fields with (Frontier's; never met here). */
const CODESTORE_OUT_OF_GAS = EVMError.errorMessages.CODESTORE_OUT_OF_GAS

/**
 * A top frame's message, made from the fields it is given, as the library does; also sets the
 * EVM's block and transaction for the frame, as the library's `runCall` does first.
 */
function topMessage(evm: RunCallEvm, opts: RunCallOpts): Message {
  evm._block = opts.block
  const caller = opts.caller ?? createZeroAddress()
  evm._tx = { gasPrice: opts.gasPrice ?? 0n, origin: opts.origin ?? caller }
  return new Message({
    caller,
    gasLimit: opts.gasLimit ?? BigInt(0xffffff),
    to: opts.to,
    value: opts.value ?? 0n,
    data: opts.data,
    code: opts.code,
    depth: opts.depth,
    isCompiled: opts.isCompiled,
    isStatic: opts.isStatic,
    salt: opts.salt,
    selfdestruct: opts.selfdestruct ?? new Map(),
    createdAddresses: opts.createdAddresses ?? new Set(),
    delegatecall: opts.delegatecall,
    blobVersionedHashes: opts.blobVersionedHashes,
  })
}

/** A top frame with `skipBalance`: the caller is given the value it lacks (as the library), then the frame runs. */
async function runGivenValue(evm: RunCallEvm, opts: RunCallOpts, skipNonceIncrement: boolean): Promise<EVMResult> {
  const message = topMessage(evm, opts)
  const caller = message.caller
  const callerAccount = (await evm.stateManager.getAccount(caller)) ?? new Account()
  if (callerAccount.balance < message.value) {
    callerAccount.balance = message.value
    await evm.journal.putAccount(caller, callerAccount)
  }
  return runFrame(evm, message, skipNonceIncrement, callerAccount)
}

async function runFrame(evm: RunCallEvm, message: Message, skipNonceIncrement: boolean, callerAccount: Account | undefined): Promise<EVMResult> {
  const common = evm.common
  if (message.depth === 0 && !skipNonceIncrement) {
    callerAccount ??= (await evm.stateManager.getAccount(message.caller)) ?? new Account()
    callerAccount.nonce++
    await evm.journal.putAccount(message.caller, callerAccount)
  }
  if (evm.events.listenerCount('beforeMessage') > 0) await evm._emit('beforeMessage', message)
  // EIP-2929 is active on every fork run here.
  if (!message.to) {
    message.code = message.data
    evm.journal.addWarmedAddress((await evm._generateAddress(message)).bytes)
  }
  await evm.journal.checkpoint()
  const transient = common.isActivatedEIP(1153)
  if (transient) evm.transientStorage.checkpoint()
  const result = message.to ? await evm._executeCall(message) : await evm._executeCreate(message)
  const exec = result.execResult as ExecResult
  // Through `call` on either function, on every frame: see `revertFrame`.
  await (exec.exceptionError ? revertFrame : commitFrame).call(undefined, evm, exec, transient)
  if (evm.events.listenerCount('afterMessage') > 0) await evm._emit('afterMessage', result)
  ;(message.accessWitness as { commit(): void } | undefined)?.commit()
  return result
}

/** A succeeded frame's journal and transient storage committed. */
async function commitFrame(evm: RunCallEvm, _exec: ExecResult, transient: boolean): Promise<void> {
  await evm.journal.commit()
  if (transient) evm.transientStorage.commit()
}

/**
 * A failed frame's result cleared and its journal and transient storage reverted, as the library
 * does. Its own function, reached as `commitFrame` is through `call` on every frame: a suite's first
 * failed frame often comes after V8 compiled `runFrame`, and a branch never taken has no type
 * feedback (its comparison, its `new Map()`, its journal's `revert`), which TurboFan compiles as a
 * deopt: `runFrame` was thrown away and compiled again at the first failure (Seaport, Node 20). A
 * call through `Function.prototype.call` does not take its target from feedback, and V8 does not
 * inline a function never called, so the first failure calls this one and deopts nothing.
 */
async function revertFrame(evm: RunCallEvm, exec: ExecResult, transient: boolean): Promise<void> {
  // CODESTORE_OUT_OF_GAS is Frontier's, never met here.
  if ((exec.exceptionError as EVMError).error !== CODESTORE_OUT_OF_GAS) {
    exec.selfdestruct = new Map()
    exec.createdAddresses = new Set()
    exec.gasRefund = 0n
  }
  exec.logs = []
  await evm.journal.revert()
  if (transient) evm.transientStorage.revert()
}
