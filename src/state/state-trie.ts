/**
 * The Merkle Patricia state of every committed block. A block's diff is written into the trie
 * once, at the end of the block, giving its `stateRoot`; old roots stay readable for history
 * and proofs.
 */
import { RLP } from '@ethereumjs/rlp'
import { Account, KECCAK256_NULL, createAccountFromRLP } from '@ethereumjs/util'
import { keccak256 as keccak_256, keccak256OfHex } from '../crypto/keccak.js'
import { equalBytes, fromHex, keyOf } from '../hex.js'
import { headerLength, itemBounds, stringLength, uintLength, writeHeader, writeString, writeUint } from '../rlp.js'
import { EMPTY_ROOT, type LoadedNode, nibbles, nibblesToBytes, persist, refNode, rootHash, trieEntries, trieGet, trieGetAtNow, trieProof, trieSet, trieSetAtNow, type TrieNode } from './mpt.js'
import { trieDiff, trieEntriesFrom } from './mpt-walk.js'
import type { NodeStore } from './node-store.js'
import { emptyDiff, touchedAddresses, type StateDiff, type StateReader } from './types.js'

const EMPTY = new Uint8Array(0)

/**
 * Accounts' and storage values' RLP are cut out of shared slabs, like the trie's hashes: an
 * account's encoding (~70–110 bytes) is kept as its leaf's value for as long as the state is, and
 * an array of its own of more than 64 bytes gets an ArrayBuffer and a backing store outside V8's
 * heap (an allocation and a finaliser for the GC) each.
 */
const ACCOUNT_SLAB = 8192
let accountSlab = new Uint8Array(ACCOUNT_SLAB)
let accountsUsed = 0

/** `length` bytes cut out of the current slab (a new one when it is full). */
function fromSlab(length: number): Uint8Array {
  if (accountsUsed + length > ACCOUNT_SLAB) {
    accountSlab = new Uint8Array(Math.max(ACCOUNT_SLAB, length))
    accountsUsed = 0
  }
  const out = accountSlab.subarray(accountsUsed, accountsUsed + length)
  accountsUsed += length
  return out
}

/**
 * A storage value's RLP string, cut out of the same slabs as accounts: an array of its own got
 * an ArrayBuffer object of its own as well once anything took a view of it (~130 bytes of heap).
 */
function encodeSlot(value: Uint8Array): Uint8Array {
  const out = fromSlab(stringLength(value))
  writeString(out, 0, value)
  return out
}

/** An account's RLP in the state trie: [nonce, balance, storageRoot, codeHash]. */
function encodeAccount(nonce: bigint, balance: bigint, storageRoot: Uint8Array, codeHash: Uint8Array): Uint8Array {
  // Written into one buffer: the integers need no arrays of their own.
  const payload = uintLength(nonce) + uintLength(balance) + stringLength(storageRoot) + stringLength(codeHash)
  const length = headerLength(payload) + payload
  const out = fromSlab(length)
  let pos = writeHeader(out, 0, 0xc0, payload)
  pos = writeUint(out, pos, nonce)
  pos = writeUint(out, pos, balance)
  pos = writeString(out, pos, storageRoot)
  writeString(out, pos, codeHash)
  return out
}

/** The key under which contract code is stored, by code hash. */
/** The storage root field of an encoded account (the empty root for no account), read without decoding the rest. */
function storageRootOf(bytes: Uint8Array | undefined): Uint8Array {
  if (bytes === undefined) return EMPTY_ROOT
  if ((bytes[0] ?? 0) < 0xc0) throw new Error('invalid account in the state trie')
  // Past the list header, the nonce and the balance.
  let at = itemBounds(bytes, 0).payload
  at = itemBounds(bytes, at).end
  at = itemBounds(bytes, at).end
  const { payload, end } = itemBounds(bytes, at)
  if (end > bytes.length) throw new Error('invalid account in the state trie')
  return bytes.subarray(payload, end)
}

