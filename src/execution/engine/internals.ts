/**
 * Every private member of @ethereumjs/evm the engine's patches touch, in one list, and the
 * start-up check that each is there with the expected kind.
 *
 * The patches (see `install.ts`) replace methods of the EVM and of its unexported Interpreter
 * class, read and write fields of the interpreter's run state and swap entries of each EVM's
 * opcode table. None of that is public API: a minor release may rename any of it. So before a
 * single patch goes in, `install.ts` probes a throwaway EVM and checks every member named here;
 * if one is missing or of another kind, nothing is patched and `engineStatus()` names it.
 */

/** What a member must be: a method, a field of any value, or a field of one `typeof`. */
export type MemberKind = 'function' | 'bigint' | 'number' | 'boolean' | 'object' | 'present'

/** A member and the patches that use it. */
export interface Member {
  name: string
  kind: MemberKind
  usedBy: string
}

/** Members of an `EVM` instance (and its prototype). */
export const EVM_MEMBERS: readonly Member[] = [
  { name: '_executeCall', kind: 'function', usedBy: 'fast-call (replaced); the node\'s own precompiles (wrapped: the frame\'s message, precompiles.ts)' },
  { name: '_reduceSenderBalance', kind: 'function', usedBy: 'fast-call' },
  { name: '_addToBalance', kind: 'function', usedBy: 'fast-call' },
  { name: '_loadCode', kind: 'function', usedBy: 'fast-call' },
  { name: 'getPrecompile', kind: 'function', usedBy: 'fast-call (code of a frame, frame-state.ts)' },
  { name: 'runInterpreter', kind: 'function', usedBy: 'fast-call (replaced)' },
  { name: 'blockchain', kind: 'object', usedBy: 'fast-call (interpreter set-up)' },
  { name: 'journal', kind: 'object', usedBy: 'fast-call (interpreter set-up)' },
  { name: 'performanceLogger', kind: 'object', usedBy: 'fast-call (interpreter set-up)' },
  { name: 'runPrecompile', kind: 'function', usedBy: 'fast-call' },
  { name: 'postMessageCleanup', kind: 'function', usedBy: 'fast-call' },
  { name: '_optsCached', kind: 'object', usedBy: 'fast-call (profiler)' },
  { name: '_opcodeMap', kind: 'object', usedBy: 'fast opcodes, time-out guard, tracers, transfer logs' },
  { name: 'DEBUG', kind: 'boolean', usedBy: 'fast-call, fast interpreter' },
  { name: 'events', kind: 'object', usedBy: 'fast interpreter (step listeners)' },
  { name: 'common', kind: 'object', usedBy: 'every patch (fork checks)' },
  { name: 'stateManager', kind: 'object', usedBy: 'fast-call' },
  { name: '_precompiles', kind: 'object', usedBy: 'precompile overrides (precompiles.ts)' },
  { name: 'runCall', kind: 'function', usedBy: 'run-call (replaced)' },
  { name: '_executeCreate', kind: 'function', usedBy: 'run-call; frame results in one shape (wrapped, frame-result.ts)' },
  { name: '_generateAddress', kind: 'function', usedBy: 'run-call (a creation\'s address warmed)' },
  { name: '_emit', kind: 'function', usedBy: 'run-call (beforeMessage / afterMessage, when listened to)' },
  { name: 'transientStorage', kind: 'object', usedBy: 'run-call (EIP-1153 checkpoints)' },
]

/** Members of an `Interpreter` instance (the class is not exported; reached by a probe opcode). */
export const INTERPRETER_MEMBERS: readonly Member[] = [
  { name: 'run', kind: 'function', usedBy: 'fast interpreter, lean environment (replaced)' },
  { name: '_getValidJumpDestinations', kind: 'function', usedBy: 'jump cache (replaced)' },
  { name: 'runStep', kind: 'function', usedBy: 'fast interpreter (traced steps)' },
  { name: 'useGas', kind: 'function', usedBy: 'fast interpreter' },
  { name: 'getAddress', kind: 'function', usedBy: 'tracers, transfer logs' },
  { name: 'storageLoad', kind: 'function', usedBy: 'fast opcodes (SLOAD)' },
  { name: 'log', kind: 'function', usedBy: 'fast opcodes (LOGs)' },
  { name: '_runState', kind: 'object', usedBy: 'fast interpreter' },
  { name: '_env', kind: 'object', usedBy: 'lean environment, fast storage, tracers (frames.ts)' },
  { name: '_evm', kind: 'object', usedBy: 'jump cache, fast interpreter' },
  { name: '_result', kind: 'object', usedBy: 'tracers, transfer logs (logs; frames.ts)' },
  { name: 'common', kind: 'object', usedBy: 'fast interpreter, jump cache (EIP-8024)' },
]

