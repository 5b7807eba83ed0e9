/**
 * The BFT engine: for each height, the validators run Tendermint's rounds (propose → prevote →
 * precommit, `tendermint/`) over the in-process message bus; a block commits when validators
 * holding more than 2/3 of the voting power precommit it, and their signed precommits are its
 * commit certificate. With more than 1/3 of the power faulty no height is decided: the chain
 * halts until the faults are healed.
 *
 * One validator with no fault configured is the direct path: its own precommit is a quorum, so
 * the height is decided at once, its precommit signed when first read (a chain that mines
 * thousands of blocks at once signs none it is not asked for). {@link verifyCertificate} checks
 * any certificate independently against the set of its height.
 */
import { KeepAliveSwitch, systemClock, type Clock } from '../clock.js'
import { equalBytes, type Hex } from '../hex.js'
import { EvidenceStore } from './evidence.js'
import type { ConsensusEvent } from './tendermint/events.js'
import { FaultPlan, type FaultView } from './tendermint/faults.js'
import { HeightRun } from './tendermint/network.js'
import { HeightSet } from './tendermint/round-set.js'
import { DEFAULT_TIMEOUTS, type ConsensusTime, type Timeouts } from './tendermint/timeouts.js'
import { ValidatorHistory } from './validator-history.js'
import { signBytes, Step, type CommitCertificate } from './votes.js'
import { verifySignature } from './keys.js'
import type { Validator } from './validator.js'

/** A decided height; the proposal's signature is made if someone asks for it (nobody keeps it). */
class Decided<C extends Candidate> implements Decision<C> {
  private signed: Uint8Array | undefined

  constructor(
    readonly candidate: C,
    readonly certificate: CommitCertificate,
    private readonly proposer: Validator,
    private readonly chainId: bigint,
  ) {}

  get proposalSignature(): Uint8Array {
    const c = this.certificate
    return (this.signed ??= this.proposer.sign(signBytes(Step.Proposal, this.chainId, c.height, c.round, c.blockHash)))
  }
}

/**
 * One validator's precommit, signed on the first read of `signature`. A class, not a closure per
 * vote: a chain keeps every block's certificate, and a closure with its context cost more memory
 * than the 64-byte signature it stands for.
 */
class Precommit {
  readonly validator: Validator['address']
  private signed: Uint8Array | undefined

  constructor(
    private readonly signer: Validator,
    private readonly chainId: bigint,
    private readonly height: bigint,
    private readonly round: number,
    private readonly blockHash: Uint8Array,
  ) {
    this.validator = signer.address
  }

  get signature(): Uint8Array {
    return (this.signed ??= this.signer.sign(signBytes(Step.Precommit, this.chainId, this.height, this.round, this.blockHash)))
  }
}

/** The validators of one height and their voting power. */
export class ValidatorSet {
  readonly validators: readonly Validator[]
  readonly totalPower: bigint

  private readonly byAddressMap: Map<string, Validator>

  constructor(validators: readonly Validator[]) {
    if (validators.length === 0) throw new Error('the validator set is empty')
    this.validators = [...validators].sort((a, b) => (a.address < b.address ? -1 : 1))
    this.totalPower = this.validators.reduce((sum, v) => sum + v.power, 0n)
    this.byAddressMap = new Map(this.validators.map((v) => [v.address, v]))
  }

  /** More than 2/3 of the total voting power. */
  isQuorum(power: bigint): boolean {
    return power * 3n > this.totalPower * 2n
  }

  byAddress(address: string): Validator | undefined {
    return this.byAddressMap.get(address)
  }
}

/** What a round's proposer offers: a candidate block, by hash. */
export interface Candidate {
  hash: Uint8Array
}

/** The outcome of a decided height. */
export interface Decision<C extends Candidate> {
  candidate: C
  certificate: CommitCertificate
  proposalSignature: Uint8Array
}

/** How the validators' rounds run (several validators, or any fault). */
export interface ConsensusOptions {
  /** The node's clock: consensus time runs over it; with `time: 'clock'` time-outs and message delays are waited out on it. */
  clock?: Clock
  timeouts?: Timeouts
  /**
   * How time-outs and message delays pass (`tendermint/timeouts.ts`): `simulated`, on consensus
   * time, which jumps to the next one when nothing else can happen; `clock`, waited out on
   * `clock`. Default: `simulated`, or `clock` when a clock is given (its owner moves time).
   */
  time?: ConsensusTime
  /** Rounds after which a height is given up and the chain halts (until something changes). */
  maxRounds?: number
  /** Seed of the message bus's random choices. */
  seed?: number
  /** The last committed height (the set served as `set` is the next height's). */
  head?: () => bigint
}

export const DEFAULT_MAX_ROUNDS = 16

/** PrepareProposal for a round's proposer; `variant` 1 asks an equivocator's second, different block. */
export type ProposeFn<C extends Candidate> = (proposer: Validator, round: number, variant: number) => Promise<C>

