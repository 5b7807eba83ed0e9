/**
 * Opening a fork: the remote client, the fork block (pinned: the remote's head at start unless a
 * block is named, a negative number counting back from the head), the chain id and the
 * hardfork its header shows, and a check that the remote answers eth_getProof, which every state
 * read of the fork is verified with.
 */
import { Block, createBlockHeaderFromRPC } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { Refused } from '../domain-errors.js'
import { equalBytes, fromHex, keyOf } from '../hex.js'
import type { ForkOptions } from './options.js'
import { createRemote, ForkRemoteError, redactUrl, type RemoteClient, type RemoteOptions } from './remote/index.js'
import type { RemoteBlock } from './remote-block.js'
import { cachedRemote, immutableAt, openForkCache } from './disk-cache.js'

/** What a fork starts from. */
export interface OpenedFork {
  remote: RemoteClient
  /** The remote's name in messages (its URL without credentials, or `provider`). */
  remoteName: string
  /** The URL forked, when it was one (anvil_nodeInfo / hardhat_metadata report it). */
  url: string | undefined
  chainId: bigint
  /** The fork block's JSON as the remote answered it. */
  header: Record<string, unknown>
  number: bigint
  hash: Uint8Array
  /** The hardfork the header's fields show (London … Prague), unless one was given. */
  hardfork: string
  /**
   * Whether the remote answers eth_getProof. Without it state is read with the plain getters,
   * unverified, and the fork's state roots are computed over what it wrote only (not real).
   */
  proofs: boolean
}

/** The settings of the remote client among a fork's options. */
export function remoteOptions(options: ForkOptions): RemoteOptions {
  const { blockNumber: _b, chainId: _c, cacheDir: _d, historyEntries: _h, walkFetches: _w, ...remote } = options
  return remote
}

function quantityOf(v: unknown, what: string, remote: string): bigint {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]+$/.test(v)) throw new Refused(`fork: the remote ${remote} answered ${what} with ${JSON.stringify(v)?.slice(0, 60)}, not a quantity`)
  return BigInt(v)
}

/** The newest hardfork whose header fields the block has. */
function hardforkOf(header: Record<string, unknown>): string {
  if (header.requestsHash !== undefined && header.requestsHash !== null) return 'prague'
  if (header.parentBeaconBlockRoot !== undefined && header.parentBeaconBlockRoot !== null) return 'cancun'
  if (header.withdrawalsRoot !== undefined && header.withdrawalsRoot !== null) return 'shanghai'
  if (BigInt((header.difficulty as string | undefined) ?? '0x0') === 0n) return 'paris'
  return 'london'
}

/** Connects to the remote and finds the fork block. */
export async function openFork(options: ForkOptions): Promise<OpenedFork> {
  const remote = createRemote(remoteOptions(options))
  const name = options.url === undefined ? 'provider' : redactUrl(options.url)
  let client: RemoteClient = remote
  try {
    const chainId = options.chainId !== undefined ? BigInt(options.chainId) : quantityOf(await remote.request({ method: 'eth_chainId', params: [] }), 'eth_chainId', name)
    const asked = options.blockNumber === undefined ? undefined : BigInt(options.blockNumber)
    // A block named by number needs no head (a second run with a cache works with the remote down).
    const head = asked === undefined || asked < 0n ? quantityOf(await remote.request({ method: 'eth_blockNumber', params: [] }), 'eth_blockNumber', name) : undefined
    const number = asked === undefined ? (head as bigint) : asked < 0n ? (head as bigint) + asked : asked
    if (number < 0n) throw new Refused(`fork: blockNumber ${asked} is before the remote's first block (its head is ${head})`)
    if (head !== undefined && number > head) throw new Refused(`fork: blockNumber ${number} is past the remote's head (block ${head})`)
    // The cache on disk answers what cannot change at the fork block (src/fork/disk-cache.ts).
    if (options.cacheDir !== undefined) client = cachedRemote(remote, openForkCache(options.cacheDir, { chainId, blockNumber: number }), immutableAt(number))
    const remoteForState = client
    const header = await remoteForState.request({ method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] })
    if (typeof header !== 'object' || header === null) {
      const latest = head ?? quantityOf(await remote.request({ method: 'eth_blockNumber', params: [] }), 'eth_blockNumber', name)
      if (number > latest) throw new Refused(`fork: blockNumber ${number} is past the remote's head (block ${latest})`)
      throw new Refused(`fork: the remote ${name} has no block ${number}`)
    }
    const json = header as Record<string, unknown>
    if (typeof json.hash !== 'string' || typeof json.stateRoot !== 'string') throw new Refused(`fork: the remote ${name} answered block ${number} without hash or stateRoot`)
    // State reads are verified with eth_getProof; a remote that answers it with an error (it has
    // no such method) is read with the plain getters, and the fork's roots are not the remote's.
    let proofs = true
    try {
      await remoteForState.request({ method: 'eth_getProof', params: [`0x${'00'.repeat(20)}`, [], `0x${number.toString(16)}`] })
    } catch (error) {
      if (!(error instanceof ForkRemoteError) || !error.answered) throw error
      proofs = false
    }
    return { remote: remoteForState, remoteName: name, url: options.url, chainId, header: json, number, hash: fromHex(json.hash), hardfork: hardforkOf(json), proofs }
  } catch (error) {
    await client.close()
    throw error
  }
}

