/**
 * finality_decodeLogs: a transaction's logs decoded with the contract metadata the node holds
 * (createNode's `artifacts`, `node.addArtifacts`, `--artifacts`, hardhat_addCompilationResult):
 * the emitting contract by name where its code matched a known contract, and the event with its
 * arguments by name where a known ABI declares it. What the node does not know stays null.
 */
import { Refused } from '../domain-errors.js'
import { keyOf, quantity, data } from '../hex.js'
import { EventDecoder } from '../metadata/event-logs.js'
import type { ContractMetadata } from '../metadata/artifacts.js'
import type { ContractRegistry } from '../metadata/registry.js'
import { hash } from './codecs.js'
import { type MethodTable, methodsOf, type Ports } from './method.js'

/** The services this method reads: the chain's transactions and state, the failures' contract registry. */
type Here = Ports<'chain' | 'failures'>
const method = methodsOf<keyof Here>()

/** One decoder per registry: its event table is kept between calls. */
const decoders = new WeakMap<ContractRegistry, EventDecoder>()

function decoderOf(registry: ContractRegistry): EventDecoder {
  let decoder = decoders.get(registry)
  if (decoder === undefined) decoders.set(registry, (decoder = new EventDecoder(registry)))
  return decoder
}

/**
 * The state after the transaction's block; undefined where the chain keeps no state of that
 * block (a fork whose remote answers no proofs keeps only the head's): the emitters then stay
 * unnamed, the events are still decoded.
 */
function stateOf(s: Here, block: Parameters<Here['chain']['stateAt']>[0]): ReturnType<Here['chain']['stateAt']> | undefined {
  try {
    return s.chain.stateAt(block)
  } catch (error) {
    if (error instanceof Refused) return undefined
    throw error
  }
}

export const finalityLogs: MethodTable = {
  /**
   * The logs of a committed transaction, in the receipt's order: `{ contractsKnown, logs: [{
   * logIndex, address, contract, event }] }`, `contract` the name of the contract whose deployed
   * code is at the address (at the transaction's block), `event` `{ name, signature,
   * declaredBy, args: [{ name, type, indexed, value }] }`; null for a transaction the chain
   * does not hold.
   */
  finality_decodeLogs: method({
    params: [hash],
    run: async (s, [txHash]) => {
      const found = await s.chain.transaction(txHash)
      if (found === undefined) return null
      const registry = s.failures.registry
      const emitters = new Map<string, ContractMetadata | undefined>()
      if (registry.size > 0 && found.receipt.logs.length > 0) {
        const state = stateOf(s, found.block)
        if (state !== undefined) try {
          for (const [address] of found.receipt.logs) {
            const key = keyOf(address)
            if (!emitters.has(key)) emitters.set(key, registry.match(await state.getCode(key), true))
          }
        } finally {
          state.close()
        }
      }
      let first = 0
      for (let i = 0; i < found.index; i++) first += found.receipts[i]!.logs.length
      const decoder = decoderOf(registry)
      return {
        contractsKnown: quantity(registry.size),
        logs: found.receipt.logs.map(([address, topics, payload], i) => {
          const emitter = emitters.get(keyOf(address))
          return {
            logIndex: quantity(first + i),
            address: data(address),
            contract: emitter?.name ?? null,
            event: decoder.decode(topics, payload, emitter),
          }
        }),
      }
    },
  }),
}