export class BftEngine {
  /** The validators' faults and the partition (test controls), read-only: see {@link faultWriter}. */
  readonly faults: FaultView
  private readonly plan = new FaultPlan()
  private writerTaken = false
  readonly history: ValidatorHistory
  readonly evidence = new EvidenceStore()
  private readonly sets = new WeakMap<readonly Validator[], ValidatorSet>()
  private readonly listeners = new Set<(event: ConsensusEvent) => void>()
  private readonly clock: Clock
  private readonly timeouts: Timeouts
  private readonly time: ConsensusTime
  private readonly maxRounds: number
  private readonly seed: number
  private readonly head: () => bigint
  /** The height being decided by the validators' machines, and the last one. */
  private running: HeightRun<Candidate> | undefined
  /** The running height's clock, which keeps the process alive once someone waits on the height. */
  private runningClock: KeepAliveSwitch | undefined
  private lastRun: HeightRun<Candidate> | undefined

  constructor(
    private readonly chainId: bigint,
    validators: readonly Validator[] | ValidatorSet,
    options: ConsensusOptions = {},
  ) {
    this.faults = this.plan
    const list = validators instanceof ValidatorSet ? validators.validators : validators
    this.history = new ValidatorHistory(list, (options.head?.() ?? 0n) + 1n)
    this.clock = options.clock ?? systemClock
    this.timeouts = options.timeouts ?? DEFAULT_TIMEOUTS
    this.time = options.time ?? (options.clock === undefined ? 'simulated' : 'clock')
    this.maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS
    this.seed = options.seed ?? 1
    this.head = options.head ?? (() => 0n)
  }

  /**
   * The writable faults, handed once to their one writer (`ConsensusControls`, which checks each
   * change against the validator set and tells the producer); a second call throws.
   */
  faultWriter(): FaultPlan {
    if (this.writerTaken) throw new Error('the validator faults have one writer, and it has them already')
    this.writerTaken = true
    return this.plan
  }

  /** The round time-outs in force (ms). */
  get timeoutSettings(): Readonly<Timeouts> {
    return this.timeouts
  }

  /** How the time-outs pass: on consensus time (`simulated`) or on the node's clock. */
  get timeMode(): ConsensusTime {
    return this.time
  }

  /** The set of the next height. */
  get set(): ValidatorSet {
    return this.setAt(this.head() + 1n)
  }

  /** The set of `height`. */
  setAt(height: bigint): ValidatorSet {
    const members = this.history.at(height)
    let set = this.sets.get(members)
    if (set === undefined) this.sets.set(members, (set = new ValidatorSet(members)))
    return set
  }

  /** The proposer of `height` in `round` (CometBFT's weighted round-robin). */
  proposer(height: bigint, round: number): Validator {
    const members = this.history.at(height)
    if (members.length === 1) return members[0] as Validator
    return this.history.proposer(height, round)
  }

  /**
   * Why `height` cannot be decided with the faults as they are, known before any round runs
   * (offline or nil-voting validators leave no quorum, or no quorum group has a proposer), or
   * undefined when rounds may decide it.
   */
  haltReason(height: bigint): string | undefined {
    if (this.faults.calm) return undefined
    const set = this.setAt(height)
    return this.faults.haltReason(set.validators, (p) => set.isQuorum(p))
  }

  /** Whether a validator proposes and votes (is not offline). */
  isOnline(address: string): boolean {
    return this.faults.get(address as Hex).offline !== true
  }

  /** The chain went back to `head`: set changes past the first `setChanges` and later evidence go. */
  rewound(head: bigint, setChanges: number): void {
    this.history.truncate(setChanges)
    this.evidence.dropAbove(head)
  }

  /**
   * A caller now waits on the height under way (a request queued behind an interval block): its
   * time-outs and message delays keep the process alive from now on.
   */
  waitedOn(): void {
    this.runningClock?.keepAlive()
  }

  /**
   * Applies the validator updates the application returned for committed height `height`: they
   * make the set of `height` + 2, through the same path as the set-change controls. Each update
   * names a validator the set has had (the application adds none of its own).
   */
  applyValidatorUpdates(height: bigint, updates: ReadonlyArray<{ address: Hex; power: bigint }>): bigint {
    const changes = updates.map((u) => {
      const validator = this.history.known(u.address)
      if (validator === undefined) throw new Error(`the application updated validator ${u.address}, which consensus has never had`)
      return { validator, power: u.power }
    })
    return this.history.request(height, changes)
  }

  /** The faults or the partition changed: a height under way follows at once. */
  refresh(): void {
    this.running?.refresh()
  }

