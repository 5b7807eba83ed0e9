/**
 * Explains a failed call, estimate or transaction from the contract metadata the node was given:
 * runs it again with the failure tracer (a traced call as debug_traceCall runs it, a mined
 * transaction replayed in its block as debug_traceTransaction does), matches each failing frame's
 * code to a contract, and answers the custom error by name (decoded with the ABI of the contract
 * where the revert began) and the Solidity frames, innermost first. Asked only after an
 * execution failed and only when metadata was given: a node without any never runs it.
 */
import type { Block } from '@ethereumjs/block'
import type { Chain } from '../chain/chain.js'
import type { ContractRegistry } from '../metadata/registry.js'
import type { ContractMetadata } from '../metadata/artifacts.js'
import { definitionOf, definitionStart, locate, rangeAt, type FailureReport, type SourceLocation } from '../metadata/source-map.js'
import type { CallRequest } from './call-request.js'
import type { CallOptions } from './call.js'
import { FailureTracer, failureChain, type FailureFrame, type JumpMarks } from './tracers/failure-tracer.js'
import type { Tracing } from './tracers/replay.js'
import { inferredReason, lastPlaced } from './inferred-errors.js'

/** Explains failures with the registry's contracts (see the module comment). */
export class FailureExplainer {
  private readonly sourceMaps = new WeakMap<object, unknown>()
  /**
   * Failures whose explanation could not be made (the traced run again threw): what Hardhat's
   * `hardhat_getStackTraceFailuresCount` counted before EDR (its stack trace engine's failures).
   */
  unexplained = 0

  constructor(
    readonly registry: ContractRegistry,
    private readonly tracing: () => Tracing,
    private readonly chain: Chain,
  ) {}

  /** True when there is metadata to explain failures with. */
  get active(): boolean {
    return this.registry.size > 0
  }

  /** A failed eth_call or eth_estimateGas, run again traced on the same block and overrides. */
  async ofCall(req: CallRequest, block: Block, options: CallOptions = {}): Promise<FailureReport | undefined> {
    if (!this.active) return undefined
    const tracer = this.tracer()
    try {
      await this.tracing().traceCallsWith([{ call: req, tracer }], block, options)
    } catch {
      // The explanation only adds to the error already decided; a run that cannot be repeated adds nothing.
      this.unexplained++
      return undefined
    }
    return tracer.root === undefined ? undefined : this.report(tracer.root)
  }

  /** A mined transaction that failed, replayed in its block. */
  async ofTransaction(hash: Uint8Array): Promise<FailureReport | undefined> {
    if (!this.active) return undefined
    const included = await this.chain.transaction(hash)
    if (included === undefined) return undefined
    const tracer = this.tracer()
    try {
      await this.tracing().replayWith(included.block, included.receipts, included.index + 1, (i) => (i === included.index ? tracer : undefined))
    } catch {
      this.unexplained++
      return undefined
    }
    return tracer.root === undefined ? undefined : this.report(tracer.root)
  }

  /** A tracer that follows the internal calls of the code of known contracts. */
  private tracer(): FailureTracer {
    return new FailureTracer((frame): JumpMarks | undefined => {
      const runtime = frame.type !== 'CREATE' && frame.type !== 'CREATE2'
      const contract = this.registry.match(frame.code, runtime)
      if (contract === undefined) return undefined
      return (pc) => rangeAt(contract, runtime, frame.code, pc, this.sourceMaps)?.jump
    })
  }

  private report(root: FailureFrame): FailureReport {
    const chain = failureChain(root)
    const frames: SourceLocation[] = []
    let customError: string | undefined
    let inferred: string | undefined
    for (const [i, frame] of chain.entries()) {
      const runtime = frame.type !== 'CREATE' && frame.type !== 'CREATE2'
      const contract = this.registry.match(frame.code, runtime)
      if (contract === undefined) {
        frames.push(unrecognized(frame, runtime))
        continue
      }
      const at = (pc: number) => locate(contract, runtime, frame.code, pc, this.sourceMaps)
      if (i === chain.length - 1 && frame.error === 'execution reverted') {
        if (frame.output.length === 0) inferred = inferredReason(frame, contract, at, i)
        else customError = this.registry.customError(contract, frame.output)
      }
      const before = i === chain.length - 1 ? placedBefore(frame, contract, runtime, inferred) : undefined
      if (before !== undefined) {
        frames.push(before)
        continue
      }
      // Each open internal call (a function called by a jump), then the last instruction with a
      // place in the source: a compiler helper (a checked addition's panic) has none, and the
      // frame is placed where it was called from.
      const own: SourceLocation[] = []
      for (const pc of frame.internalCalls) {
        const call = at(pc)
        if (call !== undefined) own.push(call)
      }
      // A frame that passed on its callee's failure is placed at the call, as EDR places it (the
      // instructions that pass the revert on may be the caller's own assembly, on another line).
      const callee = chain[i + 1]
      const placed = (callee === undefined ? undefined : at(callee.callPc)) ?? lastPlaced(frame, at)
      // A failure inside a modifier: Hardhat adds the function it modifies (where the last
      // internal call entered), or the constructor in a creation that entered none.
      if (placed?.modifier === true && i === chain.length - 1) {
        const entry = frame.internalEntries.length > 0 ? at(frame.internalEntries[frame.internalEntries.length - 1]!) : runtime ? undefined : constructorStart(contract)
        // Not twice: the call into the function is often placed at the function itself.
        const previous = own[own.length - 1]
        if (entry !== undefined && !(previous !== undefined && previous.start === entry.start && previous.length === entry.length)) own.push(entry)
      }
      if (placed !== undefined) own.push(placed)
      // The frame's first entry in a modifier: the called function (or constructor) before it.
      if (own[0]?.modifier === true) {
        const called = calledFunction(frame, contract, runtime)
        if (called !== undefined) own.unshift(called)
      }
      frames.push(...own)
    }
    // An inner call that ran out of gas, its caller reverting after it: EDR places the error in the
    // callee, at its last instruction with a place (the caller's place becomes a call entry).
    if (inferred === 'contract call run out of gas and made the transaction revert') {
      const ran = chain[chain.length - 1]!.children.at(-1)
      const contract = ran === undefined ? undefined : this.registry.match(ran.code, true)
      const placed = ran === undefined || contract === undefined ? undefined : lastPlaced(ran, (pc) => locate(contract, true, ran.code, pc, this.sourceMaps))
      if (placed !== undefined) frames.push(placed)
    }
    frames.splice(0, frames.length, ...withoutRedundant(frames))
    frames.reverse()
    return { frames, ...(customError !== undefined && { customError }), ...(inferred !== undefined && { inferred }) }
  }
}

