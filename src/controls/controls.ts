/**
 * The test-chain controls Hardhat, Anvil and Ganache users expect: snapshots, time, mining,
 * direct state writes and impersonation. Each is a typed method here; the evm_, hardhat_ and
 * anvil_ method tables call these.
 */
import type { Block } from '@ethereumjs/block'
import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import type { Chain } from '../chain/chain.js'
import type { Producer } from '../producer/producer.js'
import type { TimeSettings } from '../producer/block-settings.js'
import { InvalidInput, Refused } from '../domain-errors.js'
import { data, keyOf, type Hex } from '../hex.js'
import type { PoolEntry, TxPool } from '../txpool/pool.js'
import { emptyDiff } from '../state/types.js'
import { fromHex } from '../hex.js'
import type { StateDump } from './state-dump.js'
import { putAccount, withoutLeadingZeros } from '../chain/genesis.js'
import type { Impersonation } from './impersonation.js'
import type { LogSwitch } from '../log/log-switch.js'
import { importBlocks } from '../chain/import.js'
import { MiningControls } from './mining.js'

interface Snapshot {
  /**
   * The head block when the snapshot was taken (anvil_metadata lists it); a revert makes it the
   * head again without reading it back (the chain's cache of decoded blocks may have dropped it).
   */
  head: Block
  id: bigint
  depth: number
  pool: PoolEntry[]
  /** The clock settings of block production. */
  time: TimeSettings
  /** How many validator-set changes had been requested. */
  setChanges: number
}

/** Options of the controls. */
export interface ControlsOptions {
  /**
   * Keep a snapshot after reverting to it, so it can be reverted to again (Ganache's and
   * Hardhat's evm_revert delete it; tests that revert to one fixture many times want this).
   */
  reusableSnapshots: boolean
  /**
   * Hardhat mode (`hardhatCompat`): a hardhat_mine of {@link HARDHAT_RESERVED_FROM} blocks or more
   * gives the blocks from its third to the one before its last the second's base fee, as Hardhat
   * Network does (it builds the first and the last block and reserves those between, which repeat
   * the base fee the reservation started with; the last block's follows from that); a next
   * timestamp not after the head is refused with Hardhat's code and words; a reset goes back to the
   * configured mining mode and counts snapshot ids from 0x1 again, as Hardhat's new provider does.
   */
  hardhatCompat: boolean
  /** Why a reset to a fork of a remote is refused (the `cosmos` option: its state starts at a genesis of its own); undefined: allowed. */
  noFork?: string | undefined
}

/**
 * The smallest hardhat_mine count Hardhat Network (EDR 0.3.8) reserves instead of building block by
 * block: measured against Hardhat 2.29.1 (7 blocks are all built, 8 are one built and 7 reserved).
 */
export const HARDHAT_RESERVED_FROM = 8n

/** What a reset with `forking` asks for: a remote (the current fork's when absent) and a block (its head when absent). */
export interface ForkRequest {
  url?: string | undefined
  blockNumber?: bigint | undefined
}

export class Controls {
  private snapshots: Snapshot[] = []
  private nextId = 1n
  /** The producer's mode, the next blocks' settings and the pool's floor and drops. */
  readonly mining: MiningControls
  /** How many times hardhat_reset / anvil_reset ran. */
  private resets = 0n

  constructor(
    private readonly chain: Chain,
    private readonly pool: TxPool,
    private readonly producer: Producer,
    /** Addresses whose transactions the node accepts without a signature. */
    private readonly impersonation: Impersonation,
    /** The node's output switch (`*_setLoggingEnabled`). */
    private readonly output: LogSwitch,
    /** Starts the chain again from a remote's block (hardhat_reset / anvil_reset with `forking`). */
    private readonly fork: { reset(request: ForkRequest): Promise<void> },
    private readonly options: ControlsOptions,
  ) {
    this.mining = new MiningControls(producer, pool)
  }

  /** Whether the node's log output (Solidity console.log, the request log) is delivered. */
  get logging(): boolean {
    return this.output.on
  }

  /** `*_setLoggingEnabled`. */
  setLogging(on: boolean): void {
    this.output.on = on
  }

  /** anvil_autoImpersonateAccount: every sender is accepted without a signature while on. */
  setAutoImpersonate(on: boolean): void {
    this.impersonation.auto = on
  }

  /** anvil_setChainId: later transactions are signed and checked with `chainId`, and CHAINID reads it. */
  setChainId(chainId: bigint): void {
    this.chain.setChainId(chainId)
  }

  /** admin_importChain: executes and appends the exported blocks of `bytes`; answers how many. */
  importChain(bytes: Uint8Array): Promise<number> {
    return this.producer.exclusive(() => importBlocks(this.chain, bytes))
  }

