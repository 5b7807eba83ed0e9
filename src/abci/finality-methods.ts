/**
 * `finality_getCommitCertificate` and `finality_getValidators` on a node behind CometBFT: the
 * commit and the validator set are CometBFT's, read from the node's own CometBFT RPC (`/commit`,
 * `/validators`). CometBFT height N is EVM block N (FinalizeBlock of height N executes block N).
 * The certificate carries what CometBFT's canonical vote sign bytes need (chain id, round, block
 * id, each vote's time), so anyone can check its ed25519 signatures against the set
 * (docs/devnet.md gives the bytes).
 */
import { InvalidParamsError, ServerError } from '../errors.js'
import { data, quantity } from '../hex.js'
import type { Method } from '../rpc/method.js'
import type { Services } from '../services.js'
import type { BlockTag } from '../chain/block-tag.js'
import { CometRpc, CometRpcError, type CometValidator } from './comet-rpc.js'

const validatorJson = (v: CometValidator) => ({ address: data(v.address), publicKey: data(v.publicKey), votingPower: quantity(v.power) })

/** CometBFT's failure as a JSON-RPC one (-32000, CometBFT's words). */
async function fromComet<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    if (error instanceof CometRpcError) throw new ServerError(error.message)
    throw error
  }
}

/** The two methods over CometBFT at `rpc`, with the params (codecs) of the in-process node's. */
export function cometFinalityMethods(rpc: string, inProcess: ReadonlyMap<string, Method>): Map<string, Method> {
  const comet = new CometRpc(rpc)
  const paramsOf = (name: string) => {
    const m = inProcess.get(name)
    if (m === undefined) throw new Error(`no ${name} method to serve from CometBFT`)
    return m.params
  }
  const out = new Map<string, Method>()
  out.set('finality_getCommitCertificate', {
    params: paramsOf('finality_getCommitCertificate'),
    run: async (s: Services, [tag]) => {
      const t = tag as BlockTag
      // The pending block and genesis have no commit; a height past the head none yet.
      if (t.kind === 'tag' && t.tag === 'pending') return null
      const height = t.kind === 'number' ? t.number : t.tag === 'earliest' ? 0n : s.chain.height
      const block = await s.chain.blockByNumber(height)
      if (height === 0n || block === undefined) return null
      const [commit, set] = await fromComet(() => Promise.all([comet.commit(height), comet.validators(height)]))
      return {
        height: quantity(commit.height),
        round: quantity(commit.round),
        blockHash: data(block.hash()),
        proposer: data(commit.proposer),
        precommits: commit.precommits.map((p) => ({ validator: data(p.validator), signature: data(p.signature), timestamp: { seconds: quantity(p.seconds), nanos: quantity(p.nanos) } })),
        validatorSet: set.map(validatorJson),
        cometbft: {
          chainId: commit.chainId,
          blockId: { hash: data(commit.blockHash), partSetHeader: { total: quantity(commit.partsTotal), hash: data(commit.partsHash) } },
        },
      }
    },
  })
  out.set('finality_getValidators', {
    params: paramsOf('finality_getValidators'),
    run: async (s: Services, [tag]) => {
      const t = tag as BlockTag | undefined
      const next = s.chain.height + 1n
      const height = t === undefined || (t.kind === 'tag' && t.tag === 'pending') ? next : t.kind === 'number' ? t.number : t.tag === 'earliest' ? 0n : s.chain.height
      // CometBFT knows the set of its latest height + 1; genesis is served the first block's set, as in-process.
      if (height > next) throw new InvalidParamsError(`block ${height} is beyond ${next}, the last height whose validator set CometBFT gives`)
      const set = await fromComet(() => comet.validators(height === 0n ? 1n : height))
      return set.map((v) => ({ ...validatorJson(v), feeRecipient: data(v.address) }))
    },
  })
  return out
}
