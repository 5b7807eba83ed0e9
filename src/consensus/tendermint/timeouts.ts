/**
 * Time-outs of a round, growing linearly with the round as CometBFT's do:
 * timeoutPropose(r) = propose + r × proposeDelta, and so on. Waited out on the node's clock.
 */
export interface Timeouts {
  propose: number
  proposeDelta: number
  prevote: number
  prevoteDelta: number
  precommit: number
  precommitDelta: number
}

/** CometBFT's defaults (config.toml: timeout_propose 3s, +500ms per round; prevote and precommit 1s, +500ms). */
export const DEFAULT_TIMEOUTS: Timeouts = Object.freeze({
  propose: 3000,
  proposeDelta: 500,
  prevote: 1000,
  prevoteDelta: 500,
  precommit: 1000,
  precommitDelta: 500,
})

export type TimeoutStep = 'propose' | 'prevote' | 'precommit'

/** The time-out of `step` in `round`, in ms. */
export function timeoutFor(t: Timeouts, step: TimeoutStep, round: number): number {
  switch (step) {
    case 'propose':
      return t.propose + round * t.proposeDelta
    case 'prevote':
      return t.prevote + round * t.prevoteDelta
    case 'precommit':
      return t.precommit + round * t.precommitDelta
  }
}

/**
 * How the rounds' time-outs and message delays pass. `simulated`: on consensus time, a
 * discrete-event clock that jumps to the next time-out or delivery as soon as nothing else can
 * happen (every validator and the bus are in-process: a time-out would be waited for nothing),
 * so a faulty round costs a round, not seconds. `clock`: waited out on the node's clock (the wall
 * clock unless one is injected), as CometBFT waits them.
 */
export type ConsensusTime = 'simulated' | 'clock'

export const CONSENSUS_TIMES: readonly ConsensusTime[] = ['simulated', 'clock']