  /** Hears every consensus event (new round, proposal, vote, polka, lock, time-out, commit, evidence, halt, resume, faults). */
  subscribe(listener: (event: ConsensusEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * The producer tells that `height` could not be decided (`reason`: no quorum) or, after such a
   * halt, that a height committed again: the listeners hear it as a `halt` or `resume` event.
   */
  reportHalt(halted: boolean, height: bigint, reason = ''): void {
    this.tell(halted ? { type: 'halt', height, reason } : { type: 'resume', height })
  }

  /** The test controls changed the faults or the partition: the listeners hear those now in force. */
  reportFaults(): void {
    this.tell({ type: 'faults', faults: this.plan.entries(), partition: this.plan.partition })
  }

  private tell(event: ConsensusEvent): void {
    for (const l of this.listeners) {
      try {
        l(event)
      } catch {
        // A listener must not change the production it observes.
      }
    }
  }

  /** The height under way (or the last one run), for finality_getConsensusState. */
  get current(): { run: HeightRun<Candidate>; running: boolean } | undefined {
    if (this.running !== undefined) return { run: this.running, running: true }
    return this.lastRun === undefined ? undefined : { run: this.lastRun, running: false }
  }

  /**
   * Decides `height`. One validator with no fault configured decides at once, with its own
   * precommit (the direct path); otherwise every validator runs the Tendermint state machine over
   * the in-process message bus, and this resolves at the first decision or undefined when the
   * height is given up (the chain halts). `propose` is the application's PrepareProposal for a
   * round's proposer; `check` is its ProcessProposal, which validators run before they prevote
   * (a rejected proposal gets nil prevotes and the round moves on); `onRound` hears each new round.
   * `waited`: a caller waits on the decision, so the rounds' timers keep the process alive.
   */
  async decide<C extends Candidate>(
    height: bigint,
    propose: ProposeFn<C>,
    check: (candidate: C) => boolean | Promise<boolean> = () => true,
    onRound?: (round: number) => void,
    waited = false,
  ): Promise<Decision<C> | undefined> {
    const set = this.setAt(height)
    if (set.validators.length === 1 && this.faults.calm) {
      const proposer = set.validators[0] as Validator
      const candidate = await propose(proposer, 0, 0)
      // A synchronous check (the EVM application's) is not awaited: one promise less per block.
      const valid = check(candidate)
      if (!(typeof valid === 'boolean' ? valid : await valid)) return undefined
      const precommits: CommitCertificate['precommits'] = [new Precommit(proposer, this.chainId, height, 0, candidate.hash)]
      return new Decided(candidate, { height, round: 0, blockHash: candidate.hash, proposer: proposer.address, precommits }, proposer, this.chainId)
    }
    return this.decideByRounds(height, set, propose, async (candidate) => check(candidate), onRound, waited)
  }

  private async decideByRounds<C extends Candidate>(
    height: bigint,
    set: ValidatorSet,
    propose: ProposeFn<C>,
    check: (candidate: C) => Promise<boolean>,
    onRound?: (round: number) => void,
    waited = false,
  ): Promise<Decision<C> | undefined> {
    let highest = 0
    // A caller waits on this height (a send, a mine): its round time-outs and message delays keep
    // the process alive until it is decided or given up; an interval block's, once someone waits
    // behind it (`waitedOn`). Consensus time sets no timer on it at all.
    const clock = new KeepAliveSwitch(this.clock, waited)
    const run = new HeightRun<C>({
      height,
      set: new HeightSet(set.validators, this.history.prioritiesAt(height)),
      chainId: this.chainId,
      timeouts: this.timeouts,
      clock,
      time: this.time,
      plan: this.faults,
      seed: (this.seed + Number(height % 0x7fffffffn)) >>> 0,
      maxRounds: this.maxRounds,
      propose,
      check,
      onEvent: (event) => {
        if (event.type === 'newRound' && event.round > highest) {
          highest = event.round
          onRound?.(event.round)
        }
        if (event.type === 'evidence' && !this.evidence.add(event.evidence)) return
        for (const l of this.listeners) {
          try {
            l(event)
          } catch {
            // A listener must not change the height it observes.
          }
        }
      },
    })
    this.running = run as unknown as HeightRun<Candidate>
    this.runningClock = clock
    let outcome
    try {
      outcome = await run.start()
    } finally {
      this.running = undefined
      this.runningClock = undefined
      this.lastRun = run as unknown as HeightRun<Candidate>
    }
    if (outcome === undefined) return undefined
    const proposer = set.byAddress(outcome.proposer) as Validator
    const precommits = outcome.precommits.map((p) => ({ validator: p.validator, signature: p.signature }))
    return new Decided(outcome.value, { height, round: outcome.round, blockHash: outcome.value.hash, proposer: proposer.address, precommits }, proposer, this.chainId)
  }
}

/**
 * Checks a certificate on its own: every precommit signature is valid for this chain, height,
 * round and block, no validator counts twice, and the signers hold more than 2/3 of the power.
 */
export function verifyCertificate(
  certificate: CommitCertificate,
  set: ValidatorSet,
  chainId: bigint,
  blockHash: Uint8Array,
): boolean {
  if (!equalBytes(certificate.blockHash, blockHash)) return false
  const message = signBytes(Step.Precommit, chainId, certificate.height, certificate.round, certificate.blockHash)
  const seen = new Set<string>()
  let power = 0n
  for (const p of certificate.precommits) {
    const validator = set.byAddress(p.validator)
    if (validator === undefined || seen.has(p.validator)) return false
    if (!verifySignature(validator.publicKey, message, p.signature)) return false
    seen.add(p.validator)
    power += validator.power
  }
  return set.isQuorum(power)
}
