/**
 * The Merkle Patricia state of every committed block. A block's diff is written into the trie
 * once, at the end of the block, giving its `stateRoot`; old roots stay readable for history.
 */
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Account, Address, KECCAK256_RLP, ValueEncoding } from '@ethereumjs/util'
import type { Common } from '@ethereumjs/common'
import { equalBytes, fromHex } from '../hex.js'
import type { NodeStore } from './node-store.js'
import { touchedAddresses, type StateDiff, type StateReader } from './types.js'

const EMPTY = new Uint8Array(0)

function addressOf(key: string): Address {
  return new Address(fromHex(key))
}

export class StateTrie {
  private readonly writer: MerkleStateManager

  constructor(
    private readonly common: Common,
    private readonly store: NodeStore,
  ) {
    this.writer = this.manager(KECCAK256_RLP)
  }

  private manager(root: Uint8Array): MerkleStateManager {
    const trie = new MerklePatriciaTrie({
      db: this.store,
      useKeyHashing: true,
      valueEncoding: ValueEncoding.Bytes,
      common: this.common,
      root,
    })
    return new MerkleStateManager({ trie, common: this.common })
  }

  /**
   * Writes `diff` on top of `parentRoot` and returns the new root. `base` supplies the values of
   * accounts the diff names only through storage or code writes.
   */
  async commit(parentRoot: Uint8Array, diff: StateDiff, base: StateReader): Promise<Uint8Array> {
    const w = this.writer
    const current = await w.getStateRoot()
    if (!equalBytes(current, parentRoot)) await w.setStateRoot(parentRoot)
    for (const key of touchedAddresses(diff)) {
      const address = addressOf(key)
      const own = diff.accounts.get(key)
      if (own === null) {
        await w.deleteAccount(address)
        continue
      }
      const next = own ?? (await base.getAccount(key))
      if (next === undefined) continue
      const previous = await w.getAccount(address)
      const storageRoot = diff.cleared.has(key) ? KECCAK256_RLP : (previous?.storageRoot ?? KECCAK256_RLP)
      await w.putAccount(address, new Account(next.nonce, next.balance, storageRoot, next.codeHash))
      const code = diff.code.get(key)
      if (code !== undefined && code.length > 0) await w.putCode(address, code)
      const slots = diff.storage.get(key)
      if (slots !== undefined) {
        for (const [slot, value] of slots) await w.putStorage(address, fromHex(slot), value.length === 0 ? EMPTY : value)
      }
    }
    return w.getStateRoot()
  }

  /** The storage root an account has in the writer's current root (after `commit`). */
  async storageRootOf(address: string): Promise<Uint8Array> {
    return (await this.writer.getAccount(addressOf(address)))?.storageRoot ?? KECCAK256_RLP
  }

  /** A read-only view of the state at `root`. */
  reader(root: Uint8Array): StateReader & { manager: MerkleStateManager } {
    const m = this.manager(root)
    return {
      manager: m,
      getAccount: (address) => m.getAccount(addressOf(address)),
      getStorage: (address, slot) => m.getStorage(addressOf(address), fromHex(slot)),
      getCode: (address) => m.getCode(addressOf(address)),
    }
  }
}
