/**
 * An EVM's active precompiles, which a call's state overrides move or remove (eth_call,
 * eth_simulateV1: `movePrecompileToAddress`). @ethereumjs/evm keeps them in a private member
 * (`_precompiles`, listed in internals.ts) and offers no public way to change them after the EVM
 * is made, so where the library's version is not a verified one the overrides refuse.
 */
import { EVMError, type EVMInterface, type ExecResult, type Message } from '@ethereumjs/evm'
import type { StateManagerInterface } from '@ethereumjs/common'
import { requireVerifiedEvm } from './frames.js'

/** Precompiles by unprefixed lower-case address. */
export type Precompiles = Map<string, unknown>

/** The EVM's active precompiles (`EVM._precompiles`). */
export function precompilesOf(evm: EVMInterface): Precompiles {
  requireVerifiedEvm('a precompile override')
  return (evm as unknown as { _precompiles: Precompiles })._precompiles
}

/** Makes `precompiles` the EVM's active precompiles. */
export function setPrecompiles(evm: EVMInterface, precompiles: Precompiles): void {
  ;(evm as unknown as { _precompiles: Precompiles })._precompiles = precompiles
}

/** One call of a {@link MessagePrecompile}: what a precompile of the library is not told. */
export interface PrecompileCall {
  readonly data: Uint8Array
  readonly gasLimit: bigint
  /** `msg.sender` (20 bytes). */
  readonly caller: Uint8Array
  /** `tx.origin` (20 bytes). */
  readonly origin: Uint8Array
  readonly value: bigint
  readonly isStatic: boolean
  readonly delegatecall: boolean
  /** The frame's state: writes are journaled with the frame and undone when it reverts. */
  readonly state: StateManagerInterface
  /** The block the call runs in. */
  readonly blockNumber: bigint
  readonly timestamp: bigint
}

/** A {@link MessagePrecompile}'s answer: its output, or its revert data with `reverted`. */
export interface PrecompileAnswer {
  readonly gasUsed: bigint
  readonly returnValue: Uint8Array
  readonly reverted?: boolean
  /** Logs as the EVM keeps them: address, topics, data. */
  readonly logs?: Array<[Uint8Array, Uint8Array[], Uint8Array]>
}

/** A precompile that reads its caller, value and state (the library's are handed only the input). */
export interface MessagePrecompile {
  /** Unprefixed lower-case address. */
  readonly address: string
  run(call: PrecompileCall): Promise<PrecompileAnswer>
}

/** The message each EVM is running the frame of (set as a frame starts, read by its precompile). */
const frames = new WeakMap<object, Message>()

interface MessageEvm {
  _executeCall(message: Message): Promise<unknown>
  _block?: { header: { number: bigint; timestamp: bigint } }
  _tx?: { origin?: { bytes: Uint8Array } }
  stateManager: StateManagerInterface
}

/**
 * Adds `list` to the EVM's precompiles. Only an EVM given some gets the frame hook (an own
 * `_executeCall` that notes the message before the engine's or the library's runs it), so the
 * EVMs of a node without them run exactly as before. `_block` and `_tx` are the fields the
 * library's `runCall` sets for the frame's block and transaction. All three are private members:
 * they are in internals.ts's inventory (`EVM_MEMBERS`, `RUN_CALL_MEMBERS`), behind the version
 * gate (`requireVerifiedEvm`).
 */
export function installMessagePrecompiles(evm: EVMInterface, list: readonly MessagePrecompile[]): void {
  if (list.length === 0) return
  requireVerifiedEvm('the node\'s own precompiles')
  const inner = evm as unknown as MessageEvm
  const executeCall = inner._executeCall
  inner._executeCall = function (this: MessageEvm, message: Message) {
    frames.set(this, message)
    return executeCall.call(this, message)
  }
  const precompiles = precompilesOf(evm)
  for (const p of list) {
    precompiles.set(p.address, async (opts: { data: Uint8Array; gasLimit: bigint; _EVM: unknown }): Promise<ExecResult> => {
      const host = opts._EVM as MessageEvm
      const message = frames.get(host)
      if (message === undefined) throw new Error(`precompile ${p.address} ran outside a frame`)
      const header = host._block?.header
      const answer = await p.run({
        data: opts.data,
        gasLimit: opts.gasLimit,
        caller: message.caller.bytes,
        origin: host._tx?.origin?.bytes ?? message.caller.bytes,
        value: message.value,
        isStatic: message.isStatic,
        delegatecall: message.delegatecall,
        state: host.stateManager,
        blockNumber: header?.number ?? 0n,
        timestamp: header?.timestamp ?? 0n,
      })
      if (answer.gasUsed > opts.gasLimit) {
        return { executionGasUsed: opts.gasLimit, returnValue: new Uint8Array(0), exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) }
      }
      if (answer.reverted === true) {
        return { executionGasUsed: answer.gasUsed, returnValue: answer.returnValue, exceptionError: new EVMError(EVMError.errorMessages.REVERT) }
      }
      return { executionGasUsed: answer.gasUsed, returnValue: answer.returnValue, logs: answer.logs as ExecResult['logs'] }
    })
  }
}
