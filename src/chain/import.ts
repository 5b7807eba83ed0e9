/**
 * Importing an exported chain (concatenated RLP blocks): each block is executed on the head
 * state under its own hardfork and must reproduce its header's state root, receipts root, logs
 * bloom and gas used (@ethereumjs/vm's `runBlock` checks them); a block that does not is refused
 * and nothing of it is kept but an entry in the chain's bad blocks (debug_getBadBlocks).
 * Imported blocks come from before this chain's BFT history and carry no commit certificate;
 * their seals are not checked.
 */
import type { Block } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import { type VM, runBlock } from '@ethereumjs/vm'
import { bindState, createEngineVM } from '../execution/engine/vm.js'
import { Refused } from '../domain-errors.js'
import { equalBytes, keyOf } from '../hex.js'
import { JournaledState } from '../state/journaled-state.js'
import { chainBlockhashes } from '../execution/blockhashes.js'
import type { Chain, PreparedState } from './chain.js'
import { decodeBlockValues } from './decode.js'
import type { RawLog, StoredReceipt } from './receipts.js'

type Values = Uint8Array | Values[]

/** Imports every block of `bytes` in order; returns how many were imported. */
export async function importBlocks(chain: Chain, bytes: Uint8Array): Promise<number> {
  const vms = new Map<string, VM>()
  const vmFor = async (common: Common): Promise<VM> => {
    let vm = vms.get(common.hardfork())
    if (vm === undefined) {
      vm = await createEngineVM({ common, stateManager: new JournaledState(chain.headState()), blockchain: chainBlockhashes(chain) })
      vms.set(common.hardfork(), vm)
    }
    return vm
  }
  let rest = bytes
  let imported = 0
  while (rest.length > 0) {
    let values: Values[]
    try {
      const decoded = RLP.decode(rest, true) as unknown as { data: Values[]; remainder: Uint8Array }
      values = decoded.data
      rest = decoded.remainder
    } catch (error) {
      throw new Refused(`import: block ${imported + 1} is not valid RLP: ${(error as Error).message}`)
    }
    const header = Array.isArray(values) ? values[0] : undefined
    if (!Array.isArray(header) || header.length < 15 || header.slice(0, 15).some((f) => Array.isArray(f))) {
      throw new Refused(`import: block ${imported + 1} is not a block: expected a list whose first item is a header of at least 15 byte strings`)
    }
    const number = BigInt(`0x${keyOf(header[8] as Uint8Array) || '0'}`)
    const timestamp = BigInt(`0x${keyOf(header[11] as Uint8Array) || '0'}`)
    if (number <= chain.height) {
      // Already part of the chain (a re-import): it must be the block we have.
      const ours = chain.hashAt(number)
      const block = decodeBlockValues(values, chain.forks.at(number, timestamp))
      if (ours === undefined || !equalBytes(ours, block.hash())) throw new Refused(`import: block ${number} differs from the chain's`)
      continue
    }
    const block = decodeBlockValues(values, chain.forks.at(number, timestamp))
    await importOne(chain, block, await vmFor(block.common))
    imported++
  }
  return imported
}

async function importOne(chain: Chain, block: Block, vm: VM): Promise<void> {
  const parent = chain.head
  if (!equalBytes(block.header.parentHash, parent.hash()) || block.header.number !== parent.header.number + 1n) {
    throw new Refused(`import: block ${block.header.number} does not extend the head (block ${parent.header.number})`)
  }
  const view = chain.headView()
  const parentRoot = chain.stateRoot
  let prepared: PreparedState | undefined
  const state = new JournaledState(view, async (diff) => (prepared = await chain.prepareState(diff, view, parentRoot)).root)
  bindState(vm, state)
  try {
    let result
    try {
      result = await runBlock(vm, { block, skipBlockValidation: true, skipHardForkValidation: true, setHardfork: false })
    } catch (error) {
      // Kept for debug_getBadBlocks / debug_traceBadBlock, as geth reports a block that fails to process.
      chain.badBlocks.add(block)
      throw new Refused(`import: block ${block.header.number} is invalid: ${(error as Error).message.split(' (')[0]}`)
    }
    const receipts = result.receipts.map((r, i): StoredReceipt => {
      const run = result.results[i]!
      const tx = block.transactions[i]!
      const status = (r as { status?: 0 | 1 }).status ?? (run.execResult.exceptionError === undefined ? 1 : 0)
      const stored: StoredReceipt = {
        status,
        cumulativeGasUsed: r.cumulativeBlockGasUsed,
        gasUsed: run.totalGasSpent,
        logs: r.logs as RawLog[],
        bloom: r.bitvector,
        from: tx.getSenderAddress().bytes,
      }
      if (run.createdAddress !== undefined) stored.contractAddress = run.createdAddress.bytes
      if (run.blobGasUsed !== undefined && run.blobGasUsed > 0n) stored.blobGasUsed = run.blobGasUsed
      const root = (r as { stateRoot?: Uint8Array }).stateRoot
      if (root !== undefined) stored.root = root
      return stored
    })
    const diff = state.diff()
    if (prepared === undefined) prepared = await chain.prepareState(diff, view, parentRoot)
    view.close()
    await chain.commit(block, receipts, diff, undefined, prepared)
    chain.announce(block, receipts)
  } finally {
    view.close()
  }
}
