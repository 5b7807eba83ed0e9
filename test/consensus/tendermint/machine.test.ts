/**
 * The Tendermint core, rule by rule: proposer selection by priority, locks and valid values, nil
 * votes, time-outs that grow with the round, signature checks and duplicate-vote evidence.
 */
import { describe, expect, it } from 'vitest'
import { FaultPlan } from '../../../src/consensus/tendermint/faults.js'
import { HeightMachine, type Output } from '../../../src/consensus/tendermint/machine.js'
import { valueId, type VoteMessage } from '../../../src/consensus/tendermint/messages.js'
import { signProposal, signVote, verifyMessage } from '../../../src/consensus/tendermint/signing.js'
import { ProposerPriorities } from '../../../src/consensus/tendermint/proposer.js'
import { HeightSet } from '../../../src/consensus/tendermint/round-set.js'
import { DEFAULT_TIMEOUTS, timeoutFor } from '../../../src/consensus/tendermint/timeouts.js'
import type { Validator } from '../../../src/consensus/validator.js'
import { CHAIN_ID, drive, makeValidators, newRun, valueOf, type TestValue } from './harness.js'

const sorted = (vs: Validator[]) => [...vs].sort((a, b) => (a.address < b.address ? -1 : 1))

describe('proposer selection (weighted round-robin with priorities)', () => {
  it('equal power: the validators take turns in address order', () => {
    const vs = sorted(makeValidators([10n, 10n, 10n, 10n]))
    const p = new ProposerPriorities(vs)
    const picks = Array.from({ length: 8 }, () => p.increment(1).address)
    expect(picks).toEqual([...vs, ...vs].map((v) => v.address))
  })

  it('unequal power: each proposes in proportion to its power, and priorities stay bounded', () => {
    const vs = makeValidators([1n, 2n, 3n, 4n])
    const p = new ProposerPriorities(vs)
    const counts = new Map<string, number>()
    for (let i = 0; i < 1000; i++) {
      const a = p.increment(1).address
      counts.set(a, (counts.get(a) ?? 0) + 1)
      for (const q of p.priorities) expect(q < 2n * p.totalPower && q > -2n * p.totalPower).toBe(true)
    }
    expect(vs.map((v) => counts.get(v.address))).toEqual([100, 200, 300, 400])
  })

  it('a validator that joins starts at −1.125 × the total power (centred with the others) and waits its turn', () => {
    const [a, b, c, d] = makeValidators([10n, 10n, 10n, 10n])
    const p = new ProposerPriorities([a!, b!, c!])
    p.increment(3)
    const q = p.update([a!, b!, c!, d!])
    const joined = q.priorities[3]!
    // −45 before centring; the centring shifts everybody by the same amount.
    const others = q.priorities.slice(0, 3)
    expect(others.every((x) => x > joined)).toBe(true)
    expect(q.priorities.reduce((s, x) => s + x, 0n)).toBeLessThanOrEqual(3n)
    const next = Array.from({ length: 3 }, () => q.increment(1).address)
    expect(next).not.toContain(d!.address)
  })

  it('a history starting at a fork block + 1 elects from there, without replaying the heights before', async () => {
    const { ValidatorHistory } = await import('../../../src/consensus/validator-history.js')
    const vs = sorted(makeValidators([10n, 10n, 10n]))
    const history = new ValidatorHistory(vs, 20_000_001n)
    expect([0n, 1n, 2n, 3n].map((d) => history.proposer(20_000_001n + d, 0).address)).toEqual([vs[0], vs[1], vs[2], vs[0]].map((v) => v!.address))
    expect(history.proposer(20_000_001n, 2).address).toBe(vs[2]!.address)
  })

  it('the proposer of round r is r elections after round 0 (HeightSet)', () => {
    const vs = sorted(makeValidators([10n, 10n, 10n]))
    const set = new HeightSet(vs, new ProposerPriorities(vs))
    expect([0, 1, 2, 3].map((r) => set.proposer(r))).toEqual([vs[0], vs[1], vs[2], vs[0]].map((v) => v!.address))
  })
})

