/**
 * The Merkle Patricia state of every committed block. A block's diff is written into the trie
 * once, at the end of the block, giving its `stateRoot`; old roots stay readable for history
 * and proofs.
 */
import { RLP } from '@ethereumjs/rlp'
import { Account, KECCAK256_NULL, createAccountFromRLP } from '@ethereumjs/util'
import { keccak256 as keccak_256 } from '../crypto/keccak.js'
import { equalBytes, fromHex, keyOf } from '../hex.js'
import { EMPTY_ROOT, persist, refNode, trieEntries, trieGet, trieProof, trieSet, type TrieNode } from './mpt.js'
import type { NodeStore } from './node-store.js'
import { emptyDiff, touchedAddresses, type StateDiff, type StateReader } from './types.js'

const EMPTY = new Uint8Array(0)

/** The key under which contract code is stored, by code hash. */
function codeKey(codeHash: Uint8Array): string {
  return `c${keyOf(codeHash)}`
}

/** A Merkle proof of an account and some of its storage slots (`eth_getProof`). */
export interface StateProof {
  account: Account | undefined
  accountProof: Uint8Array[]
  storage: Array<{ key: Uint8Array; value: Uint8Array; proof: Uint8Array[] }>
}

export class StateTrie {
  /** The root node of the newest commit, kept in memory so the next block starts from it. */
  private headRoot: TrieNode | null = null
  private headHash: Uint8Array = EMPTY_ROOT
  /** Storage trie roots of the newest commit, by address, with their hash. */
  private readonly storageHeads = new Map<string, { hash: Uint8Array; node: TrieNode | null }>()
  private readonly put = (key: string, value: Uint8Array) => void this.store.put(key, value)

  /**
   * @param preimages also store each hashed key's preimage (address or slot) under `p<hash>`, so
   * a stored chain can be reopened: its flat state is rebuilt by walking the trie.
   */
  constructor(
    private readonly store: NodeStore,
    private readonly preimages = false,
  ) {}

  private preimage(key: Uint8Array, hashed: Uint8Array): void {
    if (this.preimages) void this.store.put(`p${keyOf(hashed)}`, key)
  }

  private rootFor(hash: Uint8Array): TrieNode | null {
    return equalBytes(hash, this.headHash) ? this.headRoot : refNode(hash)
  }

  private async accountAt(root: TrieNode | null, address: Uint8Array): Promise<Account | undefined> {
    const bytes = await trieGet(root, keccak_256(address), this.store)
    return bytes === undefined ? undefined : createAccountFromRLP(bytes)
  }

  /**
   * Writes `diff` on top of `parentRoot` and returns the new root, which later commits start
   * from. `base` supplies the values of accounts the diff names only through storage or code.
   */
  async commit(parentRoot: Uint8Array, diff: StateDiff, base: StateReader): Promise<Uint8Array> {
    const { hash, root, storageRoots } = await this.write(parentRoot, diff, base)
    this.headRoot = root
    this.headHash = hash
    for (const [key, value] of storageRoots) this.storageHeads.set(key, value)
    this.lastStorageRoots = new Map([...storageRoots].map(([k, v]) => [k, v.hash]))
    return hash
  }

  /**
   * The root `diff` on top of `parentRoot` would have, leaving the head as it is (simulated
   * blocks). Its nodes are stored, so the state under that root can be read and proven.
   */
  async computeRoot(parentRoot: Uint8Array, diff: StateDiff, base: StateReader): Promise<Uint8Array> {
    return (await this.write(parentRoot, diff, base)).hash
  }

  private async write(parentRoot: Uint8Array, diff: StateDiff, base: StateReader) {
    let root = this.rootFor(parentRoot)
    const storageRoots = new Map<string, { hash: Uint8Array; node: TrieNode | null }>()
    for (const key of touchedAddresses(diff)) {
      const address = fromHex(key)
      const hashedAddress = keccak_256(address)
      this.preimage(address, hashedAddress)
      const own = diff.accounts.get(key)
      if (own === null) {
        root = await trieSet(root, hashedAddress, EMPTY, this.store)
        continue
      }
      const next = own ?? (await base.getAccount(key))
      if (next === undefined) continue
      const previous = await this.accountAt(root, address)
      let storageHash = previous?.storageRoot ?? EMPTY_ROOT
      const slots = diff.storage.get(key)
      if (diff.cleared.has(key) || (slots !== undefined && slots.size > 0)) {
        const cached = this.storageHeads.get(key)
        let storage = diff.cleared.has(key)
          ? null
          : cached !== undefined && equalBytes(cached.hash, storageHash)
            ? cached.node
            : refNode(storageHash)
        for (const [slot, value] of slots ?? []) {
          const slotKey = fromHex(slot)
          const hashedSlot = keccak_256(slotKey)
          this.preimage(slotKey, hashedSlot)
          storage = await trieSet(storage, hashedSlot, value.length === 0 ? EMPTY : RLP.encode(value), this.store)
        }
        storageHash = persist(storage, this.put)
        storageRoots.set(key, { hash: storageHash, node: storage })
      }
      const code = diff.code.get(key)
      if (code !== undefined && code.length > 0) void this.store.put(codeKey(next.codeHash), code)
      const account = new Account(next.nonce, next.balance, storageHash, next.codeHash)
      root = await trieSet(root, hashedAddress, account.serialize(), this.store)
    }
    const hash = persist(root, this.put)
    return { hash, root, storageRoots }
  }

  /** Makes `root` the state later commits start from without a lookup (evm_revert). */
  resetHead(root: Uint8Array): void {
    this.headRoot = refNode(root)
    this.headHash = root
  }

  /** The storage roots the last `commit` produced, by address. */
  lastStorageRoots = new Map<string, Uint8Array>()

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
      const key = await this.store.get(`p${keyOf(hashed)}`)
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

