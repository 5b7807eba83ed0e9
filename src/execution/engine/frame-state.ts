/**
 * A call frame's state steps (`fast-call.ts`) without promises where the node's state has them.
 *
 * @ethereumjs/evm's `_executeCall` awaits the caller's and the callee's accounts, the value's
 * debit and credit (`_reduceSenderBalance`, `_addToBalance`, each through the journal's async
 * `putAccount`) and the code (`_loadCode`); `runInterpreter` awaits the callee's account once
 * more: about ten promises and microtask turns per frame before the first opcode runs. The
 * node's state (`state/journaled-state.ts`) answers each of these synchronously when its base is
 * in memory (`accountNow`, `setAccount`, `codeNow`). These helpers do the library's steps in its
 * order and through the same journal (`touchAddress`, as `Journal#putAccount` does), and answer
 * `undefined` (the caller then takes the library's awaited method) when the state has no
 * synchronous side or the value is not at hand. Forks and settings whose EIPs add steps to these
 * methods (block access lists, EIP-7928) and the debug log never reach `fast-call.ts`.
 */
import { EVMError, type Message } from '@ethereumjs/evm'
import { Account, MAX_INTEGER, type Address } from '@ethereumjs/util'
import { NOT_AT_HAND } from '../../state/journaled-state.js'

/** The synchronous side of `JournaledState`. */
interface SyncState {
  accountNow(address: Address): Account | undefined | typeof NOT_AT_HAND
  setAccount(address: Address, account?: Account): void
  codeNow(address: Address): Uint8Array | undefined
}

/** What the helpers use of an EVM. */
export interface FrameStateEvm {
  stateManager: unknown
  journal: unknown
  common: { isActivatedEIP(eip: number): boolean }
  getPrecompile(address: Address): unknown
}

/** The EIP-7702 delegation prefix of an account's code. */
const DELEGATION_7702 = [0xef, 0x01, 0x00]

/** The EVM's state and journal with their synchronous sides, or undefined. */
export function syncSide(evm: FrameStateEvm): { state: SyncState; journal: { touchAddress(address: Address): void } } | undefined {
  const state = evm.stateManager as Partial<SyncState>
  const journal = evm.journal as { touchAddress?: unknown }
  if (typeof state.accountNow !== 'function' || typeof state.setAccount !== 'function' || typeof state.codeNow !== 'function' || typeof journal.touchAddress !== 'function') return undefined
  return { state: state as SyncState, journal: journal as { touchAddress(address: Address): void } }
}

/** `getAccount(address) ?? new Account()` when at hand; NOT_AT_HAND otherwise. */
export function accountNow(state: SyncState, address: Address): Account | typeof NOT_AT_HAND {
  const account = state.accountNow(address)
  return account === NOT_AT_HAND ? NOT_AT_HAND : orEmptyAccount(account)
}

function emptyAccount(): Account {
  return new Account()
}

function sameAccount(account: Account): Account {
  return account
}

/**
 * `account ?? new Account()`, with nothing V8's optimised code meets for the first time when the
 * first absent account comes after the compile of a function that inlines this one. A
 * `new Account()` that has never run has no type feedback, and TurboFan (and Maglev) compile it
 * as a deopt: the frame's run (`fastExecuteCall`) and the run of a transaction (`run-tx.ts`) were
 * thrown away and compiled again at a suite's first call to an absent account. The two branches
 * are functions reached through `call` on either one: the `call` site runs on every account, and
 * V8 makes a call through `Function.prototype.call` without taking its target from feedback (a
 * function never called is not inlined, and calling it does not deopt).
 */
export function orEmptyAccount(account: Account | undefined): Account {
  return (account === undefined ? emptyAccount : sameAccount).call(undefined, account as Account)
}

/** `Journal#putAccount` without its promise. */
function putAccount(side: NonNullable<ReturnType<typeof syncSide>>, address: Address, account: Account): void {
  side.journal.touchAddress(address)
  side.state.setAccount(address, account)
}

/** `_reduceSenderBalance` (before EIP-7928, without the debug log): the error it would throw, or undefined. */
export function debitSender(side: NonNullable<ReturnType<typeof syncSide>>, account: Account, message: Message): unknown {
  account.balance -= message.value
  if (account.balance < 0n) return new EVMError(EVMError.errorMessages.INSUFFICIENT_BALANCE)
  putAccount(side, message.caller, account)
  return undefined
}

/** `_addToBalance` (before EIP-7928, without the debug log): the error it would throw, or undefined. */
export function creditRecipient(side: NonNullable<ReturnType<typeof syncSide>>, account: Account, message: Message): unknown {
  const balance = account.balance + message.value
  if (balance > MAX_INTEGER) return new EVMError(EVMError.errorMessages.VALUE_OVERFLOW)
  account.balance = balance
  putAccount(side, message.to as Address, account)
  return undefined
}

/**
 * `_loadCode` when it needs no promise: the message already has code, the address is a
 * precompile, or the code is at hand and is not an EIP-7702 delegation (whose target the library
 * loads). False when the library's method must run (nothing has been changed then).
 */
export function loadCodeNow(evm: FrameStateEvm, state: SyncState, message: Message): boolean {
  if (message.code) return true
  const address = message.codeAddress
  const precompile = evm.getPrecompile(address)
  if (precompile) {
    message.code = precompile as Message['code']
    message.isCompiled = true
    // Undefined, as the library leaves it for a precompile, but present: the message keeps the
    // hidden class of one whose code came from the state (below), and a frame's optimised code
    // compiled on contracts' messages is not thrown away at its first precompile.
    ;(message as Message & { chargeCodeAccesses?: boolean | undefined }).chargeCodeAccesses = undefined
    return true
  }
  const code = state.codeNow(address)
  if (code === undefined) return false
  if (evm.common.isActivatedEIP(7702) && code.length >= 3 && code[0] === DELEGATION_7702[0] && code[1] === DELEGATION_7702[1] && code[2] === DELEGATION_7702[2]) return false
  message.code = code
  message.isCompiled = false
  ;(message as Message & { chargeCodeAccesses?: boolean }).chargeCodeAccesses = true
  return true
}