/** Fields of the interpreter's run state, as an opcode handler receives it. */
export const RUN_STATE_MEMBERS: readonly Member[] = [
  { name: 'code', kind: 'object', usedBy: 'fast interpreter' },
  { name: 'programCounter', kind: 'number', usedBy: 'fast interpreter' },
  { name: 'opCode', kind: 'number', usedBy: 'fast interpreter, fast opcodes (LOGs)' },
  { name: 'gasLeft', kind: 'bigint', usedBy: 'fast interpreter' },
  { name: 'gasRefund', kind: 'bigint', usedBy: 'fast interpreter' },
  { name: 'memoryWordCount', kind: 'bigint', usedBy: 'fast opcodes (memory gas)' },
  { name: 'highestMemCost', kind: 'bigint', usedBy: 'fast opcodes (memory gas)' },
  { name: 'shouldDoJumpAnalysis', kind: 'boolean', usedBy: 'fast interpreter' },
  { name: 'validJumps', kind: 'present', usedBy: 'fast interpreter' },
  { name: 'cachedPushes', kind: 'present', usedBy: 'fast interpreter' },
  { name: 'stack', kind: 'object', usedBy: 'fast opcodes, tracers' },
  { name: 'memory', kind: 'object', usedBy: 'fast opcodes, tracers' },
  { name: 'returnBytes', kind: 'object', usedBy: 'fast interpreter' },
  { name: 'env', kind: 'object', usedBy: 'fast interpreter, tracers' },
  { name: 'stateManager', kind: 'object', usedBy: 'fast interpreter, tracers' },
  { name: 'interpreter', kind: 'object', usedBy: 'fast opcodes, tracers' },
]

/** Members of the EVM's journal (`evm.journal`, its class not exported). */
export const JOURNAL_MEMBERS: readonly Member[] = [
  { name: 'cleanup', kind: 'function', usedBy: 'fast journal clean-up (replaced)' },
  { name: 'cleanJournal', kind: 'function', usedBy: 'fast journal clean-up (replaced: kept empty collections, fast-journal.ts)' },
  { name: 'addAlwaysWarmSlot', kind: 'function', usedBy: 'fast warm addresses (replaced: an own set before a slot, fast-journal.ts), the engine\'s runTx (access lists)' },
  { name: 'journal', kind: 'object', usedBy: 'fast journal clean-up, fast storage (warm slots), the engine\'s runTx (a clean journal is not cleaned again)' },
  { name: 'journalDiff', kind: 'object', usedBy: 'fast journal clean-up, fast storage (warm slots), the engine\'s runTx (a clean journal)' },
  { name: 'journalHeight', kind: 'number', usedBy: 'fast journal clean-up, the engine\'s runTx (a clean journal)' },
  { name: 'deleteAccount', kind: 'function', usedBy: 'fast journal clean-up' },
  { name: 'touchAddress', kind: 'function', usedBy: 'fast-call (value transfer, frame-state.ts); replaced: keyed by addressKey (fast-journal.ts); the engine\'s runTx' },
  { name: 'isWarmedAddress', kind: 'function', usedBy: 'replaced: keyed by keyOf (fast-journal.ts)' },
  { name: 'addWarmedAddress', kind: 'function', usedBy: 'fast storage (a slot\'s address); replaced: keyed by keyOf (fast-journal.ts)' },
  { name: 'touchAccount', kind: 'function', usedBy: 'fast touchAddress (fast-journal.ts)' },
  { name: 'touched', kind: 'object', usedBy: 'fast journal clean-up, the engine\'s runTx (a clean journal)' },
  { name: 'alwaysWarmJournal', kind: 'object', usedBy: 'fast warm addresses (fast-journal.ts), fast storage, the engine\'s runTx (warm addresses without slots)' },
  { name: 'common', kind: 'object', usedBy: 'fast journal clean-up' },
  { name: 'stateManager', kind: 'object', usedBy: 'fast journal clean-up, bindState (vm.ts: a VM pointed at a state)' },
  { name: 'DEBUG', kind: 'boolean', usedBy: 'fast journal clean-up' },
  { name: 'putAccount', kind: 'function', usedBy: 'the engine\'s runTx' },
  { name: 'startReportingAccessList', kind: 'function', usedBy: 'the engine\'s runTx' },
  { name: 'checkpoint', kind: 'function', usedBy: 'the engine\'s runTx' },
  { name: 'commit', kind: 'function', usedBy: 'the engine\'s runTx' },
  { name: 'revert', kind: 'function', usedBy: 'the engine\'s runTx' },
]

