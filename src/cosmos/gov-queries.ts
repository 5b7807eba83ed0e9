/**
 * The governance precompile's list queries and the constitution, answered as Cosmos EVM answers
 * them from x/gov's keeper (Cosmos SDK 0.50+ query server): `getVotes` (votes in voter-address
 * order, the store's), `getDeposit` / `getDeposits` (a deposit record lives while its proposal is
 * voted on: x/gov deletes the records when it refunds or burns them at the end), `getProposals`
 * (by id, filtered by status, voter and depositor before paging), `getConstitution` (x/gov's
 * genesis default, the empty string: nothing here amends it).
 */
import { checksumAddress as checksum } from '../crypto/checksum.js'
import { data } from '../hex.js'
import type { AbiValue } from './abi.js'
import { COINS, GovState, PROPOSAL, proposalValue, VOTING } from './gov-state.js'
import type { CosmosSettings } from './options.js'
import { PAGE_REQUEST, PAGE_RESPONSE, paginate } from './page.js'
import { PrecompileRevert, type PrecompileMethod } from './precompile.js'
import { slot } from './staking-state.js'

const VOTE = '(uint64,address,(uint8,string)[],string)'
const DEPOSIT = `(uint64,address,${COINS})`

/** x/gov's query server refuses proposal id 0 before it looks anything up. */
function nonZero(id: bigint): void {
  if (id === 0n) throw new PrecompileRevert('proposal id can not be 0')
}

/** The voters of a proposal, in x/gov's store order (by address bytes). */
async function voters(gov: GovState, id: bigint): Promise<Uint8Array[]> {
  return (await gov.voters(id)).sort((a, b) => Buffer.compare(a, b))
}

/** The deposit records of a proposal while it is voted on, in x/gov's store order (by depositor address). */
async function deposits(gov: GovState, settings: CosmosSettings, id: bigint): Promise<AbiValue[][]> {
  if ((await gov.get(slot('gov.status', id))) !== VOTING) return []
  const out: AbiValue[][] = []
  for (const who of (await gov.depositors(id)).sort((a, b) => Buffer.compare(a, b))) out.push([id, who, [[settings.denom, await gov.depositOf(id, who)]]])
  return out
}

/** The query methods, for the governance precompile's table. */
export function govQueries(settings: CosmosSettings): PrecompileMethod[] {
  return [
    {
      signature: `getVotes(uint64,${PAGE_REQUEST})`,
      outputs: [`${VOTE}[]`, PAGE_RESPONSE],
      write: false,
      gas: 8_000n,
      async run([proposalId, request], call) {
        const id = proposalId as bigint
        nonZero(id)
        const gov = new GovState(call.state)
        const { page, response } = paginate(await voters(gov, id), request)
        const votes: AbiValue[] = []
        for (const voter of page) votes.push([id, voter, (await gov.voteOptions(id, voter)).map((o) => [o.option, o.text]), ''])
        return { values: [votes, response] }
      },
    },
    {
      signature: 'getDeposit(uint64,address)',
      outputs: [DEPOSIT],
      write: false,
      gas: 4_000n,
      async run([proposalId, depositor], call) {
        const id = proposalId as bigint
        nonZero(id)
        const who = depositor as Uint8Array
        const found = (await deposits(new GovState(call.state), settings, id)).find((d) => Buffer.compare(d[1] as Uint8Array, who) === 0)
        if (found === undefined) throw new PrecompileRevert(`depositer: ${checksum(data(who))} not found for proposal: ${id}`)
        return { values: [found] }
      },
    },
    {
      signature: `getDeposits(uint64,${PAGE_REQUEST})`,
      outputs: [`${DEPOSIT}[]`, PAGE_RESPONSE],
      write: false,
      gas: 8_000n,
      async run([proposalId, request], call) {
        const id = proposalId as bigint
        nonZero(id)
        const { page, response } = paginate(await deposits(new GovState(call.state), settings, id), request)
        return { values: [page, response] }
      },
    },
    {
      signature: `getProposals(uint32,address,address,${PAGE_REQUEST})`,
      outputs: [`${PROPOSAL}[]`, PAGE_RESPONSE],
      write: false,
      gas: 8_000n,
      async run([status, voter, depositor, request], call) {
        const gov = new GovState(call.state)
        const n = await gov.get(slot('gov.n'))
        // A status outside x/gov's five (0: unspecified) filters nothing; so does the zero address.
        const byStatus = (status as bigint) >= 1n && (status as bigint) <= 5n
        const byVoter = !(voter as Uint8Array).every((b) => b === 0)
        const byDepositor = !(depositor as Uint8Array).every((b) => b === 0)
        const matching: bigint[] = []
        for (let id = 1n; id <= n; id++) {
          const current = await gov.get(slot('gov.status', id))
          // Status 0: cancelled, and deleted as x/gov deletes it.
          if (current === 0n || (byStatus && current !== status)) continue
          if (byVoter && (await gov.get(slot('gov.vote', id, voter as Uint8Array))) === 0n) continue
          if (byDepositor && !(await deposits(gov, settings, id)).some((d) => Buffer.compare(d[1] as Uint8Array, depositor as Uint8Array) === 0)) continue
          matching.push(id)
        }
        const { page, response } = paginate(matching, request)
        const proposals: AbiValue[] = []
        for (const id of page) proposals.push(await proposalValue(gov, settings, id))
        return { values: [proposals, response] }
      },
    },
    {
      signature: 'getConstitution()',
      outputs: ['string'],
      write: false,
      gas: 2_000n,
      run: async () => ({ values: [''] }),
    },
  ]
}
