/**
 * One height decided by the validators' state machines over the message bus: starts a machine
 * per validator, carries their messages, runs their time-outs (waited out on the clock, or on
 * consensus time: jumped to once nothing else can happen), asks the
 * application for the proposer's value and for each proposal's validity, and applies the faults
 * of the plan (offline validators neither run nor hear; silent ones send no proposal; nil voters
 * vote nil; equivocators sign two different proposals and votes in each round; delays). It ends
 * at the first decision; or with none when a round limit passes, when nothing can move any more
 * (no message queued or in flight, no time-out set), or when a round went by and the faults leave
 * no quorum able to vote for a block: the chain halts until the faults change.
 *
 * The host of the machines: it performs their effects. A machine's messages are unsigned; this
 * signs each with the validator's key before it goes on the bus, and checks the signature of
 * each message before the receiving machine hears it (a bad one is dropped and counted).
 */
import { EventClock, type Clock } from '../../clock.js'
import { fromHex, type Hex } from '../../hex.js'
import type { Validator } from '../validator.js'
import { MessageBus, type BusConditions } from './bus.js'
import type { ConsensusEvent } from './events.js'
import type { FaultView } from './faults.js'
import { HeightMachine, type Output } from './machine.js'
import { valueId, type ProposalMessage, type UnsignedProposal, type UnsignedVote, type Value, type ValueId, type VoteMessage } from './messages.js'
import { sign, signProposal, signVote, verifyMessage } from './signing.js'
import type { HeightSet } from './round-set.js'
import { timeoutFor, type ConsensusTime, type TimeoutStep, type Timeouts } from './timeouts.js'
import type { DuplicateVoteEvidence } from './vote-set.js'

/** A value no proposer offered: what an equivocator's second vote names. */
const PHANTOM = fromHex('0x' + 'ee'.repeat(32))

export interface HeightRunOptions<V extends Value> {
  height: bigint
  set: HeightSet
  chainId: bigint
  timeouts: Timeouts
  clock: Clock
  /**
   * `simulated`: time-outs and message delays are events of an {@link EventClock} over `clock`,
   * run as soon as nothing else can happen; `clock` (the default here): timers of `clock`.
   */
  time?: ConsensusTime
  plan: FaultView
  seed: number
  /** Rounds after which the height is given up (the chain halts until something changes). */
  maxRounds: number
  /** PrepareProposal for `proposer` in `round`; `variant` 1 is an equivocator's second block. */
  propose(proposer: Validator, round: number, variant: number): Promise<V>
  /** ProcessProposal: deterministic, so one answer serves every validator of the process. */
  check(value: V): Promise<boolean>
  /** Frees a value nobody decided. */
  discard?(value: V): void
  onEvent?(event: ConsensusEvent): void
  /** Extra bus conditions (a schedule's loss and jitter), on top of the plan's. */
  extra?: Partial<BusConditions>
  /** Keep running after the first decision until every running validator decided (tests). */
  untilAll?: boolean
  /**
   * Keep waiting when nothing can move or the faults leave no quorum (tests that heal the network
   * later on the same run); by default the height is given up then, and the node starts it again
   * after a heal.
   */
  waitWhenStuck?: boolean
}

export interface HeightOutcome<V extends Value> {
  round: number
  value: V
  proposer: Hex
  precommits: VoteMessage[]
  /** What each validator decided (several with `untilAll`). */
  decisions: Map<Hex, { round: number; value: V }>
}

type Item<V extends Value> =
  | { kind: 'message'; to: Hex; message: ProposalMessage<V> | VoteMessage }
  | { kind: 'timeout'; to: Hex; step: TimeoutStep; round: number }
  | { kind: 'start'; to: Hex }

