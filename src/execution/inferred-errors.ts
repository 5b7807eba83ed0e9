/**
 * Hardhat's inferred errors: what Hardhat says of a revert that carries no data, when it knows the
 * contract (EDR's error inferrer, on its own reading of the compilation). Read here from the
 * frame where the revert began, its contract's ABI and its inner frames; each rule was checked
 * against Hardhat 2.29.1 with the same compilation (test/metadata/inferred.test.ts):
 *
 * - a function that is not payable called with value: `non-payable function was called with value N`;
 * - a selector the contract has no function for, and no fallback: `function selector was not
 *   recognized and there's no fallback function` (`… nor receive function` for empty calldata);
 * - a fallback that is not payable called with value: `fallback function is not payable and was
 *   called with value N` (`there's no receive function, fallback function is not payable and was
 *   called with value N` for empty calldata);
 * - Solidity's check that the callee has code failing: `function call to a non-contract account`;
 * - an inner call run out of gas, its caller reverting after it: `contract call run out of gas and
 *   made the transaction revert`;
 * - a call or create the EVM refused before it ran (value over the balance, call depth), its
 *   caller reverting where it called (a `transfer`'s check): `function call failed to execute`;
 * - an inner call that succeeded, its caller reverting where it called (decoding what it
 *   returned): `function returned an unexpected amount of data`.
 *
 * A revert passed on from a callee keeps the callee's words (`Transaction reverted without a
 * reason string` for a bare `revert()`), as in Hardhat.
 */
import type { ContractMetadata } from '../metadata/artifacts.js'
import { definitionOf, findFunction, type SourceLocation } from '../metadata/source-map.js'
import { decodeParameters, selectorOf, type AbiItem } from '../metadata/abi.js'
import type { FailureFrame } from './tracers/failure-tracer.js'

/** The ABI's function items by selector, kept per contract. */
const functionsOf = new WeakMap<ContractMetadata, Map<string, AbiItem & { stateMutability?: string }>>()

function functions(contract: ContractMetadata): Map<string, AbiItem & { stateMutability?: string }> {
  let found = functionsOf.get(contract)
  if (found === undefined) {
    found = new Map(contract.abi.filter((i) => i.type === 'function').map((i) => [selectorOf(i), i]))
    functionsOf.set(contract, found)
  }
  return found
}

/**
 * The inferred reason of `frame`'s revert (Hardhat's words after `Transaction reverted: `), or
 * undefined when Hardhat infers none. `frame` reverted with no data; `contract` is its code's;
 * `at(pc)` places one of its program counters in the source.
 */
export function inferredReason(frame: FailureFrame, contract: ContractMetadata, at: (pc: number) => SourceLocation | undefined, depth = 1): string | undefined {
  const last = frame.children[frame.children.length - 1]
  const create = frame.type === 'CREATE' || frame.type === 'CREATE2'
  // A library's functions run by DELEGATECALL; the transaction's own call to one is refused by it.
  if (depth === 0 && !create && definitionOf(contract)?.definition.kind === 'library') return 'library was called directly'
  if (create && frame.value > 0n) {
    const ctor = findFunction(contract, (f) => f.name === 'constructor')
    if (ctor !== undefined && ctor.range.payable !== true && frame.output.length === 0) return `non-payable function was called with value ${frame.value}`
  }
  // The constructor's arguments follow the creation code; solc's check of their size failed.
  const ctorAbi = create ? contract.abi.find((i) => i.type === 'constructor') : undefined
  const codeLength = (contract.creation?.hex.length ?? 0) / 2
  if (ctorAbi !== undefined && (ctorAbi.inputs?.length ?? 0) > 0 && codeLength > 0 && frame.output.length === 0 && last === undefined) {
    try {
      decodeParameters(ctorAbi.inputs ?? [], frame.input.subarray(codeLength))
    } catch {
      return 'function was called with incorrect parameters'
    }
  }
  if (last === undefined && frame.type !== 'CREATE' && frame.type !== 'CREATE2') {
    const selector = frame.input.length >= 4 ? Buffer.from(frame.input.subarray(0, 4)).toString('hex') : undefined
    const fn = selector === undefined ? undefined : functions(contract).get(selector)
    if (fn !== undefined && frame.value > 0n && fn.stateMutability !== 'payable') return `non-payable function was called with value ${frame.value}`
    // The dispatcher's own check of the arguments: calldata the function's parameters cannot be read from.
    if (fn !== undefined && !decodes(fn, frame.input)) return 'function was called with incorrect parameters'
    const has = (type: string) => contract.abi.some((i) => i.type === type)
    const fallback = contract.abi.find((i) => i.type === 'fallback') as { stateMutability?: string } | undefined
    if (fn === undefined && fallback !== undefined && fallback.stateMutability !== 'payable' && frame.value > 0n) {
      if (frame.input.length > 0) return `fallback function is not payable and was called with value ${frame.value}`
      if (!has('receive')) return `there's no receive function, fallback function is not payable and was called with value ${frame.value}`
    }
    if (fn === undefined && fallback === undefined) {
      if (frame.input.length === 0 && !has('receive')) return "function selector was not recognized and there's no fallback nor receive function"
      if (frame.input.length > 0) return "function selector was not recognized and there's no fallback function"
    }
  }
  if (frame.calledNoCode) return 'function call to a non-contract account'
  if (last === undefined) return undefined
  if (NOT_OPENED.has(last.error ?? '') && last.pc === -1 && revertedAtCall(frame, last, at)) return 'function call failed to execute'
  if (last.error === 'out of gas') return 'contract call run out of gas and made the transaction revert'
  if (last.error === undefined) {
    // The revert placed where the call was made: the decoding of what it returned failed.
    const call = at(last.callPc)
    const revert = lastPlaced(frame, at)
    if (call !== undefined && revert !== undefined && call.sourceName === revert.sourceName && call.line === revert.line) return 'function returned an unexpected amount of data'
  }
  return undefined
}

/** The errors of a call or create the EVM refused before opening its frame (the tracer hooks' `failFast`). */
const NOT_OPENED = new Set(['insufficient balance for transfer', 'max call depth exceeded', 'nonce uint64 overflow'])

/**
 * Whether every instruction of `frame` after the one that made `child` (the last made there) that
 * has a place in the source has the call's own place: the revert comes from the call's line,
 * as EDR reads a failed call (no instruction of other code ran between them).
 */
function revertedAtCall(frame: FailureFrame, child: FailureFrame, at: (pc: number) => SourceLocation | undefined): boolean {
  const call = at(child.callPc)
  const from = frame.pcs.lastIndexOf(child.callPc)
  if (call === undefined || from === -1) return false
  for (let k = from + 1; k < frame.pcs.length; k++) {
    const here = at(frame.pcs[k]!)
    if (here !== undefined && !(here.sourceName === call.sourceName && here.start === call.start && here.length === call.length)) return false
  }
  return true
}

/** The frame's last instruction with a place in the source (a compiler helper has none). */
export function lastPlaced(frame: FailureFrame, at: (pc: number) => SourceLocation | undefined): SourceLocation | undefined {
  for (let k = frame.pcs.length - 1; k >= 0; k--) {
    const found = at(frame.pcs[k]!)
    if (found !== undefined) return found
  }
  return undefined
}

/** Whether the calldata after the selector decodes as the function's parameters. */
function decodes(fn: AbiItem, input: Uint8Array): boolean {
  try {
    decodeParameters(fn.inputs ?? [], input.subarray(4))
    return true
  } catch {
    return false
  }
}
