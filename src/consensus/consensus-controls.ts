/**
 * Faults and validator-set changes on demand (the `finality_` controls and their JS API): each
 * checks its input against the validator set first and changes nothing when it refuses.
 * A change of the faults or the partition reaches a height under way at once; healing lets a
 * halted chain resume (automine mines what is pending).
 *
 * The one writer of the validators' faults: it holds the engine's writable plan (handed out
 * once), everything else reads `BftEngine.faults`, a read-only view.
 */
import { InvalidInput } from '../domain-errors.js'
import type { Hex } from '../hex.js'
import type { BftEngine } from './bft.js'
import type { Fault, FaultPlan } from './tendermint/faults.js'
import type { Validator } from './validator.js'

/** A fault, a heal or a partition names an address that is not in the next height's validator set. */
export class UnknownValidator extends InvalidInput {
  constructor(readonly address: string) {
    super(`unknown validator ${address}`)
  }
}

/** One requested change: a validator by address (or a new one by key index) and its new power (0 removes it). */
export interface ValidatorChange {
  address?: Hex
  /** A validator of this node's mnemonic by index (`finality/validator/<i>`), to add one. */
  index?: number
  power: bigint
}

export class ConsensusControls {
  private readonly faults: FaultPlan

  constructor(
    private readonly bft: BftEngine,
    /** Tells the producer: a height under way follows, a halted chain resumes. */
    private readonly changed: () => void,
    /** The validator of key index `i` (derived from the node's seed). */
    private readonly validatorAt: (index: number) => Validator,
    private readonly head: () => bigint,
    /** Why set changes on demand are refused (another owner sets the power), or undefined. */
    private readonly powerOwned?: string,
  ) {
    this.faults = bft.faultWriter()
  }

  /** Sets a validator's faults (replacing the ones it had); all off is a correct validator. */
  setFault(address: Hex, fault: Fault): void {
    const a = this.member(address)
    this.faults.set(a, fault)
    this.faultsChanged()
  }

  /**
   * Takes a validator offline or back online, its other faults kept (`node.setValidatorOnline`).
   * A validator back online lets a halted chain mine what is pending again.
   */
  setOnline(address: Hex, online: boolean): void {
    const a = this.member(address)
    this.faults.set(a, { ...this.faults.get(a), offline: !online })
    this.faultsChanged()
  }

  /** Heals one validator, or every validator and the partition. */
  heal(address?: Hex): void {
    if (address === undefined) this.faults.heal()
    else this.faults.heal(this.member(address))
    this.faultsChanged()
  }

  /**
   * Splits the validators into groups that cannot reach each other; validators left out of every
   * group form one more group together.
   */
  partition(groups: Hex[][]): void {
    const seen = new Set<Hex>()
    const clean = groups.map((g) =>
      g.map((address) => {
        const a = this.member(address)
        if (seen.has(a)) throw new InvalidInput(`validator ${address} is in two groups of the partition`)
        seen.add(a)
        return a
      }),
    )
    const rest = this.bft.set.validators.map((v) => v.address).filter((a) => !seen.has(a))
    if (rest.length > 0) clean.push(rest)
    const nonEmpty = clean.filter((g) => g.length > 0)
    this.faults.partition = nonEmpty.length > 1 ? nonEmpty : undefined
    this.faultsChanged()
  }

  /** Requests changes of the set; they take effect two heights after the head. Answers that height. */
  changeValidators(changes: ValidatorChange[]): bigint {
    if (this.powerOwned !== undefined) throw new InvalidInput(`finality_changeValidators is refused: ${this.powerOwned}`)
    if (changes.length === 0) throw new InvalidInput('no change requested')
    const resolved = changes.map((c) => {
      if (c.power < 0n) throw new InvalidInput(`power must not be negative, got ${c.power}`)
      if (c.index !== undefined) {
        const v = this.validatorAt(c.index)
        if (c.address !== undefined && c.address.toLowerCase() !== v.address) throw new InvalidInput(`validator index ${c.index} is ${v.address}, not ${c.address}`)
        return { validator: v, power: c.power }
      }
      if (c.address === undefined) throw new InvalidInput('a change names a validator by address or index')
      const known = this.known(c.address)
      if (known === undefined) throw new InvalidInput(`unknown validator ${c.address}: add a new one by its index`)
      return { validator: known, power: c.power }
    })
    try {
      const at = this.bft.history.request(this.head(), resolved)
      this.changed()
      return at
    } catch (error) {
      throw new InvalidInput((error as Error).message)
    }
  }

  /** Subscribers hear the faults now in force, then a height under way follows them. */
  private faultsChanged(): void {
    this.bft.reportFaults()
    this.changed()
  }

  /** The address of a member of the next height's set, or {@link UnknownValidator} (-32602). */
  private member(address: Hex): Hex {
    const a = address.toLowerCase() as Hex
    if (this.bft.set.byAddress(a) === undefined) throw new UnknownValidator(address)
    return a
  }

  /** A validator of any epoch. */
  private known(address: Hex): Validator | undefined {
    const a = address.toLowerCase()
    for (const e of [...this.bft.history.epochs].reverse()) {
      const v = e.validators.find((x) => x.address === a)
      if (v !== undefined) return v
    }
    return undefined
  }
}