export class HeightRun<V extends Value> {
  private readonly machines = new Map<Hex, HeightMachine<V>>()
  private readonly queue: Item<V>[] = []
  private readonly timers = new Set<() => void>()
  private readonly validity = new Map<ValueId, Promise<boolean>>()
  private readonly values = new Map<ValueId, V>()
  private readonly bus: MessageBus<ProposalMessage<V> | VoteMessage>
  /** The time-outs' and deliveries' clock: `o.clock`, or consensus time over it. */
  private readonly clock: Clock
  private readonly events: EventClock | undefined
  private readonly evidenceSeen = new Set<string>()
  readonly evidence: DuplicateVoteEvidence[] = []
  /** Messages dropped for a bad signature (by this host) or sender or height (by the machines). */
  rejected = 0
  private outcome: HeightOutcome<V> | undefined
  private decider: Hex | undefined
  /** Decided: the queue drains, no time-out fires, then the height ends. */
  private committing = false
  private finished = false
  private pumping = false
  private settle!: (outcome: HeightOutcome<V> | undefined) => void
  private fail!: (error: unknown) => void
  readonly done: Promise<HeightOutcome<V> | undefined>

  constructor(private readonly o: HeightRunOptions<V>) {
    this.done = new Promise((resolve, reject) => {
      this.settle = resolve
      this.fail = reject
    })
    this.events = o.time === 'simulated' ? new EventClock(o.clock) : undefined
    this.clock = this.events ?? o.clock
    this.bus = new MessageBus(this.clock, o.seed, (to, message) => this.enqueue({ kind: 'message', to, message }), this.conditions())
  }

  get height(): bigint {
    return this.o.height
  }

  /** Starts every validator that is not offline. */
  start(): Promise<HeightOutcome<V> | undefined> {
    for (const v of this.o.set.validators) {
      if (this.o.plan.get(v.address).offline === true) continue
      this.machines.set(v.address, new HeightMachine<V>(v.address, this.o.height, this.o.set))
      this.queue.push({ kind: 'start', to: v.address })
    }
    void this.pump()
    return this.done
  }

  /** The faults or partition changed: the bus follows, validators back online start. */
  refresh(): void {
    if (this.finished) return
    this.bus.setConditions(this.conditions())
    for (const v of this.o.set.validators) {
      if (this.machines.has(v.address) || this.o.plan.get(v.address).offline === true) continue
      this.machines.set(v.address, new HeightMachine<V>(v.address, this.o.height, this.o.set))
      this.enqueue({ kind: 'start', to: v.address })
    }
  }

  /** The state of each running validator. */
  states(): Array<{ validator: Hex; machine: HeightMachine<V> }> {
    return [...this.machines].map(([validator, machine]) => ({ validator, machine }))
  }

  get busStats(): MessageBus<unknown>['stats'] {
    return this.bus.stats
  }

  /** Stops: timers cancelled, nothing more is delivered; the outcome (if any) stays. */
  stop(): void {
    if (this.finished) return
    this.finished = true
    for (const cancel of this.timers) cancel()
    this.timers.clear()
    this.bus.close()
    this.settle(this.outcome)
  }

  private conditions(): BusConditions {
    const base = this.o.plan.conditions()
    return { ...base, ...this.o.extra }
  }

  private enqueue(item: Item<V>): void {
    if (this.finished) return
    this.queue.push(item)
    void this.pump()
  }

  /** Drains the queue, one item at a time; one drain at a time. */
  private async pump(): Promise<void> {
    if (this.pumping) return
    this.pumping = true
    try {
      while (!this.finished && this.queue.length > 0) {
        const item = this.queue.shift() as Item<V>
        await this.handle(item)
      }
    } catch (error) {
      this.finished = true
      for (const cancel of this.timers) cancel()
      this.bus.close()
      this.fail(error)
    } finally {
      this.pumping = false
    }
    if (!this.finished && this.committing && this.queue.length === 0) {
      this.finish()
      return
    }
    if (this.finished || this.queue.length > 0) return
    // Consensus time: nothing queued and nothing awaited, so the next thing that can happen is
    // the earliest time-out or delayed delivery. Jump to it now rather than wait for it.
    // A delivery to a validator gone offline meanwhile queues nothing: jump on to the next.
    if (this.events !== undefined) {
      while (!this.finished && !this.pumping && this.queue.length === 0) if (!this.events.next()) break
      if (this.finished || this.pumping || this.queue.length > 0) return
    }
    // Nothing queued, no time-out set, nothing in flight: no validator can move until the
    // faults change. The height is given up (the chain halts) instead of waiting for ever.
    if (this.o.waitWhenStuck !== true && this.timers.size === 0 && this.bus.inFlight === 0) this.giveUp()
  }

