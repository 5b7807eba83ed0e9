/** The `finality` namespace: the BFT chain's own data (validators, commit certificates). */
import { certificateToJson } from '../consensus/certificate.js'
import { stateRootsNote } from '../fork/fork.js'
import { data, quantity } from '../hex.js'
import { blockByTag } from './blocks.js'
import { blockTag } from './codecs.js'
import { method, type MethodTable } from './method.js'

export const finality: MethodTable = {
  /** The commit certificate of a block: the precommits that decided it (null for genesis / unknown). */
  finality_getCommitCertificate: method({
    params: [blockTag],
    run: async (s, [tag]) => {
      const block = await blockByTag(s, tag)
      if (block === undefined) return null
      const cert = await s.chain.certificate(block.hash())
      return cert === undefined ? null : certificateToJson(cert)
    },
  }),
  /** The validator set with voting power and status. */
  finality_getValidators: method({
    params: [],
    run: ({ bft }) =>
      bft.set.validators.map((v) => ({
        address: v.address,
        publicKey: data(v.publicKey),
        votingPower: quantity(v.power),
        feeRecipient: v.feeRecipient,
        online: bft.set.isOnline(v),
      })),
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