  /**
   * hardhat_metadata's and anvil_metadata's `instanceId`: keccak256 of the genesis hash and the
   * number of resets. Hardhat's changes with every run and every hardhat_reset, and OpenZeppelin's
   * upgrades plugins key their development-network manifests by it, so a reset must change it.
   */
  instanceId(): Uint8Array {
    const resets = new Uint8Array(8)
    new DataView(resets.buffer).setBigUint64(0, this.resets)
    return keccak256(new Uint8Array([...(this.chain.genesisHash), ...resets]))
  }

  /** The live snapshots: id → the head block they were taken at (anvil_metadata's shape). */
  snapshotIds(): Record<string, [number, Hex]> {
    return Object.fromEntries(this.snapshots.map((s) => [s.id.toString(10), [Number(s.head.header.number), data(s.head.hash())]]))
  }

  /** evm_snapshot: remembers the chain, pool and time; returns the snapshot id. */
  snapshot(): bigint {
    const id = this.nextId++
    this.snapshots.push({
      id,
      depth: this.chain.undoDepth,
      pool: this.pool.all(),
      time: this.producer.settings.time(),
      setChanges: this.producer.setChanges(),
      head: this.chain.head,
    })
    this.chain.recordUndo(true)
    return id
  }

  /** evm_revert: back to the snapshot; it and later ones are gone (unless reusable). */
  async revert(id: bigint): Promise<boolean> {
    const index = this.snapshots.findIndex((s) => s.id === id)
    if (index < 0) return false
    const snap = this.snapshots[index] as Snapshot
    await this.producer.exclusive(async () => {
      await this.chain.rewind(snap.depth, snap.head)
      this.producer.rewound(snap.setChanges)
      this.pool.replaceAll(snap.pool)
      this.producer.settings.restoreTime(snap.time)
    })
    // Cut in place: a suite keeps hundreds of snapshots alive, and a copy of the list per revert
    // (grown again by the next snapshot's push) was most of what a snapshot-revert pair allocated.
    this.snapshots.length = this.options.reusableSnapshots ? index + 1 : index
    if (this.snapshots.length === 0) this.chain.recordUndo(false)
    return true
  }

  /**
   * hardhat_reset / anvil_reset: back to genesis (a fork's fork block), with an empty pool and
   * default settings; with `fork`, to a fork of that remote and block instead.
   */
  async reset(fork?: ForkRequest): Promise<void> {
    if (fork?.url !== undefined && this.options.noFork !== undefined) throw new Refused(this.options.noFork)
    await this.producer.exclusive(async () => {
      if (fork !== undefined) await this.fork.reset(fork)
      else await this.chain.resetToGenesis()
      this.producer.rewound(0)
      this.pool.replaceAll([])
      this.producer.settings.reset()
      this.pool.setMinTip(0n)
    })
    this.snapshots = []
    this.impersonation.addresses.clear()
    this.impersonation.auto = false
    if (this.options.hardhatCompat) {
      // Hardhat 2 answers a reset with a new provider from its config: the mining mode is the
      // configured one again and snapshot ids count from 0x1 (measured against Hardhat 2.29.1).
      this.producer.setMode(this.producer.configuredMode)
      this.nextId = 1n
    }
    this.resets++
  }

  private async write(address: Uint8Array, change: (a: Account) => void, code?: Uint8Array): Promise<void> {
    const key = keyOf(address)
    await this.producer.exclusive(async () => {
      const account = (await this.chain.headState().getAccount(key)) ?? new Account()
      change(account)
      const diff = emptyDiff()
      if (code !== undefined) {
        account.codeHash = code.length === 0 ? KECCAK256_NULL : keccak256(code)
        diff.code.set(key, code)
      }
      diff.accounts.set(key, account)
      await this.chain.modify(diff)
      this.pool.settle(key, account.nonce)
    })
  }

  setBalance(address: Uint8Array, balance: bigint): Promise<void> {
    return this.write(address, (a) => (a.balance = balance))
  }

  async addBalance(address: Uint8Array, amount: bigint): Promise<void> {
    return this.write(address, (a) => (a.balance += amount))
  }

  /**
   * Sets an account's nonce. `noLower` refuses a nonce below the account's, as Hardhat's
   * hardhat_setNonce does (Anvil's and Ganache's setters take any).
   */
  setNonce(address: Uint8Array, nonce: bigint, noLower = false): Promise<void> {
    return this.write(address, (a) => {
      if (noLower && nonce < a.nonce) throw new Refused(`New nonce (${nonce}) must not be smaller than the existing nonce (${a.nonce})`)
      a.nonce = nonce
    })
  }

  setCode(address: Uint8Array, code: Uint8Array): Promise<void> {
    return this.write(address, () => {}, code)
  }

