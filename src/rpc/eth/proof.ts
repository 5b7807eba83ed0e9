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
import { data, fromHex, quantity, toBigInt } from '../../hex.js'
import type { Block } from '@ethereumjs/block'
import { EMPTY_ROOT } from '../../state/mpt.js'
import { stateBlock } from '../blocks.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'


import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'history'> & HistoryPorts
const method = methodsOf<keyof Here>()


const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' }

/** Storage keys: hex of up to 32 bytes each (geth left-pads shorter ones), echoed as given. */
/** A storage key as given (echoed) and as 32 bytes. */
export interface StorageKey {
  given: string
  key: Uint8Array
}

const storageKeys: Codec<StorageKey[]> = {
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

/** The proof of `addr` and `keys` at `block`, from this chain's trie (the local history reader's). */
export async function localProof(s: HistoryPorts, block: Block, addr: Uint8Array, keys: StorageKey[]): Promise<unknown> {
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
}

export const proof: MethodTable = {
  eth_getProof: method({
    params: [address, storageKeys, optional(blockSelector, LATEST)],
    run: async (s, [addr, keys, at]) => s.history.proof(s, await stateBlock(s, at), addr, keys),
  }),
}
