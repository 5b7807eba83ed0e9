/**
 * `finality_subscribe("consensus")`: the validators' consensus events, notified as
 * `finality_subscription` (geth's `<namespace>_subscribe` convention, as debug_subscribe):
 * newRound, proposal, vote, polka, lock, timeout, commit and evidence; halt (a height found no
 * quorum: `reason` says why) and resume (the first height committed after a halt); faults (a test
 * control changed the faults or the partition: those now in force, as finality_getConsensusState
 * gives them).
 */
import type { ConsensusEvent } from '../consensus/tendermint/events.js'
import type { Subscriptions } from '../filters/subscriptions.js'
import { MethodNotFoundError } from '../errors.js'
import { data, quantity, type Hex } from '../hex.js'
import type { Services } from '../services.js'

const hashOrNull = (h: Uint8Array | null) => (h === null ? null : data(h))

export function consensusEventJson(e: ConsensusEvent): Record<string, unknown> {
  switch (e.type) {
    case 'evidence': {
      const x = e.evidence
      return {
        type: 'evidence',
        height: quantity(x.height),
        round: quantity(x.round),
        validator: x.validator,
        step: x.type,
        blockHashes: [hashOrNull(x.voteA.blockHash), hashOrNull(x.voteB.blockHash)],
      }
    }
    case 'newRound':
      return { type: e.type, height: quantity(e.height), round: quantity(e.round), validator: e.validator, proposer: e.proposer }
    case 'proposal':
      return { type: e.type, height: quantity(e.height), round: quantity(e.round), proposer: e.proposer, blockHash: data(e.blockHash), validRound: e.validRound < 0 ? null : quantity(e.validRound) }
    case 'vote':
      return { type: e.type, height: quantity(e.height), round: quantity(e.round), step: e.vote, validator: e.validator, blockHash: hashOrNull(e.blockHash) }
    case 'polka':
      return { type: e.type, height: quantity(e.height), round: quantity(e.round), validator: e.validator, blockHash: hashOrNull(e.blockHash) }
    case 'lock':
      return { type: e.type, height: quantity(e.height), round: quantity(e.round), validator: e.validator, blockHash: data(e.blockHash) }
    case 'timeout':
      return { type: e.type, height: quantity(e.height), round: quantity(e.round), validator: e.validator, step: e.step }
    case 'commit':
      return { type: e.type, height: quantity(e.height), round: quantity(e.round), blockHash: data(e.blockHash), proposer: e.proposer }
    case 'halt':
      return { type: e.type, height: quantity(e.height), reason: e.reason }
    case 'resume':
      return { type: e.type, height: quantity(e.height) }
    case 'faults':
      return { type: e.type, faults: e.faults.map(([validator, fault]) => ({ validator, ...fault })), partition: e.partition ?? null }
  }
}

/** Subscribes `name` of the finality namespace on `subs`. */
export function finalitySubscribe(s: Services, subs: Subscriptions, created: (id: Hex) => void, name: unknown): Hex {
  if (name !== 'consensus') throw new MethodNotFoundError('finality_subscribe', `no ${JSON.stringify(name)} subscription in finality namespace`)
  const task = subs.subscribeTask('finality')
  created(task.id)
  const off = s.bft.subscribe((event) => {
    if (!task.live()) {
      off()
      return
    }
    task.emit(consensusEventJson(event))
  })
  return task.id
}
