/**
 * The fork session: the one owner of what forking a remote chain holds while the node runs (the
 * opened fork and its remote client, the lazy head state, the older blocks and their states, the
 * memory of the remote's history answers) and of the changes to it: the start, hardhat_reset /
 * anvil_reset with `forking` (another remote or block), anvil_setRpcUrl, and the close. Made once
 * by the node (with no fork open when the node forks nothing: a reset with a URL opens one).
 */
import { Account } from '@ethereumjs/util'
import type { Common } from '@ethereumjs/common'
import type { Chain } from '../chain/chain.js'
import type { ForkRequest } from '../controls/controls.js'
import { quantity } from '../hex.js'
import { FlatState } from '../state/flat-state.js'
import { emptyDiff } from '../state/types.js'
import { forkBlock, openFork, switchRemote, type ForkStatus, type OpenedFork } from './fork.js'
import { ForkHistory } from './history.js'
import { ForkState, type LoadedValues } from './lazy-state.js'
import { DEFAULT_HISTORY_ENTRIES, DEFAULT_WALK_FETCHES, type ForkOptions } from './options.js'
import { recording, replaying } from './recorded.js'
import { RemoteForks } from './remote-forks.js'

/** What the session works on. */
export interface ForkSessionDeps {
  readonly chain: Chain
  /** The node's Common (its chain id changes with a fork of another chain). */
  readonly common: Common
  /** The node's accounts: on a fork they keep their remote nonce and code and get these balances. */
  readonly balances: ReadonlyArray<{ address: string; balance: bigint }>
}

/** The parts of a started fork, replaced together by a reset. */
interface Started {
  readonly opened: OpenedFork
  readonly state: ForkState
  readonly history: ForkHistory
}

export class ForkSession {
  private started: Started | undefined
  /** The options the current remote was opened with (a reset to another URL keeps none of them). */
  private options: ForkOptions | undefined
  /** Most history answers and headers kept (`fork.historyEntries`), for every remote forked. */
  private readonly historyEntries: number
  private readonly walkFetches: number

  /** `options`: the node's `fork` option (undefined: the node forks nothing until a reset asks). */
  constructor(
    private readonly deps: ForkSessionDeps,
    options: ForkOptions | undefined,
  ) {
    this.options = options
    this.historyEntries = options?.historyEntries ?? DEFAULT_HISTORY_ENTRIES
    this.walkFetches = options?.walkFetches ?? DEFAULT_WALK_FETCHES
  }

  /** Opens the remote of the node's `fork` option (`chainId`: the node's own, unless the option names one). */
  static open(options: ForkOptions, chainId: bigint | number | undefined): Promise<OpenedFork> {
    return openFork({ ...options, chainId: options.chainId ?? chainId })
  }

  /**
   * Starts the chain at `opened`'s fork block. Everything the remote must answer is asked first,
   * on a throwaway state, while the chain is untouched: a remote that fails leaves the node as it
   * was (a reset to another fork included).
   */
  async start(opened: OpenedFork): Promise<void> {
    const { chain, common, balances } = this.deps
    const block = forkBlock(opened, common)
    const point = () => ({ tag: quantity(opened.number), stateRoot: block.header.stateRoot, remote: opened.remoteName, proofs: opened.proofs })
    const keys = balances.map((b) => b.address.toLowerCase().replace(/^0x/, ''))
    const recorder = recording(opened.remote)
    const probe = new FlatState()
    probe.setLazy(new ForkState(recorder, point(), probe, () => {}))
    await Promise.all(keys.map((key) => probe.getAccount(key)))
    const remote = replaying(opened.remote, recorder.answers)
    const remoteForks = new RemoteForks(common, opened.chainId)
    const history = new ForkHistory(opened.remote, opened.remoteName, opened.number, remoteForks, (nodes) => chain.addTrieNodes(nodes), opened.proofs, this.historyEntries)
    let state!: ForkState
    const makeLazy = (into: LoadedValues) =>
      (state = new ForkState(remote, point(), into, (nodes) => chain.addTrieNodes(nodes), (hash, code) => chain.addCode(hash, code), (k) => chain.addPreimages(k)))
    // The fork block is the first block; the node's accounts keep their remote nonce and code and get their balance.
    await chain.initFork(block, makeLazy, async (c) => {
      const diff = emptyDiff()
      // Answered from the recorded answers: nothing here waits on the remote.
      const accounts = await Promise.all(keys.map((key) => c.headState().getAccount(key)))
      balances.forEach((b, i) => {
        const account = accounts[i] ?? new Account()
        account.balance = b.balance
        diff.accounts.set(keys[i] as string, account)
      })
      return diff
    }, history, opened.proofs)
    this.started = { opened, state, history }
  }

  /**
   * hardhat_reset / anvil_reset with `forking`: a URL forks that remote; without one a fork goes
   * back to its remote at the block asked (its fork block when none), and a node that is no fork
   * back to genesis.
   */
  async reset({ url, blockNumber }: ForkRequest): Promise<void> {
    const { chain, common } = this.deps
    const current = this.started?.opened
    if (url === undefined && (current === undefined || blockNumber === undefined || blockNumber === current.number)) return chain.resetToGenesis()
    // Another URL is forked with the default settings (the headers given for one remote are not sent to another).
    const base: ForkOptions = url !== undefined ? { url } : (this.options ?? {})
    const opened = await openFork({ ...base, blockNumber, chainId: undefined })
    try {
      await this.start(opened)
    } catch (error) {
      await opened.remote.close()
      throw error
    }
    if (opened.chainId !== common.chainId()) chain.setChainId(opened.chainId)
    this.options = base
    if (current !== undefined && current.remote !== opened.remote) await current.remote.close()
  }

  /** anvil_setRpcUrl: reads from the remote at `url` from now on (it must have the fork block). */
  private async setRpcUrl({ opened, state, history }: Started, url: string): Promise<void> {
    const next = await switchRemote(opened, this.options, url)
    const previous = opened.remote
    state.setRemote(next.remote, next.remoteName)
    history.setRemote(next.remote, next.remoteName)
    Object.assign(opened, { remote: next.remote, remoteName: next.remoteName, url })
    this.options = { ...this.options, url, provider: undefined, headers: undefined }
    await previous.close()
  }

  /** What the node reports of its fork, and asks of it; undefined when the node forks nothing. */
  status(): ForkStatus | undefined {
    const started = this.started
    if (started === undefined) return undefined
    const { opened, state, history } = started
    return {
      url: opened.url,
      remote: opened.remoteName,
      chainId: opened.chainId,
      blockNumber: opened.number,
      blockHash: opened.hash,
      proofs: opened.proofs,
      stats: () => ({ remote: opened.remote.stats(), state: { ...state.stats }, history: history.kept }),
      remoteCall: (method, params) => history.answer(method, params),
      walking: (what, run) => state.walking(what, this.walkFetches, run),
      remoteBlock: (at) => history.whole(at),
      setRpcUrl: (url) => this.setRpcUrl(started, url),
    }
  }

  /** Closes the remote client. */
  async close(): Promise<void> {
    await this.started?.opened.remote.close()
  }
}
