/**
 * One validator's Tendermint state machine for one height, as in "The latest gossip on BFT
 * consensus" (Buchman, Kwon, Milosevic) that CometBFT implements: propose, prevote, precommit;
 * the locked value and round, the valid value and round, nil votes, the polka, time-outs that
 * grow with the round, and the jump to a round where more than 1/3 of the power already is.
 *
 * Pure: each input (start, a message, a time-out, the proposer's value) answers the outputs
 * (messages to broadcast, time-outs to schedule, the decision, events); nothing here does I/O,
 * reads a clock, builds a block or touches a key. As malachite's core state machine, it makes
 * unsigned proposals and votes: its host signs them before they go on the network, and hears
 * only messages whose signatures it has checked (`signing.ts`). The signature of a received
 * message is carried along untouched (a decision's precommits are the commit certificate).
 * A proposal's validity (the application's ProcessProposal) is given with the proposal, as the
 * network checks it once for the validators sharing the process.
 */
import type { Hex } from '../../hex.js'
import type { Validator } from '../validator.js'
import { NIL, valueId, type ProposalMessage, type UnsignedProposal, type UnsignedVote, type Value, type ValueId, type VoteMessage, type VoteType } from './messages.js'
import type { HeightSet } from './round-set.js'
import type { TimeoutStep } from './timeouts.js'
import { VoteSet, type DuplicateVoteEvidence } from './vote-set.js'

export type StepName = 'propose' | 'prevote' | 'precommit' | 'commit'

export type Output<V extends Value> =
  /** A message of this validator, unsigned: the host signs it and sends it to every validator. */
  | { kind: 'broadcast'; message: UnsignedProposal<V> | UnsignedVote }
  /** The machine is the proposer of `round` and has no valid value: it needs a new one. */
  | { kind: 'getValue'; round: number }
  | { kind: 'schedule'; step: TimeoutStep; round: number }
  | { kind: 'decide'; round: number; value: V; precommits: VoteMessage[]; proposer: Hex }
  | { kind: 'newRound'; round: number; proposer: Hex }
  | { kind: 'polka'; round: number; id: ValueId }
  | { kind: 'lock'; round: number; id: ValueId }
  | { kind: 'evidence'; evidence: DuplicateVoteEvidence }
  /** A message dropped: from outside the set (or not the round's proposer), or for another height. */
  | { kind: 'rejected'; reason: 'sender' | 'height' }

/** What a validator knows of its height, for `finality_getConsensusState`. */
export interface MachineState {
  height: bigint
  round: number
  step: StepName
  lockedRound: number
  lockedValue: ValueId | null
  validRound: number
  validValue: ValueId | null
}

export class HeightMachine<V extends Value> {
  round = -1
  step: StepName = 'propose'
  lockedValue: V | undefined
  lockedRound = -1
  validValue: V | undefined
  validRound = -1
  decision: { round: number; value: V } | undefined

  /** The first proposal of each round (the one prevoted on). */
  private readonly proposals = new Map<number, { message: ProposalMessage<V>; valid: boolean }>()
  /**
   * Every proposal of each round's proposer by value: an equivocating proposer sends two, and a
   * validator that prevoted on one still decides the other once 2/3 precommit it (as CometBFT
   * fetches the block a commit names).
   */
  private readonly proposed = new Map<number, Map<ValueId, { message: ProposalMessage<V>; valid: boolean }>>()
  private readonly prevotes = new Map<number, VoteSet>()
  private readonly precommits = new Map<number, VoteSet>()
  /** Validators heard from per round (any message), for the round-skip rule. */
  private readonly heard = new Map<number, Map<Hex, bigint>>()
  /** Upon rules that fire once per round. */
  private readonly fired = new Set<string>()
  private out: Output<V>[] = []

  constructor(
    /** This validator's address (its key stays with the host). */
    readonly self: Hex,
    readonly height: bigint,
    readonly set: HeightSet,
  ) {}

  start(): Output<V>[] {
    this.startRound(0)
    return this.flush()
  }

