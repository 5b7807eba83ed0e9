/**
 * How blocks are made, as the test controls and the miner_ namespace change it: the producer's
 * mode, the settings of the next blocks, and the pool's price floor and drops. Method handlers see
 * the producer and the pool read-only (src/services.ts); this is their one way to change them, so
 * each setting has one writer and each rule (a gas limit's floor, extra data's length, the
 * waiting senders of a dropped transaction) is kept whichever method asks.
 */
import type { Producer, MiningMode } from '../producer/producer.js'
import { Refused } from '../domain-errors.js'
import type { TxPool } from '../txpool/pool.js'

export class MiningControls {
  constructor(
    private readonly producer: Producer,
    private readonly pool: TxPool,
  ) {}

  /** Automine, interval or manual mining (evm_setAutomine, evm_setIntervalMining, anvil_setAutomine…). */
  setMode(mode: MiningMode): void {
    this.producer.setMode(mode)
  }

  /** miner_stop: no more blocks on their own until miner_start. */
  stop(): void {
    this.producer.stop()
  }

  /** miner_start: back to the mode miner_stop left; resolves once the blocks it makes at once are committed. */
  start(): Promise<void> {
    return this.producer.start()
  }

  /** The coinbase of later blocks (miner_setEtherbase, hardhat_setCoinbase, anvil_setCoinbase). */
  setCoinbase(address: string): void {
    this.producer.settings.setCoinbase(address)
  }

  /** The block gas limit of later blocks, at least the floor every setter shares. */
  setGasLimit(limit: bigint): void {
    this.producer.settings.setGasLimit(limit)
  }

  /** The extra data of later blocks (miner_setExtra), at most geth's length. */
  setExtraData(bytes: Uint8Array): void {
    this.producer.settings.setExtraData(bytes)
  }

  /** The prevRandao of the next block. */
  setPrevRandao(value: Uint8Array): void {
    this.producer.settings.setPrevRandao(value)
  }

  /** The base fee of the next block. */
  setNextBaseFee(fee: bigint): void {
    this.producer.settings.setNextBaseFee(fee)
  }

  /** Seconds between the timestamps of later blocks (anvil_setBlockTimestampInterval). */
  setTimestampInterval(seconds: bigint): void {
    this.producer.settings.setTimestampInterval(seconds)
  }

  /** anvil_removeBlockTimestampInterval: answers whether one was set. */
  removeTimestampInterval(): boolean {
    return this.producer.settings.removeTimestampInterval()
  }

  /**
   * geth's txpool price limit (miner_setGasPrice): new transactions must tip at least `tip`, and
   * pooled ones below a raised limit are dropped; their waiting senders get the refusal.
   */
  setMinTip(tip: bigint): Promise<void> {
    return this.producer.exclusive(async () => {
      const dropped = this.pool.setMinTip(tip)
      const reason = new Refused(`transaction gas price below minimum: minimum needed ${tip}`)
      for (const e of dropped) this.pool.inclusions.settle(e.hash, reason)
    })
  }

  /** Drops one pooled transaction by its hash (unprefixed lower-case hex); answers whether it was there. */
  dropTransaction(hash: string): boolean {
    return this.pool.remove(hash) !== undefined
  }

  /** anvil_dropAllTransactions: empties the pool. */
  dropAllTransactions(): void {
    this.pool.replaceAll([])
  }

  /** anvil_removePoolTransactions: drops every pooled transaction of `sender` (unprefixed lower-case hex). */
  dropTransactionsOf(sender: string): void {
    this.pool.removeSender(sender)
  }
}
