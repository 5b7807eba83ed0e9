/**
 * A fork's head state, loaded on demand: an account (with its code) or a storage slot is fetched
 * from the remote with `eth_getProof` at the fork block the first time anything touches it,
 * verified against the fork block's state root, handed to the flat head state (its `loadAccount`
 * and `loadSlot`, which keep it unless a write came first) and kept. The proof nodes go into the
 * chain's trie store by hash: they are a partial trie of the remote state, so blocks built on the
 * fork get real state roots and `eth_getProof` on the fork answers real proofs.
 *
 * A trie update can need a node no proof brought: deleting a key from a branch with two children
 * leaves one, which is merged into its parent when it is a leaf or an extension, so its contents
 * are needed. The node's place is known (every hash a proof node references is indexed with its
 * trie and nibble path), so a key whose hash starts with that path is searched for (a few
 * thousand hashes for the depths of a storage trie or a test chain's account trie) and its proof
 * fetched: a proof for any key under a node carries the node.
 */
import { RLP } from '@ethereumjs/rlp'
import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import { Refused } from '../domain-errors.js'
import { equalBytes, fromHex, keyOf } from '../hex.js'
import type { ForkLazyState } from '../chain/chain.js'
import { EMPTY_ROOT, nibbles } from '../state/mpt.js'
import { touchedAddresses, type StateDiff } from '../state/types.js'
import { ForkProofError, verifyCode, verifyProof, type ProvenState } from './proof.js'

/** What the lazy state needs of the remote: EIP-1193 requests. */
export interface RemoteRequests {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
}

/**
 * Where loaded values are kept: the flat state the lazy state fills, through its owner's methods
 * (a value is kept only where no write came first).
 */
export interface LoadedValues {
  loadAccount(address: string, account: Account, code: Uint8Array | undefined): void
  loadSlot(address: string, slot: string, value: Uint8Array): void
}

/** The remote block the state is read at. */
export interface ForkPoint {
  /** The block number as a JSON-RPC quantity (what eth_getProof and eth_getCode are asked at). */
  tag: string
  stateRoot: Uint8Array
  /** The remote's name in messages (its URL without credentials, or `provider`). */
  remote: string
  /** False: the remote has no eth_getProof; state is read with the plain getters, unverified, and no nodes are kept. */
  proofs?: boolean
}

/** How far the search for a key under a missing node goes: 16^6 paths, a few seconds of hashing at most. */
const MAX_SEARCH_DEPTH = 6

type Raw = Uint8Array | Raw[]

/** Counts of what the lazy state fetched. */
export interface LazyStats {
  accounts: number
  slots: number
  codes: number
  /** Nodes fetched because a trie update needed them (see the module's comment). */
  searched: number
}

export class ForkState implements ForkLazyState {
  private readonly accounts = new Map<string, Promise<void> | true>()
  private readonly slots = new Map<string, Map<string, Promise<void> | true>>()
  /** Each loaded account's storage root at the fork block. */
  private readonly storageRoots = new Map<string, Uint8Array>()
  /**
   * Accounts whose storage was cleared or that were deleted here, with the flat state's version
   * that did it: their slots read zero, never the remote's (until a revert takes the version back).
   */
  private readonly wiped = new Map<string, number>()
  /** Where each node referenced by hash in a proof sits: its trie ('' for the accounts' trie, else an address) and path. */
  private readonly places = new Map<string, { owner: string; path: number[] }>()
  /** Bumped by a reset: a load begun before it does not write into the emptied state. */
  private generation = 0
  readonly stats: LazyStats = { accounts: 0, slots: 0, codes: 0, searched: 0 }
  /** While a state walk runs (debug_accountRange, debug_dumpBlock): the nodes it may still fetch, and what it is. */
  private walkBudget: { left: number; limit: number; what: string } | undefined

  /**
   * Runs `run`, a walk of the state trie, letting it fetch at most `limit` trie nodes of the remote
   * state it lacks (each a searched key's proof); past that, or where a node is too deep to search
   * a key for, it fails with an error that says the remote's whole state is not walked here.
   */
  async walking<T>(what: string, limit: number, run: () => Promise<T>): Promise<T> {
    const outer = this.walkBudget
    this.walkBudget = { left: limit, limit, what }
    try {
      return await run()
    } finally {
      this.walkBudget = outer
    }
  }

