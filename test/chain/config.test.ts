import { describe, expect, test } from 'vitest'
import { createNode } from '../../src/index.js'

type ForkConfig = { activationTime: number; chainId: string; forkId: string; precompiles: Record<string, string>; systemContracts: Record<string, string>; blobSchedule?: { target: number; max: number } }

describe('eth_config and eth_capabilities', () => {
  test('behavior: a one-fork node reports its fork: Prague precompiles and system contracts, fork id over the genesis hash', async () => {
    const node = await createNode()
    const config = (await node.request({ method: 'eth_config' })) as { current: ForkConfig; next: null; last: null }
    expect(config.next).toBeNull()
    expect(config.last).toBeNull()
    expect(config.current).toMatchObject({ activationTime: 0, chainId: '0x7a69', blobSchedule: { target: 6, max: 9 } })
    expect(config.current.precompiles.BLS12_PAIRING_CHECK).toBe('0x000000000000000000000000000000000000000f')
    expect(config.current.precompiles.P256VERIFY).toBeUndefined()
    expect(Object.keys(config.current.systemContracts).sort()).toEqual([
      'BEACON_ROOTS_ADDRESS',
      'CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS',
      'DEPOSIT_CONTRACT_ADDRESS',
      'HISTORY_STORAGE_ADDRESS',
      'WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS',
    ])
    expect(config.current.forkId).toMatch(/^0x[0-9a-f]{8}$/)
    const cancun = await createNode({ hardfork: 'cancun' })
    const c = (await cancun.request({ method: 'eth_config' })) as { current: ForkConfig }
    expect(c.current.precompiles.BLS12_G1ADD).toBeUndefined()
    expect(Object.keys(c.current.systemContracts)).toEqual(['BEACON_ROOTS_ADDRESS'])
    // Another genesis block (other system contracts in its state) gives another fork id.
    expect(c.current.forkId).not.toBe(config.current.forkId)
    await cancun.close()
    const caps = (await node.request({ method: 'eth_capabilities' })) as { head: { number: string }; state: { oldestBlock: string } }
    expect(caps.head.number).toBe('0x0')
    expect(caps.state).toEqual({ disabled: false, oldestBlock: '0x0' })
    await node.close()
  })
})
