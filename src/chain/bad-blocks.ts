/**
 * The blocks this node refused (debug_getBadBlocks, debug_traceBadBlock, and
 * debug_intermediateRoots, which looks here for a hash the chain does not know). A BFT node never
 * refuses a block it decided; what it can refuse is an imported block (`node.importBlocks`) that
 * failed execution or validation. Kept as geth keeps them (`rawdb.WriteBadBlock`): at most
 * {@link BAD_BLOCKS_KEPT}, highest number first, a block already listed not listed twice. In
 * memory only: a reopened database starts with none.
 */
import type { Block } from '@ethereumjs/block'
import { equalBytes } from '../hex.js'

/** How many bad blocks are kept: geth's `badBlockToKeep`. */
export const BAD_BLOCKS_KEPT = 10

export class BadBlocks {
  private list: Block[] = []

  /** Records a refused block; past {@link BAD_BLOCKS_KEPT} the lowest-numbered ones are dropped. */
  add(block: Block): void {
    const hash = block.hash()
    if (this.list.some((b) => b.header.number === block.header.number && equalBytes(b.hash(), hash))) return
    this.list = [...this.list, block].sort((a, b) => (a.header.number === b.header.number ? 0 : a.header.number > b.header.number ? -1 : 1))
    this.list.length = Math.min(this.list.length, BAD_BLOCKS_KEPT)
  }

  /** The kept blocks, highest number first. */
  all(): readonly Block[] {
    return this.list
  }

  /** A kept block by hash. */
  get(hash: Uint8Array): Block | undefined {
    return this.list.find((b) => equalBytes(b.hash(), hash))
  }
}
