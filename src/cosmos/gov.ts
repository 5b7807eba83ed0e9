/**
 * Governance as far as it means something on a test chain: text proposals (no messages to
 * execute), voted on by staked tokens over a voting period counted in blocks and tallied in
 * EndBlock with Cosmos's default quorum (33.4%), threshold (50%) and veto (33.4%); Cosmos EVM's
 * governance precompile (0x…0805, `IGov`) for them. The deposit must reach the minimum at
 * submission (no deposit period); it is refunded unless the proposal is vetoed (then burned).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { Address } from '@ethereumjs/util'
import type { StateManagerInterface } from '@ethereumjs/common'
import { checksumAddress as checksum } from '../crypto/checksum.js'
import { data, toBigInt, unpadded, word } from '../hex.js'
import type { AbiValue } from './abi.js'
import { encode } from './abi.js'
import type { CosmosSettings } from './options.js'
import { addressTopic, PrecompileRevert, refused, tablePrecompile } from './precompile.js'
import { slot, STAKING_ADDRESS, StakingState } from './staking-state.js'

/** Cosmos's `gov` module account: it holds the deposits. */
export const GOV_POOL = new Address(sha256(new TextEncoder().encode('gov')).subarray(0, 20))
/** The minimum deposit: 1 token (10^18 of the denomination). */
export const MIN_DEPOSIT = 10n ** 18n
const VOTING = 2n
const PASSED = 3n
const REJECTED = 4n
const DEC = 10n ** 18n
const QUORUM = 334n * 10n ** 15n
const THRESHOLD = 5n * 10n ** 17n
const VETO = 334n * 10n ** 15n

class GovState {
  readonly staking: StakingState
  constructor(private readonly state: StateManagerInterface) {
    this.staking = new StakingState(state)
  }

  async get(key: Uint8Array): Promise<bigint> {
    const v = await this.state.getStorage(STAKING_ADDRESS, key)
    return v.length === 0 ? 0n : toBigInt(v)
  }

  async put(key: Uint8Array, value: bigint): Promise<void> {
    await this.state.putStorage(STAKING_ADDRESS, key, unpadded(value))
  }

  async putText(base: Uint8Array, text: string): Promise<void> {
    const bytes = new TextEncoder().encode(text)
    await this.put(base, BigInt(bytes.length))
    for (let i = 0; i * 32 < bytes.length; i++) {
      const chunk = new Uint8Array(32)
      chunk.set(bytes.subarray(i * 32, i * 32 + 32))
      await this.state.putStorage(STAKING_ADDRESS, word(toBigInt(base) + 1n + BigInt(i)), unpadded(toBigInt(chunk)))
    }
  }

  async text(base: Uint8Array): Promise<string> {
    const length = Number(await this.get(base))
    const out = new Uint8Array(Math.ceil(length / 32) * 32)
    for (let i = 0; i * 32 < length; i++) out.set(word(await this.get(word(toBigInt(base) + 1n + BigInt(i)))), i * 32)
    return new TextDecoder().decode(out.subarray(0, length))
  }

  /** A voter's power: its delegated tokens with bonded validators. */
  async power(voter: Uint8Array): Promise<bigint> {
    let total = 0n
    for (const a of await this.staking.validatorAddresses()) {
      const v = await this.staking.validator(a)
      if (v === undefined || v.jailed || v.shares === 0n) continue
      total += ((await this.staking.delegationShares(voter, a)) * v.tokens) / v.shares
    }
    return total
  }

  async bonded(): Promise<bigint> {
    let total = 0n
    for (const a of await this.staking.validatorAddresses()) {
      const v = await this.staking.validator(a)
      if (v !== undefined && !v.jailed) total += v.tokens
    }
    return total
  }

  /** The tally of proposal `id`: yes, abstain, no, veto (tokens). */
  async tally(id: bigint): Promise<bigint[]> {
    const sums = [0n, 0n, 0n, 0n]
    const n = await this.get(slot('gov.voters.n', id))
    for (let i = 0n; i < n; i++) {
      const voter = word(await this.get(slot('gov.voters', id, i))).subarray(12)
      const option = await this.get(slot('gov.vote', id, voter))
      if (option >= 1n && option <= 4n) sums[Number(option) - 1] = (sums[Number(option) - 1] as bigint) + (await this.power(voter))
    }
    return sums
  }
}

/** EndBlock: proposals whose voting period ends at `height` are tallied, and their deposits settled. */
export async function endVoting(state: StateManagerInterface, height: bigint): Promise<void> {
  const gov = new GovState(state)
  const n = await gov.get(slot('gov.n'))
  for (let id = 1n; id <= n; id++) {
    if ((await gov.get(slot('gov.status', id))) !== VOTING || (await gov.get(slot('gov.end', id))) > height) continue
    const [yes, abstain, no, veto] = (await gov.tally(id)) as [bigint, bigint, bigint, bigint]
    const voted = yes + abstain + no + veto
    const bonded = await gov.bonded()
    let status = REJECTED
    let burn = false
    if (bonded > 0n && voted * DEC >= bonded * QUORUM) {
      if (veto * DEC >= voted * VETO) burn = true
      else if (yes + no + veto > 0n && yes * DEC > (yes + no + veto) * THRESHOLD) status = PASSED
    }
    for (const [i, v] of [yes, abstain, no, veto].entries()) await gov.put(slot('gov.tally', id, BigInt(i)), v)
    await gov.put(slot('gov.status', id), status)
    const deposit = await gov.get(slot('gov.deposit', id))
    const proposer = word(await gov.get(slot('gov.proposer', id))).subarray(12)
    if (burn) await gov.staking.burn(GOV_POOL.bytes, deposit)
    else await gov.staking.transfer(GOV_POOL.bytes, proposer, deposit)
  }
}

