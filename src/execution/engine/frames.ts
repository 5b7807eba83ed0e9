/**
 * What the opcode-table layers outside the engine (the tracing hooks, eth_simulateV1's transfer
 * logs) read of a running frame that @ethereumjs/evm keeps in private members: the interpreter's
 * environment (`_env`) and result (`_result`), the memory's bytes (`_store`) and a message's code
 * address (`_codeAddress`). Each is listed in internals.ts; their readers run only inside an
 * opcode table layered by `layerOpcodeTable` (layers.ts), which refuses where the library's version was
 * not verified.
 */
import type { Message } from '@ethereumjs/evm'
import type { Address } from '@ethereumjs/util'
import type { RawLog } from '../../chain/receipts.js'
import { Refused } from '../../domain-errors.js'
import { verified } from './gate.js'
import { evmVersion } from './version.js'

/** The interpreter of a frame, as an opcode handler's run state holds it. */
export interface FrameInterpreter {
  getAddress(): Address
}

/** A frame's environment: its depth and the executing contract's account. */
export interface FrameEnv {
  address: Address
  depth: number
  contract: { balance: bigint; nonce: bigint }
}

/** The frame's environment (`Interpreter._env`). */
export function frameEnv(interpreter: FrameInterpreter): FrameEnv {
  return (interpreter as unknown as { _env: FrameEnv })._env
}

/** The logs the frame has emitted so far (`Interpreter._result.logs`), the newest last. */
export function frameLogs(interpreter: object): RawLog[] {
  return (interpreter as unknown as { _result: { logs: RawLog[] } })._result.logs
}

/** The frame memory's backing bytes (`Memory._store`; past the used words they are zero or stale). */
export function memoryBytes(memory: object): Uint8Array {
  return (memory as { _store: Uint8Array })._store
}

/** The address whose code a message runs (`Message._codeAddress`: set for CALLCODE and DELEGATECALL). */
export function codeAddress(message: Message): Address | undefined {
  return (message as unknown as { _codeAddress?: Address })._codeAddress
}

/**
 * Refuses `feature`, which reaches inside @ethereumjs/evm with no public path beside it, where
 * the library's version is not one the engine was verified against.
 */
export function requireVerifiedEvm(feature: string): void {
  if (!verified('@ethereumjs/evm')) {
    throw new Refused(`${feature} needs @ethereumjs/evm at a version the engine was verified against; ${evmVersion() ?? 'an unreadable version'} is installed`)
  }
}
