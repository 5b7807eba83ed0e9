/**
 * The one place an EVM's opcode table (`_opcodeMap`, one per EVM) is layered. Five layers
 * exist, always in this order from the inside out:
 *
 * 1. `fast`: the engine's faster handlers (`fast-opcodes.ts`), replacing the library's own where
 *    the EVM runs the fast paths (`install.ts`);
 * 2. `timeout`: the call time-out guard (`timeout.ts`), in call and tracing VMs;
 * 3. `gaswatch`: what a run shows about the gas it needs (`gas-watch.ts`), in call VMs;
 * 4. `tracer`: the tracing hooks (`tracers/hooks.ts`), in tracing VMs;
 * 5. `transfers`: eth_simulateV1's log collector (`transfer-tracer.ts`).
 *
 * Each outer layer wraps the handlers the inner ones left, so a tracer sees the time-out guard's
 * pauses as part of the opcode and every wrapper calls the faster handler. A layer applied out
 * of order or twice to one table is a bug in the node and throws. The table is a private member
 * of the EVM (`_opcodeMap`): where @ethereumjs/evm's version is not a verified one, adding a layer
 * refuses (the feature that asked for it answers with the reason).
 */
import { patchOpcodeTable } from './fast-opcodes.js'
import { requireVerifiedEvm } from './frames.js'
import { forgetGasPlan } from './gas-plan.js'
import { isFast } from './install.js'

/** The layers of an opcode table, inside out. */
export const OPCODE_LAYERS = ['fast', 'timeout', 'gaswatch', 'tracer', 'transfers'] as const

/** A layer an outer module adds (the fast handlers are added by every call). */
export type OpcodeLayer = Exclude<(typeof OPCODE_LAYERS)[number], 'fast'>

/** The outermost layer each table has. */
const outermost = new WeakMap<object, number>()

/**
 * Adds `layer` to `evm`'s opcode table: first the fast handlers (once, where the EVM runs the
 * fast paths), then `wrap`, which replaces entries of the table with wrappers of theirs.
 */
export function layerOpcodeTable<Entry>(evm: unknown, layer: OpcodeLayer, wrap: (table: Entry[]) => void): void {
  requireVerifiedEvm(`the ${layer} layer of the opcode table`)
  const table = (evm as { _opcodeMap: Entry[] })._opcodeMap
  const index = OPCODE_LAYERS.indexOf(layer)
  const current = outermost.get(table) ?? 0
  if (index <= current) {
    throw new Error(`opcode layer '${layer}' added after '${OPCODE_LAYERS[current]}': the order is ${OPCODE_LAYERS.join(', ')}, each once`)
  }
  if (isFast(evm)) patchOpcodeTable(table)
  wrap(table)
  forgetGasPlan(table)
  outermost.set(table, index)
}

/**
 * A layer's entry, made with the fields in the order of the library's own entries
 * (`{ opcodeInfo, opHandler, gasHandler }`): one hidden class for every entry of every table. An
 * entry made by a spread (`{ ...entry, opHandler }`) or with its fields in another order has a
 * hidden class of its own, and the interpreter loop, which reads every entry at one site, threw
 * its compiled code away ("wrong map") when the first of them reached it after its compile (a
 * call VM's guarded JUMP, in OpenZeppelin's replay).
 */
export function opcodeEntry<E extends { opcodeInfo: unknown; opHandler: unknown; gasHandler: unknown }>(
  opcodeInfo: E['opcodeInfo'],
  opHandler: E['opHandler'],
  gasHandler: E['gasHandler'],
): E {
  return { opcodeInfo, opHandler, gasHandler } as E
}

/** The fields of the library's opcode information (`Opcode`) its constructor takes. */
interface OpcodeFields {
  code: number
  name: string
  fullName: string
  fee: number
  isAsync: boolean
  dynamicGas: boolean
}

/**
 * `info` (an entry's `opcodeInfo`, an instance of the library's frozen `Opcode` class) with
 * `isAsync` set, made by its own class: the same fields, the same hidden class.
 */
export function asyncOpcodeInfo<I>(info: I): I {
  const fields = info as unknown as OpcodeFields
  const Info = (info as { constructor: new (fields: OpcodeFields) => I }).constructor
  return new Info({ code: fields.code, name: fields.name, fullName: fields.fullName, fee: fields.fee, isAsync: true, dynamicGas: fields.dynamicGas })
}
