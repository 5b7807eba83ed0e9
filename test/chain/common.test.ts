/**
 * The node's shared Common (src/chain/common.ts) answers what @ethereumjs/common answers: the
 * same active EIPs, looked up in a table instead of searched, for every hardfork the node runs.
 */
import { Common, Mainnet } from '@ethereumjs/common'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_HARDFORKS, createChainCommon } from '../../src/chain/common.js'
import { createNode } from '../../src/index.js'

describe('the shared Common', () => {
  it.each(SUPPORTED_HARDFORKS)('behavior: %s has the same active EIPs as @ethereumjs/common, for every EIP number', (hardfork) => {
    const ours = createChainCommon(1n, hardfork)
    const reference = new Common({ chain: Mainnet, hardfork })
    const active: number[] = []
    for (let eip = 0; eip < 20_000; eip++) {
      expect(ours.isActivatedEIP(eip)).toBe(reference.isActivatedEIP(eip))
      if (ours.isActivatedEIP(eip)) active.push(eip)
    }
    expect(active.length).toBeGreaterThan(10)
    expect(ours.isActivatedEIP(-1)).toBe(false)
  })

  it('behavior: an Osaka node\'s first request may be a call capped by EIP-7825 (its parameter is there from the start)', async () => {
    const node = await createNode({ hardfork: 'osaka' })
    try {
      const from = node.accounts[0]!.address
      expect(await node.request({ method: 'eth_estimateGas', params: [{ from, to: from, value: '0x1' }] })).toBe('0x5208')
    } finally {
      await node.close()
    }
  })
})
