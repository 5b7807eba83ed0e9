/**
 * eth_getProof (EIP-1186): the account and storage Merkle proofs of any committed block.
 *
 * The interface spec reads the block param as "a specific number" and rejects `latest` and
 * heights below 1; geth, and viem's `getProof` (which sends `latest` by default), take any block
 * param. We take geth's reading: tags, numbers and EIP-1898 hashes all work, and a block past the
 * head answers `header not found`. (A QTY cannot be negative, so the spec's
 * `cannot query with height < 0` has no input that reaches it.)
 */
import { KECCAK256_NULL } from '@ethereumjs/util'
import { CodecError, address, blockSelector, optional, type BlockSelector, type Codec } from '../codecs.js'
import { data, fromHex, keyOf, quantity, toBigInt } from '../../hex.js'
import { verifyProof } from '../../fork/proof.js'
import { EMPTY_ROOT } from '../../state/mpt.js'
import { stateBlock } from '../blocks.js'
import { method, type MethodTable } from '../method.js'


const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

/** Storage keys: hex of up to 32 bytes each (geth left-pads shorter ones), echoed as given. */
const storageKeys: Codec<Array<{ given: string; key: Uint8Array }>> = {
  name: 'storage keys',
  optional: false,
  decode(v) {
    if (!Array.isArray(v)) throw new CodecError('json: cannot unmarshal non-array into Go value of type []string')
    if (v.length > 1024) throw new CodecError('too many storage keys, max is 1024')
    return v.map((k) => {
      if (typeof k !== 'string' || !/^0x[0-9a-fA-F]{0,64}$/.test(k)) throw new CodecError(`invalid storage key: ${String(k)}`)
      const key = new Uint8Array(32)
      const bytes = fromHex(k)
      key.set(bytes, 32 - bytes.length)
      return { given: k, key }
    })
  },
}

export const proof: MethodTable = {
  eth_getProof: method({
    params: [address, storageKeys, optional(blockSelector, LATEST)],
    run: async (s, [addr, keys, at]) => {
      const block = await stateBlock(s, at)
      // A fork's block below its fork block: the remote's proof, answered once it verifies against that block's root.
      if (s.fork !== undefined && block.header.number < s.fork.blockNumber) {
        const answer = await s.fork.remoteCall('eth_getProof', [data(addr), keys.map((k) => data(k.key)), quantity(block.header.number)])
        await verifyProof(answer, block.header.stateRoot, keyOf(addr), keys.map((k) => keyOf(k.key)))
        return answer
      }
      // Test-control writes may have moved a block's state past its header's root: prove what reads see.
      const root = s.chain.stateRootOf(block)
      const p = await s.chain.proof(root, addr, keys.map((k) => k.key))
      return {
        address: data(addr),
        accountProof: p.accountProof.map(data),
        balance: quantity(p.account?.balance ?? 0n),
        codeHash: data(p.account?.codeHash ?? KECCAK256_NULL),
        nonce: quantity(p.account?.nonce ?? 0n),
        storageHash: data(p.account?.storageRoot ?? EMPTY_ROOT),
        storageProof: p.storage.map((entry, i) => ({
          // geth: a full 32-byte key is echoed as given, a shorter one as a number.
          key: keys[i]!.given.length === 66 ? keys[i]!.given : quantity(toBigInt(keys[i]!.key)),
          value: quantity(toBigInt(entry.value)),
          proof: entry.proof.map(data),
        })),
      }
    },
  }),
}
