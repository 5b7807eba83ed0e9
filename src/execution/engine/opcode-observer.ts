/**
 * A synchronous look at each opcode before it runs, for a tracer that needs only where execution
 * is (the failure tracer: program counters, the running code, the stack's top after an opcode).
 * The library's `step` event builds an object with copies of the stack and memory for every
 * opcode and goes through its async event emitter; an observer costs one call per opcode.
 *
 * Only the engine's fast loop calls observers (`fast-interpreter.ts`): `observesOpcodes` in
 * install.ts says whether an EVM's frames run there; a tracer falls back to the `step` event
 * where not.
 */

/** The interpreter's stack, as an observer may read it (read only). */
export interface ObservedStack {
  readonly length: number
  /** The top `n` items, the top first. */
  peek(n?: number): bigint[]
}

/** Called before each opcode with its program counter, the opcode, the stack and the code running. */
export type OpcodeObserver = (pc: number, op: number, stack: ObservedStack, code: Uint8Array) => void

const OBSERVER = Symbol('finality.opcodeObserver')

type Observed = { [OBSERVER]?: OpcodeObserver }

/**
 * Sets (or, with undefined, removes) the observer of `evm`'s opcodes. Removing writes undefined
 * rather than deleting the property: a `delete` of a property that is not the object's last one
 * turns the EVM object into a dictionary, and every later property read of it slower.
 */
export function setOpcodeObserver(evm: object, observer: OpcodeObserver | undefined): void {
  if (observer !== undefined || OBSERVER in evm) (evm as Observed)[OBSERVER] = observer
}

/** The observer of `evm`'s opcodes, if any (read once per frame by the fast loop). */
export function opcodeObserverOf(evm: object): OpcodeObserver | undefined {
  return (evm as Observed)[OBSERVER]
}
