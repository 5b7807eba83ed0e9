/**
 * Governance as far as it means something on a test chain: text proposals (no messages to
 * execute), voted on by staked tokens over a voting period counted in blocks and tallied in
 * EndBlock with Cosmos's default quorum (33.4%), threshold (50%) and veto (33.4%); Cosmos EVM's
 * governance precompile (0x…0805, `IGov`) for them (its list queries: gov-queries.ts). The
 * deposit must reach the minimum at submission (no deposit period); it is refunded unless the
 * proposal is vetoed (then burned).
 */
import { checksumAddress as checksum } from '../crypto/checksum.js'
import { data, toBigInt } from '../hex.js'
import { encode } from './abi.js'
import { COINS, GOV_POOL, GovState, knownProposal as known, MIN_DEPOSIT, PROPOSAL, proposalValue, TALLY_RESULT, tallyOf, VOTING, whole } from './gov-state.js'
import { cancelProposal, deposit } from './gov-deposit.js'
import { voteWeighted } from './gov-weighted.js'
import { govQueries } from './gov-queries.js'
import type { CosmosSettings } from './options.js'
import { addressTopic, PrecompileRevert, tablePrecompile } from './precompile.js'
import { slot } from './staking-state.js'
import { requester } from './staking-rules.js'

export { endVoting, GOV_POOL } from './gov-state.js'


/** The governance precompile. */
export function govPrecompile(settings: CosmosSettings) {
  return tablePrecompile('0000000000000000000000000000000000000805', [
    {
      signature: `submitProposal(address,bytes,${COINS})`,
      outputs: ['uint64'],
      write: true,
      gas: 80_000n,
      async run([proposer, json, deposit], call) {
        const who = proposer as Uint8Array
        requester(call, who)
        let proposal: { messages?: unknown; title?: unknown; summary?: unknown; metadata?: unknown }
        try {
          proposal = JSON.parse(new TextDecoder().decode(json as Uint8Array)) as typeof proposal
        } catch (error) {
          throw new PrecompileRevert(`invalid proposal JSON: ${(error as Error).message}`)
        }
        if (Array.isArray(proposal.messages) && proposal.messages.length > 0) {
          throw new PrecompileRevert('proposals with messages are not modelled on this chain: nothing would execute them; submit a text proposal (no messages)')
        }
        const title = typeof proposal.title === 'string' ? proposal.title : ''
        if (title === '') throw new PrecompileRevert('proposal title cannot be empty')
        let amount = 0n
        for (const [denom, value] of deposit as Array<[string, bigint]>) {
          if (denom !== settings.denom) throw new PrecompileRevert(`invalid deposit denom ${denom}: the one coin here is ${settings.denom}`)
          amount += value
        }
        if (amount < MIN_DEPOSIT) throw new PrecompileRevert(`the initial deposit ${amount}${settings.denom} is below the minimum ${MIN_DEPOSIT}${settings.denom}: deposit periods are not modelled, a proposal starts voting at once`)
        const gov = new GovState(call.state)
        if (!(await gov.staking.transfer(who, GOV_POOL.bytes, amount))) throw new PrecompileRevert(`spendable balance ${await gov.staking.balance(who)}${settings.denom} is smaller than ${amount}${settings.denom}: insufficient funds`)
        const id = (await gov.get(slot('gov.n'))) + 1n
        await gov.put(slot('gov.n'), id)
        await gov.put(slot('gov.status', id), VOTING)
        await gov.put(slot('gov.start', id), call.blockNumber)
        await gov.put(slot('gov.end', id), call.blockNumber + settings.votingBlocks)
        await gov.addDeposit(id, who, amount)
        await gov.put(slot('gov.proposer', id), toBigInt(who))
        await gov.putText(slot('gov.title', id), title)
        await gov.putText(slot('gov.summary', id), typeof proposal.summary === 'string' ? proposal.summary : '')
        await gov.putText(slot('gov.metadata', id), typeof proposal.metadata === 'string' ? proposal.metadata : '')
        return { values: [id], events: [{ signature: 'SubmitProposal(address,uint64)', topics: [addressTopic(who)], data: encode(['uint64'], [id]) }] }
      },
    },
    {
      signature: 'vote(address,uint64,uint8,string)',
      outputs: ['bool'],
      write: true,
      gas: 40_000n,
      async run([voter, proposalId, option], call) {
        const who = voter as Uint8Array
        const id = proposalId as bigint
        requester(call, who)
        const gov = new GovState(call.state)
        await known(gov, id)
        if ((await gov.get(slot('gov.status', id))) !== VOTING) throw new PrecompileRevert(`${id}: inactive proposal`)
        if ((option as bigint) < 1n || (option as bigint) > 4n) throw new PrecompileRevert(`invalid vote option ${option}`)
        await gov.putVote(id, who, whole(option as bigint))
        return { values: [true], events: [{ signature: 'Vote(address,uint64,uint8)', topics: [addressTopic(who)], data: encode(['uint64', 'uint8'], [id, option as bigint]) }] }
      },
    },
    {
      signature: 'getVote(uint64,address)',
      outputs: ['(uint64,address,(uint8,string)[],string)'],
      write: false,
      gas: 4_000n,
      async run([proposalId, voter], call) {
        const gov = new GovState(call.state)
        const id = proposalId as bigint
        await known(gov, id)
        const options = await gov.voteOptions(id, voter as Uint8Array)
        if (options.length === 0) throw new PrecompileRevert(`voter: ${checksum(data(voter as Uint8Array))} not found for proposal: ${id}`)
        return { values: [[id, voter as Uint8Array, options.map((o) => [o.option, o.text]), '']] }
      },
    },
    {
      signature: 'getTallyResult(uint64)',
      outputs: [TALLY_RESULT],
      write: false,
      gas: 8_000n,
      async run([proposalId], call) {
        const gov = new GovState(call.state)
        await known(gov, proposalId as bigint)
        return { values: [await tallyOf(gov, proposalId as bigint)] }
      },
    },
    {
      signature: 'getProposal(uint64)',
      outputs: [PROPOSAL],
      write: false,
      gas: 8_000n,
      async run([proposalId], call) {
        const gov = new GovState(call.state)
        const id = proposalId as bigint
        await known(gov, id)
        return { values: [await proposalValue(gov, settings, id)] }
      },
    },
    {
      signature: 'getParams()',
      outputs: [`(int64,${COINS},int64,string,string,string,string,string,string,int64,string,${COINS},bool,bool,bool,string)`],
      write: false,
      gas: 2_000n,
      run: async () => ({
        values: [[
          settings.votingBlocks,
          [[settings.denom, MIN_DEPOSIT]],
          0n,
          '0.334000000000000000',
          '0.500000000000000000',
          '0.334000000000000000',
          '0.000000000000000000',
          // proposal_cancel_ratio: the share of the deposits cancelProposal burns (to proposal_cancel_dest, '': burned).
          '0.500000000000000000',
          '',
          settings.votingBlocks,
          '0.667000000000000000',
          [[settings.denom, MIN_DEPOSIT]],
          false,
          false,
          true,
          '0.010000000000000000',
        ]],
      }),
    },
    cancelProposal(settings),
    deposit(settings),
    voteWeighted,
    ...govQueries(settings),
  ])
}