/** Fields of an opcode table entry (`_opcodeMap[op]`) and of its `opcodeInfo`. */
export const OPCODE_ENTRY_MEMBERS: readonly Member[] = [
  { name: 'opHandler', kind: 'function', usedBy: 'every opcode-table layer' },
  { name: 'gasHandler', kind: 'function', usedBy: 'fast interpreter, fast opcodes' },
  { name: 'opcodeInfo', kind: 'object', usedBy: 'fast interpreter, tracers' },
]
export const OPCODE_INFO_MEMBERS: readonly Member[] = [
  { name: 'code', kind: 'number', usedBy: 'fast interpreter, tracers' },
  { name: 'feeBigInt', kind: 'bigint', usedBy: 'fast interpreter' },
  { name: 'dynamicGas', kind: 'boolean', usedBy: 'fast interpreter' },
  { name: 'isAsync', kind: 'boolean', usedBy: 'fast interpreter' },
  { name: 'isInvalid', kind: 'boolean', usedBy: 'fast interpreter' },
]

/** Stack and memory methods the fast opcode handlers call. */
export const STACK_MEMBERS: readonly Member[] = [
  { name: 'pop', kind: 'function', usedBy: 'fast opcodes' },
  { name: 'popN', kind: 'function', usedBy: 'fast opcodes' },
  { name: 'push', kind: 'function', usedBy: 'fast opcodes' },
  { name: 'peek', kind: 'function', usedBy: 'fast opcodes, tracers' },
  { name: 'getStack', kind: 'function', usedBy: 'tracers (the implicit STOP step)' },
  { name: 'length', kind: 'number', usedBy: 'tracers, fast opcodes' },
  { name: '_store', kind: 'object', usedBy: 'fast opcodes (operands read in place, stack.ts)' },
]
export const MEMORY_MEMBERS: readonly Member[] = [
  { name: 'read', kind: 'function', usedBy: 'fast opcodes' },
  { name: 'write', kind: 'function', usedBy: 'fast opcodes' },
  { name: 'extend', kind: 'function', usedBy: 'fast opcodes (MLOAD, MSTORE in place)' },
  { name: '_store', kind: 'object', usedBy: 'tracers (call input, memory of the implicit STOP step; frames.ts), fast opcodes (MLOAD, MSTORE)' },
]

/** Fields of the interpreter's environment (`_env`, `runState.env`). */
export const ENV_MEMBERS: readonly Member[] = [
  { name: 'address', kind: 'object', usedBy: 'tracers' },
  { name: 'depth', kind: 'number', usedBy: 'tracers (call depth)' },
  { name: 'contract', kind: 'object', usedBy: 'tracers (balance, nonce)' },
  { name: 'code', kind: 'object', usedBy: 'fast opcodes (JUMP, JUMPI: the code\'s length)' },
]

/** Fields of a `Message` (made with every option unset: the field must still be an own property). */
export const MESSAGE_MEMBERS: readonly Member[] = [{ name: '_codeAddress', kind: 'present', usedBy: 'transfer logs (a CALLCODE frame; frames.ts)' }]

/**
 * Fields `runCall` sets on the EVM for the call it runs, read by the node's own precompiles
 * (precompiles.ts: the frame's block number and time, `tx.origin`). Absent on a fresh EVM, so
 * not on the probe: test/execution/engine/engine.test.ts checks them after a call.
 */
export const RUN_CALL_MEMBERS: readonly Member[] = [
  { name: '_block', kind: 'object', usedBy: 'the node\'s own precompiles (block number and time, precompiles.ts); set by run-call too' },
  { name: '_tx', kind: 'object', usedBy: 'the node\'s own precompiles (tx.origin, precompiles.ts); set by run-call too' },
]
/** Fields of `_block.header` and of `_tx` those precompiles read. */
export const RUN_CALL_HEADER_MEMBERS: readonly Member[] = [
  { name: 'number', kind: 'bigint', usedBy: 'the node\'s own precompiles' },
  { name: 'timestamp', kind: 'bigint', usedBy: 'the node\'s own precompiles' },
]
export const RUN_CALL_TX_MEMBERS: readonly Member[] = [{ name: 'origin', kind: 'object', usedBy: 'the node\'s own precompiles' }]

/** Fields of the interpreter's result (`_result`). */
export const RESULT_MEMBERS: readonly Member[] = [{ name: 'logs', kind: 'object', usedBy: 'tracers, transfer logs' }]

/**
 * Not checkable on the probe (set only while a CALL-family opcode runs): `runState.messageGasLimit`,
 * read by the tracers; a rename shows in test/execution/tracers/tracers.test.ts.
 */

/** The names of the members of `object` (`what` names it) that are missing or of another kind. */
export function missingMembers(what: string, object: unknown, members: readonly Member[]): string[] {
  if (typeof object !== 'object' || object === null) return [`${what} (not found)`]
  const record = object as Record<string, unknown>
  const out: string[] = []
  for (const { name, kind } of members) {
    const value = record[name]
    const ok = kind === 'present' ? name in record : kind === 'object' ? typeof value === 'object' && value !== null : typeof value === kind
    if (!ok) out.push(`${what}.${name}`)
  }
  return out
}