/** Whether a diff takes any account off the state. */
function removesAccounts(accounts: ReadonlyMap<string, Account | null>): boolean {
  // The whole map, never left early: a loop left at a return closes its iterator, a read of
  // `return` no block before the first deletion made (a deopt where the write inlines this).
  let removes = false
  for (const account of accounts.values()) if (account === null) removes = true
  return removes
}

/**
 * The trie under `root` without the accounts `accounts` marks deleted (`null`): the first step of a
 * state write that takes an account off. Its own function, chosen against {@link sameRoot} and
 * reached through `call` on every write, so that the write V8 optimised on blocks that delete
 * nothing keeps its code at the first one that does (see docs/performance.md, "A branch first
 * taken after V8's compile"). Deletes before writes give the same root: the trie's shape depends
 * on its keys alone.
 */
function removeAccounts(trie: StateTrie, root: TrieNode | null, accounts: ReadonlyMap<string, Account | null>, store: NodeStore, fresh: Array<[string, Uint8Array]> | undefined): Promise<TrieNode | null> {
  // A plain function that returns the promise: an async one has another hidden class than
  // `sameRoot`, and the read of `call` off it would meet a map the write had not seen.
  return removeEach(trie, root, accounts, store, fresh)
}

async function removeEach(trie: StateTrie, root: TrieNode | null, accounts: ReadonlyMap<string, Account | null>, store: NodeStore, fresh: Array<[string, Uint8Array]> | undefined): Promise<TrieNode | null> {
  for (const [key, account] of accounts) {
    if (account !== null) continue
    const removed = trieSetAtNow(root, trie.keyPath(key, fresh), EMPTY, store)
    root = removed instanceof Promise ? await removed : removed
  }
  return root
}

/** The first step of a state write that deletes no account: the root as it is. */
function sameRoot(_trie: StateTrie, root: TrieNode | null, _accounts: ReadonlyMap<string, Account | null>, _store: NodeStore, _fresh: Array<[string, Uint8Array]> | undefined): TrieNode | null | Promise<TrieNode | null> {
  return root
}

function codeKey(codeHash: Uint8Array): string {
  return `c${keyOf(codeHash)}`
}

/** A Merkle proof of an account and some of its storage slots (`eth_getProof`). */
export interface StateProof {
  account: Account | undefined
  accountProof: Uint8Array[]
  storage: Array<{ key: Uint8Array; value: Uint8Array; proof: Uint8Array[] }>
}

/**
 * A state written on top of a parent root but not kept: what {@link StateTrie.prepare} returns
 * and {@link StateTrie.adopt} keeps.
 */
export interface PreparedState {
  /** The state root. */
  readonly root: Uint8Array
  readonly node: TrieNode | null
  /** The new storage trie of each account whose storage changed, by address, with its root. */
  readonly storage: ReadonlyMap<string, { hash: Uint8Array; node: TrieNode | null }>
  /** Code written, by code hash. */
  readonly code: ReadonlyArray<[Uint8Array, Uint8Array]>
  /** Keys hashed for the first time, with the nibbles of their hashes (preimages kept on adoption). */
  readonly fresh: ReadonlyArray<[string, Uint8Array]>
}

export class StateTrie {
  /** The root node of the newest commit, kept in memory so the next block starts from it. */
  private headRoot: TrieNode | null = null
  private headHash: Uint8Array = EMPTY_ROOT
  /** Storage trie roots of the newest commit, by address, with their hash. */
  private readonly storageHeads = new Map<string, { hash: Uint8Array; node: TrieNode | null }>()
  private readonly put = (key: string, value: Uint8Array) => void this.store.put(key, value)

  /**
   * Hashes a new trie and keeps it: its new nodes written to the store, or its root kept live.
   * Kept live, nothing is walked: the root was hashed when prepared, and no node keeps an
   * encoding its parent does not need (see `rootHash` in mpt.ts).
   */
  private keep(root: TrieNode | null): Uint8Array {
    if (!this.store.objects) return persist(root, this.put)
    const hash = rootHash(root)
    if (root !== null && root.t !== 3) this.store.keepRoot(keyOf(hash), root)
    return hash
  }

  constructor(private readonly store: NodeStore) {}