  async setStorageAt(address: Uint8Array, slot: bigint, value: Uint8Array): Promise<void> {
    if (value.length !== 32) throw new InvalidInput('invalid argument 2: storage value must be 32 bytes')
    const key = keyOf(address)
    await this.producer.exclusive(async () => {
      const diff = emptyDiff()
      diff.accounts.set(key, (await this.chain.headState().getAccount(key)) ?? new Account())
      diff.storage.set(key, new Map([[slot.toString(16).padStart(64, '0'), withoutLeadingZeros(value)]]))
      await this.chain.modify(diff)
    })
  }

  /**
   * hardhat_mine / anvil_mine / evm_mine / `node.mineBlocks`: mines `count` blocks (at most
   * 1,000,000 at once), `interval` seconds apart after the first, the first at `first` when
   * given. Without an interval the producer times each block (a block timestamp interval, or the
   * clock). Answers the blocks with `keep` (evm_mine_detailed), else none.
   */
  async mine(count: bigint, options: { interval?: bigint | undefined; first?: bigint | undefined; keep?: boolean; hardhat?: boolean } = {}): Promise<Block[]> {
    if (count > 1_000_000n) throw new InvalidInput('invalid argument 0: at most 1,000,000 blocks at once')
    const { interval, first, keep = false } = options
    const step = interval === undefined ? undefined : interval > 0n ? interval : 1n
    const reserve = options.hardhat === true && this.options.hardhatCompat && count >= HARDHAT_RESERVED_FROM
    let made = 0
    let reservedBaseFee: bigint | undefined
    const { mined, blocks } = await this.producer.mineSeries(
      count,
      (previous) => {
        made++
        if (previous === undefined) return first === undefined ? {} : { timestamp: first }
        // Hardhat builds the first and the last block and reserves those between: the third to the
        // one before the last repeat the second's base fee, and the last follows from its parent.
        if (reserve && made === 3) reservedBaseFee = previous.header.baseFeePerGas
        const fee = reservedBaseFee === undefined || BigInt(made) === count ? {} : { baseFeePerGas: reservedBaseFee }
        return step === undefined ? fee : { ...fee, timestamp: previous.header.timestamp + step }
      },
      keep,
    )
    // A server-side refusal (the chain's state), not a bad parameter; the reason names the faults.
    if (mined < count) throw new Refused(`the chain is halted: ${this.producer.haltReason ?? 'not enough validators online'}${mined > 0n ? ` (${mined} of ${count} blocks mined)` : ''}`)
    return blocks
  }

  /**
   * The seconds between blocks of one `*_mine` call. Hardhat's default is 1. Anvil adds the
   * interval to the clock before each block (0, what viem sends by default, adds nothing), so its
   * blocks follow `anvil_setBlockTimestampInterval` when one is set; so do evm_mine_detailed's.
   */
  mineInterval(family: 'hardhat' | 'anvil', interval: bigint | undefined): bigint | undefined {
    if (family === 'anvil' && (interval === undefined || interval === 0n)) return this.producer.settings.current.timestampInterval === undefined ? 1n : undefined
    return interval ?? 1n
  }

  /** evm_increaseTime: moves the clock of later blocks forward; returns the total offset. */
  increaseTime(seconds: bigint): bigint {
    return this.producer.settings.addTime(seconds)
  }

  /**
   * evm_setNextBlockTimestamp: the next block's exact time. The offset moves when that block is
   * mined (Hardhat's rule), so later blocks and evm_increaseTime continue from its time.
   */
  setNextBlockTimestamp(timestamp: bigint): void {
    this.producer.settings.setNextBlockTimestamp(timestamp, this.chain.head.header.timestamp, this.options.hardhatCompat)
  }

  /** evm_setTime / anvil_setTime: the clock of later blocks reads `seconds` now. */
  setTime(seconds: bigint): bigint {
    return this.producer.settings.addTime(seconds - this.producer.now())
  }

  /** anvil_loadState: each account of the dump replaces the node's account (storage included). */
  async loadState(dump: StateDump): Promise<void> {
    await this.producer.exclusive(async () => {
      const diff = emptyDiff()
      for (const [address, a] of Object.entries(dump.accounts)) {
        putAccount(diff, address, { nonce: BigInt(a.nonce), balance: BigInt(a.balance), code: a.code === undefined ? undefined : fromHex(a.code), storage: a.storage ?? {} }, true)
      }
      await this.chain.modify(diff)
      for (const address of Object.keys(dump.accounts)) {
        const key = address.slice(2)
        this.pool.settle(key, this.chain.nonce(key))
      }
    })
  }

  impersonate(address: Uint8Array): void {
    this.impersonation.addresses.add(keyOf(address))
  }

  stopImpersonating(address: Uint8Array): boolean {
    return this.impersonation.addresses.delete(keyOf(address))
  }

  isImpersonated(address: string): boolean {
    return this.impersonation.has(address)
  }
}
