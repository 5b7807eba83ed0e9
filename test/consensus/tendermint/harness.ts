/** Runs heights of the Tendermint core over the bus on a manual clock, for the consensus tests. */
import { sha256 } from '@noble/hashes/sha2.js'
import { createValidator } from '../../../src/consensus/keys.js'
import type { Validator } from '../../../src/consensus/validator.js'
import { FaultPlan } from '../../../src/consensus/tendermint/faults.js'
import { HeightRun, type HeightOutcome } from '../../../src/consensus/tendermint/network.js'
import { ProposerPriorities } from '../../../src/consensus/tendermint/proposer.js'
import { HeightSet } from '../../../src/consensus/tendermint/round-set.js'
import { DEFAULT_TIMEOUTS } from '../../../src/consensus/tendermint/timeouts.js'
import type { BusConditions } from '../../../src/consensus/tendermint/bus.js'
import type { ConsensusEvent } from '../../../src/consensus/tendermint/events.js'
import { manualClock, type ManualClock } from '../../helpers/manual-clock.js'

export interface TestValue {
  hash: Uint8Array
  label: string
}

export const CHAIN_ID = 31337n

/** `powers.length` validators with deterministic keys (seed byte i + 1). */
export function makeValidators(powers: bigint[]): Validator[] {
  return powers.map((p, i) => createValidator(new Uint8Array(32).fill(i + 1), p))
}

export function valueOf(label: string): TestValue {
  return { hash: sha256(new TextEncoder().encode(label)), label }
}

export interface RunSetup {
  validators: Validator[]
  height?: bigint
  plan?: FaultPlan
  seed?: number
  extra?: Partial<BusConditions>
  maxRounds?: number
  untilAll?: boolean
  waitWhenStuck?: boolean
  clock?: ManualClock
  invalid?: (v: TestValue) => boolean
  priorities?: ProposerPriorities
}

export function newRun(s: RunSetup): { run: HeightRun<TestValue>; clock: ManualClock; events: ConsensusEvent[]; set: HeightSet; plan: FaultPlan } {
  const clock = s.clock ?? manualClock()
  const plan = s.plan ?? new FaultPlan()
  const height = s.height ?? 1n
  const set = new HeightSet(s.validators, s.priorities ?? new ProposerPriorities(s.validators))
  const events: ConsensusEvent[] = []
  const run = new HeightRun<TestValue>({
    height,
    set,
    chainId: CHAIN_ID,
    timeouts: DEFAULT_TIMEOUTS,
    clock,
    plan,
    seed: s.seed ?? 1,
    maxRounds: s.maxRounds ?? 20,
    propose: async (proposer, round, variant) => valueOf(`${height}/${round}/${proposer.address}/${variant}`),
    check: async (v) => !(s.invalid?.(v) ?? false),
    onEvent: (e) => events.push(e),
    extra: s.extra,
    untilAll: s.untilAll,
    waitWhenStuck: s.waitWhenStuck,
  })
  return { run, clock, events, set, plan }
}

/** Starts `run` and steps the clock from timer to timer until it ends or `limitMs` passes. */
export async function drive(run: HeightRun<TestValue>, clock: ManualClock, limitMs = 600_000, between?: (elapsed: number) => void): Promise<HeightOutcome<TestValue> | undefined> {
  let ended = false
  let outcome: HeightOutcome<TestValue> | undefined
  void run.start().then((o) => {
    ended = true
    outcome = o
  })
  const start = clock.now()
  await clock.settle()
  while (!ended && clock.now() - start < limitMs) {
    between?.(clock.now() - start)
    if (!(await clock.next())) break
  }
  await clock.settle()
  if (!ended) run.stop()
  await run.done
  return outcome
}