  private async handle(item: Item<V>): Promise<void> {
    const m = this.machines.get(item.to)
    if (m === undefined) return
    if (item.kind === 'start') {
      await this.apply(item.to, m.start())
      return
    }
    if (item.kind === 'timeout') {
      if (m.round !== item.round || m.decision !== undefined) return
      this.o.onEvent?.({ type: 'timeout', height: this.o.height, round: item.round, validator: item.to, step: item.step })
      await this.apply(item.to, m.timeout(item.step, item.round))
      return
    }
    const message = item.message
    if (message.type === 'proposal') {
      const valid = await this.isValid(message.value)
      if (!this.signedBySender(message)) return
      await this.apply(item.to, m.receiveProposal(message, valid))
    } else {
      if (!this.signedBySender(message)) return
      await this.apply(item.to, m.receiveVote(message))
    }
  }

  /**
   * Whether a message carries its sender's signature; false drops and counts it. A sender outside
   * the set has no key to check against: its machine rejects it as a stranger.
   */
  private signedBySender(message: ProposalMessage<V> | VoteMessage): boolean {
    const member = this.o.set.member(message.type === 'proposal' ? message.proposer : message.validator)
    if (member === undefined || verifyMessage(this.o.chainId, message, member.publicKey)) return true
    this.rejected++
    return false
  }

  /** The key holder of a running validator. */
  private signer(address: Hex): Validator {
    return this.o.set.member(address) as Validator
  }

  private isValid(value: V): Promise<boolean> {
    const id = valueId(value.hash)
    let answer = this.validity.get(id)
    if (answer === undefined) this.validity.set(id, (answer = this.o.check(value)))
    return answer
  }

  private async apply(address: Hex, outputs: Output<V>[]): Promise<void> {
    const m = this.machines.get(address) as HeightMachine<V>
    const fault = this.o.plan.get(address)
    const h = this.o.height
    for (const out of outputs) {
      if (this.finished && !this.o.untilAll) return
      switch (out.kind) {
        case 'broadcast':
          await this.broadcast(this.signer(address), out.message)
          break
        case 'getValue': {
          // A silent proposer builds nothing; once decided, nobody needs a new block.
          if (fault.silent === true || this.committing) break
          const value = await this.o.propose(this.signer(address), out.round, 0)
          this.values.set(valueId(value.hash), value)
          await this.apply(address, m.proposeValue(out.round, value))
          break
        }
        case 'schedule': {
          if (this.committing) break
          const ms = timeoutFor(this.o.timeouts, out.step, out.round)
          const cancel = this.clock.setTimer(() => {
            this.timers.delete(cancel)
            this.enqueue({ kind: 'timeout', to: address, step: out.step, round: out.round })
          }, ms)
          this.timers.add(cancel)
          break
        }
        case 'decide':
          this.decided(address, out)
          break
        case 'newRound':
          this.o.onEvent?.({ type: 'newRound', height: h, round: out.round, validator: address, proposer: out.proposer })
          // A round went by undecided and the faults leave no quorum able to vote for a block:
          // more rounds cannot decide, the height is given up at once (the chain halts).
          if (out.round >= this.o.maxRounds || (out.round >= 1 && this.o.waitWhenStuck !== true && !this.o.plan.canDecide(this.o.set.validators, (p) => this.o.set.isQuorum(p)))) this.giveUp()
          break
        case 'polka':
          this.o.onEvent?.({ type: 'polka', height: h, round: out.round, validator: address, blockHash: out.id === '' ? null : fromHex(out.id) })
          break
        case 'lock':
          this.o.onEvent?.({ type: 'lock', height: h, round: out.round, validator: address, blockHash: fromHex(out.id) })
          break
        case 'evidence': {
          const e = out.evidence
          const key = `${e.validator}/${e.round}/${e.type}`
          if (!this.evidenceSeen.has(key)) {
            this.evidenceSeen.add(key)
            this.evidence.push(e)
            this.o.onEvent?.({ type: 'evidence', evidence: e })
          }
          break
        }
        case 'rejected':
          this.rejected++
          break
      }
    }
  }

