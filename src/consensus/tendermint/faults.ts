/** The faults a validator can be given on demand, and how they combine into bus conditions. */
import type { Hex } from '../../hex.js'
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

/** Faults per validator and the partition, as the node keeps them between heights. */
export class FaultPlan {
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
