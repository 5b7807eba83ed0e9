/** The `finality` namespace: the BFT chain's own data (validators, commit certificates). */
import { certificateToJson } from '../consensus/certificate.js'
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
        online: bft.isOnline(v.address),
      })),
  }),
}
