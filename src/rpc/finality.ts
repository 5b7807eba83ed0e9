/**
 * The `finality` namespace: the BFT chain's own data (validator sets, commit certificates,
 * duplicate-vote evidence, the validators' consensus state). The controls are in
 * finality-controls.ts.
 */
import { certificateWithSetToJson } from '../consensus/certificate.js'
import type { Validator } from '../consensus/validator.js'
import type { DuplicateVoteEvidence } from '../consensus/tendermint/vote-set.js'
import type { VoteMessage } from '../consensus/tendermint/messages.js'
import { InvalidParamsError } from '../errors.js'
import { stateRootsNote } from '../fork/fork.js'
import { data, quantity } from '../hex.js'
import { blockByTag, heightOf } from './blocks.js'
import { blockTag, optional } from './codecs.js'
import { type MethodTable, methodsOf, type Ports } from './method.js'
import { consensusState } from './finality-state.js'

import type { HistoryPorts } from '../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'bft' | 'chain' | 'fork' | 'limits'> & HistoryPorts
const method = methodsOf<keyof Here>()

function validatorJson(s: Here, v: Validator) {
  return {
    address: v.address,
    publicKey: data(v.publicKey),
    votingPower: quantity(v.power),
    feeRecipient: v.feeRecipient,
    online: s.bft.isOnline(v.address),
  }
}

function voteJson(v: VoteMessage) {
  return { blockHash: v.blockHash === null ? null : data(v.blockHash), signature: data(v.signature) }
}

function evidenceJson(e: DuplicateVoteEvidence) {
  return {
    type: 'duplicateVote',
    validator: e.validator,
    height: quantity(e.height),
    round: quantity(e.round),
    step: e.type,
    voteA: voteJson(e.voteA),
    voteB: voteJson(e.voteB),
  }
}

export const finality: MethodTable = {
  /**
   * The commit certificate of a block: the precommits that decided it, the round, and the
   * validator set of its height that signed it (null for genesis / unknown).
   */
  finality_getCommitCertificate: method({
    params: [blockTag],
    run: async (s, [tag]) => {
      const block = await blockByTag(s, tag)
      if (block === undefined) return null
      const cert = await s.chain.certificate(block.hash())
      if (cert === undefined) return null
      return certificateWithSetToJson(cert, s.bft.setAt(cert.height).validators)
    },
  }),
  /**
   * The validator set with voting power and status: of the next height without a block, of the
   * block's height with one (the set that signed its certificate), up to the head + 2.
   */
  finality_getValidators: method({
    params: [optional(blockTag, undefined)],
    run: (s, [tag]) => {
      const next = s.chain.height + 1n
      const height = tag === undefined || (tag.kind === 'tag' && tag.tag === 'pending') ? next : heightOf(s, tag)
      // The set of head + 2 is already fixed: changes requested now apply there.
      if (height > s.chain.height + 2n) throw new InvalidParamsError(`block ${height} is beyond ${s.chain.height + 2n}, the last height whose validator set is known`)
      return s.bft.setAt(height === 0n ? 1n : height).validators.map((v) => validatorJson(s, v))
    },
  }),
  /** The validator sets by the height they start at, and the height each change was requested at. */
  finality_getValidatorHistory: method({
    params: [],
    run: (s) =>
      s.bft.history.epochs.map((e) => ({
        fromBlock: quantity(e.from),
        requestedAt: quantity(e.requestedAt),
        validators: e.validators.map((v) => ({ address: v.address, votingPower: quantity(v.power) })),
      })),
  }),
  /** Duplicate-vote evidence of heights `from` … `to` (without both: all, up to the next height). */
  finality_getEvidence: method({
    params: [optional(blockTag, undefined), optional(blockTag, undefined)],
    run: (s, [fromTag, toTag]) => {
      const next = s.chain.height + 1n
      const from = fromTag === undefined ? 0n : heightOf(s, fromTag)
      const to = toTag === undefined ? next : heightOf(s, toTag)
      if (from > to) throw new InvalidParamsError(`fromBlock ${from} is after toBlock ${to}`)
      const max = BigInt(s.limits.evidenceBlockRange)
      if (to - from >= max && !(fromTag === undefined && toTag === undefined)) {
        throw new InvalidParamsError(`block range too large: at most ${max} heights at once (the evidenceBlockRange limit)`)
      }
      return s.bft.evidence.range(from, to).map(evidenceJson)
    },
  }),
  /** The validators' consensus state: height, round, step, locks and the votes each has seen. */
  finality_getConsensusState: method({
    params: [],
    run: (s) => consensusState(s),
  }),
  /**
   * The fork, or null for a node that forks nothing: the remote, the fork block, how state is
   * checked (every account and slot verified with eth_getProof: state roots are real) and what
   * was fetched so far (requests sent to the remote, accounts, slots, code, searched nodes).
   */
  finality_forkStatus: method({
    params: [],
    run: ({ fork }) => {
      if (fork === undefined) return null
      const stats = fork.stats()
      return {
        remote: fork.remote,
        chainId: quantity(fork.chainId),
        forkBlockNumber: quantity(fork.blockNumber),
        forkBlockHash: data(fork.blockHash),
        // Without eth_getProof at the remote, state is read unverified and roots cover only what the fork wrote.
        stateRoots: stateRootsNote(fork.proofs),
        requests: stats.remote,
        loaded: stats.state,
        history: stats.history,
      }
    },
  }),
}
