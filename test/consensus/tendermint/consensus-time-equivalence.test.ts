/**
 * Consensus time against a clock stepped by hand: on seeded random schedules (4 to 7 validators
 * of random power, faulty ones below 1/3 of it: silent, offline, nil, equivocating or delayed,
 * and random message delays on the bus), a height run on consensus time (`time: 'simulated'`, no
 * one moving any clock) decides what the same height decides on a manual clock moved from timer
 * to timer once all work is done: the same round, value and proposer, the same events in the same
 * order.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import type { Clock } from '../../../src/clock.js'
import { createValidator } from '../../../src/consensus/keys.js'
import type { ConsensusEvent } from '../../../src/consensus/tendermint/events.js'
import { FaultPlan, type Fault } from '../../../src/consensus/tendermint/faults.js'
import { HeightRun } from '../../../src/consensus/tendermint/network.js'
import { ProposerPriorities } from '../../../src/consensus/tendermint/proposer.js'
import { SeededRandom } from '../../../src/consensus/tendermint/random.js'
import { HeightSet } from '../../../src/consensus/tendermint/round-set.js'
import { DEFAULT_TIMEOUTS, type ConsensusTime } from '../../../src/consensus/tendermint/timeouts.js'
import type { Validator } from '../../../src/consensus/validator.js'
import { manualClock } from '../../helpers/manual-clock.js'

interface Value {
  hash: Uint8Array
  label: string
}

const START = 1_700_000_000_000

function schedule(seed: number): { validators: Validator[]; plan: FaultPlan; jitter: number } {
  const rng = new SeededRandom(seed)
  const n = 4 + rng.below(4)
  const validators = Array.from({ length: n }, (_, i) => createValidator(new Uint8Array(32).fill(i + 1), BigInt(1 + rng.below(10))))
  const total = validators.reduce((s, v) => s + v.power, 0n)
  const plan = new FaultPlan()
  const kinds: Array<keyof Fault> = ['silent', 'offline', 'nil', 'equivocate', 'delay']
  let faulty = 0n
  for (const v of validators) {
    if ((faulty + v.power) * 3n >= total || rng.next() < 0.15) continue
    const kind = kinds[rng.below(kinds.length)]!
    plan.set(v.address, kind === 'delay' ? { delay: 500 + rng.below(6000) } : { [kind]: true })
    faulty += v.power
  }
  return { validators, plan, jitter: rng.below(5000) }
}

/** One height of `seed`'s schedule, on consensus time or on a manual clock stepped by hand. */
async function run(seed: number, time: ConsensusTime) {
  const { validators, plan, jitter } = schedule(seed)
  const manual = manualClock(START)
  // Consensus time's base: a clock nobody moves, with no timers (one set would be a failure).
  const still: Clock = {
    now: () => START,
    setTimer: () => {
      throw new Error('consensus time set a timer on the node clock')
    },
  }
  const events: string[] = []
  const height = new HeightRun<Value>({
    height: 1n,
    set: new HeightSet(validators, new ProposerPriorities(validators)),
    chainId: 31337n,
    timeouts: DEFAULT_TIMEOUTS,
    clock: time === 'clock' ? manual : still,
    time,
    plan,
    seed,
    maxRounds: 12,
    propose: async (proposer, round, variant) => {
      const label = `${round}/${proposer.address}/${variant}`
      return { hash: sha256(new TextEncoder().encode(label)), label }
    },
    check: async () => true,
    extra: { jitter },
    onEvent: (e: ConsensusEvent) => {
      const who = 'validator' in e ? e.validator.slice(0, 8) : 'proposer' in e ? e.proposer.slice(0, 8) : ''
      events.push(`${e.type}${'round' in e ? ` r${e.round}` : ''} ${who}${'step' in e ? ` ${e.step}` : ''}${'vote' in e ? ` ${e.vote}` : ''}`)
    },
  })
  let ended = false
  const done = height.start().then((o) => {
    ended = true
    return o
  })
  if (time === 'clock') {
    await manual.settle()
    while (!ended && (await manual.next()));
  }
  const outcome = await done
  return {
    decided: outcome === undefined ? undefined : { round: outcome.round, value: outcome.value.label, proposer: outcome.proposer, precommits: outcome.precommits.map((p) => p.validator).sort() },
    events,
  }
}

describe('consensus time decides what a clock stepped by hand decides', () => {
  it('default: 40 seeded schedules of faults and message delays: same decision, same events in the same order', async () => {
    let laterRounds = 0
    let timedOut = 0
    for (let seed = 1; seed <= 40; seed++) {
      const simulated = await run(seed, 'simulated')
      const stepped = await run(seed, 'clock')
      expect(simulated.decided, `seed ${seed}`).toEqual(stepped.decided)
      expect(simulated.events, `seed ${seed}`).toEqual(stepped.events)
      if ((stepped.decided?.round ?? 1) > 0) laterRounds++
      if (stepped.events.some((e) => e.startsWith('timeout'))) timedOut++
    }
    // The schedules exercise time-outs and rounds past 0, not only the calm path.
    expect(laterRounds).toBeGreaterThanOrEqual(3)
    expect(timedOut).toBeGreaterThanOrEqual(20)
  })
})
