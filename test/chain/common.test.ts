/**
 * The node's shared Common (src/chain/common.ts) answers what @ethereumjs/common answers: the
 * same active EIPs, looked up in a table instead of searched, for every hardfork the node runs.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { describe, expect, it } from 'vitest'
import { SUPPORTED_HARDFORKS, createChainCommon } from '../../src/chain/common.js'
import { parseGethGenesis } from '../../src/chain/geth-genesis.js'
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

  it.each(SUPPORTED_HARDFORKS)('behavior: a node\'s own %s chain has no block-number activation but genesis, and no DAO fork', (hardfork) => {
    const common = createChainCommon(31337n, hardfork)
    expect(common.hardforkBlock(Hardfork.Dao)).toBe(null)
    expect(common.hardforkIsActiveOnBlock(Hardfork.Dao, 1_920_000n)).toBe(false)
    expect(common.hardforkBlock(Hardfork.London)).toBe(0n)
    expect(common.hardforkBlock(Hardfork.Homestead)).toBe(0n)
    for (const h of common.hardforks()) expect([undefined, null, 0, '0']).toContain(h.block ?? h.timestamp)
    // Whatever the number and time, a block of this chain is of its hardfork.
    for (const [blockNumber, timestamp] of [[0n, 0n], [1_920_000n, 1n], [12_965_000n, 1_700_000_000n], [1n << 40n, 1n << 40n]] as const) {
      expect(common.getHardforkBy({ blockNumber, timestamp })).toBe(hardfork)
    }
    expect(common.chainId()).toBe(31337n)
  })

  it('behavior: mainnet\'s own schedule (a fork\'s remote blocks) keeps its block numbers', () => {
    const common = createChainCommon(1n, Hardfork.London, Mainnet)
    expect(common.hardforkBlock(Hardfork.Dao)).toBe(1_920_000n)
    expect(common.hardforkBlock(Hardfork.London)).toBe(12_965_000n)
  })

  it('behavior: a geth genesis file\'s daoForkBlock and londonBlock are its own', () => {
    const forks = ['homestead', 'eip150', 'eip155', 'eip158', 'byzantium', 'constantinople', 'petersburg', 'istanbul', 'berlin']
    const config: Record<string, unknown> = { chainId: 777, daoForkBlock: 3, daoForkSupport: true, londonBlock: 5 }
    for (const f of forks) config[`${f}Block`] = 0
    const spec = parseGethGenesis({ config, nonce: '0x0', timestamp: '0x0', extraData: '0x', gasLimit: '0x1c9c380', difficulty: '0x1', alloc: {} })
    expect(spec.schedule.hardforkBlock(Hardfork.Dao)).toBe(3n)
    expect(spec.schedule.hardforkBlock(Hardfork.London)).toBe(5n)
    expect(spec.common.hardforkBlock(Hardfork.Dao)).toBe(3n)
    expect(spec.common.hardforkBlock(Hardfork.London)).toBe(5n)
    // A file that names neither has neither.
    const plain = parseGethGenesis({ config: { ...config, daoForkBlock: undefined, londonBlock: 0 }, nonce: '0x0', timestamp: '0x0', extraData: '0x', gasLimit: '0x1c9c380', difficulty: '0x0', alloc: {} })
    expect(plain.common.hardforkBlock(Hardfork.Dao)).toBe(null)
    expect(plain.common.hardforkBlock(Hardfork.London)).toBe(0n)
  })
})
