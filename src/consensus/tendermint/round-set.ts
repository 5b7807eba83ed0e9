/**
 * The validator set of one height as a state machine needs it: each member's power and key, the
 * thresholds, and the proposer of each round (CometBFT's priorities, advanced once per round).
 */
import type { Hex } from '../../hex.js'
import type { Validator } from '../validator.js'
import { ProposerPriorities } from './proposer.js'

export class HeightSet {
  readonly totalPower: bigint
  private readonly byAddress: Map<Hex, Validator>
  private readonly proposers: Hex[] = []
  private readonly cursor: ProposerPriorities

  /**
   * `priorities`: the set's priorities before height `h`'s election (the proposer of round 0 is
   * the next election's winner; each later round is one election more).
   */
  constructor(
    readonly validators: readonly Validator[],
    priorities: ProposerPriorities,
  ) {
    this.byAddress = new Map(validators.map((v) => [v.address, v]))
    this.totalPower = validators.reduce((s, v) => s + v.power, 0n)
    this.cursor = priorities.clone()
  }

  member(address: Hex): Validator | undefined {
    return this.byAddress.get(address)
  }

  proposer(round: number): Hex {
    while (this.proposers.length <= round) this.proposers.push(this.cursor.increment(1).address)
    return this.proposers[round] as Hex
  }

  /** More than 2/3 of the power. */
  isQuorum(power: bigint): boolean {
    return power * 3n > this.totalPower * 2n
  }

  /** More than 1/3 of the power (at least one correct validator among them). */
  isOneThird(power: bigint): boolean {
    return power * 3n > this.totalPower
  }
}