/**
 * The entries Hardhat leaves out (EDR's redundant frames), outermost first: an entry whose source
 * range holds the next one's (the call of a function whose body is the next place), unless it
 * is a constructor's before code that is not, or the next entry is the same call (recursion).
 */
function withoutRedundant(entries: readonly SourceLocation[]): SourceLocation[] {
  return entries.filter((e, i) => {
    const next = entries[i + 1]
    if (next === undefined) return true
    if (e.function === 'constructor' && next.function !== 'constructor') return true
    // The same call again (recursion) stays; the error's own entry is the last, of another kind.
    if (i + 1 < entries.length - 1 && e.start === next.start && e.length === next.length && e.line === next.line) return true
    return !(e.start <= next.start && e.start + e.length >= next.start + next.length)
  })
}

/**
 * Where Hardhat places an error found before the contract's own code (as EDR's inferrer places
 * it): a function or fallback that is not payable at its definition, a library called directly
 * at its function (the contract without one), arguments that cannot be decoded at the function,
 * a constructor not payable or a code too large at
 * the constructor (the contract when it has none). Undefined for any other error.
 */
function placedBefore(frame: FailureFrame, contract: ContractMetadata, runtime: boolean, inferred: string | undefined): SourceLocation | undefined {
  const selector = frame.input.length >= 4 ? Buffer.from(frame.input.subarray(0, 4)).toString('hex') : undefined
  const tooLarge = frame.error === 'code size to deposit exceeds maximum code size' || frame.error === 'max code size exceeded'
  if (!runtime && (tooLarge || inferred?.startsWith('non-payable function') === true || inferred === 'function was called with incorrect parameters')) return constructorStart(contract)
  if (inferred === undefined) return undefined
  // Hardhat writes the contract's own place with `<unrecognized-selector>` for these two.
  if (inferred.startsWith('function selector was not recognized')) return definitionStart(contract, undefined, '<unrecognized-selector>')
  if (inferred.startsWith('non-payable function') || inferred === 'function was called with incorrect parameters') return definitionStart(contract, (f) => f.selector === selector)
  if (inferred.startsWith('fallback function is not payable') || inferred.startsWith("there's no receive function")) return definitionStart(contract, (f) => f.name === '<fallback>')
  if (inferred === 'library was called directly') return definitionStart(contract, (f) => f.selector === selector) ?? definitionStart(contract)
  return undefined
}

/** Where the function a frame called begins: by selector, `receive` for no calldata, the fallback, or the constructor. */
function calledFunction(frame: FailureFrame, contract: ContractMetadata, runtime: boolean): SourceLocation | undefined {
  if (!runtime) return constructorStart(contract)
  if (frame.input.length === 0) {
    // Hardhat names a receive function's entry here with no name (EDR's reading of its
    // definition), which its stack prints as `C.<anonymous>`; a fallback keeps `<fallback>`.
    const receive = definitionStart(contract, (f) => f.name === '<receive>')
    if (receive !== undefined) return { ...receive, function: '<anonymous>' }
    return definitionStart(contract, (f) => f.name === '<fallback>')
  }
  const selector = Buffer.from(frame.input.subarray(0, 4)).toString('hex')
  return definitionStart(contract, (f) => f.selector === selector) ?? definitionStart(contract, (f) => f.name === '<fallback>')
}

/** The contract's own constructor (not a base's), or the contract itself when it declares none: where Hardhat places a creation's entry. */
function constructorStart(contract: ContractMetadata): SourceLocation | undefined {
  const id = definitionOf(contract)?.definition.id
  return definitionStart(contract, (f) => f.name === 'constructor' && f.contractId === id, 'constructor')
}

/** Hardhat's entry for a frame whose code is of no known contract. */
function unrecognized(frame: FailureFrame, runtime: boolean): SourceLocation {
  const address = runtime && frame.codeAddress !== undefined ? `0x${Buffer.from(frame.codeAddress).toString('hex')}` : 'unknown'
  return { sourceName: address, contract: '<UnrecognizedContract>', function: runtime ? '<unknown>' : 'constructor', line: 0, start: -1, length: 0, unrecognized: true }
}
