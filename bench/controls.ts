/** Benchmarks of the test-chain controls: snapshot + revert cycles and empty blocks mined. */
import { createNode } from './finality.js'
import { fail, now, rpc } from './util.js'

export interface ControlsResult {
  snapshotCycles: number
  snapshotPerSec: number
  /** Cycles of snapshot, one transfer mined, revert: what wrapping each test costs. */
  wrappedCycles: number
  wrappedPerSec: number
  emptyBlocks: number
  emptyBlocksPerSec: number
}

export async function benchControls(cycles: number, blocks: number): Promise<ControlsResult> {
  const node = await createNode()
  try {
    const [a, b] = node.accounts
    let t = now()
    for (let i = 0; i < cycles; i++) {
      const id = await rpc(node, 'evm_snapshot')
      if ((await rpc(node, 'evm_revert', [id])) !== true) fail('evm_revert did not return true')
    }
    const snapshotMs = now() - t

    t = now()
    for (let i = 0; i < cycles; i++) {
      const id = await rpc(node, 'evm_snapshot')
      await rpc(node, 'eth_sendTransaction', [{ from: a!.address, to: b!.address, value: '0x1', gas: '0x5208' }])
      await rpc(node, 'evm_revert', [id])
    }
    const wrappedMs = now() - t
    if ((await rpc(node, 'eth_blockNumber')) !== '0x0') fail('revert did not return to genesis')

    t = now()
    await rpc(node, 'hardhat_mine', [`0x${blocks.toString(16)}`])
    const mineMs = now() - t
    if (BigInt(await rpc<string>(node, 'eth_blockNumber')) !== BigInt(blocks)) fail('hardhat_mine mined the wrong count')
    return {
      snapshotCycles: cycles,
      snapshotPerSec: (cycles / snapshotMs) * 1000,
      wrappedCycles: cycles,
      wrappedPerSec: (cycles / wrappedMs) * 1000,
      emptyBlocks: blocks,
      emptyBlocksPerSec: (blocks / mineMs) * 1000,
    }
  } finally {
    await node.close()
  }
}
