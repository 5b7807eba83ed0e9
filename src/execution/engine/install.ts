/**
 * The engine: @ethereumjs/evm with finality's patches, installed once per process, only where
 * they were verified, and only for the EVMs finality itself creates.
 *
 * - Isolation. The build bundles @ethereumjs/evm and @ethereumjs/vm into `dist/` (tsup.config.ts),
 *   so the classes patched here are the package's own copy: a user's `createEVM()` from their
 *   own `@ethereumjs/evm` is another class and is never touched. Run from the sources (tests,
 *   `BENCH_SOURCE=src`) there is one copy, so each patched method also checks that its EVM is
 *   one of the engine's own ({@link ownEvm}) and runs the library's method for any other.
 * - Fails closed. The patches go in only when the library's version is one they were verified
 *   against ({@link VERIFIED_VERSIONS}) and every private member they touch is found
 *   (`internals.ts`); an EVM gets the fast paths only on a hardfork they were verified on
 *   (test/execution/engine/differential.test.ts runs each). Otherwise the plain library runs,
 *   and `engineStatus()` says why. `FINALITY_ENGINE=plain` turns the patches off.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { createEVM, EVM, Message } from '@ethereumjs/evm'
import { fastCall, fastRunInterpreter, type EvmInternals, type ExecuteCall, type FrameInternals, type InterpreterClass, type RunInterpreter } from './fast-call.js'
import { fastRun, type InterpreterRun as FastRunnable } from './fast-interpreter.js'
import { inOneShape, type ExecuteFrame } from './frame-result.js'
import { engineRunCall, type RunCall } from './run-call.js'
import {
  fastCleanJournal,
  fastCleanup,
  fastWarmAddress,
  fastTouchAddress,
  fastIsWarmedAddress,
  fastAddWarmedAddress,
  fastWarmSlot,
  type AddAlwaysWarmAddress,
  type AddAlwaysWarmSlot,
  type CleanJournal,
  type IsWarmedAddress,
  type AddWarmedAddress,
  type Cleanup,
  type JournalInternals,
  type TouchAddress,
} from './fast-journal.js'
import { rememberOriginalHandlers } from './fast-opcodes.js'
import { cached, leanEnv, type Analyse, type InterpreterRun } from './jump-cache.js'
import {
  ENV_MEMBERS,
  EVM_MEMBERS,
  INTERPRETER_MEMBERS,
  JOURNAL_MEMBERS,
  MEMORY_MEMBERS,
  MESSAGE_MEMBERS,
  OPCODE_ENTRY_MEMBERS,
  OPCODE_INFO_MEMBERS,
  RESULT_MEMBERS,
  RUN_STATE_MEMBERS,
  STACK_MEMBERS,
  missingMembers,
} from './internals.js'
import { ENGINE_ENV, VERIFIED_VERSIONS, fastPaths, libraryGates, refusal } from './gate.js'
import { PATCHES, type EngineStatus } from './status.js'
import { BUNDLED, evmVersion } from './version.js'


/**
 * The hardforks the patches were verified on (the differential test runs every supported fork).
 * A fork added to the supported ones runs the plain library until it is added here.
 */
export const VERIFIED_HARDFORKS: readonly string[] = [Hardfork.London, Hardfork.Paris, Hardfork.Shanghai, Hardfork.Cancun, Hardfork.Prague, Hardfork.Osaka]


/** An unassigned opcode in every fork the node runs, used once to reach the interpreter. */
const PROBE_OPCODE = 0x0c
/** An opcode with dynamic gas whose entry the internals check reads (MLOAD). */
const SAMPLE_OPCODE = 0x51

/** Marks an EVM as the engine's own. */
const OWNED = Symbol('finality.engine')
const verifiedForks = new Set(VERIFIED_HARDFORKS)

let on = false
let reason: string | undefined
let installing: Promise<void> | undefined

interface Owned {
  [OWNED]?: true
  common: { hardfork(): string }
  journal?: object
}

/** Whether an EVM runs the fast paths: one of the engine's own, on a verified hardfork. */
export function isFast(evm: unknown): boolean {
  const e = evm as Owned
  return e[OWNED] === true && verifiedForks.has(e.common.hardfork())
}

/** Whether `evm`'s frames run in the fast loop, which calls an opcode observer (opcode-observer.ts). */
export function observesOpcodes(evm: object): boolean {
  return isFast(evm)
}

