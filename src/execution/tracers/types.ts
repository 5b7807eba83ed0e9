/**
 * What a tracer sees of one transaction, modelled on geth's tracing hooks (`OnTxStart`, `OnEnter`,
 * `OnExit`, `OnOpcode`, `OnLog`, `OnTxEnd`). `hooks.ts` produces these events from the EVM's
 * `beforeMessage` / `afterMessage` / `step` events and a few wrapped opcodes.
 */
import type { ObservedStack } from '../engine/opcode-observer.js'
import type { StateManagerInterface } from '@ethereumjs/common'
import type { RawLog } from '../../chain/receipts.js'

/** A call frame's kind, in geth's opcode names. */
export type FrameType = 'CALL' | 'STATICCALL' | 'DELEGATECALL' | 'CALLCODE' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT'

/** The transaction about to run, read before its nonce and gas are charged. */
export interface TxStart {
  from: Uint8Array
  /** The recipient, or the address the transaction creates. */
  to: Uint8Array
  create: boolean
  value: bigint
  gasLimit: bigint
  coinbase: Uint8Array
  /** EIP-7702 authorities named by the transaction's authorization list (recoverable ones). */
  authorities: Uint8Array[]
  /** The state the transaction runs on (also read at its end). */
  state: StateManagerInterface
  /** True when the chain rules include EIP-7702 delegations (Prague and later). */
  delegations: boolean
  /** Addresses of the active precompiles (lower-case hex, unprefixed). */
  precompiles: ReadonlySet<string>
  /** The block-wide index the transaction's first log gets (0 for a call). */
  logIndex: number
  /** The transaction's data. */
  input: Uint8Array
  /** The price per gas the sender pays (the effective price of a fee-market transaction). */
  gasPrice: bigint
  /** The gas the transaction pays before it runs (EIP-2028 data, access list, create). */
  intrinsicGas: bigint
  blockNumber: bigint
  /** The block's hash (also for a traced call: the block it runs on). */
  blockHash: Uint8Array | undefined
  /** The transaction's hash and index in its block; undefined for a traced call. */
  txHash: Uint8Array | undefined
  txIndex: number | undefined
}

/** A call frame entered (geth's `OnEnter`); depth 0 is the transaction itself. */
export interface FrameStart {
  depth: number
  type: FrameType
  from: Uint8Array
  /** The callee; for a create, the new contract's address (as geth's `OnEnter` names it). */
  to: Uint8Array | undefined
  input: Uint8Array
  gas: bigint
  /** Undefined for STATICCALL, which carries no value (geth passes nil). */
  value: bigint | undefined
}

/** A call frame left (geth's `OnExit`). */
export interface FrameEnd {
  depth: number
  output: Uint8Array
  gasUsed: bigint
  /** geth's error text, when the frame failed. */
  error: string | undefined
  /** True when the frame's changes were rolled back (any error, REVERT included). */
  reverted: boolean
  /** The address a successful create made. */
  created: Uint8Array | undefined
}

/** One opcode about to run (geth's `OnOpcode`), with geth's gas cost. */
export interface Step {
  pc: number
  op: number
  gas: bigint
  cost: bigint
  /** 1 for the transaction's own frame, as geth counts. */
  depth: number
  /** Bottom first, top last. */
  stack: bigint[]
  /** The frame's memory before the opcode expands it (whole 32-byte words). */
  memory: Uint8Array
  /** The account whose storage the frame uses (for DELEGATECALL, the caller's). */
  address: Uint8Array
  refund: bigint
  /** What the frame's last call or create returned. */
  returnData: Uint8Array
  state: StateManagerInterface
  /**
   * The error the opcode fails with before it runs (stack bounds, gas), as geth passes it to
   * `OnOpcode`; undefined when it passes those checks.
   */
  error?: string
}

/** The transaction finished. */
export interface TxEnd {
  /** The receipt's gas used. */
  gasUsed: bigint
  output: Uint8Array
  error: string | undefined
  state: StateManagerInterface
}

/** A tracer: any subset of the hooks, and its JSON result. */
export interface Tracer {
  /** True when it needs every opcode (the EVM's `step` event, which slows execution down). */
  readonly wantsSteps: boolean
  onTxStart?(tx: TxStart): Promise<void> | void
  onEnter?(frame: FrameStart): void
  onExit?(frame: FrameEnd): void
  onStep?(step: Step): Promise<void> | void
  /**
   * Each opcode's program counter and the code running, before it runs, with none of a step's
   * copies: used instead of `onStep` where the engine can call it (`engine/opcode-observer.ts`),
   * `onStep` elsewhere. `stack` is the interpreter's own: read it there and then, never keep it.
   */
  onOpcode?(pc: number, op: number, stack: ObservedStack, code: Uint8Array): void
  /** A step's error as geth reports it on the opcode (known only once the frame fails). */
  onStepError?(depth: number, error: string): void
  /** The frame failed while its last opcode ran (geth's `OnFault`: REVERT, an invalid opcode…). */
  onFault?(depth: number, error: string): void
  onLog?(log: RawLog): void
  onTxEnd?(end: TxEnd): Promise<void> | void
  /** The JSON-ready result; throws the tracer's own failure. */
  result(): unknown
  /** Frees what the tracer holds outside the JavaScript heap, when its result is never asked for. */
  dispose?(): void
}
