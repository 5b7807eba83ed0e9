/**
 * Custom errors and events by name for the node's log: revert data and event logs read with the
 * ABIs of every contract the node knows (whichever contract emitted or reverted), written as
 * Hardhat writes a custom error: `Name(arg, …)`. Made only when the log asks and the node holds
 * metadata; an error or event no known ABI declares is left to the caller's fallback (its selector).
 */
import { keccak256 } from '../crypto/keccak.js'
import { AbiDecodeError, decodeParameters, formatValue, selectorOf, signature, type AbiItem, type AbiParameter } from './abi.js'
import type { ContractMetadata } from './artifacts.js'

/** What the names are read from: the registry's contracts. */
export interface ContractsSource {
  readonly size: number
  contracts(): readonly ContractMetadata[]
}

/** Custom errors by selector and events by topic, from the contracts known when first asked. */
export class AbiNames {
  private errors: Map<string, AbiItem> | undefined
  private events: Map<string, AbiItem> | undefined
  private seen = -1

  constructor(private readonly source: ContractsSource) {}

  /** True when there is metadata to read names from. */
  get active(): boolean {
    return this.source.size > 0
  }

  /** Rebuilt when contracts were added since the last question. */
  private tables(): { errors: Map<string, AbiItem>; events: Map<string, AbiItem> } {
    if (this.errors === undefined || this.events === undefined || this.seen !== this.source.size) {
      this.errors = new Map()
      this.events = new Map()
      for (const c of this.source.contracts()) {
        for (const item of c.abi) {
          if (item.type === 'error') this.errors.set(selectorOf(item), item)
          else if (item.type === 'event' && (item as { anonymous?: boolean }).anonymous !== true) {
            this.events.set(Buffer.from(keccak256(new TextEncoder().encode(signature(item)))).toString('hex'), item)
          }
        }
      }
      this.seen = this.source.size
    }
    return { errors: this.errors, events: this.events }
  }

  /** `Name(args)` of the custom error `revertData` encodes, when a known ABI declares it. */
  error(revertData: Uint8Array): string | undefined {
    if (this.source.size === 0 || revertData.length < 4) return undefined
    const item = this.tables().errors.get(Buffer.from(revertData.subarray(0, 4)).toString('hex'))
    if (item === undefined) return undefined
    try {
      return `${item.name}(${decodeParameters(item.inputs ?? [], revertData.subarray(4)).map(formatValue).join(', ')})`
    } catch (error) {
      if (error instanceof AbiDecodeError) return undefined
      throw error
    }
  }

  /**
   * `Name(args)` of an event log, when a known ABI declares its first topic. An indexed value of
   * a dynamic type is only its hash in the topic: written as that hash.
   */
  event(topics: readonly Uint8Array[], logData: Uint8Array): string | undefined {
    const topic = topics[0]
    if (this.source.size === 0 || topic === undefined) return undefined
    const item = this.tables().events.get(Buffer.from(topic).toString('hex'))
    if (item === undefined) return undefined
    const inputs = (item.inputs ?? []) as readonly AbiParameter[]
    try {
      const plain = decodeParameters(inputs.filter((p) => p.indexed !== true), logData)
      let nextTopic = 1
      let nextPlain = 0
      const values = inputs.map((p) => {
        if (p.indexed !== true) return formatValue(plain[nextPlain++]!)
        const word = topics[nextTopic++]
        if (word === undefined) throw new AbiDecodeError('fewer topics than indexed parameters')
        return isStatic(p) ? formatValue(decodeParameters([p], word)[0]!) : formatValue(word)
      })
      if (nextTopic !== topics.length) return undefined
      return `${item.name}(${values.join(', ')})`
    } catch (error) {
      if (error instanceof AbiDecodeError) return undefined
      throw error
    }
  }
}

/** A type whose value fits its topic word (not a hash of it). */
function isStatic(p: AbiParameter): boolean {
  return !(p.type === 'string' || p.type === 'bytes' || p.type.endsWith(']') || p.type.startsWith('tuple'))
}
