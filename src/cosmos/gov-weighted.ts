/**
 * The governance precompile's `voteWeighted`: a vote split over several options, with x/gov's
 * checks in its order (the Cosmos SDK's `MsgServer.VoteWeighted`): at least one option; each
 * option valid (yes, abstain, no or veto, with a weight that is a decimal above 0 and at most 1);
 * no option twice; the weights summing to exactly 1. The tally splits the voter's power by the
 * weights (gov-state.ts).
 */
import { encode } from './abi.js'
import { GovState, knownProposal, VOTING, type WeightedOption } from './gov-state.js'
import { addressTopic, PrecompileRevert, type PrecompileMethod } from './precompile.js'
import { slot } from './staking-state.js'
import { requester } from './staking-rules.js'

const DEC = 10n ** 18n
const OPTION_NAMES = ['VOTE_OPTION_UNSPECIFIED', 'VOTE_OPTION_YES', 'VOTE_OPTION_ABSTAIN', 'VOTE_OPTION_NO', 'VOTE_OPTION_NO_WITH_VETO']

/** A decimal as Cosmos's `LegacyNewDecFromStr` reads it (up to 18 places), or undefined when it reads none. */
function parseDec(text: string): bigint | undefined {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text)
  if (match === null) return undefined
  const [, sign, whole = '', fraction = ''] = match
  if (whole === '' && fraction === '') return undefined
  if (fraction.length > 18) return undefined
  const value = BigInt(whole === '' ? '0' : whole) * DEC + BigInt(fraction.padEnd(18, '0') || '0')
  return sign === '-' ? -value : value
}

/** The option as x/gov prints it in its refusal (the option's text form). */
function printed(option: bigint, weight: string): string {
  return `option:${OPTION_NAMES[Number(option)] ?? option.toString()} weight:${JSON.stringify(weight)}`
}

/** Checks a weighted vote's options as x/gov's message server does; answers them with their weights. */
function checked(options: ReadonlyArray<[bigint, string]>): WeightedOption[] {
  if (options.length === 0) throw new PrecompileRevert('invalid request: a weighted vote needs at least one option')
  const used = new Set<bigint>()
  let total = 0n
  const out: WeightedOption[] = []
  for (const [option, text] of options) {
    const weight = parseDec(text)
    if (weight === undefined || weight <= 0n || weight > DEC || option < 1n || option > 4n) throw new PrecompileRevert(`${printed(option, text)}: invalid vote option`)
    total += weight
    if (used.has(option)) throw new PrecompileRevert('duplicated vote option: invalid vote option')
    used.add(option)
    out.push({ option, weight, text })
  }
  if (total > DEC) throw new PrecompileRevert('total weight overflow 1.00: invalid vote option')
  if (total < DEC) throw new PrecompileRevert('total weight lower than 1.00: invalid vote option')
  return out
}

/** `voteWeighted(voter, proposalId, options, metadata)`. */
export const voteWeighted: PrecompileMethod = {
  signature: 'voteWeighted(address,uint64,(uint8,string)[],string)',
  outputs: ['bool'],
  write: true,
  gas: 50_000n,
  async run([voter, proposalId, options], call) {
    const who = voter as Uint8Array
    const id = proposalId as bigint
    requester(call, who)
    const weighted = checked(options as Array<[bigint, string]>)
    const gov = new GovState(call.state)
    await knownProposal(gov, id)
    if ((await gov.get(slot('gov.status', id))) !== VOTING) throw new PrecompileRevert(`${id}: inactive proposal`)
    await gov.putVote(id, who, weighted)
    const values = weighted.map((o) => [o.option, o.text])
    return {
      values: [true],
      events: [{ signature: 'VoteWeighted(address,uint64,(uint8,string)[])', topics: [addressTopic(who)], data: encode(['uint64', '(uint8,string)[]'], [id, values]) }],
    }
  },
}
