/**
 * A Cosmos EVM precompile as a table of ABI methods: the 4-byte selector picks the method, its
 * input is decoded, and a failure reverts with Solidity's `Error(string)` carrying the reason, as
 * Cosmos EVM's precompiles revert. A method that changes state refuses a static call and a
 * delegate call; none takes value.
 */
import type { MessagePrecompile, PrecompileAnswer, PrecompileCall } from '../execution/engine/precompiles.js'
import { AbiError, decode, encode, errorData, eventTopic, selector, type AbiValue } from './abi.js'

/** A precompile method refused its call: the revert reason. */
export class PrecompileRevert extends Error {}

/** An event a method emits: its signature, the indexed values (as 32-byte topics) and the data. */
export interface EmittedEvent {
  readonly signature: string
  readonly topics: readonly Uint8Array[]
  readonly data: Uint8Array
}

/** One method of a precompile. */
export interface PrecompileMethod {
  /** `name(type,…)`, as the selector is computed. */
  readonly signature: string
  readonly outputs: readonly string[]
  /** Changes state (refused in a static or delegate call). */
  readonly write: boolean
  /** Gas the method costs (flat: Cosmos EVM charges its store's reads and writes). */
  readonly gas: bigint
  run(args: AbiValue[], call: PrecompileCall): Promise<{ values: AbiValue[]; events?: EmittedEvent[] }>
}

/** The topic of an address (left-padded to 32 bytes). */
export function addressTopic(address: Uint8Array): Uint8Array {
  const out = new Uint8Array(32)
  out.set(address, 12)
  return out
}

function inputsOf(signature: string): string[] {
  const inner = signature.slice(signature.indexOf('(') + 1, -1)
  const out: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]
    if (c === '(') depth++
    else if (c === ')') depth--
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(start, i))
      start = i + 1
    }
  }
  if (inner.length > 0) out.push(inner.slice(start))
  return out
}

const revert = (gasUsed: bigint, message: string): PrecompileAnswer => ({ gasUsed, returnValue: errorData(message), reverted: true })

/** The precompile at `address` (unprefixed lower-case hex) serving `methods`. */
export function tablePrecompile(address: string, methods: readonly PrecompileMethod[]): MessagePrecompile {
  const bySelector = new Map(methods.map((m) => [selector(m.signature), { method: m, inputs: inputsOf(m.signature) }]))
  const target = new Uint8Array(20)
  target.set(Buffer.from(address, 'hex'))
  return {
    address,
    async run(call) {
      const id = Buffer.from(call.data.subarray(0, 4)).toString('hex')
      const entry = call.data.length >= 4 ? bySelector.get(id) : undefined
      if (entry === undefined) return revert(0n, `no method with id: 0x${id}`)
      const { method, inputs } = entry
      if (method.gas > call.gasLimit) return { gasUsed: method.gas, returnValue: new Uint8Array(0) }
      if (call.value !== 0n) return revert(method.gas, `${method.signature.split('(')[0]}: the precompile takes no value`)
      if (method.write && call.isStatic) return revert(method.gas, 'write protection: a static call cannot change state')
      if (method.write && call.delegatecall) return revert(method.gas, 'cannot delegatecall a precompile that changes state')
      let args: AbiValue[]
      try {
        args = decode(inputs, call.data.subarray(4))
      } catch (error) {
        if (error instanceof AbiError) return revert(method.gas, `invalid input for ${method.signature}: ${error.message}`)
        throw error
      }
      try {
        const { values, events } = await method.run(args, call)
        return {
          gasUsed: method.gas,
          returnValue: encode(method.outputs, values),
          logs: events?.map((e) => [target, [eventTopic(e.signature), ...e.topics], e.data]),
        }
      } catch (error) {
        if (error instanceof PrecompileRevert) return revert(method.gas, error.message)
        throw error
      }
    },
  }
}

/** A method Cosmos EVM serves that has no meaning here: it reverts with why. */
export function refused(signature: string, outputs: readonly string[], why: string): PrecompileMethod {
  return {
    signature,
    outputs,
    write: false,
    gas: 0n,
    run: () => Promise.reject(new PrecompileRevert(why)),
  }
}
