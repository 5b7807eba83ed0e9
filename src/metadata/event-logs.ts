/**
 * Event logs decoded with the ABIs the node holds (finality_decodeLogs): the event's name, its
 * signature and each argument by name, type and value. The emitting contract's own ABI is tried
 * first (when its code matched a known contract), then every known ABI declaring the log's first
 * topic (an event inherited, or emitted by a library). A log no known ABI decodes, an anonymous
 * event among them (it has no topic to know it by), is left undecoded: null, never a guess.
 */
import { keccak256 } from '../crypto/keccak.js'
import { data } from '../hex.js'
import { AbiDecodeError, decodeParameters, signature, type AbiItem, type AbiParameter, type AbiValue } from './abi.js'
import type { ContractMetadata } from './artifacts.js'
import type { ContractsSource } from './names.js'

/** A decoded argument's value as JSON: integers as decimal strings (exact), bytes as hex, arrays and tuples as arrays. */
export type AbiJson = string | boolean | readonly AbiJson[]

/** One argument of a decoded event. */
export interface DecodedArg {
  readonly name: string
  readonly type: string
  readonly indexed: boolean
  /** The value; for an indexed value of a dynamic type (string, bytes, array, tuple), the keccak-256 hash its topic holds. */
  readonly value: AbiJson
  /** True when `value` is that hash rather than the value. */
  readonly hashed?: true
}

/** A log decoded by an event of a known ABI. */
export interface DecodedEvent {
  readonly name: string
  readonly signature: string
  /** The contract whose ABI declared the event. */
  readonly declaredBy: string
  readonly args: readonly DecodedArg[]
}

/** A value as JSON (see {@link AbiJson}). */
export function abiJson(value: AbiValue): AbiJson {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'boolean' || typeof value === 'string') return value
  if (value instanceof Uint8Array) return data(value)
  return value.map(abiJson)
}

/** A type whose value fits its topic word (not a hash of it). */
function inTopic(p: AbiParameter): boolean {
  return !(p.type === 'string' || p.type === 'bytes' || p.type.endsWith(']') || p.type.startsWith('tuple'))
}

function topicOf(item: AbiItem): string {
  return Buffer.from(keccak256(new TextEncoder().encode(signature(item)))).toString('hex')
}

/** Decodes `item` from the log, or undefined when the log does not fit it (topic count, data). */
function decodeWith(item: AbiItem, declaredBy: string, topics: readonly Uint8Array[], logData: Uint8Array): DecodedEvent | undefined {
  const inputs = (item.inputs ?? []) as readonly AbiParameter[]
  if (inputs.filter((p) => p.indexed === true).length !== topics.length - 1) return undefined
  try {
    const plain = decodeParameters(inputs.filter((p) => p.indexed !== true), logData)
    let nextTopic = 1
    let nextPlain = 0
    const args = inputs.map((p, i): DecodedArg => {
      const base = { name: p.name === undefined || p.name === '' ? `arg${i}` : p.name, type: p.type, indexed: p.indexed === true }
      if (p.indexed !== true) return { ...base, value: abiJson(plain[nextPlain++]!) }
      const word = topics[nextTopic++]!
      return inTopic(p) ? { ...base, value: abiJson(decodeParameters([p], word)[0]!) } : { ...base, value: data(word), hashed: true }
    })
    return { name: item.name ?? '', signature: signature(item), declaredBy, args }
  } catch (error) {
    if (error instanceof AbiDecodeError) return undefined
    throw error
  }
}

interface Declared {
  readonly item: AbiItem
  readonly contract: ContractMetadata
}

/** The events of the known contracts by topic, rebuilt when contracts were added since the last question. */
export class EventDecoder {
  private byTopic = new Map<string, Declared[]>()
  private seen = -1

  constructor(private readonly source: ContractsSource) {}

  private table(): Map<string, Declared[]> {
    if (this.seen !== this.source.size) {
      this.byTopic = new Map()
      for (const contract of this.source.contracts()) {
        for (const item of contract.abi) {
          if (item.type !== 'event' || (item as { anonymous?: boolean }).anonymous === true) continue
          const key = topicOf(item)
          const list = this.byTopic.get(key)
          if (list === undefined) this.byTopic.set(key, [{ item, contract }])
          else list.push({ item, contract })
        }
      }
      this.seen = this.source.size
    }
    return this.byTopic
  }

  /** The log decoded, the emitter's ABI (`emitter`, when its code matched) first; null when no known ABI decodes it. */
  decode(topics: readonly Uint8Array[], logData: Uint8Array, emitter?: ContractMetadata): DecodedEvent | null {
    const topic = topics[0]
    if (this.source.size === 0 || topic === undefined) return null
    const candidates = this.table().get(Buffer.from(topic).toString('hex')) ?? []
    const ordered = emitter === undefined ? candidates : [...candidates.filter((c) => c.contract === emitter), ...candidates.filter((c) => c.contract !== emitter)]
    for (const c of ordered) {
      const decoded = decodeWith(c.item, c.contract.name, topics, logData)
      if (decoded !== undefined) return decoded
    }
    return null
  }
}
