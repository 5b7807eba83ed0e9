/**
 * debug_dumpBlock: the state after a block as geth's `state.Dump` (`RawDump` with
 * `OnlyWithAddresses` and geth's RPC page of 256 accounts): accounts by EIP-55 address in hashed-
 * address order, each with its decimal balance, nonce, storage root, code hash, code and storage
 * (slot → value hex), and `next`, the hashed address after the page, as Go marshals a byte slice
 * (base64), when more accounts follow.
 */
import type { Block } from '@ethereumjs/block'
import { ServerError } from '../../errors.js'
import { data, keyOf } from '../../hex.js'
import { blockByTag } from '../blocks.js'
import { blockSelector, blockTag, boolean, bytes, jsonInt, type BlockSelector } from '../codecs.js'
import { type MethodTable, methodsOf, type Ports } from '../method.js'
import { checksum } from '../txpool.js'

import type { HistoryPorts } from '../../services.js'

/** The services this namespace's handlers read and write through. */
type Here = Ports<'chain' | 'fork'> & HistoryPorts
const method = methodsOf<keyof Here>()

/** geth's `AccountRangeMaxResults`: the accounts one RPC dump holds. */
export const DUMP_PAGE = 256

const START = new Uint8Array(32)

/** An RLP-encoded storage value's content, as geth's dump prints it (`rlp.Split`, hex without 0x). */
function storageValue(value: Uint8Array): string {
  return keyOf(value)
}

/** geth's `state.DumpConfig`, as far as the RPC methods set it. */
interface DumpOptions {
  start: Uint8Array
  max: number
  skipCode: boolean
  skipStorage: boolean
  /** Keep accounts whose address (preimage) is unknown, keyed `pre(<hashed address>)`. */
  incompletes: boolean
}

const DUMP_BLOCK: DumpOptions = { start: START, max: DUMP_PAGE, skipCode: false, skipStorage: false, incompletes: false }

/**
 * The dump of `block`'s state; on a fork, within `fork.walkFetches` fetches of the remote's trie
 * nodes, and refused for the remote's blocks below the fork block (whose state is only read key by key).
 */
async function dump(s: Here, block: Block, o: DumpOptions = DUMP_BLOCK, what = 'debug_dumpBlock') {
  const fork = s.fork
  if (fork === undefined) return walk(s, block, o)
  if (block.header.number < fork.blockNumber) {
    throw new ServerError(`${what}: block ${block.header.number} is the remote's, below the fork block: its state is read here key by key, never walked; ask the remote`)
  }
  return fork.walking(what, () => walk(s, block, o))
}

async function walk(s: Here, block: Block, o: DumpOptions) {
  const root = s.chain.stateRootOf(block)
  const { accounts, next } = await s.chain.accountRange(root, o.start, o.max)
  const out: Record<string, unknown> = {}
  for (const { hashed, address, account, code } of accounts) {
    // geth's OnlyWithAddresses: an account without a recorded preimage is left out.
    if (address === undefined && !o.incompletes) continue
    const entry: Record<string, unknown> = {
      balance: account.balance.toString(),
      nonce: Number(account.nonce),
      root: data(account.storageRoot),
      codeHash: data(account.codeHash),
    }
    if (code.length > 0 && !o.skipCode) entry.code = data(code)
    if (!o.skipStorage && address !== undefined) {
      const { node } = await s.chain.storageTrie(root, address)
      const { slots } = await s.chain.storageRange(node, START, Number.MAX_SAFE_INTEGER)
      const storage: Record<string, string> = {}
      for (const slot of slots) if (slot.key !== undefined) storage[data(slot.key.length === 32 ? slot.key : leftPad(slot.key))] = storageValue(slot.value)
      if (Object.keys(storage).length > 0) entry.storage = storage
    }
    entry.key = data(hashed)
    out[address === undefined ? `pre(${data(hashed)})` : checksum(keyOf(address))] = entry
  }
  const result: Record<string, unknown> = { root: keyOf(root), accounts: out }
  if (next !== undefined) result.next = Buffer.from(next).toString('base64')
  return result
}

function leftPad(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(32)
  out.set(key.subarray(-32), 32 - Math.min(32, key.length))
  return out
}

/** debug_accountRange's block: a number, tag or hash; geth's messages when unknown. */
async function rangeBlock(s: Here, at: BlockSelector): Promise<Block> {
  if (at.kind === 'hash') {
    const block = await s.chain.blockByHash(at.hash)
    if (block === undefined) throw new ServerError(`block ${data(at.hash)} not found`)
    return block
  }
  if (at.kind === 'tag' && at.tag === 'pending') throw new ServerError('pending state is not kept as a trie here: dump latest')
  const block = await blockByTag(s, at)
  if (block === undefined) throw new ServerError(`block #${at.kind === 'number' ? at.number : s.chain.height} not found`)
  return block
}

export const debugDump: MethodTable = {
  // geth's five further params are not pointers: all are required.
  debug_accountRange: method({
    params: [blockSelector, bytes, jsonInt, boolean, boolean, boolean],
    run: async (s, [at, start, maxResults, nocode, nostorage, incompletes]) => {
      const max = maxResults <= 0n || maxResults > BigInt(DUMP_PAGE) ? DUMP_PAGE : Number(maxResults)
      return dump(s, await rangeBlock(s, at), { start, max, skipCode: nocode, skipStorage: nostorage, incompletes }, 'debug_accountRange')
    },
  }),
  debug_dumpBlock: method({
    params: [blockTag],
    run: async (s, [tag]) => {
      // The pending block's state is built per request and kept in no trie.
      if (tag.kind === 'tag' && tag.tag === 'pending') throw new ServerError('pending state is not kept as a trie here: dump latest')
      const block = await blockByTag(s, tag)
      if (block === undefined) throw new ServerError(`block #${tag.kind === 'number' ? tag.number : s.chain.height} not found`)
      return dump(s, block)
    },
  }),
}
