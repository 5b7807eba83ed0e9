/**
 * Which hardfork a block runs under. A node made from options runs one hardfork from genesis on;
 * a node made from a geth genesis file with a fork schedule gets one fixed Common per hardfork,
 * picked by block number and timestamp (decoding stored blocks, importing a chain).
 */
import type { ChainConfig, Common } from '@ethereumjs/common'
import { createChainCommon } from './common.js'

export class Forks {
  private readonly byName = new Map<string, Common>()

  /**
   * @param head the Common new blocks are built with (the newest fork of the schedule)
   * @param schedule a Common that knows the whole schedule (from the genesis file); none = one fork
   */
  constructor(
    readonly head: Common,
    private readonly schedule?: { common: Common; chainId: bigint; config: ChainConfig },
  ) {
    this.byName.set(head.hardfork(), head)
  }

  /** True when every block runs under the same hardfork. */
  get single(): boolean {
    return this.schedule === undefined
  }

  /** The Common of the hardfork active at this block. */
  at(number: bigint, timestamp: bigint): Common {
    if (this.schedule === undefined) return this.head
    const name = this.schedule.common.getHardforkBy({ blockNumber: number, timestamp })
    let common = this.byName.get(name)
    if (common === undefined) {
      common = createChainCommon(this.schedule.chainId, name, this.schedule.config)
      this.byName.set(name, common)
    }
    return common
  }
}
