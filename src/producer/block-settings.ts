/**
 * The settings of the blocks the producer makes next, set by the test controls
 * (`evm_`/`hardhat_`/`anvil_`) and the `miner_` namespace. Each setting has one rule, whichever
 * method sets it; the producer only reads them, and uses up the one-block ones when a block is
 * mined.
 */
import { InvalidInput, Refused } from '../domain-errors.js'

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

/** The values of the settings; undefined = the default (the clock, the proposer's fee recipient …). */
export interface BlockSettingValues extends TimeSettings {
  /** The fee recipient of later blocks (hardhat_setCoinbase, miner_setEtherbase). */
  coinbase: string | undefined
  /** The prevrandao of later blocks (hardhat_setPrevRandao). */
  prevRandao: Uint8Array | undefined
  /** The base fee of the next block only (hardhat_setNextBlockBaseFeePerGas). */
  nextBaseFee: bigint | undefined
  /** The gas limit of later blocks (evm_setBlockGasLimit, anvil_setBlockGasLimit, miner_setGasLimit). */
  gasLimit: bigint | undefined
  /** Seconds between a block and the next, instead of the clock (anvil_setBlockTimestampInterval). */
  timestampInterval: bigint | undefined
  /** The extraData of later blocks (miner_setExtra); none = empty. */
  extraData: Uint8Array | undefined
}

/**
 * What the node's options make the defaults: the fee recipient (createNode's `coinbase`) and the
 * clock offset of a chain whose clock starts at a given date (`initialDate`), read again at each
 * hardhat_reset so the clock restarts there, as Hardhat's does.
 */
export type SettingBase = () => Partial<Pick<BlockSettingValues, 'coinbase' | 'timeOffset'>>

const defaults = (base: ReturnType<SettingBase>): BlockSettingValues => ({
  timeOffset: base.timeOffset ?? 0n,
  nextBlockTimestamp: undefined,
  coinbase: base.coinbase,
  prevRandao: undefined,
  nextBaseFee: undefined,
  gasLimit: undefined,
  timestampInterval: undefined,
  extraData: undefined,
})

export class BlockSettings {
  private values: BlockSettingValues

  constructor(private readonly base: SettingBase = () => ({})) {
    this.values = defaults(base())
  }

  /** The settings now, to read; they change only through the setters below. */
  get current(): Readonly<BlockSettingValues> {
    return this.values
  }

  /** Moves the clock of later blocks by `seconds` (evm_increaseTime; negative from evm_setTime); answers the new offset. */
  addTime(seconds: bigint): bigint {
    this.values.timeOffset += seconds
    return this.values.timeOffset
  }

  /**
   * The next block's exact timestamp, once; it must be after `parentTimestamp`. `hardhat`: refused
   * with Hardhat 2.29's code and words (-32000), otherwise -32602.
   */
  setNextBlockTimestamp(timestamp: bigint, parentTimestamp: bigint, hardhat = false): void {
    if (hardhat && timestamp < parentTimestamp) throw new Refused(`Timestamp ${timestamp} is lower than the previous block's timestamp ${parentTimestamp}`)
    // Hardhat's allowBlocksWithSameTimestamp has no counterpart: a block's time is after its parent's.
    if (hardhat && timestamp === parentTimestamp) throw new Refused(`Timestamp ${timestamp} is equal to the previous block's timestamp`)
    if (timestamp <= parentTimestamp) {
      throw new InvalidInput(`Timestamp ${timestamp} is lower than or equal to previous block's timestamp ${parentTimestamp}`)
    }
    this.values.nextBlockTimestamp = timestamp
  }

  setCoinbase(address: string): void {
    this.values.coinbase = address
  }

  setPrevRandao(value: Uint8Array): void {
    this.values.prevRandao = value
  }

  setNextBaseFee(fee: bigint): void {
    this.values.nextBaseFee = fee
  }

  /** At least {@link MIN_BLOCK_GAS_LIMIT}, whichever method sets it. */
  setGasLimit(limit: bigint): void {
    if (limit < MIN_BLOCK_GAS_LIMIT) throw new InvalidInput(`invalid argument 0: block gas limit must be at least ${MIN_BLOCK_GAS_LIMIT}`)
    this.values.gasLimit = limit
  }

  setTimestampInterval(seconds: bigint): void {
    this.values.timestampInterval = seconds
  }

  /** anvil_removeBlockTimestampInterval: answers whether one was set. */
  removeTimestampInterval(): boolean {
    const had = this.values.timestampInterval !== undefined
    this.values.timestampInterval = undefined
    return had
  }

  /** At most {@link MAX_EXTRA_DATA} bytes, with geth's message. */
  setExtraData(bytes: Uint8Array): void {
    if (bytes.length > MAX_EXTRA_DATA) throw new Refused(`extra exceeds max length. ${bytes.length} > ${MAX_EXTRA_DATA}`)
    this.values.extraData = bytes
  }

  /** The clock settings, for a snapshot. */
  time(): TimeSettings {
    return { timeOffset: this.values.timeOffset, nextBlockTimestamp: this.values.nextBlockTimestamp }
  }

  /** Back to a snapshot's clock settings (evm_revert). */
  restoreTime(time: TimeSettings): void {
    this.values.timeOffset = time.timeOffset
    this.values.nextBlockTimestamp = time.nextBlockTimestamp
  }

  /**
   * A block was mined: the one-block settings are used up, and the clock offset is the one that
   * block's time left (Hardhat's rule: the clock reads the block's time afterwards).
   */
  blockMined(offset: bigint): void {
    this.values.nextBaseFee = undefined
    this.values.nextBlockTimestamp = undefined
    this.values.timeOffset = offset
  }

  /** Every setting back to its default (hardhat_reset). */
  reset(): void {
    this.values = defaults(this.base())
  }
}
