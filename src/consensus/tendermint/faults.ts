/** The faults a validator can be given on demand, and how they combine into bus conditions. */
import type { Hex } from '../../hex.js'
import { InvalidInput } from '../../domain-errors.js'
import { CALM, type BusConditions } from './bus.js'

/** One validator's misbehaviour; all off is a correct validator. */
export interface Fault {
  /** Neither proposes nor votes, receives nothing. */
  offline?: boolean
  /** Never sends a proposal (votes as usual). */
  silent?: boolean
  /** Prevotes and precommits nil, whatever it saw. */
  nil?: boolean
  /** Signs two different proposals, and two different votes, in each round (a Byzantine validator). */
  equivocate?: boolean
  /** Its messages arrive this many ms late. */
  delay?: number
}

export const FAULT_KINDS = ['offline', 'silent', 'nil', 'equivocate', 'delay'] as const

/** Checks a fault given by a caller (`maxDelay`: the `faultDelayMs` limit); the error names what is wrong. */
export function checkFault(value: unknown, maxDelay: number): Fault {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidInput('a fault is an object { offline?, silent?, nil?, equivocate?, delay? }')
  const out: Fault = {}
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'delay') {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > maxDelay) {
        throw new InvalidInput(`fault delay must be an integer number of ms from 0 to ${maxDelay} (the faultDelayMs limit), got ${JSON.stringify(v)}`)
      }
      out.delay = v
    } else if (key === 'offline' || key === 'silent' || key === 'nil' || key === 'equivocate') {
      if (typeof v !== 'boolean') throw new InvalidInput(`fault ${key} must be true or false, got ${JSON.stringify(v)}`)
      out[key] = v
    } else {
      throw new InvalidInput(`unknown fault ${JSON.stringify(key)}; known: ${FAULT_KINDS.join(', ')}`)
    }
  }
  return out
}

/**
 * The faults as their readers see them (the engine, the network, the RPC handlers): nothing here
 * writes. The node has one writer, `ConsensusControls`, which alone holds the {@link FaultPlan}.
 */
export interface FaultView {
  /** The faults of `address` (none: `{}`). */
  get(address: Hex): Readonly<Fault>
  /** The faulty validators and their faults. */
  entries(): Array<[Hex, Readonly<Fault>]>
  /** The groups of the partition in force, or undefined. */
  readonly partition: ReadonlyArray<readonly Hex[]> | undefined
  readonly calm: boolean
  isFaulty(address: Hex): boolean
  canDecide(validators: ReadonlyArray<{ address: Hex; power: bigint }>, isQuorum: (power: bigint) => boolean): boolean
  haltReason(validators: ReadonlyArray<{ address: Hex; power: bigint }>, isQuorum: (power: bigint) => boolean): string | undefined
  conditions(): BusConditions
}

/** Faults per validator and the partition, as the node keeps them between heights. */
export class FaultPlan implements FaultView {
  private readonly faults = new Map<Hex, Fault>()
  partition: Hex[][] | undefined

  get(address: Hex): Fault {
    return this.faults.get(address) ?? {}
  }

  set(address: Hex, fault: Fault): void {
    const clean: Fault = {}
    if (fault.offline === true) clean.offline = true
    if (fault.silent === true) clean.silent = true
    if (fault.nil === true) clean.nil = true
    if (fault.equivocate === true) clean.equivocate = true
    if (fault.delay !== undefined && fault.delay > 0) clean.delay = fault.delay
    if (Object.keys(clean).length === 0) this.faults.delete(address)
    else this.faults.set(address, clean)
  }

  /** Heals one validator, or every validator and the partition. */
  heal(address?: Hex): void {
    if (address !== undefined) {
      this.faults.delete(address)
      return
    }
    this.faults.clear()
    this.partition = undefined
  }

  /** True when nothing is configured: the network is calm and every validator correct. */
  get calm(): boolean {
    return this.faults.size === 0 && this.partition === undefined
  }

  entries(): Array<[Hex, Fault]> {
    return [...this.faults]
  }

  /** Whether `address` is faulty in any way (a partition aside). */
  isFaulty(address: Hex): boolean {
    return this.faults.has(address)
  }

  /**
   * Whether validators able to vote for a block (neither offline nor nil voters), all in one group
   * of the partition with one of them that proposes (not silent), can hold more than 2/3 of the
   * power: if not, no round can decide until the faults change.
   */
  canDecide(validators: ReadonlyArray<{ address: Hex; power: bigint }>, isQuorum: (power: bigint) => boolean): boolean {
    return this.haltReason(validators, isQuorum) === undefined
  }

  /**
   * Why no round can decide with these faults, known from the plan alone (before any round runs),
   * or undefined when a round may decide: which validators are offline, vote nil or stay silent,
   * the power able to vote for a block, and the power a quorum needs.
   */
  haltReason(validators: ReadonlyArray<{ address: Hex; power: bigint }>, isQuorum: (power: bigint) => boolean): string | undefined {
    if (this.calm) return undefined
    const able = validators.filter((v) => {
      const f = this.get(v.address)
      return f.offline !== true && f.nil !== true
    })
    const groups = this.partition === undefined ? [able] : this.partition.map((g) => able.filter((v) => g.includes(v.address)))
    const power = (g: ReadonlyArray<{ power: bigint }>) => g.reduce((sum, v) => sum + v.power, 0n)
    const proposes = (g: ReadonlyArray<{ address: Hex }>) => g.some((v) => this.get(v.address).silent !== true)
    if (groups.some((g) => isQuorum(power(g)) && proposes(g))) return undefined
    const total = power(validators)
    const named = (kind: 'offline' | 'nil' | 'silent') => validators.filter((v) => this.get(v.address)[kind] === true).map((v) => v.address)
    const parts: string[] = []
    for (const [kind, label] of [['offline', 'offline'], ['nil', 'voting nil'], ['silent', 'silent (never proposing)']] as const) {
      const list = named(kind)
      if (list.length > 0) parts.push(`${label}: ${list.join(', ')}`)
    }
    const best = groups.reduce((max, g) => (power(g) > max ? power(g) : max), 0n)
    const where = this.partition === undefined ? 'validators able to vote for a block hold' : `the largest group of the partition (${this.partition.length} groups) able to vote for a block holds`
    const quorum = isQuorum(best) ? 'but none of them proposes' : 'and a block needs more than 2/3 of it'
    return `${where} ${best} of ${total} voting power, ${quorum}${parts.length === 0 ? '' : `; ${parts.join('; ')}`}`
  }

  conditions(): BusConditions {
    if (this.calm) return CALM
    const offline = new Set<Hex>()
    const delay = new Map<Hex, number>()
    for (const [a, f] of this.faults) {
      if (f.offline === true) offline.add(a)
      if (f.delay !== undefined) delay.set(a, f.delay)
    }
    return { offline, delay, partition: this.partition?.map((g) => new Set(g)), lossRate: 0, jitter: 0 }
  }
}