  constructor(
    private remote: RemoteRequests,
    private readonly point: ForkPoint,
    private readonly into: LoadedValues,
    private readonly addNodes: (nodes: readonly Uint8Array[]) => void,
    /** Keeps proven code by hash for readers of the trie (older states, replays); none for a throwaway state. */
    private readonly addCode?: (codeHash: Uint8Array, code: Uint8Array) => void,
    /** Keeps the addresses and slots loaded (hex, no 0x), so that walks of the state name them. */
    private readonly addKeys?: (keys: readonly string[]) => void,
  ) {}

  /** Reads from another remote from now on (anvil_setRpcUrl); the caller checked it has the fork block. */
  setRemote(remote: RemoteRequests, name: string): void {
    this.remote = remote
    this.point.remote = name
  }

  account(address: string): Promise<void> | undefined {
    const known = this.accounts.get(address)
    if (known === true) return undefined
    if (known !== undefined) return known
    const generation = this.generation
    const load = this.loadAccount(address, generation).then(
      () => {
        if (generation === this.generation) this.accounts.set(address, true)
      },
      (error: unknown) => {
        if (this.accounts.get(address) === load) this.accounts.delete(address)
        throw error
      },
    )
    this.accounts.set(address, load)
    return load
  }

  slot(address: string, slot: string): Promise<void> | undefined {
    if (this.wiped.has(address)) return undefined
    let slots = this.slots.get(address)
    const known = slots?.get(slot)
    if (known === true) return undefined
    if (known !== undefined) return known
    if (slots === undefined) {
      slots = new Map()
      this.slots.set(address, slots)
    }
    const generation = this.generation
    const mine = slots
    const load = this.loadSlot(address, slot, generation).then(
      () => {
        if (generation === this.generation) mine.set(slot, true)
      },
      (error: unknown) => {
        if (mine.get(slot) === load) mine.delete(slot)
        throw error
      },
    )
    slots.set(slot, load)
    return load
  }

  async touch(diff: StateDiff): Promise<void> {
    const work: Array<Promise<void>> = []
    for (const address of touchedAddresses(diff)) {
      const p = this.account(address)
      if (p !== undefined) work.push(p)
    }
    for (const [address, slots] of diff.storage) {
      if (diff.cleared.has(address)) continue
      for (const slot of slots.keys()) {
        const p = this.slot(address, slot)
        if (p !== undefined) work.push(p)
      }
    }
    await Promise.all(work)
  }

  applied(diff: StateDiff, version: number): void {
    for (const address of diff.cleared) if (!this.wiped.has(address)) this.wiped.set(address, version)
    for (const [address, account] of diff.accounts) {
      if (account === null && !this.wiped.has(address)) this.wiped.set(address, version)
      this.accounts.set(address, true)
    }
  }

  restored(version: number): void {
    for (const [address, at] of this.wiped) if (at >= version) this.wiped.delete(address)
  }

  reset(): void {
    this.generation++
    this.accounts.clear()
    this.slots.clear()
    this.wiped.clear()
  }

  /** Fetches and verifies a proof of `address` (and `slots`) at the fork block; its nodes go into the trie store. */
  private async prove(address: string, slots: string[]): Promise<ProvenState> {
    const answer = await this.remote.request({ method: 'eth_getProof', params: [`0x${address}`, slots.map((s) => `0x${s}`), this.point.tag] })
    let proven: ProvenState
    try {
      proven = await verifyProof(answer, this.point.stateRoot, address, slots)
    } catch (error) {
      if (error instanceof ForkProofError) {
        throw new ForkProofError(`fork: the remote ${this.point.remote} answered eth_getProof at block ${BigInt(this.point.tag)} with a proof that does not verify, so it is not used: ${error.message}`)
      }
      throw error
    }
    this.index(proven, address, slots)
    this.addNodes(proven.nodes)
    this.addKeys?.([address, ...slots])
    return proven
  }

