/**
 * `safe` and `finalized` are `latest` at all times: after blocks, with transactions waiting in the
 * pool, and after evm_revert rewinds the chain (a test control, outside consensus).
 */
import { describe, expect, test } from 'vitest'
import { trackNodes } from '../helpers/nodes.js'

const newNode = trackNodes()
type Node = Awaited<ReturnType<typeof newNode>>
type Head = { number: string; hash: string }

const rpc = (node: Node, method: string, ...params: unknown[]) => node.request({ method, params })
const at = async (node: Node, tag: string) => (await rpc(node, 'eth_getBlockByNumber', tag, false)) as Head
async function expectFinalIsLatest(node: Node): Promise<Head> {
  const latest = await at(node, 'latest')
  for (const tag of ['safe', 'finalized']) expect(await at(node, tag)).toEqual(latest)
  expect(await rpc(node, 'finality_getCommitCertificate', 'finalized')).toEqual(await rpc(node, 'finality_getCommitCertificate', 'latest'))
  return latest
}

describe('safe and finalized', () => {
  test('behavior: equal latest after blocks and with transactions pending', async () => {
    const node = await newNode({ mining: { mode: 'manual' } })
    await rpc(node, 'evm_mine')
    await expectFinalIsLatest(node)
    await rpc(node, 'eth_sendTransaction', { from: node.accounts[0]!.address, to: node.accounts[1]!.address, value: '0x1' })
    const latest = await expectFinalIsLatest(node)
    expect((await at(node, 'pending')).number).toBe(`0x${(BigInt(latest.number) + 1n).toString(16)}`)
  })

  test('behavior: follow latest back after evm_revert, and forward again; a reverted hash is gone', async () => {
    const node = await newNode()
    await rpc(node, 'evm_mine')
    const id = await rpc(node, 'evm_snapshot')
    const before = await expectFinalIsLatest(node)
    await rpc(node, 'hardhat_mine', '0x3')
    const reverted = await expectFinalIsLatest(node)
    expect(await rpc(node, 'evm_revert', id)).toBe(true)
    expect(await expectFinalIsLatest(node)).toEqual(before)
    expect(await rpc(node, 'eth_getBlockByHash', reverted.hash, false)).toBeNull()
    await rpc(node, 'evm_mine')
    const next = await expectFinalIsLatest(node)
    expect(next.number).toBe(`0x${(BigInt(before.number) + 1n).toString(16)}`)
  })
})
