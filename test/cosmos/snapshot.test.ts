/** evm_snapshot / evm_revert take the staking state and the validator set back together. */
import { describe, expect, it } from 'vitest'
import { parseEther, toHex, type Hex } from 'viem'
import { createNode } from '../../src/index.js'

describe('cosmos option and snapshots', () => {
  it('behavior: a delegation reverted leaves the set and the staking state as they were; the chain goes on', async () => {
    const node = await createNode({ validators: 2, cosmos: {} })
    try {
      const [v] = node.validators
      const me = node.accounts[0]!.address as Hex
      const power = async (n: bigint) =>
        ((await node.request({ method: 'finality_getValidators', params: [toHex(n)] })) as Array<{ address: Hex; votingPower: Hex }>).find((x) => x.address === v!.address)!.votingPower
      const id = (await node.request({ method: 'evm_snapshot' })) as Hex
      const at = await node.setDelegation(me, v!.address, parseEther('7'))
      await node.request({ method: 'hardhat_mine', params: ['0x3'] })
      expect(await power(at)).toBe('0x11')
      expect(await node.request({ method: 'evm_revert', params: [id] })).toBe(true)
      expect(await node.request({ method: 'finality_getValidatorHistory' })).toHaveLength(1)
      await node.request({ method: 'hardhat_mine', params: ['0x4'] })
      expect(await power(at)).toBe('0xa')
      expect(await power(at + 1n)).toBe('0xa')
      expect(await node.request({ method: 'finality_getValidatorHistory' })).toHaveLength(1)
    } finally {
      await node.close()
    }
  })
})