/** The fork block as a block of this chain: the remote's header (its body stays the remote's). */
export function forkBlock(fork: OpenedFork, common: Common): Block {
  const header = createBlockHeaderFromRPC(fork.header as never, { common, setHardfork: false, skipConsensusFormatValidation: true })
  const block = new Block(header, [], [], common.isActivatedEIP(4895) ? [] : undefined, { common })
  if (!equalBytes(block.hash(), fork.hash)) {
    throw new Refused(
      `fork: block ${fork.number} of ${fork.remoteName} has hash ${String(fork.header.hash)}, but its header read under hardfork ${common.hardfork()} hashes to 0x${keyOf(block.hash())}: give the remote's hardfork (option hardfork)`,
    )
  }
  return block
}

/**
 * Whether the fork's state roots are the remote's: `verified` (state read with eth_getProof), or
 * why not (finality_forkStatus, hardhat_metadata / anvil_metadata's `forkedNetwork`,
 * anvil_nodeInfo's `forkConfig`).
 */
export function stateRootsNote(proofs: boolean): string {
  return proofs ? 'verified' : 'not real: the remote does not answer eth_getProof'
}

/** What the node reports of its fork (anvil_nodeInfo, anvil_metadata, hardhat_metadata). */
export interface ForkStatus {
  /** The URL forked (undefined for a provider). */
  url: string | undefined
  /** The remote's name in messages. */
  remote: string
  /** The remote's chain id (the fork's may differ when one was given). */
  chainId: bigint
  blockNumber: bigint
  blockHash: Uint8Array
  /** False when the remote has no eth_getProof: state read unverified, roots not the remote's. */
  proofs: boolean
  /** Asks the remote (history at or below the fork block); answers kept in memory. */
  remoteCall(method: string, params: unknown[]): Promise<unknown>
  /** The remote's block at or below the fork block (a number or a hash), with transactions and receipts, verified; undefined above it or unknown. */
  remoteBlock(at: bigint | Uint8Array): Promise<RemoteBlock | undefined>
  /**
   * Reads from the remote at `url` from now on (anvil_setRpcUrl): it must have the fork block,
   * with the same hash; what was loaded stays.
   */
  setRpcUrl(url: string): Promise<void>
  /**
   * Runs a walk of the state trie (`what`: the method) within `fork.walkFetches` fetches of
   * remote nodes; past them it fails saying why.
   */
  walking<T>(what: string, run: () => Promise<T>): Promise<T>
  /** Requests sent to the remote and what the fork loaded. */
  stats(): {
    remote: ReturnType<RemoteClient['stats']>
    state: { accounts: number; slots: number; codes: number; searched: number }
    /** The remote's history answers kept in memory, and their bound (`fork.historyEntries`). */
    history: { entries: number; maxEntries: number }
  }
}

/**
 * A client of another remote for a fork already open (anvil_setRpcUrl), checked to have the
 * fork block with the same hash; with the same remote settings, but not the headers (which were
 * for the other remote).
 */
export async function switchRemote(opened: OpenedFork, options: ForkOptions | undefined, url: string): Promise<{ remote: RemoteClient; remoteName: string }> {
  const { url: _u, provider: _p, headers: _h, ...settings } = remoteOptions(options ?? {})
  const remote = createRemote({ ...settings, url })
  const name = redactUrl(url)
  try {
    const json = await remote.request({ method: 'eth_getBlockByNumber', params: [`0x${opened.number.toString(16)}`, false] })
    const hash = typeof json === 'object' && json !== null ? (json as { hash?: unknown }).hash : undefined
    if (typeof hash !== 'string' || !equalBytes(fromHex(hash), opened.hash)) {
      throw new Refused(`fork: the remote ${name} does not have the fork block ${opened.number} with hash 0x${keyOf(opened.hash)}${typeof hash === 'string' ? ` (it has ${hash})` : ''}`)
    }
  } catch (error) {
    await remote.close()
    throw error
  }
  const client = options?.cacheDir === undefined ? remote : cachedRemote(remote, openForkCache(options.cacheDir, { chainId: opened.chainId, blockNumber: opened.number }), immutableAt(opened.number))
  return { remote: client, remoteName: name }
}