const COINS = '(string,uint256)[]'
const TALLY = '(string,string,string,string)'
const PROPOSAL = `(uint64,string[],uint32,${TALLY},uint64,uint64,${COINS},uint64,uint64,string,string,string,address)`
const PAGE_REQUEST = '(bytes,uint64,uint64,bool,bool)'

/** The governance precompile. */
export function govPrecompile(settings: CosmosSettings) {
  const requester = (caller: Uint8Array, who: Uint8Array) => {
    if (Buffer.compare(caller, who) !== 0) throw new PrecompileRevert(`msg.sender address ${checksum(data(caller))} does not match the requester address ${checksum(data(who))}`)
  }
  const known = async (gov: GovState, id: bigint) => {
    if (id === 0n || id > (await gov.get(slot('gov.n')))) throw new PrecompileRevert(`proposal ${id} doesn't exist`)
  }
  const tallyOf = async (gov: GovState, id: bigint): Promise<AbiValue[]> => {
    const status = await gov.get(slot('gov.status', id))
    const sums = status === VOTING ? await gov.tally(id) : await Promise.all([0n, 1n, 2n, 3n].map((i) => gov.get(slot('gov.tally', id, i))))
    return sums.map((s) => s.toString())
  }
  return tablePrecompile('0000000000000000000000000000000000000805', [
    {
      signature: `submitProposal(address,bytes,${COINS})`,
      outputs: ['uint64'],
      write: true,
      gas: 80_000n,
      async run([proposer, json, deposit], call) {
        const who = proposer as Uint8Array
        requester(call.caller, who)
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
        await gov.put(slot('gov.deposit', id), amount)
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
        requester(call.caller, who)
        const gov = new GovState(call.state)
        await known(gov, id)
        if ((await gov.get(slot('gov.status', id))) !== VOTING) throw new PrecompileRevert(`${id}: inactive proposal`)
        if ((option as bigint) < 1n || (option as bigint) > 4n) throw new PrecompileRevert(`invalid vote option ${option}`)
        if ((await gov.get(slot('gov.vote', id, who))) === 0n) {
          const n = await gov.get(slot('gov.voters.n', id))
          await gov.put(slot('gov.voters', id, n), toBigInt(who))
          await gov.put(slot('gov.voters.n', id), n + 1n)
        }
        await gov.put(slot('gov.vote', id, who), option as bigint)
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
        const option = await gov.get(slot('gov.vote', id, voter as Uint8Array))
        if (option === 0n) throw new PrecompileRevert(`voter: ${checksum(data(voter as Uint8Array))} not found for proposal: ${id}`)
        return { values: [[id, voter as Uint8Array, [[option, '1.000000000000000000']], '']] }
      },
    },
    {
      signature: 'getTallyResult(uint64)',
      outputs: [TALLY],
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
        const start = await gov.get(slot('gov.start', id))
        return {
          values: [[
            id,
            [],
            await gov.get(slot('gov.status', id)),
            await tallyOf(gov, id),
            start,
            start,
            [[settings.denom, await gov.get(slot('gov.deposit', id))]],
            start,
            await gov.get(slot('gov.end', id)),
            await gov.text(slot('gov.metadata', id)),
            await gov.text(slot('gov.title', id)),
            await gov.text(slot('gov.summary', id)),
            word(await gov.get(slot('gov.proposer', id))).subarray(12),
          ]],
        }
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
          '0.000000000000000000',
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
    refused('cancelProposal(address,uint64)', ['bool'], 'cancelProposal is not modelled on this chain'),
    refused(`deposit(address,uint64,${COINS})`, ['bool'], 'deposit: deposit periods are not modelled on this chain; a proposal votes from its submission'),
    refused('voteWeighted(address,uint64,(uint8,string)[],string)', ['bool'], 'voteWeighted is not modelled on this chain: vote with one option'),
    refused(`getVotes(uint64,${PAGE_REQUEST})`, ['(uint64,address,(uint8,string)[],string)[]', '(bytes,uint64)'], 'getVotes is not modelled on this chain: read each vote with getVote'),
    refused('getDeposit(uint64,address)', ['(uint64,address,(string,uint256)[])'], 'getDeposit is not modelled on this chain: the deposit is the proposal\'s totalDeposit'),
    refused(`getDeposits(uint64,${PAGE_REQUEST})`, ['(uint64,address,(string,uint256)[])[]', '(bytes,uint64)'], 'getDeposits is not modelled on this chain: the deposit is the proposal\'s totalDeposit'),
    refused(`getProposals(uint32,address,address,${PAGE_REQUEST})`, [`${PROPOSAL}[]`, '(bytes,uint64)'], 'getProposals is not modelled on this chain: read each proposal with getProposal'),
    refused('getConstitution()', ['string'], 'getConstitution: this chain has no constitution'),
  ])
}
