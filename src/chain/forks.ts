/**
 * Which hardfork a block runs under. A node made from options runs one hardfork from genesis on;
 * a node made from a geth genesis file with a fork schedule gets one fixed Common per hardfork,
 * picked by block number and timestamp (decoding stored blocks, importing a chain).
 */
import type { ChainConfig, Common } from '@ethereumjs/common'
import { type CodeSizeLimit, createChainCommon } from './common.js'

export class Forks {
  private readonly byName = new Map<string, Common>()

  /**
   * @param head the Common new blocks are built with (the newest fork of the schedule)
   * @param schedule a Common that knows the whole schedule (from the genesis file); none = one fork.
   *   Its `codeSizeLimit` is the node's, given to each fork's Common as it is made.
   */
  constructor(
    readonly head: Common,
    private readonly schedule?: { common: Common; chainId: bigint; config: ChainConfig; codeSizeLimit?: CodeSizeLimit },
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
    return this.named(this.schedule.common.getHardforkBy({ blockNumber: number, timestamp }))
  }

  /** The Common of a hardfork by name (of the schedule, or the node's one fork). */
  named(name: string): Common {
    let common = this.byName.get(name)
    if (common === undefined) {
      if (this.schedule === undefined) throw new Error(`hardfork ${name} is not this chain's`)
      common = createChainCommon(this.schedule.chainId, name, this.schedule.config, this.schedule.codeSizeLimit)
      this.byName.set(name, common)
    }
    return common
  }

  /** The time-based forks of the schedule, in order, with their activation times. */
  timed(): Array<{ name: string; timestamp: bigint }> {
    if (this.schedule === undefined) return []
    return this.schedule.common
      .hardforks()
      .filter((h) => h.timestamp !== undefined && h.timestamp !== null)
      .map((h) => ({ name: h.name, timestamp: BigInt(h.timestamp as number | string) }))
  }

  /**
   * The forks this chain runs, oldest first, each with its activation block or time. A chain
   * made from options runs every fork up to its own from genesis.
   */
  activations(): Array<{ name: string; block?: bigint; timestamp?: bigint }> {
    const set = (v: unknown): v is number | string | bigint => v !== undefined && v !== null
    if (this.schedule === undefined) {
      const all = this.head.hardforks()
      const upTo = all.findIndex((h) => h.name === this.head.hardfork())
      // `dao` is mainnet's irregular state change at one block, which these chains never made.
      return all
        .slice(0, upTo + 1)
        .filter((h) => h.name !== 'dao')
        .map((h) => (set(h.timestamp) ? { name: h.name, timestamp: 0n } : { name: h.name, block: 0n }))
    }
    return this.schedule.common.hardforks().flatMap((h): Array<{ name: string; block?: bigint; timestamp?: bigint }> => {
      if (set(h.timestamp)) return [{ name: h.name, timestamp: BigInt(h.timestamp) }]
      if (set(h.block)) return [{ name: h.name, block: BigInt(h.block) }]
      return []
    })
  }

  /** EIP-2124's fork id of `name`: CRC32 over the genesis hash and every fork activation before it. */
  forkId(name: string, genesisHash: Uint8Array): string {
    if (this.schedule !== undefined) return this.schedule.common.forkHash(name, genesisHash)
    return `0x${crc32(genesisHash).toString(16).padStart(8, '0')}`
  }
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** IEEE CRC-32, as EIP-2124 uses it. */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