  /**
   * Stores each hashed key's preimage (address or slot) under `p<hash>`, with the nodes: a stored
   * chain is reopened by walking its trie (the flat state is rebuilt from them), and the debug
   * methods that walk old states name accounts and slots by them (geth keeps preimages the same
   * way). About 0.3 µs per touched key; the keys were hashed for the trie anyway. A chain kept as
   * objects stores nothing: `hashedKeys` already holds every key with its hashed path, and the reverse
   * index is built from it when a preimage is first asked for.
   */
  private preimage(key: Uint8Array, hashed: Uint8Array): void {
    if (!this.store.objects) void this.store.put(`p${keyOf(hashed)}`, key)
  }

  /**
   * The trie path of each address and slot committed so far (the nibbles of its keccak256), by hex
   * key: the same keys recur every block, and the leaves written under them keep views of these
   * paths instead of new ones per write.
   */
  private readonly hashedKeys = new Map<string, Uint8Array>()
  /** `hashedKeys` reversed (objects only): the preimage of each hash, by hex hash; caught up on lookup. */
  private readonly preimages = new Map<string, string>()

  /**
   * The trie path of an address or slot (see {@link hashedKeys}). One hashed for the first time
   * goes into `fresh` (its preimage is stored when the state is adopted); without `fresh` it is
   * hashed and forgotten. Not private: a state write's removal step ({@link removeAccounts}) is a
   * module function.
   */
  keyPath(key: string, fresh: Array<[string, Uint8Array]> | undefined): Uint8Array {
    const known = this.hashedKeys.get(key)
    if (known !== undefined) return known
    const path = nibbles(keccak256OfHex(key, false))
    if (fresh !== undefined) fresh.push([key, path])
    return path
  }

  /**
   * Keeps the preimage of a key read but not written (a fork's account or slot loaded from its
   * remote), so that walks of the state name it.
   */
  notePreimage(key: string): void {
    if (this.hashedKeys.has(key)) return
    const hashed = keccak_256(fromHex(key))
    if (this.store.objects) this.hashedKeys.set(key, nibbles(hashed))
    else this.preimage(fromHex(key), hashed)
  }

  /** The preimage of a hashed key (an address or a storage slot), if it was ever written. */
  async preimageOf(hashed: Uint8Array): Promise<Uint8Array | undefined> {
    if (!this.store.objects) return this.store.get(`p${keyOf(hashed)}`)
    if (this.preimages.size !== this.hashedKeys.size) {
      for (const [key, path] of this.hashedKeys) this.preimages.set(keyOf(nibblesToBytes(path)), key)
    }
    const key = this.preimages.get(keyOf(hashed))
    return key === undefined ? undefined : fromHex(key)
  }

  private rootFor(hash: Uint8Array): TrieNode | null {
    return equalBytes(hash, this.headHash) ? this.headRoot : refNode(hash)
  }

  private async accountAt(root: TrieNode | null, address: Uint8Array, hashed = keccak_256(address)): Promise<Account | undefined> {
    const bytes = await trieGet(root, hashed, this.store)
    return bytes === undefined ? undefined : createAccountFromRLP(bytes)
  }

  /**
   * Writes `diff` on top of `parentRoot`, adopts the result as the head and returns the new root,
   * which later commits start from. `base` supplies the values of accounts the diff names only
   * through storage or code.
   */
  async commit(parentRoot: Uint8Array, diff: StateDiff, base: StateReader): Promise<Uint8Array> {
    const prepared = await this.prepare(parentRoot, diff, base)
    this.adopt(prepared)
    return prepared.root
  }

  /**
   * The state `diff` on top of `parentRoot` makes, held only by the returned object: its root,
   * its storage roots and its new nodes. Nothing is stored and the head does not move until
   * {@link adopt}; a state nobody adopts (a candidate block the round did not decide, the
   * `pending` block) is garbage once dropped.
   */
  async prepare(parentRoot: Uint8Array, diff: StateDiff, base: StateReader): Promise<PreparedState> {
    const fresh: Array<[string, Uint8Array]> = []
    const { hash, root, storageRoots, code } = await this.write(parentRoot, diff, base, fresh)
    return { root: hash, node: root, storage: storageRoots, code, fresh }
  }