  /** Signs a machine's message and sends it to every validator, as its fault makes it. */
  private async broadcast(self: Validator, message: UnsignedProposal<V> | UnsignedVote): Promise<void> {
    const fault = this.o.plan.get(self.address)
    const h = this.o.height
    const c = this.o.chainId
    if (message.type === 'proposal') {
      if (fault.silent === true) return
      this.o.onEvent?.({ type: 'proposal', height: h, round: message.round, proposer: self.address, blockHash: message.value.hash, validRound: message.validRound })
      const signed = sign(self, c, message)
      if (fault.equivocate === true) {
        const other = await this.o.propose(self, message.round, 1)
        this.values.set(valueId(other.hash), other)
        this.split(self, signed, signProposal(self, c, h, message.round, message.validRound, other))
        return
      }
      for (const v of this.o.set.validators) this.bus.send(self.address, v.address, signed)
      return
    }
    const vote: UnsignedVote = fault.nil === true && message.blockHash !== null ? { ...message, blockHash: null } : message
    this.o.onEvent?.({ type: 'vote', height: h, round: vote.round, vote: vote.type, validator: self.address, blockHash: vote.blockHash })
    const signed = sign(self, c, vote)
    if (fault.equivocate === true) {
      this.split(self, signed, signVote(self, c, vote.type, h, vote.round, vote.blockHash === null ? PHANTOM : null))
      return
    }
    for (const v of this.o.set.validators) this.bus.send(self.address, v.address, signed)
  }

  /** An equivocator's two messages: half the validators hear `a` first, the other half `b`. */
  private split(self: Validator, a: ProposalMessage<V> | VoteMessage, b: ProposalMessage<V> | VoteMessage): void {
    this.o.set.validators.forEach((v, i) => {
      const [first, second] = v.address === self.address || i % 2 === 0 ? [a, b] : [b, a]
      this.bus.send(self.address, v.address, first)
      if (v.address !== self.address) this.bus.send(self.address, v.address, second)
    })
  }

  private decided(address: Hex, out: Extract<Output<V>, { kind: 'decide' }>): void {
    if (this.outcome === undefined) {
      this.outcome = { round: out.round, value: out.value, proposer: out.proposer, precommits: out.precommits, decisions: new Map() }
      this.decider = address
      this.o.onEvent?.({ type: 'commit', height: this.o.height, round: out.round, blockHash: out.value.hash, proposer: out.proposer })
      if (!this.o.untilAll) {
        // As CometBFT's commit time-out collects the precommits still coming, with no wait: the
        // messages already queued are delivered, then the height ends.
        this.committing = true
        for (const cancel of this.timers) cancel()
        this.timers.clear()
      }
    }
    this.outcome.decisions.set(address, { round: out.round, value: out.value })
    const running = [...this.machines.keys()].filter((a) => !this.o.plan.isFaulty(a))
    if (this.o.untilAll && running.every((a) => this.outcome?.decisions.has(a))) this.finish()
  }

  private finish(): void {
    const outcome = this.outcome
    const decider = this.decider === undefined ? undefined : this.machines.get(this.decider)
    if (outcome !== undefined && decider !== undefined) {
      // Every precommit for the decided value the decider holds by now.
      outcome.precommits = decider.votes('precommit', outcome.round)?.votesFor(valueId(outcome.value.hash)) ?? outcome.precommits
    }
    this.stop()
    for (const [id, value] of this.values) if (id !== valueId(this.outcome?.value.hash ?? new Uint8Array())) this.o.discard?.(value)
  }

  private giveUp(): void {
    if (this.outcome === undefined) this.finish()
  }
}
