/**
 * A fork's history: blocks at and below the fork block are the remote's, and this is the one
 * place they are read from. The chain reads headers below the fork block here (fetched on first
 * use, checked against their hash, kept in memory) and the state at such a block, read on demand
 * as the fork block's is, each account and slot proven against that block's state root
 * (eth_call, eth_estimateGas and traces at an older block run on it). The JSON-RPC history reader
 * (rpc/history/forked.ts) reads the remote's answers (kept, `fork.historyEntries` at most) and
 * whole blocks with their transactions and receipts, verified, for replays.
 */
import { Block, createBlockHeaderFromRPC } from '@ethereumjs/block'
import { Refused } from '../domain-errors.js'
import { equalBytes, fromHex, keyOf } from '../hex.js'
import { FlatState } from '../state/flat-state.js'
import type { StateReader } from '../state/types.js'
import { ForkState, type RemoteRequests } from './lazy-state.js'
import type { RemoteForks } from './remote-forks.js'
import { AnswerCache } from './answer-cache.js'
import { fetchRemoteBlock, type RemoteBlock } from './remote-block.js'

/** How many older blocks' states are kept loaded at once. */
const STATES_KEPT = 8

export class ForkHistory {
  private readonly headers = new Map<bigint, Promise<Block | undefined>>()
  private readonly byHash = new Map<string, bigint>()
  private readonly states = new Map<string, FlatState>()
  /** History answers of the remote, by request (the remote is pinned below the fork block), least recently used dropped past the bound. */
  private readonly answers: AnswerCache

  constructor(
    private remote: RemoteRequests,
    private remoteName: string,
    /** The fork block's number: history is what lies below it. */
    readonly forkNumber: bigint,
    /** The hardfork each block is read under. */
    private readonly forks: RemoteForks,
    private readonly addNodes: (nodes: readonly Uint8Array[]) => void,
    /** False: the remote has no eth_getProof; older states are read with the plain getters, unverified. */
    private readonly proofs = true,
    /** Most headers and most answers kept (`fork.historyEntries`), the oldest fetched dropped first. */
    private readonly maxHeaders = Number.MAX_SAFE_INTEGER,
  ) {
    this.answers = new AnswerCache(maxHeaders)
  }

  /** The remote's name in messages. */
  get remoteLabel(): string {
    return this.remoteName
  }

  /** The remote's answers kept now, and their bound. */
  get kept(): { entries: number; maxEntries: number } {
    return { entries: this.answers.size, maxEntries: this.answers.maxEntries }
  }

  /** The remote's answer to a history request (at or below the fork block); answers kept in memory. */
  answer(method: string, params: unknown[]): Promise<unknown> {
    return this.answers.get(`${this.remoteName} ${this.forkNumber} ${method} ${JSON.stringify(params)}`, () => this.remote.request({ method, params }))
  }

  /** The remote's block at or below the fork block (a number or a hash), with transactions and receipts, verified; undefined above it or unknown. */
  async whole(at: bigint | Uint8Array): Promise<RemoteBlock | undefined> {
    const found = await fetchRemoteBlock((method, params) => this.answer(method, params), this.remoteName, this.forks, at)
    return found !== undefined && found.block.header.number <= this.forkNumber ? found : undefined
  }

  /** Reads from another remote from now on (anvil_setRpcUrl); states already loaded stay. */
  setRemote(remote: RemoteRequests, name: string): void {
    this.remote = remote
    this.remoteName = name
    this.states.clear()
  }

  /** The remote's block at `number` (below the fork block) as a header-only block; undefined past it. */
  block(number: bigint): Promise<Block | undefined> {
    if (number < 0n || number >= this.forkNumber) return Promise.resolve(undefined)
    let known = this.headers.get(number)
    if (known === undefined) {
      known = this.fetch([`0x${number.toString(16)}`, false], 'eth_getBlockByNumber')
      known.catch(() => this.headers.delete(number))
      this.keep(number, known)
    }
    return known
  }

  private keep(number: bigint, block: Promise<Block | undefined>): void {
    if (this.maxHeaders === 0) return
    this.headers.set(number, block)
    if (this.headers.size > this.maxHeaders) {
      const oldest = this.headers.keys().next().value as bigint
      this.headers.delete(oldest)
    }
  }

  /** The remote's block with `hash`, when it is below the fork block. */
  async blockByHash(hash: Uint8Array): Promise<Block | undefined> {
    const number = this.byHash.get(keyOf(hash))
    if (number !== undefined) return this.block(number)
    const block = await this.fetch([`0x${keyOf(hash)}`, false], 'eth_getBlockByHash')
    if (block === undefined || block.header.number >= this.forkNumber) return undefined
    this.keep(block.header.number, Promise.resolve(block))
    return block
  }

  private async fetch(params: unknown[], method: string): Promise<Block | undefined> {
    const json = await this.remote.request({ method, params })
    if (json === null || json === undefined) return undefined
    if (typeof json !== 'object' || typeof (json as { hash?: unknown }).hash !== 'string') throw new Refused(`fork: the remote ${this.remoteName} answered ${method} with no block`)
    const common = this.forks.at(json as Record<string, unknown>)
    const header = createBlockHeaderFromRPC(json as never, { common, setHardfork: false, skipConsensusFormatValidation: true })
    const block = new Block(header, [], [], common.isActivatedEIP(4895) ? [] : undefined, { common })
    const hash = fromHex((json as { hash: string }).hash)
    if (!equalBytes(block.hash(), hash)) {
      throw new Refused(`fork: block ${header.number} of ${this.remoteName} does not hash to ${(json as { hash: string }).hash} under hardfork ${common.hardfork()}: its state cannot be read here`)
    }
    this.byHash.set(keyOf(hash), header.number)
    if (this.byHash.size > this.maxHeaders) this.byHash.delete(this.byHash.keys().next().value as string)
    return block
  }

  /** The state after an older block: loaded on demand, proven against its state root. */
  stateAt(block: Block): StateReader {
    const key = keyOf(block.hash())
    let flat = this.states.get(key)
    if (flat === undefined) {
      flat = new FlatState()
      const point = { tag: `0x${block.header.number.toString(16)}`, stateRoot: block.header.stateRoot, remote: this.remoteName, proofs: this.proofs }
      flat.setLazy(new ForkState(this.remote, point, flat, this.addNodes))
      this.states.set(key, flat)
      if (this.states.size > STATES_KEPT) this.states.delete(this.states.keys().next().value as string)
    }
    return flat
  }
}
