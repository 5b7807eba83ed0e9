/** The `cosmos` option is checked at once: a wrong name or value fails and names it. */
import { describe, expect, it } from 'vitest'
import { createNode } from '../../src/index.js'

describe('cosmos option', () => {
  it('error: an unknown field names the nearest one', async () => {
    await expect(createNode({ cosmos: { unbondingBlock: 3 } as never })).rejects.toThrow(/option cosmos.unbondingBlock is unknown; did you mean cosmos.unbondingBlocks\?/)
  })

  it('error: bad values', async () => {
    await expect(createNode({ cosmos: { unbondingBlocks: 0 } })).rejects.toThrow(/option cosmos.unbondingBlocks/)
    await expect(createNode({ cosmos: { bech32Prefix: 'Cosmos!' } })).rejects.toThrow(/option cosmos.bech32Prefix must be a lower-case bech32 prefix/)
    await expect(createNode({ cosmos: 'on' as never })).rejects.toThrow(/option cosmos must be an object/)
  })

  it('error: with a genesis file or a state dump it is refused, and why', async () => {
    await expect(createNode({ cosmos: {}, state: '{}' })).rejects.toThrow(/cosmos and state cannot be given together/)
  })

  it('behavior: chainId given wins over Cosmos EVM\'s 262144', async () => {
    const node = await createNode({ cosmos: {}, chainId: 9001 })
    try {
      expect(await node.request({ method: 'eth_chainId' })).toBe('0x2329')
    } finally {
      await node.close()
    }
  })

  it('default: off, the staking address has no code and no state', async () => {
    const node = await createNode({})
    try {
      expect(await node.request({ method: 'eth_getTransactionCount', params: ['0x0000000000000000000000000000000000000800', 'latest'] })).toBe('0x0')
      expect(await node.request({ method: 'eth_call', params: [{ to: '0x0000000000000000000000000000000000000800', data: '0x' }, 'latest'] })).toBe('0x')
    } finally {
      await node.close()
    }
  })
})