  /**
   * Keeps a prepared state (its nodes stored, or its roots kept live; the preimages of its new
   * keys; its code) and makes it the head later commits start from.
   */
  adopt(prepared: PreparedState): void {
    for (const [key, path] of prepared.fresh) {
      if (this.hashedKeys.has(key)) continue
      this.hashedKeys.set(key, path)
      if (!this.store.objects) this.preimage(fromHex(key), nibblesToBytes(path))
    }
    for (const [key, value] of prepared.storage) {
      this.keep(value.node)
      this.storageHeads.set(key, value)
    }
    for (const [codeHash, code] of prepared.code) void this.store.put(codeKey(codeHash), code)
    this.keep(prepared.node)
    this.headRoot = prepared.node
    this.headHash = prepared.root
  }

  /**
   * Lets reads and proofs reach a prepared state by its root (the `pending` block's) until the
   * returned function is called; nothing of it is stored.
   */
  hold(prepared: PreparedState): () => void {
    const roots: Array<[string, TrieNode | null]> = [[keyOf(prepared.root), prepared.node]]
    for (const value of prepared.storage.values()) roots.push([keyOf(value.hash), value.node])
    const held = roots.filter((r): r is [string, LoadedNode] => r[1] !== null && r[1].t !== 3)
    for (const [key, node] of held) this.store.hold(key, node)
    let released = false
    return () => {
      if (released) return
      released = true
      for (const [key] of held) this.store.release(key)
    }
  }

  /**
   * The root `diff` on top of `parentRoot` would have, storing nothing (simulated blocks, and
   * debug_intermediateRoots, which computes one per transaction of a replayed block; none of
   * them is a state anyone reads by root).
   */
  async rootOf(parentRoot: Uint8Array, diff: StateDiff, base: StateReader): Promise<Uint8Array> {
    return (await this.write(parentRoot, diff, base, undefined)).hash
  }

  /**
   * Writes `diff` into path copies of the tries under `parentRoot` and hashes them; stores
   * nothing. The copies are this write's own until hashed, so its later writes change them in
   * place (`owned` in mpt.ts): the top of each trie is copied once a block, not once a key. `fresh` collects the keys hashed for the first time (their preimages are kept on
   * adoption); without it the hashes are not kept either (a root no one reads).
   */
  private async write(parentRoot: Uint8Array, diff: StateDiff, base: StateReader, fresh: Array<[string, Uint8Array]> | undefined) {
    const removal: typeof sameRoot = removesAccounts(diff.accounts) ? removeAccounts : sameRoot
    const removed = removal.call(undefined, this, this.rootFor(parentRoot), diff.accounts, this.store, fresh)
    let root = removed instanceof Promise ? await removed : removed
    const storageRoots = new Map<string, { hash: Uint8Array; node: TrieNode | null }>()
    const code: Array<[Uint8Array, Uint8Array]> = []
    for (const key of touchedAddresses(diff)) {
      const own = diff.accounts.get(key)
      // Taken off above.
      if (own === null) continue
      const addressPath = this.keyPath(key, fresh)
      const next = own ?? (base.now !== undefined ? base.now.account(key) : await base.getAccount(key))
      if (next === undefined) continue
      const stored = trieGetAtNow(root, addressPath, this.store)
      let storageHash = storageRootOf(stored instanceof Promise ? await stored : stored)
      const slots = diff.storage.get(key)
      if (diff.cleared.has(key) || (slots !== undefined && slots.size > 0)) {
        const cached = this.storageHeads.get(key)
        let storage = diff.cleared.has(key)
          ? null
          : cached !== undefined && equalBytes(cached.hash, storageHash)
            ? cached.node
            : refNode(storageHash)
        for (const [slot, value] of slots ?? []) {
          const set = trieSetAtNow(storage, this.keyPath(slot, fresh), value.length === 0 ? EMPTY : encodeSlot(value), this.store, true)
          storage = set instanceof Promise ? await set : set
        }
        storageHash = rootHash(storage, !this.store.objects)
        storageRoots.set(key, { hash: storageHash, node: storage })
      }
      const written = diff.code.get(key)
      if (fresh !== undefined && written !== undefined && written.length > 0) code.push([next.codeHash, written])
      const set = trieSetAtNow(root, addressPath, encodeAccount(next.nonce, next.balance, storageHash, next.codeHash), this.store, true)
      root = set instanceof Promise ? await set : set
    }
    return { hash: rootHash(root, !this.store.objects), root, storageRoots, code }
  }

