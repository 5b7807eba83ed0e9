/**
 * geth's words for opcodes and EVM errors: opcode names as geth's `OpCode.String()` prints them
 * (fork-independent, `DIFFICULTY` for 0x44, `opcode 0xef not defined` for unassigned bytes) and
 * ethereumjs' exceptional halts in geth's `core/vm/errors.go` wording.
 */
import type { ExecResult } from '@ethereumjs/evm'

const NAMES = new Map<number, string>()
const STACK = new Map<number, readonly [pops: number, pushes: number]>()

function define(first: number, entries: string): void {
  let op = first
  for (const entry of entries.trim().split(/\s+/)) {
    const [name, pops, pushes] = entry.split(':') as [string, string, string]
    NAMES.set(op, name)
    STACK.set(op, [Number(pops), Number(pushes)])
    op++
  }
}

define(0x00, 'STOP:0:0 ADD:2:1 MUL:2:1 SUB:2:1 DIV:2:1 SDIV:2:1 MOD:2:1 SMOD:2:1 ADDMOD:3:1 MULMOD:3:1 EXP:2:1 SIGNEXTEND:2:1')
define(0x10, 'LT:2:1 GT:2:1 SLT:2:1 SGT:2:1 EQ:2:1 ISZERO:1:1 AND:2:1 OR:2:1 XOR:2:1 NOT:1:1 BYTE:2:1 SHL:2:1 SHR:2:1 SAR:2:1 CLZ:1:1')
define(0x20, 'KECCAK256:2:1')
define(
  0x30,
  `ADDRESS:0:1 BALANCE:1:1 ORIGIN:0:1 CALLER:0:1 CALLVALUE:0:1 CALLDATALOAD:1:1 CALLDATASIZE:0:1 CALLDATACOPY:3:0
   CODESIZE:0:1 CODECOPY:3:0 GASPRICE:0:1 EXTCODESIZE:1:1 EXTCODECOPY:4:0 RETURNDATASIZE:0:1 RETURNDATACOPY:3:0 EXTCODEHASH:1:1`,
)
define(
  0x40,
  `BLOCKHASH:1:1 COINBASE:0:1 TIMESTAMP:0:1 NUMBER:0:1 DIFFICULTY:0:1 GASLIMIT:0:1 CHAINID:0:1 SELFBALANCE:0:1
   BASEFEE:0:1 BLOBHASH:1:1 BLOBBASEFEE:0:1`,
)
define(
  0x50,
  `POP:1:0 MLOAD:1:1 MSTORE:2:0 MSTORE8:2:0 SLOAD:1:1 SSTORE:2:0 JUMP:1:0 JUMPI:2:0 PC:0:1 MSIZE:0:1 GAS:0:1
   JUMPDEST:0:0 TLOAD:1:1 TSTORE:2:0 MCOPY:3:0 PUSH0:0:1`,
)
for (let n = 1; n <= 32; n++) define(0x5f + n, `PUSH${n}:0:1`)
for (let n = 1; n <= 16; n++) define(0x7f + n, `DUP${n}:${n}:${n + 1}`)
for (let n = 1; n <= 16; n++) define(0x8f + n, `SWAP${n}:${n + 1}:${n + 1}`)
for (let n = 0; n <= 4; n++) define(0xa0 + n, `LOG${n}:${n + 2}:0`)
define(0xf0, 'CREATE:3:1 CALL:7:1 CALLCODE:7:1 RETURN:2:0 DELEGATECALL:6:1 CREATE2:4:1')
define(0xfa, 'STATICCALL:6:1')
define(0xfd, 'REVERT:2:0 INVALID:0:0 SELFDESTRUCT:1:0')

/** geth's name of an opcode byte. */
export function opName(op: number): string {
  return NAMES.get(op) ?? `opcode 0x${op.toString(16)} not defined`
}

/** How many words an opcode takes from the stack and how many it leaves (DUPn and SWAPn counting the words they copy or move). */
export function stackEffect(op: number): readonly [pops: number, pushes: number] {
  return STACK.get(op) ?? [0, 0]
}

/** The stack limit of the EVM (geth's `params.StackLimit`). */
const STACK_LIMIT = 1024

/** What the interpreter had in hand when the frame halted. */
interface HaltState {
  opCode?: number
  stack?: { length: number; peek?(n: number): bigint[] }
  gasLeft?: bigint
  returnBytes?: Uint8Array
}