/** Makes an EVM one of the engine's own: it gets the fast paths where they are on (its journal too). */
export function ownEvm<T extends object>(evm: T): T {
  if (on) {
    const e = evm as Owned
    e[OWNED] = true
    if (typeof e.journal === 'object' && e.journal !== null) (e.journal as Owned)[OWNED] = true
  }
  return evm
}

/** Installs the patches once per process; later calls wait for the first. Never throws. */
export function installEngine(): Promise<void> {
  installing ??= install().then(
    (why) => {
      on = why === undefined
      reason = why
    },
    (error: unknown) => {
      on = false
      reason = `the install failed: ${error instanceof Error ? error.message : String(error)}`
    },
  )
  return installing
}

/** What the engine runs: the library's version, which patches are on and, if off, why. */
export function engineStatus(): EngineStatus {
  // The engine's runTx also needs @ethereumjs/vm's gate (run-tx.ts).
  const patches = Object.fromEntries(PATCHES.map((p) => [p, on && (p !== 'runTx' || fastPaths('@ethereumjs/vm'))])) as EngineStatus['patches']
  return {
    library: '@ethereumjs/evm',
    version: evmVersion(),
    bundled: BUNDLED,
    verifiedVersions: VERIFIED_VERSIONS,
    verifiedHardforks: VERIFIED_HARDFORKS,
    patches,
    libraries: libraryGates(),
    reason: installing === undefined ? 'not installed yet (createNode() installs it)' : reason,
  }
}

interface Probe {
  evm: EVM
  interpreter: Record<string, unknown> & { constructor: { prototype: Record<string, unknown> } }
  runState: Record<string, unknown>
}

/** Runs one probe opcode on a throwaway EVM: it hands over the interpreter and its run state. */
async function probe(): Promise<Probe | undefined> {
  let seen: Record<string, unknown> | undefined
  const evm = await createEVM({
    common: new Common({ chain: Mainnet, hardfork: Hardfork.Prague }),
    customOpcodes: [
      {
        opcode: PROBE_OPCODE,
        opcodeName: 'FINALITY_PROBE',
        baseFee: 0,
        logicFunction: (runState) => {
          seen = runState as unknown as Record<string, unknown>
        },
      },
    ],
  })
  await evm.runCode({ code: Uint8Array.of(PROBE_OPCODE), gasLimit: 1000n })
  if (seen === undefined) return undefined
  return { evm, interpreter: seen.interpreter as Probe['interpreter'], runState: seen }
}