/** A machine for validator `me` of four equal validators, plus helpers to feed it signed messages. */
function fixture(me = 0) {
  const vs = sorted(makeValidators([1n, 1n, 1n, 1n]))
  const set = new HeightSet(vs, new ProposerPriorities(vs))
  const m = new HeightMachine<TestValue>(vs[me]!.address, 1n, set)
  const proposer = (r: number) => vs.find((v) => v.address === set.proposer(r))!
  const vote = (i: number, type: 'prevote' | 'precommit', round: number, v: TestValue | null) => signVote(vs[i]!, CHAIN_ID, type, 1n, round, v?.hash ?? null)
  const sent = (out: Output<TestValue>[]) =>
    out.flatMap((o) => (o.kind === 'broadcast' && o.message.type !== 'proposal' ? [[o.message.type, o.message.round, o.message.blockHash === null ? 'nil' : valueId(o.message.blockHash)]] : []))
  return { vs, set, m, proposer, vote, sent }
}

describe('the state machine', () => {
  it('locks on a polka, prevotes nil for another value later, and unlocks for a re-proposal with a later polka', () => {
    // Validator 3 never proposes in rounds 0..2 (proposers are 0, 1, 2).
    const { m, proposer, vote, sent } = fixture(3)
    const v = valueOf('v')
    const w = valueOf('w')
    m.start()
    sent(m.receiveProposal(signProposal(proposer(0), CHAIN_ID, 1n, 0, -1, v), true))
    // Its own prevote comes back through the network; two more make a polka: lock and precommit v.
    m.receiveVote(vote(3, 'prevote', 0, v))
    m.receiveVote(vote(0, 'prevote', 0, v))
    expect(sent(m.receiveVote(vote(1, 'prevote', 0, v)))).toEqual([['precommit', 0, valueId(v.hash)]])
    expect(m.state()).toMatchObject({ lockedRound: 0, lockedValue: valueId(v.hash), validRound: 0 })
    // Nobody else precommits v: the round times out.
    for (const i of [0, 1, 2]) m.receiveVote(vote(i, 'precommit', 0, null))
    m.timeout('precommit', 0)
    expect(m.round).toBe(1)
    // Round 1 proposes a new value w: locked on v, it prevotes nil.
    expect(sent(m.receiveProposal(signProposal(proposer(1), CHAIN_ID, 1n, 1, -1, w), true))).toEqual([['prevote', 1, 'nil']])
    // The others' precommits end round 1 (their prevotes for w are still on the way).
    for (const i of [0, 1, 2]) m.receiveVote(vote(i, 'precommit', 1, null))
    m.timeout('precommit', 1)
    expect(m.round).toBe(2)
    // Round 2 re-proposes w with valid round 1: it waits for that polka...
    expect(sent(m.receiveProposal(signProposal(proposer(2), CHAIN_ID, 1n, 2, 1, w), true))).toEqual([])
    m.receiveVote(vote(0, 'prevote', 1, w))
    m.receiveVote(vote(1, 'prevote', 1, w))
    // ...and with it (valid round 1 ≥ locked round 0) prevotes w although it is locked on v.
    expect(sent(m.receiveVote(vote(2, 'prevote', 1, w)))).toEqual([['prevote', 2, valueId(w.hash)]])
    expect(m.state().lockedValue).toBe(valueId(v.hash))
  })

  it('a polka for another value in a later round moves the lock', () => {
    const { m, proposer, vote } = fixture(3)
    const v = valueOf('v')
    const w = valueOf('w')
    m.start()
    m.receiveProposal(signProposal(proposer(0), CHAIN_ID, 1n, 0, -1, v), true)
    for (const i of [3, 0, 1]) m.receiveVote(vote(i, 'prevote', 0, v))
    for (const i of [0, 1, 2]) m.receiveVote(vote(i, 'precommit', 0, null))
    m.timeout('precommit', 0)
    m.receiveProposal(signProposal(proposer(1), CHAIN_ID, 1n, 1, -1, w), true)
    for (const i of [0, 1, 2]) m.receiveVote(vote(i, 'prevote', 1, w))
    expect(m.state()).toMatchObject({ lockedRound: 1, lockedValue: valueId(w.hash), validRound: 1 })
  })

  it('prevotes nil for an invalid proposal, and after the propose time-out', () => {
    const a = fixture(3)
    a.m.start()
    expect(a.sent(a.m.receiveProposal(signProposal(a.proposer(0), CHAIN_ID, 1n, 0, -1, valueOf('bad')), false))).toEqual([['prevote', 0, 'nil']])
    const b = fixture(3)
    b.m.start()
    expect(b.sent(b.m.timeout('propose', 0))).toEqual([['prevote', 0, 'nil']])
  })

  it('decides on a proposal and precommits of more than 2/3 of the power', () => {
    const { m, proposer, vote } = fixture(3)
    const v = valueOf('v')
    m.start()
    m.receiveProposal(signProposal(proposer(0), CHAIN_ID, 1n, 0, -1, v), true)
    m.receiveVote(vote(0, 'precommit', 0, v))
    m.receiveVote(vote(1, 'precommit', 0, v))
    expect(m.decision).toBeUndefined()
    const out = m.receiveVote(vote(2, 'precommit', 0, v))
    const decide = out.find((o) => o.kind === 'decide')
    expect(decide).toMatchObject({ kind: 'decide', round: 0, value: v })
  })

  it('moves to a later round when more than 1/3 of the power is there', () => {
    const { m, vote } = fixture(3)
    m.start()
    m.receiveVote(vote(0, 'prevote', 5, null))
    expect(m.round).toBe(0)
    m.receiveVote(vote(1, 'prevote', 5, null))
    expect(m.round).toBe(5)
  })

  it('drops and counts a message from outside the set, from another than the round\'s proposer, or for another height', () => {
    const { m, proposer } = fixture(3)
    m.start()
    const outsider = makeValidators([1n, 1n, 1n, 1n, 1n])[4]!
    expect(m.receiveVote(signVote(outsider, CHAIN_ID, 'prevote', 1n, 0, null))).toEqual([{ kind: 'rejected', reason: 'sender' }])
    expect(m.receiveVote(signVote(proposer(0), CHAIN_ID, 'prevote', 2n, 0, null))).toEqual([{ kind: 'rejected', reason: 'height' }])
    // A proposal signed by someone who is not the round's proposer.
    const notProposer = fixture(3).vs.find((v) => v.address !== proposer(0).address)!
    expect(m.receiveProposal({ ...signProposal(notProposer, CHAIN_ID, 1n, 0, -1, valueOf('x')) }, true)).toEqual([{ kind: 'rejected', reason: 'sender' }])
  })

  it('makes unsigned messages and signs nothing: the host signs them, and checks signatures before the machine hears them', () => {
    const { m, vs, vote, proposer } = fixture(0)
    const out = m.start()
    const own = out.find((o) => o.kind === 'getValue')
    expect(own).toEqual({ kind: 'getValue', round: 0 })
    const proposal = m.proposeValue(0, valueOf('v')).find((o) => o.kind === 'broadcast')
    expect(proposal).toBeDefined()
    expect(proposal!.kind === 'broadcast' && 'signature' in proposal!.message).toBe(false)
    expect(proposal).toMatchObject({ kind: 'broadcast', message: { type: 'proposal', round: 0, validRound: -1, proposer: vs[0]!.address } })
    // The host's check: a flipped byte, or a signature for another chain, does not verify.
    const good = vote(1, 'prevote', 0, null)
    const bad: VoteMessage = { ...good, signature: good.signature.map((b, i) => (i === 0 ? b ^ 1 : b)) }
    const key = vs[1]!.publicKey
    expect(verifyMessage(CHAIN_ID, good, key)).toBe(true)
    expect(verifyMessage(CHAIN_ID, bad, key)).toBe(false)
    expect(verifyMessage(CHAIN_ID, signVote(proposer(0), 1n, 'prevote', 1n, 0, null), proposer(0).publicKey)).toBe(false)
  })

  it('records duplicate-vote evidence for two different votes of one validator in a round', () => {
    const { m, vote } = fixture(3)
    m.start()
    m.receiveVote(vote(1, 'prevote', 0, valueOf('a')))
    const out = m.receiveVote(vote(1, 'prevote', 0, null))
    const e = out.find((o) => o.kind === 'evidence')
    expect(e).toBeDefined()
    if (e?.kind !== 'evidence') return
    expect(e.evidence).toMatchObject({ height: 1n, round: 0, type: 'prevote' })
    expect(e.evidence.voteA.blockHash).not.toBeNull()
    expect(e.evidence.voteB.blockHash).toBeNull()
    // The same vote twice is no evidence.
    expect(m.receiveVote(vote(2, 'prevote', 0, null)).some((o) => o.kind === 'evidence')).toBe(false)
    expect(m.receiveVote(vote(2, 'prevote', 0, null)).some((o) => o.kind === 'evidence')).toBe(false)
  })
})