  /** An account read with the plain getters (a remote without eth_getProof): unverified, no storage root. */
  private async plainAccount(address: string): Promise<{ account: Account | undefined; code: Uint8Array }> {
    const at = this.point.tag
    const [balance, nonce, code] = await Promise.all([
      this.remote.request({ method: 'eth_getBalance', params: [`0x${address}`, at] }),
      this.remote.request({ method: 'eth_getTransactionCount', params: [`0x${address}`, at] }),
      this.remote.request({ method: 'eth_getCode', params: [`0x${address}`, at] }),
    ])
    const check = (v: unknown, what: string, pattern: RegExp): string => {
      if (typeof v !== 'string' || !pattern.test(v)) throw new ForkProofError(`fork: the remote ${this.point.remote} answered ${what} with ${JSON.stringify(v)?.slice(0, 60)}`)
      return v
    }
    const bytes = fromHex(check(code, 'eth_getCode', /^0x([0-9a-fA-F]{2})*$/))
    const b = BigInt(check(balance, 'eth_getBalance', /^0x[0-9a-fA-F]+$/))
    const n = BigInt(check(nonce, 'eth_getTransactionCount', /^0x[0-9a-fA-F]+$/))
    this.stats.accounts++
    if (bytes.length > 0) this.stats.codes++
    const empty = b === 0n && n === 0n && bytes.length === 0
    return { account: empty ? undefined : new Account(n, b, EMPTY_ROOT, bytes.length === 0 ? KECCAK256_NULL : keccak_256(bytes)), code: bytes }
  }

  private async loadAccount(address: string, generation: number): Promise<void> {
    if (this.point.proofs === false) {
      const { account, code } = await this.plainAccount(address)
      if (generation === this.generation && account !== undefined) this.into.loadAccount(address, account, code)
      return
    }
    const { account } = await this.prove(address, [])
    this.stats.accounts++
    let code: Uint8Array | undefined
    if (account !== undefined && !equalBytes(account.codeHash, KECCAK256_NULL)) {
      const answer = await this.remote.request({ method: 'eth_getCode', params: [`0x${address}`, this.point.tag] })
      if (typeof answer !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(answer)) throw new ForkProofError(`fork: the remote ${this.point.remote} answered eth_getCode with ${JSON.stringify(answer)?.slice(0, 60)}`)
      code = fromHex(answer)
      try {
        verifyCode(code, account.codeHash, address)
      } catch (error) {
        throw new ForkProofError(`fork: the remote ${this.point.remote} sent code that is not the proven one: ${(error as Error).message}`)
      }
      this.stats.codes++
      this.addCode?.(account.codeHash, code)
    }
    this.storageRoots.set(address, account?.storageRoot ?? EMPTY_ROOT)
    if (generation === this.generation && account !== undefined) this.into.loadAccount(address, account, code)
  }