/** Installs the patches; answers why not, or undefined when they are in. */
async function install(): Promise<string | undefined> {
  const version = evmVersion()
  const refused = refusal(process.env[ENGINE_ENV], version)
  if (refused !== undefined || version === undefined) return refused
  const found = await probe()
  if (found === undefined) return 'the probe opcode did not run: the interpreter was not reached'
  const { evm, interpreter, runState } = found
  const table = (evm as unknown as { _opcodeMap?: Array<Record<string, unknown> | undefined> })._opcodeMap
  const entry = table?.[SAMPLE_OPCODE]
  const missing = [
    ...missingMembers('EVM', evm, EVM_MEMBERS),
    ...missingMembers('Interpreter', interpreter, INTERPRETER_MEMBERS),
    ...missingMembers('runState', runState, RUN_STATE_MEMBERS),
    ...missingMembers('runState.stack', runState.stack, STACK_MEMBERS),
    ...missingMembers('runState.memory', runState.memory, MEMORY_MEMBERS),
    ...missingMembers('runState.env', runState.env, ENV_MEMBERS),
    ...missingMembers('Interpreter._result', interpreter._result, RESULT_MEMBERS),
    ...missingMembers('EVM.journal', (evm as unknown as { journal?: unknown }).journal, JOURNAL_MEMBERS),
    ...missingMembers('_opcodeMap[MLOAD]', entry, OPCODE_ENTRY_MEMBERS),
    ...missingMembers('_opcodeMap[MLOAD].opcodeInfo', entry?.opcodeInfo, OPCODE_INFO_MEMBERS),
    ...missingMembers('Message', new Message({ gasLimit: 0n }), MESSAGE_MEMBERS),
  ]
  if (!Array.isArray(table)) missing.push('EVM._opcodeMap (not an array)')
  const interpreterProto = interpreter.constructor.prototype
  const journalProto = Object.getPrototypeOf((evm as unknown as { journal: object }).journal ?? {}) as Record<string, unknown>
  const evmProto = EVM.prototype as unknown as Record<string, unknown>
  for (const [proto, name, what] of [
    [interpreterProto, 'run', 'Interpreter.prototype.run'],
    [interpreterProto, '_getValidJumpDestinations', 'Interpreter.prototype._getValidJumpDestinations'],
    [evmProto, '_executeCall', 'EVM.prototype._executeCall'],
    [evmProto, '_executeCreate', 'EVM.prototype._executeCreate'],
    [evmProto, 'runInterpreter', 'EVM.prototype.runInterpreter'],
    [evmProto, 'runCall', 'EVM.prototype.runCall'],
    [evmProto, '_generateAddress', 'EVM.prototype._generateAddress'],
    [journalProto, 'cleanup', 'Journal.prototype.cleanup'],
    [journalProto, 'addAlwaysWarmAddress', 'Journal.prototype.addAlwaysWarmAddress'],
    [journalProto, 'addAlwaysWarmSlot', 'Journal.prototype.addAlwaysWarmSlot'],
    [journalProto, 'cleanJournal', 'Journal.prototype.cleanJournal'],
    [journalProto, 'touchAddress', 'Journal.prototype.touchAddress'],
    [journalProto, 'isWarmedAddress', 'Journal.prototype.isWarmedAddress'],
    [journalProto, 'addWarmedAddress', 'Journal.prototype.addWarmedAddress'],
  ] as const) {
    if (!Object.hasOwn(proto, name) || typeof proto[name] !== 'function') missing.push(`${what} (not a method of the class itself)`)
  }
  if (missing.length > 0) return `@ethereumjs/evm ${version} lacks what the patches use: ${missing.join(', ')}`

  rememberOriginalHandlers(table as object)
  const analyse = interpreterProto._getValidJumpDestinations as Analyse
  const run = interpreterProto.run as InterpreterRun
  const executeCall = evmProto._executeCall as ExecuteCall
  const fastAnalyse = cached(analyse)
  const fastLoop = leanEnv(fastRun(run as unknown as FastRunnable) as unknown as InterpreterRun)
  interpreterProto._getValidJumpDestinations = function (this: { _evm: object }, code: Uint8Array) {
    return isFast(this._evm) ? fastAnalyse.call(this as never, code) : analyse.call(this as never, code)
  }
  interpreterProto.run = function (this: { _evm: object; _env: object }, code: Uint8Array, opts?: unknown) {
    return isFast(this._evm) ? fastLoop.call(this, code, opts) : run.call(this, code, opts)
  }
  evmProto._executeCall = fastCall(executeCall, (e: EvmInternals) => isFast(e))
  const executeCreate = evmProto._executeCreate as ExecuteFrame<object>
  const createInOneShape = inOneShape(executeCreate)
  evmProto._executeCreate = function (this: object, message: never) {
    return isFast(this) ? createInOneShape.call(this, message) : executeCreate.call(this, message)
  }
  const runInterpreter = evmProto.runInterpreter as RunInterpreter
  journalProto.cleanup = fastCleanup(journalProto.cleanup as Cleanup, (j: JournalInternals) => isFast(j))
  journalProto.addAlwaysWarmAddress = fastWarmAddress(journalProto.addAlwaysWarmAddress as AddAlwaysWarmAddress, (j) => isFast(j))
  journalProto.addAlwaysWarmSlot = fastWarmSlot(journalProto.addAlwaysWarmSlot as AddAlwaysWarmSlot, (j) => isFast(j))
  journalProto.touchAddress = fastTouchAddress(journalProto.touchAddress as TouchAddress, (j) => isFast(j))
  journalProto.cleanJournal = fastCleanJournal(journalProto.cleanJournal as CleanJournal, (j) => isFast(j))
  journalProto.isWarmedAddress = fastIsWarmedAddress(journalProto.isWarmedAddress as IsWarmedAddress, (j) => isFast(j))
  journalProto.addWarmedAddress = fastAddWarmedAddress(journalProto.addWarmedAddress as AddWarmedAddress, (j) => isFast(j))
  evmProto.runCall = engineRunCall(evmProto.runCall as RunCall, (e: object) => isFast(e))
  evmProto.runInterpreter = fastRunInterpreter(runInterpreter, interpreter.constructor as unknown as InterpreterClass, (e: FrameInternals) => isFast(e))
  return undefined
}