describe('time-outs on the clock', () => {
  it('grow with the round as CometBFT configures them', () => {
    expect([0, 1, 2].map((r) => timeoutFor(DEFAULT_TIMEOUTS, 'propose', r))).toEqual([3000, 3500, 4000])
    expect([0, 1, 2].map((r) => timeoutFor(DEFAULT_TIMEOUTS, 'precommit', r))).toEqual([1000, 1500, 2000])
  })

  it('two silent proposers in a row: the decision comes after both rounds time out (3s + 1s, then 3.5s + 1.5s)', async () => {
    const validators = sorted(makeValidators([10n, 10n, 10n, 10n]))
    const plan = new FaultPlan()
    plan.set(validators[0]!.address, { silent: true })
    plan.set(validators[1]!.address, { silent: true })
    // Two silent of four is more than f by count, yet a silent validator still votes: rounds 0 and
    // 1 have no proposal, round 2's proposer is correct.
    const { run, clock, events } = newRun({ validators, plan })
    const start = clock.now()
    const out = await drive(run, clock)
    expect(out?.round).toBe(2)
    expect(clock.now() - start).toBe(3000 + 1000 + 3500 + 1500)
    expect(events.filter((e) => e.type === 'timeout').map((e) => e.type === 'timeout' && e.step)).toContain('propose')
  })

  it('equivocating validator: evidence is recorded and the height is still decided', async () => {
    const validators = sorted(makeValidators([10n, 10n, 10n, 10n]))
    const plan = new FaultPlan()
    plan.set(validators[0]!.address, { equivocate: true })
    const { run, clock } = newRun({ validators, plan })
    const out = await drive(run, clock)
    expect(out).toBeDefined()
    expect(run.evidence.length).toBeGreaterThan(0)
    expect(new Set(run.evidence.map((e) => e.validator))).toEqual(new Set([validators[0]!.address]))
  })
})

