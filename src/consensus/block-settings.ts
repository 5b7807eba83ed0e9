/**
 * The settings of the blocks the producer makes next, set by the test controls
 * (`evm_`/`hardhat_`/`anvil_`) and the `miner_` namespace. Each setting has one rule, whichever
 * method sets it; the producer only reads them, and uses up the one-block ones when a block is
 * mined.
 */
import { InvalidParamsError, ServerError } from '../errors.js'

/**
 * The lowest block gas limit a setter takes: a block must hold at least one transfer. Hardhat
 * (EDR) refuses 0 (`Block gas limit must be greater than 0`); Anvil takes any value, including
 * limits no transaction fits under; geth's miner_setGasLimit takes any value too. One rule for
 * evm_setBlockGasLimit, anvil_setBlockGasLimit and miner_setGasLimit: at least 21000.
 */
export const MIN_BLOCK_GAS_LIMIT = 21_000n

/** params.MaximumExtraDataSize: geth refuses a longer miner_setExtra. */
export const MAX_EXTRA_DATA = 32

/** The clock settings a snapshot remembers and evm_revert restores. */
export interface TimeSettings {
  timeOffset: bigint
  nextBlockTimestamp: bigint | undefined
}

export class BlockSettings {
  /** Seconds added to the clock for block timestamps (evm_increaseTime, evm_setTime). */
  private offset = 0n
  private nextTimestamp: bigint | undefined
  private fixedCoinbase: string | undefined
  private randao: Uint8Array | undefined
  private baseFee: bigint | undefined
  private gasLimitOverride: bigint | undefined
  private interval: bigint | undefined
  private extra: Uint8Array | undefined

  /** Seconds added to the clock for block timestamps. */
  get timeOffset(): bigint {
    return this.offset
  }

  /** Moves the clock of later blocks by `seconds` (evm_increaseTime; negative from evm_setTime); answers the new offset. */
  addTime(seconds: bigint): bigint {
    this.offset += seconds
    return this.offset
  }

  /** The exact timestamp of the next block, once (evm_setNextBlockTimestamp). */
  get nextBlockTimestamp(): bigint | undefined {
    return this.nextTimestamp
  }

  /** Sets the next block's timestamp; it must be after `parentTimestamp` (Hardhat's message). */
  setNextBlockTimestamp(timestamp: bigint, parentTimestamp: bigint): void {
    if (timestamp <= parentTimestamp) {
      throw new InvalidParamsError(`Timestamp ${timestamp} is lower than or equal to previous block's timestamp ${parentTimestamp}`)
    }
    this.nextTimestamp = timestamp
  }

  /** The fee recipient of later blocks (hardhat_setCoinbase, miner_setEtherbase); none = the proposer's. */
  get coinbase(): string | undefined {
    return this.fixedCoinbase
  }

  setCoinbase(address: string): void {
    this.fixedCoinbase = address
  }

  /** The prevrandao of later blocks (hardhat_setPrevRandao). */
  get prevRandao(): Uint8Array | undefined {
    return this.randao
  }

  setPrevRandao(value: Uint8Array): void {
    this.randao = value
  }

  /** The base fee of the next block only (hardhat_setNextBlockBaseFeePerGas). */
  get nextBaseFee(): bigint | undefined {
    return this.baseFee
  }

  setNextBaseFee(fee: bigint): void {
    this.baseFee = fee
  }

  /** The gas limit of later blocks, if one was set. */
  get gasLimit(): bigint | undefined {
    return this.gasLimitOverride
  }

  /** evm_setBlockGasLimit, anvil_setBlockGasLimit, miner_setGasLimit: at least {@link MIN_BLOCK_GAS_LIMIT}. */
  setGasLimit(limit: bigint): void {
    if (limit < MIN_BLOCK_GAS_LIMIT) throw new InvalidParamsError(`invalid argument 0: block gas limit must be at least ${MIN_BLOCK_GAS_LIMIT}`)
    this.gasLimitOverride = limit
  }

  /** Seconds between a block and the next, instead of the clock (anvil_setBlockTimestampInterval). */
  get timestampInterval(): bigint | undefined {
    return this.interval
  }

  setTimestampInterval(seconds: bigint): void {
    this.interval = seconds
  }

  /** anvil_removeBlockTimestampInterval: answers whether one was set. */
  removeTimestampInterval(): boolean {
    const had = this.interval !== undefined
    this.interval = undefined
    return had
  }

  /** The extraData of later blocks (miner_setExtra); none = empty. */
  get extraData(): Uint8Array | undefined {
    return this.extra
  }

  /** At most {@link MAX_EXTRA_DATA} bytes, with geth's message. */
  setExtraData(bytes: Uint8Array): void {
    if (bytes.length > MAX_EXTRA_DATA) throw new ServerError(`extra exceeds max length. ${bytes.length} > ${MAX_EXTRA_DATA}`)
    this.extra = bytes
  }

  /** The clock settings, for a snapshot. */
  time(): TimeSettings {
    return { timeOffset: this.offset, nextBlockTimestamp: this.nextTimestamp }
  }

  /** Back to a snapshot's clock settings (evm_revert). */
  restoreTime(time: TimeSettings): void {
    this.offset = time.timeOffset
    this.nextTimestamp = time.nextBlockTimestamp
  }

  /**
   * A block was mined: the one-block settings are used up, and the clock offset is the one that
   * block's time left (Hardhat's rule: the clock reads the block's time afterwards).
   */
  blockMined(offset: bigint): void {
    this.baseFee = undefined
    this.nextTimestamp = undefined
    this.offset = offset
  }

  /** Every setting back to its default (hardhat_reset). */
  reset(): void {
    this.offset = 0n
    this.nextTimestamp = undefined
    this.fixedCoinbase = undefined
    this.randao = undefined
    this.baseFee = undefined
    this.gasLimitOverride = undefined
    this.interval = undefined
    this.extra = undefined
  }
}