  /** The value the application built for this proposer's `round`. */
  proposeValue(round: number, value: V): Output<V>[] {
    if (this.decision === undefined && round === this.round && this.step === 'propose' && this.set.proposer(round) === this.self) {
      this.broadcast(this.proposal(round, -1, value))
    }
    return this.flush()
  }

  /** A proposal whose signature the host checked. */
  receiveProposal(message: ProposalMessage<V>, valid: boolean): Output<V>[] {
    if (message.height !== this.height) return this.reject('height')
    if (message.proposer !== this.set.proposer(message.round)) return this.reject('sender')
    const member = this.set.member(message.proposer)
    if (member === undefined) return this.reject('sender')
    // The first proposal of a round is the one prevoted on; others count for polkas and commits.
    if (!this.proposals.has(message.round)) this.proposals.set(message.round, { message, valid })
    let byValue = this.proposed.get(message.round)
    if (byValue === undefined) this.proposed.set(message.round, (byValue = new Map()))
    const id = valueId(message.value.hash)
    if (!byValue.has(id)) byValue.set(id, { message, valid })
    this.hear(message.round, member)
    this.evaluate()
    return this.flush()
  }

  /** A vote whose signature the host checked. */
  receiveVote(vote: VoteMessage): Output<V>[] {
    if (vote.height !== this.height) return this.reject('height')
    const member = this.set.member(vote.validator)
    if (member === undefined) return this.reject('sender')
    const sets = vote.type === 'prevote' ? this.prevotes : this.precommits
    let set = sets.get(vote.round)
    if (set === undefined) sets.set(vote.round, (set = new VoteSet()))
    const result = set.add(vote, member.power)
    if (result.kind === 'conflict') this.out.push({ kind: 'evidence', evidence: result.evidence })
    if (result.kind === 'added') this.hear(vote.round, member)
    this.evaluate()
    return this.flush()
  }

  timeout(step: TimeoutStep, round: number): Output<V>[] {
    if (this.decision === undefined && round === this.round) {
      if (step === 'propose' && this.step === 'propose') this.vote('prevote', null)
      else if (step === 'prevote' && this.step === 'prevote') this.vote('precommit', null)
      else if (step === 'precommit') this.startRound(round + 1)
      this.evaluate()
    }
    return this.flush()
  }

  state(): MachineState {
    return {
      height: this.height,
      round: this.round,
      step: this.step,
      lockedRound: this.lockedRound,
      lockedValue: this.lockedValue === undefined ? null : valueId(this.lockedValue.hash),
      validRound: this.validRound,
      validValue: this.validValue === undefined ? null : valueId(this.validValue.hash),
    }
  }

  /** The prevotes or precommits of a round (read-only use). */
  votes(type: VoteType, round: number): VoteSet | undefined {
    return (type === 'prevote' ? this.prevotes : this.precommits).get(round)
  }

  private startRound(round: number): void {
    this.round = round
    this.step = 'propose'
    const proposer = this.set.proposer(round)
    this.out.push({ kind: 'newRound', round, proposer })
    if (proposer === this.self) {
      if (this.validValue !== undefined) this.broadcast(this.proposal(round, this.validRound, this.validValue))
      else this.out.push({ kind: 'getValue', round })
    }
    // Scheduled by every validator, the proposer too: a proposer whose value never comes (the
    // application failed, or the proposer is silent) must not hold the round for ever.
    this.out.push({ kind: 'schedule', step: 'propose', round })
    this.evaluate()
  }

  /** Applies every upon rule that holds until none does (one rule may enable another). */
  private evaluate(): void {
    for (let changed = true; changed; ) changed = this.applyOnce()
  }