describe('docs/consensus.md', () => {
  it("the page's worked examples are the bytes the node and the independent checker sign", async () => {
    const { readFileSync } = await import('node:fs')
    const { signBytes } = await import('../../../src/consensus/votes.js')
    const { docSignBytes } = await import('../certificate-checker.js')
    const page = readFileSync(new URL('../../../docs/consensus.md', import.meta.url), 'utf8')
    const example = (title: RegExp) => {
      const block = new RegExp(`${title.source}[^\\n]*\\n\\n((?: {4}.*\\n)+)`).exec(page)![1]!
      return '0x' + block.split('\n').filter(Boolean).map((line) => line.trim().split(/\s+/)[0]).join('')
    }
    const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex')
    const hash = new Uint8Array(32).fill(0xab)
    expect(example(/The precommit of block 1, round 0 on chain 31337/)).toBe(hex(signBytes(3, 31337n, 1n, 0, hash)))
    expect(example(/The precommit of block 1, round 0 on chain 31337/)).toBe(hex(docSignBytes(3, 31337n, 1n, 0, hash)))
    expect(example(/A nil prevote of block 2, round 1 on chain 31337/)).toBe(hex(signBytes(2, 31337n, 2n, 1, new Uint8Array(0))))
    expect(example(/A nil prevote of block 2, round 1 on chain 31337/)).toBe(hex(docSignBytes(2, 31337n, 2n, 1, new Uint8Array(0))))
  })
})

describe('signatures on the bus', () => {
  it('a validator whose signatures do not verify is not heard: its messages are dropped and counted, the others decide', async () => {
    const validators = sorted(makeValidators([10n, 10n, 10n, 10n]))
    // The last validator signs with garbage (a broken key): every receiver drops what it sends.
    const broken = validators[3]!
    validators[3] = { ...broken, sign: () => new Uint8Array(64).fill(7) }
    const { run, clock } = newRun({ validators })
    const out = await drive(run, clock)
    expect(out).toBeDefined()
    expect(run.rejected).toBeGreaterThan(0)
    expect(out!.precommits.map((p) => p.validator)).not.toContain(broken.address)
    expect(out!.precommits).toHaveLength(3)
  })
})
