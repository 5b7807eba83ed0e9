/**
 * Property tests of the Tendermint core on seeded random schedules: messages delayed (jitter),
 * lost until the heal, a partition, and up to f Byzantine or faulty validators (by power).
 * Safety: no two validators decide different values for a height, healed or not. Liveness: once
 * the network heals, with faulty power below 1/3 every correct validator decides. Halt: with 1/3
 * of the power or more offline, or voting nil, nothing is decided. Every decision's certificate
 * is checked by an independent checker written from docs/consensus.md.
 */
import { describe, expect, it } from 'vitest'
import { FaultPlan, type Fault } from '../../../src/consensus/tendermint/faults.js'
import { SeededRandom } from '../../../src/consensus/tendermint/random.js'
import type { Validator } from '../../../src/consensus/validator.js'
import { checkCertificate } from '../certificate-checker.js'
import { CHAIN_ID, drive, makeValidators, newRun } from './harness.js'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

interface Schedule {
  validators: Validator[]
  faulty: Map<string, Fault>
  lossRate: number
  jitter: number
  partition: string[][] | undefined
  healAt: number
}

/** A random schedule whose faulty validators hold less than 1/3 of the power. */
function schedule(seed: number, kinds: Array<keyof Fault>): Schedule {
  const rng = new SeededRandom(seed)
  const n = 4 + rng.below(4)
  const powers = Array.from({ length: n }, () => BigInt(1 + rng.below(10)))
  const validators = makeValidators(powers)
  const total = powers.reduce((s, p) => s + p, 0n)
  const faulty = new Map<string, Fault>()
  let faultyPower = 0n
  for (const i of Array.from({ length: n }, (_, i) => i).sort(() => rng.next() - 0.5)) {
    const v = validators[i]!
    if ((faultyPower + v.power) * 3n >= total || rng.next() < 0.3) continue
    const kind = kinds[rng.below(kinds.length)]!
    faulty.set(v.address, kind === 'delay' ? { delay: 500 + rng.below(5000) } : { [kind]: true })
    faultyPower += v.power
  }
  let partition: string[][] | undefined
  if (rng.next() < 0.5) {
    const a: string[] = []
    const b: string[] = []
    for (const v of validators) (rng.next() < 0.5 ? a : b).push(v.address)
    partition = [a, b]
  }
  return { validators, faulty, lossRate: rng.next() * 0.5, jitter: rng.below(3000), partition, healAt: 2_000 + rng.below(40_000) }
}

async function runSchedule(s: Schedule, seed: number, heal: boolean, dropRate = 0) {
  const plan = new FaultPlan()
  for (const [a, f] of s.faulty) plan.set(a as `0x${string}`, f)
  plan.partition = s.partition as Array<Array<`0x${string}`>> | undefined
  const extra = { lossRate: s.lossRate, jitter: s.jitter, dropRate }
  const { run, clock, events } = newRun({ validators: s.validators, plan, seed, extra, untilAll: true, maxRounds: 60, waitWhenStuck: heal })
  if (heal) {
    clock.setTimer(() => {
      plan.partition = undefined
      extra.lossRate = 0
      run.refresh()
    }, s.healAt)
  }
  const outcome = await drive(run, clock, 2_000_000)
  return { outcome, events, run }
}

const BYZANTINE: Array<keyof Fault> = ['equivocate', 'nil', 'silent', 'delay', 'offline']

describe('Tendermint on random schedules', () => {
  it('safety: never two decisions for a height, whatever the network does (up to f Byzantine, messages dropped for good, never healed)', async () => {
    let dropped = 0
    for (let seed = 1; seed <= 60; seed++) {
      const s = schedule(seed, BYZANTINE)
      const { outcome, run } = await runSchedule(s, seed, false, seed % 2 === 0 ? 0.2 : 0)
      dropped += run.busStats.dropped
      const decided = new Set([...(outcome?.decisions.values() ?? [])].map((d) => hex(d.value.hash)))
      expect(decided.size, `seed ${seed}`).toBeLessThanOrEqual(1)
      if (outcome !== undefined) {
        const cert = { height: 1n, round: outcome.round, blockHash: outcome.value.hash, precommits: outcome.precommits }
        expect(checkCertificate(cert, s.validators, CHAIN_ID), `seed ${seed}`).toBe(true)
      }
    }
    expect(dropped).toBeGreaterThan(0)
  }, 120_000)

  it('liveness: after the heal every correct validator decides the same value, with a certificate that checks', async () => {
    let rounds = 0
    let evidence = 0
    for (let seed = 100; seed < 160; seed++) {
      const s = schedule(seed, BYZANTINE)
      const { outcome, run } = await runSchedule(s, seed, true)
      expect(outcome, `seed ${seed}`).toBeDefined()
      const correct = s.validators.filter((v) => !s.faulty.has(v.address))
      for (const v of correct) expect(outcome!.decisions.has(v.address), `seed ${seed} ${v.address}`).toBe(true)
      const decided = new Set([...outcome!.decisions.values()].map((d) => hex(d.value.hash)))
      expect(decided.size, `seed ${seed}`).toBe(1)
      const cert = { height: 1n, round: outcome!.round, blockHash: outcome!.value.hash, precommits: outcome!.precommits }
      expect(checkCertificate(cert, s.validators, CHAIN_ID), `seed ${seed}`).toBe(true)
      // Evidence names only equivocators.
      for (const e of run.evidence) expect(s.faulty.get(e.validator)?.equivocate, `seed ${seed}`).toBe(true)
      rounds += outcome!.round
      evidence += run.evidence.length
    }
    // The schedules do exercise round changes and equivocation (not only the easy path).
    expect(rounds).toBeGreaterThan(0)
    expect(evidence).toBeGreaterThan(0)
  }, 240_000)

  it('halt: with 1/3 of the power or more offline, or voting nil, nothing is decided', async () => {
    for (let seed = 200; seed < 215; seed++) {
      const rng = new SeededRandom(seed)
      const n = 3 + rng.below(5)
      const validators = makeValidators(Array.from({ length: n }, () => BigInt(1 + rng.below(10))))
      const total = validators.reduce((s, v) => s + v.power, 0n)
      const plan = new FaultPlan()
      let power = 0n
      const kind = seed % 2 === 0 ? 'offline' : 'nil'
      for (const v of validators) {
        if (power * 3n >= total) break
        plan.set(v.address, { [kind]: true })
        power += v.power
      }
      const { run, clock } = newRun({ validators, plan, seed, maxRounds: 8 })
      expect(await drive(run, clock, 2_000_000), `seed ${seed}`).toBeUndefined()
    }
  }, 120_000)
})
