/**
 * The network as the node reports it: which validators can hear which (the partition's groups,
 * from finality_getConsensusState), whether a group holds the power to decide alone, and the
 * evidence of equivocations (finality_getEvidence, then the consensus events).
 */
import { useStore } from './hooks.js'
import type { Hex } from './store.js'

/** The partition drawn as groups, each with its voting power against the set's. */
export function Partition() {
  const s = useStore()
  const power = new Map(s.validators.map((v) => [v.address.toLowerCase(), v]))
  const total = s.validators.reduce((sum, v) => sum + BigInt(v.votingPower), 0n)
  const groups: Hex[][] = s.partition ?? [s.validators.map((v) => v.address)]
  return (
    <section id="network">
      <h2>Network</h2>
      <p class="muted">
        {s.partition === null ? 'no partition: every validator hears every other' : `partitioned in ${groups.length} groups: a validator hears only the validators of its group`}
      </p>
      <div class="groups">
        {groups.map((group, i) => {
          // Only online members vote; a group decides alone with more than 2/3 of the whole set's power.
          const voting = group.reduce((sum, a) => {
            const v = power.get(a.toLowerCase())
            return v === undefined || !v.online ? sum : sum + BigInt(v.votingPower)
          }, 0n)
          const decides = voting * 3n > total * 2n
          return (
            <div key={i} class="group" data-group={i}>
              <div class={decides ? 'ok' : 'error'}>
                group {i + 1}: {voting.toString()} of {total.toString()} voting power, {decides ? 'can decide' : 'no quorum'}
              </div>
              <ul>
                {group.map((a) => {
                  const v = power.get(a.toLowerCase())
                  return (
                    <li key={a} class="mono" data-validator={a.toLowerCase()}>
                      {a} {v === undefined ? '(not in the set)' : `power ${BigInt(v.votingPower).toString()}${v.online ? '' : ', offline'}`}
                    </li>
                  )
                })}
              </ul>
            </div>
          )
        })}
      </div>
    </section>
  )
}

/** The evidence the validators reported: its kind, the validator, the height, round and step. */
export function EvidenceList() {
  const s = useStore()
  return (
    <>
      <h2>Evidence</h2>
      {s.evidence.length === 0 ? <p class="muted">none</p> : (
        <ol id="evidence">
          {s.evidence.map((e, i) => (
            <li key={i} class="error" data-validator={e.validator.toLowerCase()} data-height={BigInt(e.height).toString()}>
              duplicate vote: two {String(e.step)}s by <span class="mono">{e.validator}</span> at height {BigInt(e.height).toString()}, round {BigInt(e.round).toString()}
            </li>
          ))}
        </ol>
      )}
    </>
  )
}