  /** Makes `root` the state later commits start from without a lookup (evm_revert). */
  resetHead(root: Uint8Array): void {
    this.headRoot = refNode(root)
    this.headHash = root
  }


  /** A read-only view of the state at `root`. */
  reader(root: Uint8Array): StateReader {
    const top = refNode(root)
    const account = (address: string) => this.accountAt(top, fromHex(address))
    return {
      getAccount: account,
      getStorage: async (address, slot) => {
        const a = await account(address)
        if (a === undefined || equalBytes(a.storageRoot, EMPTY_ROOT)) return EMPTY
        const bytes = await trieGet(refNode(a.storageRoot), keccak_256(fromHex(slot)), this.store)
        return bytes === undefined ? EMPTY : (RLP.decode(bytes) as Uint8Array)
      },
      getCode: async (address) => {
        const a = await account(address)
        if (a === undefined || equalBytes(a.codeHash, KECCAK256_NULL)) return EMPTY
        return (await this.store.get(codeKey(a.codeHash))) ?? EMPTY
      },
    }
  }

  /**
   * The whole state under `root` as a diff from nothing, using the stored preimages: how a
   * reopened chain rebuilds its flat head state (and its genesis state, for reset).
   */
  async load(root: Uint8Array): Promise<StateDiff> {
    const diff = emptyDiff()
    const preimage = async (hashed: Uint8Array) => {
      const key = await this.preimageOf(hashed)
      if (key === undefined) throw new Error(`no preimage stored for ${keyOf(hashed)}: the database was not written with preimages`)
      return key
    }
    for await (const [hashedAddress, value] of trieEntries(refNode(root), this.store)) {
      const address = keyOf(await preimage(hashedAddress))
      const account = createAccountFromRLP(value)
      diff.accounts.set(address, account)
      if (!equalBytes(account.codeHash, KECCAK256_NULL)) {
        const code = await this.store.get(codeKey(account.codeHash))
        if (code !== undefined) diff.code.set(address, code)
      }
      if (!equalBytes(account.storageRoot, EMPTY_ROOT)) {
        const slots = new Map<string, Uint8Array>()
        for await (const [hashedSlot, raw] of trieEntries(refNode(account.storageRoot), this.store)) {
          slots.set(keyOf(await preimage(hashedSlot)), RLP.decode(raw) as Uint8Array)
        }
        diff.storage.set(address, slots)
      }
    }
    return diff
  }

  /**
   * The accounts that exist under `to` and differ from (or are absent under) `from`: nonce,
   * balance, code hash or storage root, as geth's difference iterator finds them. By hashed
   * address, in trie order, each with its preimage when one was recorded.
   */
  async modifiedAccounts(from: Uint8Array, to: Uint8Array): Promise<Array<{ hashed: Uint8Array; address: Uint8Array | undefined }>> {
    const out: Array<{ hashed: Uint8Array; address: Uint8Array | undefined }> = []
    for await (const change of trieDiff(refNode(from), refNode(to), this.store)) {
      if (change.after !== undefined) out.push({ hashed: change.key, address: await this.preimageOf(change.key) })
    }
    return out
  }