  private applyOnce(): boolean {
    if (this.decision !== undefined) return false
    // Decision (any round): a proposal and more than 2/3 precommits for it.
    for (const [r, byValue] of this.proposed) {
      const pc = this.precommits.get(r)
      if (pc === undefined) continue
      for (const [id, { message, valid }] of byValue) {
        if (valid && this.set.isQuorum(pc.powerFor(id))) {
          this.decision = { round: r, value: message.value }
          this.step = 'commit'
          this.out.push({ kind: 'decide', round: r, value: message.value, precommits: pc.votesFor(id), proposer: message.proposer })
          return false
        }
      }
    }
    // Round skip: more than 1/3 of the power is in a later round.
    for (const [r, senders] of this.heard) {
      if (r > this.round && this.set.isOneThird(sum(senders))) {
        this.startRound(r)
        return true
      }
    }
    const r = this.round
    const proposal = this.proposals.get(r)
    const prevotes = this.prevotes.get(r)
    if (this.step === 'propose' && proposal !== undefined) {
      const { message, valid } = proposal
      const id = valueId(message.value.hash)
      const vr = message.validRound
      if (vr === -1) {
        this.vote('prevote', valid && (this.lockedRound === -1 || this.lockedId() === id) ? message.value.hash : null)
        return true
      }
      const polka = this.prevotes.get(vr)
      if (vr >= 0 && vr < r && polka !== undefined && this.set.isQuorum(polka.powerFor(id))) {
        this.vote('prevote', valid && (this.lockedRound <= vr || this.lockedId() === id) ? message.value.hash : null)
        return true
      }
    }
    if (this.step === 'prevote' && prevotes !== undefined && this.set.isQuorum(prevotes.power) && this.once(`prevote-any/${r}`)) {
      this.out.push({ kind: 'schedule', step: 'prevote', round: r })
      return true
    }
    if (prevotes !== undefined && this.step !== 'propose') {
      for (const [id, { message, valid }] of this.proposed.get(r) ?? []) {
        if (!valid || !this.set.isQuorum(prevotes.powerFor(id)) || !this.once(`polka/${r}`)) continue
        this.out.push({ kind: 'polka', round: r, id })
        if (this.step === 'prevote') {
          this.lockedValue = message.value
          this.lockedRound = r
          this.out.push({ kind: 'lock', round: r, id })
          this.vote('precommit', message.value.hash)
        }
        this.validValue = message.value
        this.validRound = r
        return true
      }
    }
    if (this.step === 'prevote' && prevotes !== undefined && this.set.isQuorum(prevotes.powerFor(NIL))) {
      this.out.push({ kind: 'polka', round: r, id: NIL })
      this.vote('precommit', null)
      return true
    }
    const precommits = this.precommits.get(r)
    if (precommits !== undefined && this.set.isQuorum(precommits.power) && this.once(`precommit-any/${r}`)) {
      this.out.push({ kind: 'schedule', step: 'precommit', round: r })
      return true
    }
    return false
  }

  private vote(type: VoteType, hash: Uint8Array | null): void {
    this.step = type
    this.broadcast({ type, height: this.height, round: this.round, blockHash: hash, validator: this.self })
  }

  private proposal(round: number, validRound: number, value: V): UnsignedProposal<V> {
    return { type: 'proposal', height: this.height, round, validRound, value, proposer: this.self }
  }

  /** Broadcasts go to every validator, this one included (the network delivers its own back, signed). */
  private broadcast(message: UnsignedProposal<V> | UnsignedVote): void {
    this.out.push({ kind: 'broadcast', message })
  }

  private lockedId(): ValueId | undefined {
    return this.lockedValue === undefined ? undefined : valueId(this.lockedValue.hash)
  }

  private hear(round: number, member: Validator): void {
    let senders = this.heard.get(round)
    if (senders === undefined) this.heard.set(round, (senders = new Map()))
    senders.set(member.address, member.power)
  }

  private once(key: string): boolean {
    if (this.fired.has(key)) return false
    this.fired.add(key)
    return true
  }

  private reject(reason: 'sender' | 'height'): Output<V>[] {
    this.out.push({ kind: 'rejected', reason })
    return this.flush()
  }

  private flush(): Output<V>[] {
    const out = this.out
    this.out = []
    return out
  }
}

function sum(powers: Map<Hex, bigint>): bigint {
  let s = 0n
  for (const p of powers.values()) s += p
  return s
}
