/**
 * finality_getConsensusState: what each validator of the height under way (or of the last height
 * run, when none is) knows: its round and step, its locked and valid value and round, and the
 * prevotes and precommits it has seen per round; and the faults and partition in force.
 */
import type { HeightMachine } from '../consensus/tendermint/machine.js'
import type { Value } from '../consensus/tendermint/messages.js'
import { quantity, type Hex } from '../hex.js'
import type { Services } from '../services.js'

const roundOrNull = (r: number) => (r < 0 ? null : quantity(r))

function tally(m: HeightMachine<Value>, type: 'prevote' | 'precommit', round: number) {
  return (m.votes(type, round)?.tally() ?? []).map((t) => ({ blockHash: t.id === '' ? null : t.id, votingPower: quantity(t.power), votes: quantity(t.votes) }))
}

export function consensusState(s: Pick<Services, 'bft' | 'chain'>) {
  const current = s.bft.current
  const next = s.chain.height + 1n
  const faults = s.bft.faults.entries().map(([validator, fault]) => ({ validator, ...fault }))
  const partition = s.bft.faults.partition ?? null
  const direct = s.bft.setAt(next).validators.length === 1 && s.bft.faults.calm
  const timeouts = s.bft.timeoutSettings
  const time = s.bft.timeMode
  if (current === undefined) return { height: quantity(next), running: false, direct, validators: [], faults, partition, timeouts, time }
  const { run, running } = current
  return {
    height: quantity(run.height),
    running,
    direct,
    validators: run.states().map(({ validator, machine }: { validator: Hex; machine: HeightMachine<Value> }) => {
      const st = machine.state()
      const rounds = Array.from({ length: Math.max(0, st.round) + 1 }, (_, r) => r)
      return {
        address: validator,
        round: quantity(Math.max(0, st.round)),
        step: st.step,
        lockedRound: roundOrNull(st.lockedRound),
        lockedValue: st.lockedValue,
        validRound: roundOrNull(st.validRound),
        validValue: st.validValue,
        votes: rounds.map((r) => ({ round: quantity(r), prevotes: tally(machine, 'prevote', r), precommits: tally(machine, 'precommit', r) })),
      }
    }),
    faults,
    partition,
    rejectedMessages: quantity(run.rejected),
    timeouts,
    time,
  }
}