/** True when RETURNDATACOPY's range reaches past the return data (geth's `ErrReturnDataOutOfBounds`). */
function returnDataOutOfBounds(state: HaltState): boolean {
  if (state.opCode !== 0x3e || state.stack?.peek === undefined || state.stack.length < 3) return false
  const [, offset, length] = state.stack.peek(3) as [bigint, bigint, bigint]
  return offset + length > BigInt(state.returnBytes?.length ?? 0)
}

/**
 * geth's error text for a frame that ended with `exec.exceptionError`, or undefined when it did not
 * fail. `create` marks CREATE / CREATE2 frames (and creating transactions).
 */
export function frameError(exec: ExecResult, create: boolean): string | undefined {
  const error = exec.exceptionError?.error
  if (error === undefined) return undefined
  const state = (exec.runState ?? {}) as HaltState
  // ethereumjs names the place of a bad jump after its error text ("invalid JUMP at <hash>/<address>:<pc>").
  switch (error.startsWith('invalid JUMP') ? 'invalid JUMP' : error) {
    case 'revert':
      return 'execution reverted'
    case 'out of gas':
      if (returnDataOutOfBounds(state)) return 'return data out of bounds'
      // A create whose code ran to RETURN but cannot pay for storing the code.
      if (create && state.opCode === 0xf3 && (state.gasLeft ?? 0n) > 0n) return 'contract creation code storage out of gas'
      return 'out of gas'
    case 'code store out of gas':
      return 'contract creation code storage out of gas'
    case 'code size to deposit exceeds maximum code size':
      return 'max code size exceeded'
    case 'initcode exceeds max initcode size':
      return 'max initcode size exceeded'
    case 'invalid bytecode deployed':
      return 'invalid code: must not begin with 0xef'
    case 'stack underflow': {
      const op = state.opCode ?? 0
      return `stack underflow (${state.stack?.length ?? 0} <=> ${STACK.get(op)?.[0] ?? 0})`
    }
    case 'stack overflow': {
      const [pops, pushes] = STACK.get(state.opCode ?? 0) ?? [0, 1]
      return `stack limit reached ${state.stack?.length ?? STACK_LIMIT} (${STACK_LIMIT + pops - pushes})`
    }
    case 'invalid JUMP':
      return 'invalid jump destination'
    case 'invalid opcode':
      return `invalid opcode: ${opName(state.opCode ?? 0xfe)}`
    case 'static state change':
      return 'write protection'
    case 'create collision':
      return 'contract address collision'
    case 'insufficient balance':
      return 'insufficient balance for transfer'
    default:
      return error
  }
}

/** Errors geth reports on the opcode that caused them (checked before the opcode runs). */
export function isStepError(error: string): boolean {
  return error === 'out of gas' || error.startsWith('stack underflow') || error.startsWith('stack limit reached')
}

/**
 * Errors an opcode raises while it runs (geth's interpreter reports them with `OnFault`, after the
 * opcode's step was traced without an error): REVERT, an undefined opcode, a bad jump, a write in
 * a static frame, RETURNDATACOPY past the end. Frame-level failures (code deposit, collisions,
 * depth, balance) are neither these nor {@link isStepError}.
 */
export function isFaultError(error: string): boolean {
  return (
    error === 'execution reverted' ||
    error.startsWith('invalid opcode') ||
    error === 'invalid jump destination' ||
    error === 'write protection' ||
    error === 'return data out of bounds'
  )
}

/** geth's `SstoreSentryGasEIP2200`: SSTORE needs more than this much gas left (Istanbul and later). */
const SSTORE_SENTRY = 2300n

/**
 * The error geth's interpreter raises for a defined opcode before it runs, from what the step
 * shows: the stack bounds first, then the gas (`cost` is geth's cost of the opcode; `sentry` says
 * whether EIP-2200's SSTORE check applies). Undefined when the opcode passes these checks.
 */
export function preStepError(op: number, stackLength: number, gas: bigint, cost: bigint, sentry: boolean): string | undefined {
  const [pops, pushes] = STACK.get(op) ?? [0, 0]
  if (stackLength < pops) return `stack underflow (${stackLength} <=> ${pops})`
  const limit = STACK_LIMIT + pops - pushes
  if (stackLength > limit) return `stack limit reached ${stackLength} (${limit})`
  if (cost > gas || (sentry && op === 0x55 && gas <= SSTORE_SENTRY)) return 'out of gas'
  return undefined
}