  private async loadSlot(address: string, slot: string, generation: number): Promise<void> {
    await this.account(address)
    if (this.wiped.has(address)) return
    let value: Uint8Array
    if (this.point.proofs === false) {
      const answer = await this.remote.request({ method: 'eth_getStorageAt', params: [`0x${address}`, `0x${slot}`, this.point.tag] })
      if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{0,64}$/.test(answer)) throw new ForkProofError(`fork: the remote ${this.point.remote} answered eth_getStorageAt with ${JSON.stringify(answer)?.slice(0, 80)}`)
      const word = BigInt(answer === '0x' ? '0x0' : answer)
      value = word === 0n ? new Uint8Array(0) : fromHex(`0x${word.toString(16).padStart(word.toString(16).length + (word.toString(16).length % 2), '0')}`)
      this.stats.slots++
    } else {
      const root = this.storageRoots.get(address) ?? EMPTY_ROOT
      if (equalBytes(root, EMPTY_ROOT)) return
      const proven = await this.prove(address, [slot])
      this.stats.slots++
      value = proven.slots.get(slot) ?? new Uint8Array(0)
    }
    if (generation !== this.generation || value.length === 0 || this.wiped.has(address)) return
    this.into.loadSlot(address, slot, value)
  }

  /** Records where every node referenced by hash in the proofs sits (for {@link missingNode}). */
  private index(proven: ProvenState, address: string, slots: string[]): void {
    const byHash = new Map<string, Uint8Array>()
    for (const node of proven.nodes) byHash.set(keyOf(keccak_256(node)), node)
    this.walk(this.point.stateRoot, keccak_256(fromHex(`0x${address}`)), '', byHash)
    const root = proven.account?.storageRoot ?? EMPTY_ROOT
    for (const slot of slots) this.walk(root, keccak_256(fromHex(`0x${slot}`)), address, byHash)
  }

  private walk(root: Uint8Array, hashedKey: Uint8Array, owner: string, byHash: Map<string, Uint8Array>): void {
    const key = nibbles(hashedKey)
    const path: number[] = []
    const first = byHash.get(keyOf(root))
    let raw: Raw | undefined = first === undefined ? undefined : (RLP.decode(first) as Raw)
    while (Array.isArray(raw)) {
      let next: Raw | undefined
      if (raw.length === 17) {
        for (let j = 0; j < 16; j++) {
          const c = raw[j]
          if (c instanceof Uint8Array && c.length === 32) this.places.set(keyOf(c), { owner, path: [...path, j] })
        }
        if (path.length >= key.length) return
        const nib = key[path.length] as number
        next = raw[nib]
        path.push(nib)
      } else if (raw.length === 2) {
        const prefix = raw[0] as Uint8Array
        const flag = (prefix[0] as number) >> 4
        if ((flag & 2) !== 0) return
        const all = nibbles(prefix)
        const extPath = Array.from(all.subarray(flag & 1 ? 1 : 2))
        next = raw[1]
        if (next instanceof Uint8Array && next.length === 32) this.places.set(keyOf(next), { owner, path: [...path, ...extPath] })
        path.push(...extPath)
      } else return
      if (next instanceof Uint8Array) {
        if (next.length !== 32) return
        const bytes = byHash.get(keyOf(next))
        raw = bytes === undefined ? undefined : (RLP.decode(bytes) as Raw)
      } else raw = next
    }
  }

  /**
   * A trie node of the remote state no proof has brought yet (see the module's comment): a key
   * under its place is searched for and its proof fetched.
   */
  async missingNode(key: string): Promise<Uint8Array | undefined> {
    const place = this.places.get(key)
    if (place === undefined) return undefined
    const walk = this.walkBudget
    if (walk !== undefined && (walk.left <= 0 || place.path.length > MAX_SEARCH_DEPTH)) {
      throw new Refused(
        `${walk.what} on a fork walks the remote's state trie, fetching each node it lacks with a proof: ${walk.left <= 0 ? `this walk needs more than ${walk.limit} (fork.walkFetches)` : `a node ${place.path.length} nibbles deep cannot be reached that way (at most ${MAX_SEARCH_DEPTH})`}. The remote's whole state is not walked here: anvil_dumpState gives what the fork read or wrote, the remote its own state`,
      )
    }
    if (walk !== undefined) walk.left--
    if (place.path.length > MAX_SEARCH_DEPTH) {
      throw new Refused(
        `fork: a state root needs the trie node 0x${key} of the remote state (${place.owner === '' ? 'accounts' : `storage of 0x${place.owner}`}, ${place.path.length} nibbles deep), which no proof brought and which is too deep to search a key for`,
      )
    }
    const candidate = searchKey(place.path, place.owner === '' ? 20 : 32)
    const found = place.owner === ''
      ? await this.prove(keyOf(candidate), [])
      : await this.prove(place.owner, [keyOf(candidate)])
    this.stats.searched++
    return found.nodes.find((n) => keyOf(keccak_256(n)) === key)
  }
}

/** A key of `length` bytes (an address or a slot) whose keccak256 starts with the nibbles `path`. */
function searchKey(path: number[], length: number): Uint8Array {
  const candidate = new Uint8Array(length)
  const view = new DataView(candidate.buffer)
  for (let i = 0; ; i++) {
    view.setUint32(length - 4, i)
    const h = keccak_256(candidate)
    let ok = true
    for (let k = 0; k < path.length && ok; k++) {
      const byte = h[k >> 1] as number
      ok = (k % 2 === 0 ? byte >> 4 : byte & 15) === path[k]
    }
    if (ok) return candidate
  }
}