  /**
   * The storage trie of `address` at `root` with an execution overlay's writes laid over it (the
   * state part-way through a replayed block), built in memory and stored nowhere: its root node
   * (null when the account has no storage) and the overlay's slots by hashed key, whose
   * preimages are not recorded yet.
   */
  async storageTrie(root: Uint8Array, address: Uint8Array, overlay?: StateDiff): Promise<{ node: TrieNode | null; written: Map<string, Uint8Array> }> {
    const key = keyOf(address)
    const written = new Map<string, Uint8Array>()
    const own = overlay?.accounts.get(key)
    if (own === null) return { node: null, written }
    const stored = await this.accountAt(refNode(root), address)
    if (own === undefined && stored === undefined) return { node: null, written }
    let node = overlay?.cleared.has(key) ? null : refNode(stored?.storageRoot ?? EMPTY_ROOT)
    for (const [slot, value] of overlay?.storage.get(key) ?? []) {
      const slotKey = fromHex(slot)
      const hashed = keccak_256(slotKey)
      written.set(keyOf(hashed), slotKey)
      node = await trieSet(node, hashed, value.length === 0 ? EMPTY : RLP.encode(value), this.store)
    }
    return { node, written }
  }

  /**
   * Up to `max` slots of a storage trie from the hashed key `start` on, in trie order, with each
   * slot's value and preimage (when recorded, or in `written`: slots an overlay wrote), and
   * the hashed key after the last one returned (debug_storageRangeAt).
   */
  async storageRange(
    storage: TrieNode | null,
    start: Uint8Array,
    max: number,
    written?: ReadonlyMap<string, Uint8Array>,
  ): Promise<{ slots: Array<{ hashed: Uint8Array; key: Uint8Array | undefined; value: Uint8Array }>; next: Uint8Array | undefined }> {
    const slots: Array<{ hashed: Uint8Array; key: Uint8Array | undefined; value: Uint8Array }> = []
    let next: Uint8Array | undefined
    for await (const [hashed, raw] of trieEntriesFrom(storage, start, this.store)) {
      if (slots.length >= max) {
        next = hashed
        break
      }
      const key = written?.get(keyOf(hashed)) ?? (await this.preimageOf(hashed))
      slots.push({ hashed, key, value: RLP.decode(raw) as Uint8Array })
    }
    return { slots, next }
  }

  /**
   * Up to `max` accounts of the state at `root` from the hashed address `start` on, in trie order,
   * each with its preimage (when recorded), code and storage root; and the hashed address after
   * the last one returned (debug_dumpBlock, geth's `state.Dump`).
   */
  async accountRange(
    root: Uint8Array,
    start: Uint8Array,
    max: number,
  ): Promise<{ accounts: Array<{ hashed: Uint8Array; address: Uint8Array | undefined; account: Account; code: Uint8Array }>; next: Uint8Array | undefined }> {
    const accounts: Array<{ hashed: Uint8Array; address: Uint8Array | undefined; account: Account; code: Uint8Array }> = []
    let next: Uint8Array | undefined
    for await (const [hashed, raw] of trieEntriesFrom(this.rootFor(root), start, this.store)) {
      if (accounts.length >= max) {
        next = hashed
        break
      }
      const account = createAccountFromRLP(raw)
      const code = equalBytes(account.codeHash, KECCAK256_NULL) ? new Uint8Array() : ((await this.store.get(codeKey(account.codeHash))) ?? new Uint8Array())
      accounts.push({ hashed, address: await this.preimageOf(hashed), account, code })
    }
    return { accounts, next }
  }

  /** The Merkle proof of an account and storage slots at `root` (EIP-1186). */
  async proof(root: Uint8Array, address: Uint8Array, slots: Uint8Array[]): Promise<StateProof> {
    const top = refNode(root)
    const account = await this.accountAt(top, address)
    const accountProof = await trieProof(top, keccak_256(address), this.store)
    const storageTop = account === undefined ? null : refNode(account.storageRoot)
    const storage = []
    for (const key of slots) {
      const hashed = keccak_256(key)
      const bytes = await trieGet(storageTop, hashed, this.store)
      storage.push({
        key,
        value: bytes === undefined ? EMPTY : (RLP.decode(bytes) as Uint8Array),
        proof: await trieProof(storageTop, hashed, this.store),
      })
    }
    return { account, accountProof, storage }
  }
}

